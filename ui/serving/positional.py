"""What the positional-encoding lab (and the positions lesson) reads, cached by plain values;
every model runs on the CPU (`DEVICE`), through the gate:

- the scheme tables: `vector_table`, `table_figure`, `similarity`, `trained_rows`,
  `relative_table` (lab/positional.py);
- the toy checkpoints trained once per scheme: `scheme_checkpoints`, `model_of`,
  `probe_attention`, `permutation`, `shift`, `extrapolation` (lab/checkpoints.py);
- the knobbed model (`knobbed`, lab/pe_knobs.py): `Knobs` is a frozen dataclass, so the
  cached functions take it as it is (Streamlit hashes it by value); `STOCK` is the trained setting;
- the query–key geometry: `model_entries`, `text_of`, `geometry` (lab/qk_geometry.py) and
  the sets of checkpoints trained alike but for their positions (`scheme_sets`);
- "train short, test long": the shipped pe64 language models (`lm_set`), their held-out
  text (`heldout`), the length curve (`curve`) and the distance profile (`profile`) under
  the knobs (lab/length_curve.py).
"""
from __future__ import annotations

import numpy as np
import streamlit as st

import lab.checkpoints
import lab.length_curve
import lab.pe_knobs
import lab.positional
import lab.qk_geometry
import lab.rope_cost
import viz_core.positional
from models.config import POSITIONALS
from models.training import tasks
from models.training.tasks import get_task
from models.transformer import Transformer
from models.weights import zoo

from .gate import encode, load_model, run, run_held
from .run_key import RunKey
from .trained import entry

DEVICE = "cpu"                             # the lab's models are small; they run and are read on CPU
FACTORS = (1.0, 1.5, 2.0, 4.0, 8.0)        # 1x..4x as in the ALiBi paper, 8x to reach the learned table's end


# ---- the positional knobs ------------------------------------------------------------------------
STOCK = lab.pe_knobs.Knobs()       # the trained setting: every model's own positional config, T = 1


def knobbed(key: str, knobs: lab.pe_knobs.Knobs, original_len: int | None = None) -> Transformer:
    """A shipped checkpoint with the knobs applied (sharing the trained tensors)."""
    model, _ = load_model(key, DEVICE)
    return lab.pe_knobs.apply(model, knobs, original_len)


# ---- the scheme tables ---------------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def trained_rows(key: str) -> int | None:
    """Positions a shipped toy checkpoint saw in training (its task's longest training
    example), or None when unknown (pretrained tables saw every row)."""
    found = entry(key)
    if found is None or found.kind != "toy" or found.task is None:
        return None
    task = get_task(found.task)
    return lab.checkpoints.positions_used(task, int(found.card.get("train_len") or task.train_len))


@st.cache_data(max_entries=8, show_spinner=False)
def relative_table(key: str, stack: str) -> lab.positional.RelativeTable:
    """A model's T5 bias table of one stack (lab.positional.relative_table)."""
    model, _ = load_model(key, DEVICE)
    return lab.positional.relative_table(model, stack)


@st.cache_data(max_entries=16, show_spinner=False)
def vector_table(scheme: str, n: int, d: int, base: float, key: str = "") -> lab.positional.VectorTable:
    """lab.positional.vector_table; a learned table is the model `key`'s own."""
    model = load_model(key, DEVICE)[0] if scheme == "learned" else None
    return lab.positional.vector_table(scheme, n, d, base, model)


@st.cache_data(max_entries=32, show_spinner=False)
def table_figure(scheme: str, n: int, d: int, base: float, key: str, title: str, lang_words: tuple):
    vt = vector_table(scheme, n, d, base, key)
    return viz_core.positional.pe_table(vt.table, wavelengths=vt.wavelengths,
                       table_end=vt.rows if vt.rows is not None and vt.rows < n else None,
                       title=title, terms=dict(lang_words))


@st.cache_data(max_entries=32, show_spinner=False)
def similarity(scheme: str, n: int, d: int, base: float, key: str, kind: str) -> np.ndarray:
    return lab.positional.similarity(vector_table(scheme, n, d, base, key).table, kind)


# ---- the toy checkpoints trained once per scheme -------------------------------------------------
@st.cache_data(ttl=60, show_spinner=False)
def scheme_checkpoints() -> dict[str, dict[str, dict]]:
    """{task: {scheme: card}} for tasks with a checkpoint per scheme (at least two)."""
    out: dict[str, dict[str, dict]] = {}
    for card in tasks.shipped():
        task, pe = card.get("task"), card.get("positional")
        if card.get("key") == f"toy:{task}-{pe}" and pe in POSITIONALS:
            out.setdefault(task, {})[pe] = card
    return {task: {s: cards[s] for s in POSITIONALS if s in cards} for task, cards in out.items() if len(cards) >= 2}


def model_of(key: str):
    """A checkpoint's model on the lab's device (cached by the gate)."""
    model, _ = load_model(key, DEVICE)
    return model


@st.cache_data(max_entries=64, show_spinner=False)
def probe_attention(key: str, task_name: str, length: int, knobs: lab.pe_knobs.Knobs = STOCK
                    ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(patterns [L, H, q, k], mask [q, k], tokens) of the task's probe at this length,
    with the positional knobs applied."""
    task = get_task(task_name)
    model = knobbed(key, knobs, task.train_len)
    ex = task.probe(length)
    pattern, mask = run_held(model, lambda m: lab.checkpoints.attention_maps(m, ex.ids), len(ex.ids))
    return pattern, mask, list(ex.tokens)


@st.cache_data(max_entries=64, show_spinner=False)
def permutation(key: str, task_name: str, seed: int) -> lab.checkpoints.PermutationResult:
    model = model_of(key)
    ex = get_task(task_name).probe()
    perm = lab.positional.shuffle(len(ex.ids), seed, keep=(0, len(ex.ids) - 1))      # <bos> and the last token stay
    return run_held(model, lambda m: lab.checkpoints.permutation_test(m, ex.ids, perm), len(ex.ids))


@st.cache_data(max_entries=64, show_spinner=False)
def shift(key: str, task_name: str, k: int, filler: str) -> lab.checkpoints.ShiftResult:
    model = model_of(key)
    task = get_task(task_name)
    ex = task.probe()
    filler_id = task.tokenizer.encode(filler).ids[-1]
    return run_held(model, lambda m: lab.checkpoints.shift_test(m, ex.ids, k, filler_id), len(ex.ids) + k)


@st.cache_data(max_entries=32, show_spinner=False)
def extrapolation(key: str, task_name: str, n: int, tokens: bool, knobs: lab.pe_knobs.Knobs = STOCK) -> list[dict]:
    """Accuracy per length factor; the per-token accuracy (a second pass over the same
    examples) only when asked for. Cached per knob setting."""
    task = get_task(task_name)
    model = knobbed(key, knobs, task.train_len)
    return run_held(model, lambda m: lab.checkpoints.extrapolation(task, m, FACTORS, n=n, tokens=tokens),
                    int(task.train_len * max(FACTORS)))


# ---- the query–key geometry ----------------------------------------------------------------------
MAX_TOKENS = 96                # tokens of a text projected (the picture stays readable)
# extra probe texts for the text models (the toy tasks draw theirs from the task, seeded)
PROBE_TEXTS = ("床前明月光，疑是地上霜。", "The cat sat on the mat, and the dog sat on the rug.",
               "白日依山尽，黄河入海流。", "Attention compares every query with every key.",
               "春眠不觉晓，处处闻啼鸟。", "One two three four five six seven eight nine ten.",
               "举头望明月，低头思故乡。", "A head that looks back one token is a previous-token head.")


@st.cache_data(ttl=60, show_spinner=False)
def model_entries() -> list[zoo.Entry]:
    order = {"toy": 0, "lm": 1, "pretrained": 2}
    entries = [e for e in zoo.catalogue() if e.available and not e.is_random and e.config is not None
               and e.config.arch != "encoder-decoder" and e.kind in order]
    entries.sort(key=lambda e: order[e.kind])
    return entries


@st.cache_data(max_entries=32, show_spinner=False)
def text_of(key: str, text: str, probes: int) -> tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]:
    """((ids, tokens) of the main text, then of `probes` probe texts) for a model: a toy
    task's example and seeded task probes, else `text` and PROBE_TEXTS, encoded by the
    model's tokenizer, at most MAX_TOKENS tokens each."""
    found = entry(key)
    if found is not None and found.task:
        task = get_task(found.task)
        exs = [task.probe()] + [task.probe(seed=8 + i) for i in range(probes)]
        return tuple((tuple(ex.ids[:MAX_TOKENS]), tuple(ex.tokens[:MAX_TOKENS])) for ex in exs)
    model, tok = load_model(key, DEVICE)
    out = []
    for s in (text, *PROBE_TEXTS[:probes]):
        enc = encode(tok, model, s)
        out.append((tuple(enc.ids[:MAX_TOKENS]), tuple(enc.tokens[:MAX_TOKENS])))
    return tuple(out)


@st.cache_data(max_entries=64, show_spinner=False)
def geometry(key: str, texts: tuple[tuple[int, ...], ...], layer: int, head: int, normalised: bool,
             top_k: int) -> lab.qk_geometry.Geometry:
    """lab.qk_geometry.qk_geometry of a catalogue model (texts[0] the main one)."""
    model, _ = load_model(key, DEVICE)
    return run_held(model, lambda m: lab.qk_geometry.qk_geometry(m, texts[0], layer, head, probes=texts[1:],
                                                   normalised=normalised, top_k=top_k),
                    sum(len(x) for x in texts))


@st.cache_data(ttl=60, show_spinner=False)
def scheme_sets() -> dict[str, dict[str, str]]:
    """{set name: {scheme: catalogue key}} of checkpoints trained alike except their
    positions: one set per toy task (`<task>-<scheme>`), and "pe64" (the character LMs
    `toy:pe64-<scheme>`) when those are in the catalogue."""
    out = {task: {s: card["key"] for s, card in cards.items()} for task, cards in scheme_checkpoints().items()}
    pe64 = {s: card["key"] for s, card in lm_set().items()}      # in POSITIONALS order
    if len(pe64) >= 2:
        out["pe64"] = pe64
    return out


# ---- train short, test long (the pe64 language models) -------------------------------------------
LENGTH_FACTORS = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
LENGTH_BUDGET = 6_144   # predicted characters per point (the report, docs/pe_lm.md, uses twice as many)


@st.cache_data(ttl=60, show_spinner=False)
def lm_set() -> dict[str, dict]:
    """{scheme: card (with its key)} of the shipped positional language models, in the
    order of models.config.POSITIONALS; empty when they are not shipped."""
    found = {}
    for e in zoo.catalogue():
        card = e.card or {}
        if e.available and card.get("family") == "pe-lm" and card.get("positional") in POSITIONALS:
            found[card["positional"]] = {"key": e.key, **card}
    return {s: found[s] for s in POSITIONALS if s in found}


@st.cache_data(max_entries=8, show_spinner=False)
def heldout(key: str, lang: str) -> list[int]:
    """The held-out verse of one language, in the set's (shared) character vocabulary."""
    _, tok = load_model(key, DEVICE)
    return lab.length_curve.heldout_ids(tok, lang)


@st.cache_data(max_entries=128, show_spinner=False)
def curve(key: str, lang: str, knobs: lab.pe_knobs.Knobs, n_train: int) -> list[tuple[float, int, float | None]]:
    """Bits per character at each length factor for one model under the knobs (cached per
    model, language and knob setting)."""
    model = knobbed(key, knobs, n_train)
    ids = heldout(key, lang)
    return run_held(model, lambda m: lab.length_curve.curve(m, ids, n_train, LENGTH_FACTORS, budget=LENGTH_BUDGET),
                    int(n_train * max(LENGTH_FACTORS)))


@st.cache_data(max_entries=64, show_spinner=False)
def profile(key: str, lang: str, knobs: lab.pe_knobs.Knobs, n_train: int, factor: float) -> tuple[np.ndarray,
                                                                                                  np.ndarray]:
    """(distances, mean weight over layers and heads) at factor × the training length."""
    model = knobbed(key, knobs, n_train)
    length = int(n_train * factor)
    ids = heldout(key, lang)
    d, w = run_held(model, lambda m: lab.length_curve.distance_profile(m, ids, length, n_windows=4), length)
    return d, w.mean(axis=(0, 1))


# ---- RoPE's cost (ui/views/positional_rope_cost.py) -----------------------------------------------
def position_cost(key: RunKey, repeats: int) -> tuple[lab.rope_cost.Cost, str]:
    """lab.rope_cost.measure at the sidebar's model's shape and text length, with that model's
    own forward pass on the text, in the gate (measured on every call: a timing, not cached).
    Returns the cost and the model's own positional scheme."""
    model, tok = load_model(key.model_key, key.device)
    ids = encode(tok, model, key.text).ids[:128]
    tgt = encode(tok, model, key.target or key.text).ids[:128] if model.cfg.arch == "encoder-decoder" else None

    def attempt(m: Transformer, _n: int) -> lab.rope_cost.Cost:
        shape = lab.rope_cost.Shape.of(m.cfg, len(ids))
        device = str(next(m.parameters()).device)
        return lab.rope_cost.measure(shape, repeats, forward=lambda: m(ids, tgt), device=device)
    return run(key.model_key, key.device, attempt, len(ids)), model.cfg.positional

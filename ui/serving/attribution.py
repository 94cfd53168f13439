"""What the attribution page reads, each through the run gate and cached:

- `attribution_data`: one recorded pass over the text (the kinds `lab.attribution`
  reads), shared read-only by every session (`st.cache_resource`: a Trace is not copied
  on each rerun); direct logit attribution and head writes are computed from it;
- `detector_scores`: head-detector scores on a repeated random sequence (one pass) or on
  the text's own attention maps;
- `patching_sweep`: an activation-patching sweep per pair of texts, kept process-wide
  (a small LRU, not `st.cache_data`: the sweep reports progress to the page as it runs,
  and a cached function would replay those progress updates).
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import streamlit as st

from lab import attribution, detectors, patching
from lab.memory import working_bytes
from models.tokenizer import Encoding
from models.trace import Stack, as_numpy, record_names
from models.training.tasks import get_task

from .cache import attention_data
from .gate import Recorded, RunInfo, encode, load_model, record, run, run_held, trace_budget_bytes, unk_fraction
from .trained import task_of
from .run_key import RunKey


# ---- one recorded pass: direct logit attribution and head writes --------------------------------
@dataclass
class AttributionData:
    """The recorded pass the attribution views read (`recorded` is shared: read only)."""

    tokens: list[str]                 # tokens of the output stack (the decoder's of an encoder-decoder)
    truncated: bool
    n_tokens_before: int
    unk_fraction: float
    recorded: Recorded
    run: RunInfo | None = None


def attribution_data(key: RunKey, budget: int | None = None) -> AttributionData:
    """One recorded pass (cached per text and memory budget; None = the server's budget)."""
    return _attribution_data(key, trace_budget_bytes() if budget is None else budget)


@st.cache_resource(max_entries=4, show_spinner=False)
def _attribution_data(key: RunKey, budget: int) -> AttributionData:
    model, _ = load_model(key.model_key, key.device)
    rec = record(key, attribution.record_kinds(model), budget)
    enc = rec.source
    n_before = enc.n_tokens_before_truncation if enc.truncated else len(enc)
    seq = rec.target if rec.target is not None else rec.source
    return AttributionData(list(seq.tokens), enc.truncated, n_before, unk_fraction(rec.tokenizer, enc.ids), rec,
                           rec.info)


@st.cache_data(max_entries=64, show_spinner=False)
def top_predictions(key: RunKey, position: int, k: int = 5) -> list[tuple[int, float]]:
    """The model's k most probable next tokens at `position`: (id, probability)."""
    rec = attribution_data(key).recorded
    logits = attribution.output_logits(rec.model, rec.trace, position).astype(np.float64)
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    top = np.argsort(-probs, kind="stable")[:k]
    return [(int(i), float(probs[i])) for i in top]


@st.cache_data(max_entries=64, show_spinner=False)
def logit_attribution(key: RunKey, position: int, token: int,
                      other: int | None) -> attribution.Attribution:
    rec = attribution_data(key).recorded
    return attribution.direct_logit_attribution(rec.model, rec.trace, position, token, other)


@st.cache_data(max_entries=64, show_spinner=False)
def head_write(key: RunKey, layer: int, head: int, position: int,
               cross: bool) -> attribution.HeadWrite:
    rec = attribution_data(key).recorded
    return attribution.head_write(rec.model, rec.trace, layer, head, position, cross=cross)


# ---- head detectors ------------------------------------------------------------------------------------
@dataclass
class DetectorData:
    """Detector scores of every self-attention stack on one sequence."""

    tokens: list[str]
    text: str | None                  # the sequence as text (the repeated sequence), to open it elsewhere
    scores: dict[str, detectors.DetectorScores]   # stack -> scores
    half: int | None                  # tokens per copy (the repeated sequence)


def detector_half(key: str, device: str) -> int:
    """The default length of each copy: a toy model's training length, else 20."""
    model, tok = load_model(key, device)
    task = task_of(key)
    if task:
        return detectors.for_task(get_task(task), model.cfg.max_len).half
    return 20


@st.cache_data(max_entries=16, show_spinner=False)
def detector_scores(key: str, device: str, half: int, seed: int, offsets: tuple[int, ...]) -> DetectorData:
    """Scores on `half` random tokens repeated twice (the toy task's symbols for a toy model)."""
    model, tok = load_model(key, device)
    task = task_of(key)
    symbols = get_task(task).symbols if task else None
    seq = detectors.repeated_sequence(tok, half, seed, symbols, model.cfg.max_len)
    stacks = [s for s in Stack.attention_maps(model.cfg.arch) if s is not Stack.CROSS]

    def attempt(m, n):
        kw = {"tgt_ids": seq.ids} if m.cfg.arch == "encoder-decoder" else {}
        _, trace = m.run_with_cache(seq.ids, names=record_names(m.cfg, ["pattern", "mask"], stacks), **kw)
        return {s.value: (as_numpy(trace.patterns(stack=s)), as_numpy(trace.mask(s))) for s in stacks}

    maps = run(key, device, attempt, len(seq.ids))
    body = seq.ids[seq.start:seq.start + 2 * seq.half]
    return DetectorData(seq.tokens, tok.decode(body),
                        {s: detectors.detect(p, seq.ids, np.broadcast_to(m, p.shape[-2:]), offsets)
                         for s, (p, m) in maps.items()},
                        seq.half)


@st.cache_data(max_entries=16, show_spinner=False)
def detector_scores_on_text(key: RunKey, offsets: tuple[int, ...]) -> DetectorData:
    """Scores on the text's own attention maps (equal tokens are what duplicate and induction seek)."""
    data = attention_data(key)
    scores = {s: detectors.detect(p, data.tokens_of(s)[0], data.masks[s], offsets) for s, p in data.patterns.items()
              if s != Stack.CROSS.value}
    return DetectorData(list(data.tokens), None, scores, None)


# ---- activation patching ----------------------------------------------------------------------------
@dataclass
class PatchPair:
    """Text A and text B as the model reads them, with each one's top next tokens."""

    a: Encoding
    b: Encoding
    top_a: np.ndarray | None          # [pos, k] token ids, most probable first (None: no LM head)
    top_b: np.ndarray | None


@st.cache_data(max_entries=16, show_spinner=False)
def patch_pair(key: str, device: str, text_a: str, text_b: str, k: int = 5) -> PatchPair:
    model, tok = load_model(key, device)
    a, b = encode(tok, model, text_a), encode(tok, model, text_b)
    if model.cfg.output != "logits" or len(a.ids) != len(b.ids) or model.cfg.arch == "encoder-decoder":
        return PatchPair(a, b, None, None)

    def attempt(m, n):
        import torch

        with torch.inference_mode():
            out = m(torch.tensor([a.ids, b.ids], device=m.device))
        return out.topk(k, dim=-1).indices.cpu().numpy()

    top = run(key, device, attempt, 2 * len(a.ids))
    return PatchPair(a, b, top[0], top[1])


MAX_BATCH = 64                        # patched runs per batched pass, at most
_SWEEPS: "OrderedDict[tuple, tuple[patching.Sweep, float]]" = OrderedDict()
_SWEEPS_LOCK = threading.Lock()
SWEEPS_KEPT = 16


def cached_sweep(key: str, device: str, text_a: str, text_b: str, site: str, metric: patching.Metric
                 ) -> tuple[patching.Sweep, float] | None:
    """A sweep already computed for this pair, with the seconds it took (else None)."""
    with _SWEEPS_LOCK:
        found = _SWEEPS.get((key, device, text_a, text_b, site, metric))
        if found is not None:
            _SWEEPS.move_to_end((key, device, text_a, text_b, site, metric))
        return found


def patching_sweep(key: str, device: str, text_a: str, text_b: str, site: str, metric: patching.Metric,
                   progress: patching.Progress | None = None) -> tuple[patching.Sweep, float]:
    """Patch `site` from A into B everywhere (lab.patching.sweep), every batched pass
    through the run gate; the batch fits the memory budget. Kept per pair (16 sweeps,
    process-wide). Returns (sweep, seconds it took)."""
    found = cached_sweep(key, device, text_a, text_b, site, metric)
    if found is not None:
        return found
    model, tok = load_model(key, device)
    a, b = encode(tok, model, text_a), encode(tok, model, text_b)
    patching.check_pair(model, a.ids, b.ids)
    batch = max(1, min(MAX_BATCH, trace_budget_bytes() // max(1, working_bytes(model.cfg, len(a.ids)))))
    t0 = time.perf_counter()
    result = patching.sweep(model, a.ids, b.ids, site, metric, batch=batch, progress=progress,
                            gate=lambda m, fn, n: run_held(m, fn, n))
    found = (result, time.perf_counter() - t0)
    with _SWEEPS_LOCK:
        _SWEEPS[(key, device, text_a, text_b, site, metric)] = found
        while len(_SWEEPS) > SWEEPS_KEPT:
            _SWEEPS.popitem(last=False)
    return found

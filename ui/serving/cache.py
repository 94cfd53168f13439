"""What the pages read, cached per (model, text): one recorded pass through the gate,
reduced to numpy by `Trace` accessors and `lab` functions.

Models are cached by the gate (`st.cache_resource`). The passes a class reads (attention,
head metrics, rollout, internals, the model map) are kept in one store bounded by bytes and
shared by every session (`shared_results.shared_result`: never changed after they are built);
the rest with `st.cache_data(max_entries=...)`, keyed by plain values and the memory budget.
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from lab import attention, ffn, model_map, residual
from models.trace import Stack, as_numpy, record_names

from .gate import MAX_CHARS, Recorded, RunInfo, load_model, record, trace_budget_bytes, unk_fraction
from .run_key import RunKey
from .shared_results import shared_result


def _n_before(rec: Recorded, text: str) -> tuple[int, bool]:
    """(tokens the text has before any cut, whether it was cut)."""
    enc = rec.source
    n = enc.n_tokens_before_truncation if enc.truncated else len(enc)
    if len(text) > MAX_CHARS:
        n = max(n, len(rec.tokenizer.encode(text)))
    return n, enc.truncated or len(text) > MAX_CHARS


# ---- attention ---------------------------------------------------------------------------------
@dataclass
class AttentionData:
    """What the attention views need for one (model, text), as numpy."""

    tokens: list[str]                       # source / only sequence
    tgt_tokens: list[str] | None            # decoder sequence (encoder-decoder)
    n_tokens_before: int                    # length before truncation
    truncated: bool
    unk_fraction: float
    patterns: dict[str, np.ndarray] = field(default_factory=dict)   # stack -> [L, H, q, k] float32
    masks: dict[str, np.ndarray] = field(default_factory=dict)      # stack -> [q, k] bool (batch 0)
    run: RunInfo | None = None              # memory: budget cut, out-of-memory fallback, trace bytes

    def tokens_of(self, stack: str) -> tuple[list[str], list[str]]:
        """(query tokens, key tokens) of one attention map."""
        if stack in ("self", "encoder"):
            return self.tokens, self.tokens
        if stack == "decoder":
            return self.tgt_tokens, self.tgt_tokens
        return self.tgt_tokens, self.tokens


def attention_data(key: RunKey, budget: int | None = None) -> AttentionData:
    """Run the model once, recording only the attention patterns and masks (cached per
    text and memory budget; None = the server's budget)."""
    return _attention_data(key, trace_budget_bytes() if budget is None else budget)


@shared_result("attention_data")
def _attention_data(key: RunKey, budget: int) -> AttentionData:
    model, _ = load_model(key.model_key, key.device)
    rec = record(key, record_names(model.cfg, ["pattern", "mask"]), budget)
    n_before, truncated = _n_before(rec, key.text)
    data = AttentionData(rec.source.tokens, rec.target.tokens if rec.target else None, n_before, truncated,
                         unk_fraction(rec.tokenizer, rec.source.ids), run=rec.info)
    for stack in Stack.attention_maps(rec.model.cfg.arch):
        data.patterns[stack.value] = as_numpy(rec.trace.patterns(stack=stack))
        data.masks[stack.value] = np.broadcast_to(as_numpy(rec.trace.mask(stack)),
                                                  data.patterns[stack.value].shape[-2:]).copy()
    return data


@shared_result("head_metrics")
def head_metrics(key: RunKey, stack: str) -> dict[str, np.ndarray]:
    """Per-head metrics [L, H] of one stack (seconds at 512 tokens, so cached)."""
    data = attention_data(key)
    _, k_tokens = data.tokens_of(stack)
    return attention.layerwise_head_metrics(data.patterns[stack], k_tokens, data.masks[stack])


@shared_result("rollout")
def rollout(key: RunKey, stack: str) -> np.ndarray:
    """Attention rollout [L, q, q] of a self-attention stack."""
    return attention.rollout(attention_data(key).patterns[stack], head_fusion="mean",
                      add_residual=True)


def trace_npz(key: RunKey) -> bytes:
    """Every recorded tensor of one pass as .npz bytes (built on demand by the download)."""
    buf = io.BytesIO()
    record(key, None).trace.cpu().save_npz(buf)
    return buf.getvalue()


def config_json(key: str, device: str) -> str:
    model, _ = load_model(key, device)
    return json.dumps({"model": key, "config": model.cfg.to_dict()}, indent=2, ensure_ascii=False)


# ---- FFN and residual stream -------------------------------------------------------------------
# what these pages read (not the attention maps: [L, H, n, n] twice would dominate memory)
INTERNALS = (*residual.KINDS, *ffn.KINDS)


@dataclass
class InternalsData:
    tokens: list[str]                 # tokens of the stack shown (decoder tokens for encoder-decoder)
    truncated: bool
    n_tokens_before: int
    unk_fraction: float
    pre: np.ndarray                   # [L, pos, d_ff] FFN pre-activations
    post: np.ndarray                  # [L, pos, d_ff] FFN activations (what W_out reads)
    labels: list[str]                 # decomposition steps: "embed", "L0 attn", ...
    contrib: dict[str, np.ndarray]    # lab.residual.contribution_stats: [n, pos] each
    stream: np.ndarray                # [n, pos, d] the stream after every step
    decomp_error: float               # max |embed + sum of contributions - final| (pre-LN), else nan
    additive: bool
    norms: residual.NormStats
    lens: residual.Lens | None               # None when the model has no unembedding
    lens_tokens: list[list[list[str]]] | None   # [n, pos, k] strings of lens.top_ids
    run: RunInfo | None = None        # memory: budget cut, out-of-memory fallback, trace bytes


def internals(key: RunKey, budget: int | None = None) -> InternalsData:
    """One recorded pass (the INTERNALS kinds) reduced to what the FFN and residual pages
    show (cached per text and memory budget)."""
    return _internals(key, trace_budget_bytes() if budget is None else budget)


@shared_result("internals")
def _internals(key: RunKey, budget: int) -> InternalsData:
    model, _ = load_model(key.model_key, key.device)
    stack = Stack.output(model.cfg.arch)
    stacks = [stack, Stack.CROSS] if stack is Stack.DECODER else [stack]
    rec = record(key, record_names(model.cfg, INTERNALS, stacks), budget)
    model, tok, trace = rec.model, rec.tokenizer, rec.trace
    seq = rec.target if rec.target is not None else rec.source
    pre, post = ffn.activations(trace, stack)
    dec = residual.decomposition(model, trace, stack)
    err = float(np.abs(dec.components.sum(0, dtype=np.float64) - dec.final).max()) if dec.additive else float("nan")
    lens = lens_tokens = None
    if residual.has_unembedding(model):
        lens = residual.logit_lens(model, trace, stack, k=5)
        lens_tokens = [[[tok.id_to_token(int(i)) for i in cell] for cell in row] for row in lens.top_ids]
    n_before, truncated = _n_before(rec, key.text)
    norms = residual.norm_stats(model, trace, stack)
    norms.inputs = norms.outputs = np.zeros((0,), np.float32)      # [n, pos, d] each: not kept in the cache
    if lens is not None:
        lens.final_probs = np.zeros((0,), np.float32)              # [pos, vocab]: not kept in the cache
    return InternalsData(
        tokens=list(seq.tokens), truncated=truncated, n_tokens_before=n_before,
        unk_fraction=unk_fraction(tok, rec.source.ids), pre=pre, post=post, labels=dec.labels,
        contrib=residual.contribution_stats(dec), stream=dec.stream, decomp_error=err, additive=dec.additive,
        norms=norms, lens=lens, lens_tokens=lens_tokens, run=rec.info,
    )


@st.cache_data(max_entries=32, show_spinner=False)
def neuron_projection(key: str, device: str, layer: int, neuron: int, k: int = 10) -> dict:
    """The tokens neuron `neuron` of `layer` promotes and suppresses (Geva et al.)."""
    model, tok = load_model(key, device)
    proj = ffn.project_to_vocab(model, ffn.neuron_value(model, layer, neuron), k)
    return {"via": proj.via,
            "top": [tok.id_to_token(int(i)) for i in proj.top_ids], "top_scores": proj.top_scores,
            "bottom": [tok.id_to_token(int(i)) for i in proj.bottom_ids], "bottom_scores": proj.bottom_scores}


@st.cache_data(max_entries=8, show_spinner=False)
def parameters(key: str, device: str) -> dict:
    model, _ = load_model(key, device)
    return {"parts": ffn.parameter_breakdown(model), "total": model.n_params,
            "ffn_layer": ffn.ffn_params_per_layer(model)}


# ---- the model map (overview page) -------------------------------------------------------------
@dataclass
class MapView:
    """The model map of one (model, text): the structure for the tokens that ran and what
    the pass measured along it (lab/model_map.py)."""

    structure: model_map.ModelMap
    data: model_map.MapData
    top_tokens: list[str] | None      # the head's most probable next token per position (output stack)
    run: RunInfo | None = None


def map_view(key: RunKey, budget: int | None = None) -> MapView:
    """One recorded pass (lab.model_map.KINDS, every stack) reduced to the map's numbers
    (cached per text and memory budget)."""
    return _map_view(key, trace_budget_bytes() if budget is None else budget)


@shared_result("map_view")
def _map_view(key: RunKey, budget: int) -> MapView:
    model, _ = load_model(key.model_key, key.device)
    rec = record(key, record_names(model.cfg, model_map.KINDS), budget)
    structure = model_map.model_map(rec.model.cfg, len(rec.source.ids), len(rec.target.ids) if rec.target else None)
    data = model_map.map_data(rec.model, rec.trace, structure)
    out = data.stacks[Stack.output(rec.model.cfg.arch).value]
    top = None if out.top_ids is None else [rec.tokenizer.id_to_token(int(i)) for i in out.top_ids]
    return MapView(structure, data, top, rec.info)

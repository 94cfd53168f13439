"""Cached loaders: models (`st.cache_resource`, shared by all sessions) and per-text
numpy slices (`st.cache_data`, bounded).

A model is shared between browser sessions, and recording registers hooks on it, so
every forward pass holds that model's lock: two sessions never record into each other's
trace. Work runs under `torch.inference_mode` (inside `run_with_cache`).
"""
from __future__ import annotations

import io
import json
import os
import threading
from dataclasses import dataclass, field, replace
from typing import Callable, TypeVar

import numpy as np
import streamlit as st
import torch

from models import zoo
from models.memory import estimate_trace_bytes, max_tokens_within, working_bytes
from models.runtime import tune_serving
from models.tokenizer import Tokenizer
from models.transformer import Transformer

from . import guard

tune_serving()   # allocator + torch thread counts, once per process (see models/runtime.py)

MAX_CHARS = 20_000   # longer texts are cut before tokenizing (the model would keep <= max_len tokens anyway)
# Memory one recorded pass may take (trace + one layer's working memory, estimated from
# the config and the token count before the pass runs, models/memory.py). 256 MB: a
# 24 GB server shared by 30 users leaves ~800 MB a session, and the views keep copies
# (numpy slices, figures) of what is recorded. MiniLM at 512 tokens needs ~130 MB.
DEFAULT_TRACE_BUDGET_MB = 256
BUDGET_ENV = "GLASSBOX_TRACE_BUDGET_MB"
T = TypeVar("T")
_locks: dict[int, threading.Lock] = {}
_locks_guard = threading.Lock()
_loaded: set[tuple[str, str]] = set()


def _lock(model: Transformer) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(id(model), threading.Lock())


@st.cache_resource(show_spinner=False, max_entries=6)
def _load(key: str, device: str) -> tuple[Transformer, Tokenizer]:
    return zoo.load(key, device=device)


def is_loaded(key: str, device: str) -> bool:
    """Whether this process already holds the model (no progress needs showing)."""
    return key.startswith("trained:") or (key, device) in _loaded


def load_model(key: str, device: str) -> tuple[Transformer, Tokenizer]:
    """The (model, tokenizer) of a catalogue entry, or of a model this session trained or
    uploaded ("trained:<id>", see ui/trained.py); raises ValueError with a message."""
    if key.startswith("trained:"):
        from . import trained

        return trained.load(key, device)
    model, tok = _load(key, device)
    _loaded.add((key, device))
    return model, tok


def trace_budget_bytes() -> int:
    """The per-pass memory budget in bytes: $GLASSBOX_TRACE_BUDGET_MB, else 256 MB."""
    raw = os.environ.get(BUDGET_ENV, "")
    try:
        mb = float(raw) if raw.strip() else DEFAULT_TRACE_BUDGET_MB
    except ValueError:
        mb = DEFAULT_TRACE_BUDGET_MB
    return int(max(mb, 0.001) * 1e6)


def pass_bytes(model: Transformer, n_src: int, n_tgt: int | None, names: list[str] | None) -> int:
    """Estimated memory of one recorded pass: the trace plus one layer's working memory."""
    return (estimate_trace_bytes(model.cfg, model.hook_names(), n_src, n_tgt, names)
            + working_bytes(model.cfg, n_src, n_tgt))


class TraceBudgetError(ValueError):
    """Not even one token fits the memory budget (a model too large for this server)."""

    def __init__(self, need: int, budget: int) -> None:
        super().__init__(f"One token of this model needs about {need / 1e6:.0f} MB, more than the budget of "
                         f"{budget / 1e6:.0f} MB per pass (${BUDGET_ENV}).")
        self.need, self.budget = need, budget


class OutOfMemory(ValueError):
    """Out of memory even on the CPU with a much shorter input."""

    def __init__(self, n: int) -> None:
        super().__init__(f"The server ran out of memory even on {n} tokens of this text.")
        self.n = n


@dataclass
class RunInfo:
    """How a recorded pass went: what the budget or an out-of-memory error changed."""

    n_asked: int                  # tokens the text has (after the model's own max_len cut)
    n_kept: int                   # tokens actually run
    need_bytes: int               # estimated memory of the pass at n_asked tokens
    budget_bytes: int
    trace_bytes: int = 0          # memory the recorded trace held (Trace.nbytes)
    device: str = "cpu"           # where it ran in the end
    fallback: str | None = None   # None | "cpu" (GPU out of memory) | "shorter" (out of memory on the CPU)

    @property
    def budget_cut(self) -> bool:
        return self.n_kept < self.n_asked and self.fallback != "shorter"


def fit_budget(model: Transformer, n_src: int, n_tgt: int | None, names: list[str] | None,
               budget: int | None = None) -> tuple[int, int]:
    """(tokens to run, estimated bytes at all n_src tokens). Both sequences are cut to the
    same length. Raises TraceBudgetError when not even one token fits."""
    budget = trace_budget_bytes() if budget is None else budget
    n = max(n_src, n_tgt or 0)

    def need(m: int) -> int:
        return pass_bytes(model, min(m, n_src), None if n_tgt is None else min(m, n_tgt), names)

    kept = max_tokens_within(budget, need, n)
    if kept < 1:
        raise TraceBudgetError(need(1), budget)
    return kept, need(n)


def _oom_types() -> tuple[type[BaseException], ...]:
    kinds = {getattr(torch, "OutOfMemoryError", None), getattr(torch.cuda, "OutOfMemoryError", None)}
    return tuple(k for k in kinds if k is not None)


def is_oom(e: BaseException) -> bool:
    """CUDA/MPS out of memory (torch.OutOfMemoryError, torch.cuda.OutOfMemoryError) or a
    CPU allocation that failed."""
    if isinstance(e, _oom_types()):
        return True
    msg = str(e).lower()
    return isinstance(e, RuntimeError) and ("out of memory" in msg or "can't allocate memory" in msg)


def _release(device: str) -> None:
    if torch.device(device).type == "cuda" and torch.cuda.is_available():
        torch.cuda.empty_cache()


def run_with_fallback(key: str, device: str, n: int, attempt: Callable[[Transformer, int], T],
                      min_tokens: int = 8, shorter: bool = True) -> tuple[T, str, int, str | None]:
    """The one place that survives running out of memory: `attempt(model, n_tokens)` runs
    under the model's lock on `device`; if it runs out of memory there, again on the CPU
    copy of the model (a GPU that is full), then on the CPU with half the tokens, down
    to `min_tokens`. Returns (result, device used, tokens used, fallback: None | "cpu" |
    "shorter"; shorter=False: no shorter tries). Anything else the attempt raises goes up
    unchanged; out of memory at the end raises OutOfMemory (a ValueError with a message)."""
    model, _ = load_model(key, device)
    try:
        # big passes queue across all models (ui/guard.py) before taking the model's lock
        with guard.forward_pass(n), _lock(model):
            return attempt(model, n), device, n, None
    except Exception as e:      # noqa: BLE001 (re-raised unless it is out of memory)
        if not is_oom(e):
            raise
    _release(device)
    fallback = None
    if torch.device(device).type != "cpu":
        model, _ = load_model(key, "cpu")
        fallback = "cpu"
        try:
            with guard.forward_pass(n), _lock(model):
                return attempt(model, n), "cpu", n, fallback
        except Exception as e:  # noqa: BLE001
            if not is_oom(e):
                raise
    m, floor = n // 2, max(1, min(min_tokens, n // 2))
    if not shorter:
        raise OutOfMemory(n)
    while m >= floor:
        try:
            with guard.forward_pass(m), _lock(model):
                return attempt(model, m), "cpu", m, "shorter"
        except Exception as e:  # noqa: BLE001
            if not is_oom(e):
                raise
        m //= 2
    raise OutOfMemory(floor)


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


def stacks_of(arch: str) -> list[str]:
    """The attention maps a model has: 'self' or ('encoder', 'decoder', 'cross')."""
    return ["encoder", "decoder", "cross"] if arch == "encoder-decoder" else ["self"]


def _hook_prefix(stack: str) -> tuple[str, str]:
    return {"self": ("", "attn"), "encoder": ("encoder.", "attn"), "decoder": ("decoder.", "attn"),
            "cross": ("decoder.", "cross_attn")}[stack]


def encode(tok: Tokenizer, model: Transformer, text: str):
    """Tokenize for the app: at most the model's max_len tokens (reported when cut)."""
    return tok.encode(text[:MAX_CHARS], max_len=model.cfg.max_len)


def _cut(enc, n: int):
    """An encoding cut to its first n tokens."""
    return replace(enc, ids=enc.ids[:n], tokens=enc.tokens[:n], offsets=enc.offsets[:n])


def _record(key: str, device: str, text: str, target: str, names: list[str] | None, budget: int | None = None):
    """One recorded pass over the text (and the decoder input of an encoder-decoder):
    (model, tokenizer, source encoding, target encoding or None, trace, RunInfo).

    Before the pass, its memory is estimated from the config and the token count; a text
    over the budget is cut to the tokens that fit. Out of memory during the pass: see
    `run_with_fallback`. The returned model is the one that ran (the CPU copy after a
    GPU fallback); the encodings are cut to the tokens that ran."""
    model, tok = load_model(key, device)
    enc = encode(tok, model, text)
    if not enc.ids:
        raise ValueError("The text is empty.")
    tgt = encode(tok, model, target or text) if model.cfg.arch == "encoder-decoder" else None
    n_tgt = len(tgt.ids) if tgt is not None else None
    n_all = max(len(enc.ids), n_tgt or 0)
    budget = trace_budget_bytes() if budget is None else budget
    kept, need = fit_budget(model, len(enc.ids), n_tgt, names, budget)

    def attempt(m: Transformer, n: int):
        kw = {"tgt_ids": tgt.ids[:n], "tgt_tokens": tgt.tokens[:n]} if tgt is not None else {}
        _, trace = m.run_with_cache(enc.ids[:n], names=names, tokens=enc.tokens[:n], **kw)
        return m, trace

    (model, trace), used, n_run, fallback = run_with_fallback(key, device, kept, attempt)
    info = RunInfo(n_all, n_run, need, budget, trace.nbytes, used, fallback)
    if n_run < n_all:
        enc = _cut(enc, n_run)
        tgt = _cut(tgt, n_run) if tgt is not None else None
    return model, tok, enc, tgt, trace, info


def attention_data(key: str, device: str, text: str, target: str) -> AttentionData:
    """Run the model once, recording only the attention patterns and masks (cached per
    text and memory budget)."""
    return _attention_data(key, device, text, target, trace_budget_bytes())


@st.cache_data(max_entries=8, show_spinner=False)
def _attention_data(key: str, device: str, text: str, target: str, budget: int) -> AttentionData:
    model, tok, enc, tgt, trace, info = _record(key, device, text, target, ["*.hook_pattern", "*.hook_mask"],
                                                budget)
    n_before = enc.n_tokens_before_truncation if enc.truncated else len(enc)
    if len(text) > MAX_CHARS:
        n_before = max(n_before, len(tok.encode(text)))
    data = AttentionData(enc.tokens, tgt.tokens if tgt else None, n_before, enc.truncated or len(text) > MAX_CHARS,
                         _unk_fraction(tok, enc.ids), run=info)
    for stack in stacks_of(model.cfg.arch):
        prefix, attn = _hook_prefix(stack)
        data.patterns[stack] = np.stack([trace.numpy(f"{prefix}blocks.{i}.{attn}.hook_pattern", batch=0)
                                         for i in range(model.cfg.n_layers)])
        mask = trace.numpy(f"{prefix}blocks.0.{attn}.hook_mask")[0, 0]
        data.masks[stack] = np.broadcast_to(mask, data.patterns[stack].shape[-2:]).copy()
    return data


@st.cache_data(max_entries=16, show_spinner=False)
def model_view_figure(key: str, device: str, text: str, target: str, stack: str):
    """All heads of one stack as one image (built once per text: ~50 ms at 64 tokens,
    ~0.6 s at 512); the selected tile is outlined afterwards with viz_core.mark_tile."""
    import viz_core as vz

    return vz.model_view(attention_data(key, device, text, target).patterns[stack])


@st.cache_data(max_entries=16, show_spinner=False)
def head_metrics(key: str, device: str, text: str, target: str, stack: str) -> dict[str, np.ndarray]:
    """Per-head metrics [L, H] of one stack (seconds at 512 tokens, so cached)."""
    data = attention_data(key, device, text, target)
    patterns = data.patterns[stack]
    k_tokens = data.tokens if stack in ("self", "encoder", "cross") else data.tgt_tokens
    return layerwise_head_metrics(patterns, k_tokens, data.masks[stack])


def layerwise_head_metrics(patterns: np.ndarray, k_tokens: list[str], mask: np.ndarray) -> dict[str, np.ndarray]:
    """viz_core.head_metrics one layer at a time: the metrics work in float64, and all
    layers at once at 512 tokens would be several 150 MB temporaries. Same numbers
    (every metric is per head)."""
    import viz_core as vz

    per_layer = [vz.head_metrics(layer[None], k_tokens, mask=np.broadcast_to(mask, layer[None].shape))
                 for layer in patterns]
    return {name: np.concatenate([m[name] for m in per_layer]) for name in per_layer[0]}


@st.cache_data(max_entries=16, show_spinner=False)
def rollout(key: str, device: str, text: str, target: str, stack: str) -> np.ndarray:
    """Attention rollout [L, q, q] of a self-attention stack."""
    import viz_core as vz

    return vz.rollout(attention_data(key, device, text, target).patterns[stack], head_fusion="mean",
                      add_residual=True)


def _unk_fraction(tok: Tokenizer, ids: list[int]) -> float:
    unk = getattr(tok, "unk_id", None)
    return 0.0 if unk is None or not ids else sum(i == unk for i in ids) / len(ids)


def trace_npz(key: str, device: str, text: str, target: str) -> bytes:
    """Every recorded tensor of one pass as .npz bytes (built on demand by the download)."""
    *_, trace, _info = _record(key, device, text, target, None)
    buf = io.BytesIO()
    trace.cpu().save_npz(buf)
    return buf.getvalue()


def config_json(key: str, device: str) -> str:
    model, _ = load_model(key, device)
    return json.dumps({"model": key, "config": model.cfg.to_dict()}, indent=2, ensure_ascii=False)

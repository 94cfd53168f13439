"""Cached loaders: models (`st.cache_resource`, shared by all sessions) and per-text
numpy slices (`st.cache_data`, bounded).

A model is shared between browser sessions, and recording registers hooks on it, so
every forward pass holds that model's lock: two sessions never record into each other's
trace. Work runs under `torch.inference_mode` (inside `run_with_cache`).
"""
from __future__ import annotations

import io
import json
import threading
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from models import zoo
from models.runtime import tune_allocator
from models.tokenizer import Tokenizer
from models.transformer import Transformer

tune_allocator()   # keep freed activations in the heap between passes (see models/runtime.py)

MAX_CHARS = 20_000   # longer texts are cut before tokenizing (the model would keep <= max_len tokens anyway)
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


def stacks_of(arch: str) -> list[str]:
    """The attention maps a model has: 'self' or ('encoder', 'decoder', 'cross')."""
    return ["encoder", "decoder", "cross"] if arch == "encoder-decoder" else ["self"]


def _hook_prefix(stack: str) -> tuple[str, str]:
    return {"self": ("", "attn"), "encoder": ("encoder.", "attn"), "decoder": ("decoder.", "attn"),
            "cross": ("decoder.", "cross_attn")}[stack]


def encode(tok: Tokenizer, model: Transformer, text: str):
    """Tokenize for the app: at most the model's max_len tokens (reported when cut)."""
    return tok.encode(text[:MAX_CHARS], max_len=model.cfg.max_len)


def _record(key: str, device: str, text: str, target: str, names: list[str] | None):
    """One recorded pass over the text (and the decoder input of an encoder-decoder):
    (model, tokenizer, source encoding, target encoding or None, trace)."""
    model, tok = load_model(key, device)
    enc = encode(tok, model, text)
    if not enc.ids:
        raise ValueError("The text is empty.")
    tgt = encode(tok, model, target or text) if model.cfg.arch == "encoder-decoder" else None
    kw = {"tgt_ids": tgt.ids, "tgt_tokens": tgt.tokens} if tgt is not None else {}
    with _lock(model):
        _, trace = model.run_with_cache(enc.ids, names=names, tokens=enc.tokens, **kw)
    return model, tok, enc, tgt, trace


@st.cache_data(max_entries=8, show_spinner=False)
def attention_data(key: str, device: str, text: str, target: str) -> AttentionData:
    """Run the model once, recording only the attention patterns and masks."""
    model, tok, enc, tgt, trace = _record(key, device, text, target, ["*.hook_pattern", "*.hook_mask"])
    n_before = enc.n_tokens_before_truncation if enc.truncated else len(enc)
    if len(text) > MAX_CHARS:
        n_before = max(n_before, len(tok.encode(text)))
    data = AttentionData(enc.tokens, tgt.tokens if tgt else None, n_before, enc.truncated or len(text) > MAX_CHARS,
                         _unk_fraction(tok, enc.ids))
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
    import viz_core as vz

    data = attention_data(key, device, text, target)
    patterns = data.patterns[stack]
    k_tokens = data.tokens if stack in ("self", "encoder", "cross") else data.tgt_tokens
    return vz.head_metrics(patterns, k_tokens, mask=np.broadcast_to(data.masks[stack], patterns.shape))


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
    *_, trace = _record(key, device, text, target, None)
    buf = io.BytesIO()
    trace.cpu().save_npz(buf)
    return buf.getvalue()


def config_json(key: str, device: str) -> str:
    model, _ = load_model(key, device)
    return json.dumps({"model": key, "config": model.cfg.to_dict()}, indent=2, ensure_ascii=False)

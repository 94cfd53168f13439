"""What the walk-through's "Before attention" section reads (lab/before_attention.py):

- `raw_attention`: the walked stack's input embeddings and the walked head's pattern, with
  self-attention without parameters on those embeddings (one gated pass, cached);
- `copy_models`: the GRU encoder–decoder and the Transformer that recipes/before_attention.py trains
  (loaded once per process);
- `copy_curves`: both models' exact-sequence accuracy per input length on the fixed seeded
  batches (computed live once per process).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

import lab.before_attention
import lab.walkthrough
from models.trace import act_name

from .gate import run
from .run_key import RunKey
from .walkthrough import MAX_TOKENS, encodings

LENGTHS = tuple(range(2, lab.before_attention.MAX_LEN + 1, 2))
EVAL_N = 200                  # examples per length
EVAL_SEED = 1234


@dataclass(frozen=True)
class RawRun:
    """Parameter-free self-attention on the input embeddings, beside one head of the model."""

    raw: lab.before_attention.RawAttention
    pattern: np.ndarray       # [n, n] the model's head (walked layer and head)
    allowed: np.ndarray       # [n, n] bool, the model's mask (True = may attend)


def _raw(model, ids, tgt_ids, stack: str, layer: int, head: int) -> RawRun:
    """The first block's input (token embeddings, plus the position vectors and embedding
    norm where the model has them) and the head's pattern and mask."""
    s = lab.walkthrough.walk_stack(model.cfg, stack)
    names = [act_name("resid_pre", 0, s), act_name("pattern", layer, s), act_name("mask", layer, s)]
    _, trace = model.run_with_cache(ids, tgt_ids, names=names, stop_after=names[1])   # the pattern comes last
    x = trace[names[0]][0].double().cpu().numpy()
    pattern = trace[names[1]][0, head].double().cpu().numpy()
    n = x.shape[0]
    allowed = torch.broadcast_to(trace[names[2]][0, 0], (n, n)).bool().cpu().numpy()
    return RawRun(lab.before_attention.raw_self_attention(x, allowed), pattern, allowed)


@st.cache_data(max_entries=16, show_spinner=False)
def raw_attention(key: RunKey, stack: str, layer: int, head: int) -> RawRun:
    """Record the stack's input embeddings and the head's pattern; attention without W_Q/W_K/W_V."""
    _, src, tgt = encodings(key)
    ids, tgt_ids = src.ids[:MAX_TOKENS], (tgt.ids[:MAX_TOKENS] if tgt is not None else None)
    return run(key.model_key, key.device, lambda m, _n: _raw(m, ids, tgt_ids, stack, layer, head), len(ids))


@st.cache_resource(show_spinner=False)
def copy_models() -> tuple[torch.nn.Module, dict, torch.nn.Module, dict]:
    """(GRU, its card, Transformer, its card), loaded from the shipped files on the CPU."""
    gru, gru_meta = lab.before_attention.load_gru()
    tf, tf_meta = lab.before_attention.load_transformer()
    return gru, gru_meta, tf, tf_meta


@st.cache_data(max_entries=1, show_spinner=False)
def copy_curves() -> tuple[list[int], list[float], list[float]]:
    """(lengths, GRU accuracy, Transformer accuracy) on the fixed seeded batches."""
    gru, _, tf, _ = copy_models()
    batches = lab.before_attention.eval_batches(LENGTHS, n=EVAL_N, seed=EVAL_SEED, max_len=lab.before_attention.MAX_LEN)
    return (list(LENGTHS), lab.before_attention.copy_accuracy(gru, batches),
            lab.before_attention.copy_accuracy(tf, batches))

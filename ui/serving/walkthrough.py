"""What the walk-through page (and its sections, the Beyond page and the attention
lesson) reads, each pass through the run gate and cached by plain values:

- `token_lists`: the query and key tokens of one attention;
- `walk`: one head walked step by step (lab/walkthrough.py);
- `study`: why the scores are divided by √d_k on that head (lab/scaling.py);
- `flash`: FlashAttention tile by tile on that head (lab/flash.py);
- `code_mistakes`: common attention code mistakes run on that layer (lab/code_mistakes.py).

`Controls` is the walked head as the page's controls chose it; the page's sections
receive it.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import lab.code_mistakes
import lab.flash
import lab.scaling
import lab.walkthrough
from lab.walkthrough import HeadWalk

from .gate import encode, load_model, run
from .run_key import RunKey

MAX_TOKENS = 128     # the walk-through's tables and maps: one row per token


@dataclass(frozen=True)
class Controls:
    """What the row of controls chose."""

    stack: str         # self | encoder | decoder | cross
    layer: int
    head: int
    query: int         # position of the query token (in the query tokens)
    key: int           # position of the key token the neuron view shows (in the key tokens)


def encodings(key: RunKey):
    model, tok = load_model(key.model_key, key.device)
    src = encode(tok, model, key.text)
    tgt = encode(tok, model, key.target or key.text) if model.cfg.arch == "encoder-decoder" else None
    return model, src, tgt


@st.cache_data(max_entries=16, show_spinner=False)
def token_lists(key: RunKey, stack: str) -> tuple[list[str], list[str], int]:
    """(query tokens, key tokens, tokens before the cut) of one attention: the decoder's
    own tokens for its self-attention; target queries and source keys for cross-attention."""
    _, src, tgt = encodings(key)
    q = tgt if stack in ("decoder", "cross") else src
    k = src if stack == "cross" else q
    return q.tokens[:MAX_TOKENS], k.tokens[:MAX_TOKENS], max(len(q.tokens), len(k.tokens))


@st.cache_data(max_entries=16, show_spinner=False)
def walk(key: RunKey, stack: str, layer: int, head: int, query: int
         ) -> HeadWalk:
    """Record the layer's attention input, mask, pattern and output, then walk one head."""
    model, src, tgt = encodings(key)
    ids, tgt_ids = src.ids[:MAX_TOKENS], (tgt.ids[:MAX_TOKENS] if tgt is not None else None)
    # out of memory on a GPU: the CPU copy of the model (the gate's fallback)
    return run(key.model_key, key.device,
               lambda m, _n: lab.walkthrough.record_and_walk(m, ids, layer, head, query, stack, tgt_ids),
               len(ids))


# ---- section 6: the √d_k scaling ---------------------------------------------------------------
@st.cache_data(max_entries=2, show_spinner=False)
def random_curve() -> lab.scaling.VarianceCurve:
    return lab.scaling.random_variance()


@st.cache_data(max_entries=16, show_spinner=False)
def study(key: RunKey, stack: str, layer: int, head: int, query: int
          ) -> lab.scaling.ScalingStudy:
    """The walk, the head's numbers, the unscaled model and the linearity check (one gated attempt)."""
    _, src, tgt = encodings(key)
    ids, tgt_ids = src.ids[:MAX_TOKENS], (tgt.ids[:MAX_TOKENS] if tgt is not None else None)
    return run(key.model_key, key.device,
               lambda m, _n: lab.scaling.scaling_study(m, ids, layer, head, query, stack, tgt_ids),
               len(ids))


# ---- section 7: FlashAttention -------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def flash(key: RunKey, stack: str, layer: int, head: int, tile: int) -> lab.flash.FlashRun:
    _, src, tgt = encodings(key)
    ids, tgt_ids = src.ids[:MAX_TOKENS], (tgt.ids[:MAX_TOKENS] if tgt is not None else None)
    return run(key.model_key, key.device,
               lambda m, _n: lab.flash.flash_head(m, ids, layer, head, stack, tgt_ids, tile, tile),
               len(ids))


# ---- section 8: common code mistakes -----------------------------------------------------------
@dataclass(frozen=True)
class MistakesRun:
    """Every version of the layer's attention code against the model (lab/code_mistakes.py)."""

    outcomes: list[lab.code_mistakes.Outcome]
    causal: bool          # the layer's mask is the causal triangle
    scale: float          # the model's score scale
    d_model: int
    d_head: int
    n_heads: int


def _mistakes(model, ids, tgt_ids, layer: int, stack: str) -> MistakesRun:
    s = lab.walkthrough.walk_stack(model.cfg, stack)
    names = lab.code_mistakes.names(model.cfg, layer, s)        # the last is the layer's output: stop there
    _, trace = model.run_with_cache(ids, tgt_ids, names=names, stop_after=names[-1])
    x = lab.code_mistakes.layer_inputs(model, trace, layer, s)
    return MistakesRun(lab.code_mistakes.outcomes(x), x.causal, x.scale, x.d_model, x.d_head, x.n_heads)


@st.cache_data(max_entries=16, show_spinner=False)
def code_mistakes(key: RunKey, stack: str, layer: int) -> MistakesRun:
    """Record the layer's q, k, v, mask and output, then run every version of the code."""
    _, src, tgt = encodings(key)
    ids, tgt_ids = src.ids[:MAX_TOKENS], (tgt.ids[:MAX_TOKENS] if tgt is not None else None)
    return run(key.model_key, key.device, lambda m, _n: _mistakes(m, ids, tgt_ids, layer, stack), len(ids))

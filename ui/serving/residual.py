"""What the residual page's views read beyond the cached internals (ui/serving/cache.py),
each pass through the run gate and cached by plain values:

- Pre-LN vs Post-LN: `stream_growth` (lab/residual.py), on a shipped twin or a random
  post-LN twin of a preset;
- the input layer: `input_layer` (lab/input_layer.py);
- LayerNorm vs BatchNorm: `batch` (a padded batch), `scatters` and `scatter` (a norm's
  input against its output, lab/norms.py).
"""
from __future__ import annotations

import streamlit as st

import lab.input_layer
import lab.norms
import lab.residual
from models.trace import Stack, record_names
from models.weights import zoo

from .gate import encode, load_model, record, run, run_held, run_padded
from .run_key import RunKey

MAX_TOKENS = 64        # the LayerNorm vs BatchNorm batch: tokens per text
RANK_POINTS = 2000     # points per norm for the fits that choose the norm to open on (a 24-layer model has 49)


# ---- pre-LN vs post-LN -------------------------------------------------------------------------
@st.cache_resource(show_spinner=False, max_entries=2)
def _post_twin(key: str, device: str):
    """The random post-LN twin of a preset (the same seed, so the same weights)."""
    model, tok = load_model(key, device)
    return zoo.load(key, device, config=model.cfg.replace(norm_position="post"))


@st.cache_data(max_entries=8, show_spinner=False)
def stream_growth(key: str, device: str, text: str, post_twin: bool) -> tuple[lab.residual.StreamGrowth, list[str]]:
    """(the stream's growth through one model on the text, its tokens)."""
    model, tok = _post_twin(key, device) if post_twin else load_model(key, device)
    enc = encode(tok, model, text)
    if not enc.ids:
        raise ValueError("The text is empty.")
    return run_held(model, lambda m: lab.residual.stream_growth(m, enc.ids), len(enc.ids)), list(enc.tokens)


# ---- the input layer ---------------------------------------------------------------------------
@st.cache_data(max_entries=8, show_spinner=False)
def input_layer(key: RunKey, stack: str) -> tuple[lab.input_layer.InputLayer, list[str]]:
    """The input layer of one stack and its tokens (an encoder-decoder's decoder reads the target)."""
    model, tok = load_model(key.model_key, key.device)
    src = encode(tok, model, key.text)
    if not src.ids:
        raise ValueError("The text is empty.")
    enc = src
    if model.cfg.arch == "encoder-decoder" and stack == "decoder":
        enc = encode(tok, model, key.target or key.text)
    return (run(key.model_key, key.device, lambda m, _n: lab.input_layer.input_layer(m, enc.ids, stack, src.ids),
                len(enc.ids)),
            list(enc.tokens))


# ---- LayerNorm vs BatchNorm --------------------------------------------------------------------
@st.cache_data(max_entries=8, show_spinner=False)
def batch(key: str, device: str, text: str, text2: str, layer: int) -> lab.norms.BatchNorms:
    return run_padded(key, device, (text, text2), MAX_TOKENS,
                      lambda m, ids, tokens, pad, pad_tok: lab.norms.batch_norms(m, ids, tokens, pad, pad_tok, layer))


def _recorded(key: RunKey):
    """The pass every norm's input and output are read from (the output stack's norms)."""
    model, _ = load_model(key.model_key, key.device)
    stack = Stack.output(model.cfg.arch)
    stacks = [stack, Stack.CROSS] if stack is Stack.DECODER else [stack]      # the decoder's ln_cross too
    return record(key, record_names(model.cfg, lab.residual.KINDS, stacks))


@st.cache_data(max_entries=8, show_spinner=False)
def scatters(key: RunKey) -> list[lab.norms.NormScatter]:
    """Input vs output of every norm of the output stack on the sidebar's text, each on a
    subsample of RANK_POINTS points: enough to rank the norms by how much they bend, and
    the cost stays small however many layers there are (the chosen norm: `scatter`)."""
    rec = _recorded(key)
    return [lab.norms.norm_scatter(rec.model, rec.trace, site.module, max_points=RANK_POINTS)
            for site in lab.residual.norm_inputs(rec.model, rec.trace)]


@st.cache_data(max_entries=16, show_spinner=False)
def scatter(key: RunKey, module: str) -> lab.norms.NormScatter:
    """One norm's input vs output with all its points (lab.norms caps them at 20,000)."""
    rec = _recorded(key)
    return lab.norms.norm_scatter(rec.model, rec.trace, module)

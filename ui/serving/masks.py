"""What the masks page (and the decoding lesson) reads, each pass through the run gate and
cached by plain values (the composer's parts as a JSON string):

- `lab_tokens`: the tokens the lab works on (cut at MAX_TOKENS);
- `masked_run`: the model with the composed mask and with its own (lab/masks.py);
- `padded_batch`: two texts as one padded batch;
- `cost_curves`: the cells each mask computes, by length;
- `objectives`: the shipped masked and causal character models at one position (lab/objectives.py).
"""
from __future__ import annotations

import json

import streamlit as st

import lab.masks
import lab.objectives

from .gate import encode, load_model, run, run_padded
from .run_key import RunKey

MAX_TOKENS = 64          # masks are read cell by cell; longer texts are cut


@st.cache_data(max_entries=16, show_spinner=False)
def lab_tokens(key: RunKey, stack: str) -> tuple[list[str], int]:
    """(tokens the lab works on, tokens in the text) for one stack's self-attention."""
    model, tok = load_model(key.model_key, key.device)
    enc = encode(tok, model, (key.target or key.text) if stack == "decoder" else key.text)
    return enc.tokens[:MAX_TOKENS], len(enc.tokens)


@st.cache_data(max_entries=12, show_spinner=False)
def masked_run(key: RunKey, stack: str, parts_json: str) -> lab.masks.MaskedRun:
    """The model run twice on the (cut) text: with the composed mask (empty rows keep
    themselves) and with its own mask (lab.masks.masked_run, through the run gate)."""
    model, tok = load_model(key.model_key, key.device)
    ids = encode(tok, model, key.text).ids[:MAX_TOKENS]
    tgt_ids = None
    if model.cfg.arch == "encoder-decoder":
        tgt_ids = encode(tok, model, key.target or key.text).ids[:MAX_TOKENS]
    parts = json.loads(parts_json)
    # out of memory on a GPU: the CPU copy of the model (the gate's fallback)
    return run(key.model_key, key.device,
               lambda m, _n: lab.masks.masked_run(m, ids, parts, tgt_ids=tgt_ids, stack=stack),
               len(tgt_ids if stack == "decoder" else ids))


@st.cache_data(max_entries=8, show_spinner=False)
def padded_batch(key: str, device: str, text: str, text2: str, layer: int) -> lab.masks.PaddedRun:
    """Two texts as one padded batch through the model (single-stack models)."""
    return run_padded(key, device, (text, text2), MAX_TOKENS,
                      lambda m, ids, tokens, pad, pad_tok: lab.masks.padded_run(m, ids, tokens, pad, pad_tok, layer))


@st.cache_data(max_entries=32, show_spinner=False)
def cost_curves(parts_json: str) -> dict[str, list[int]]:
    """lab.masks.cost_curves, cached by the parts as a string."""
    return lab.masks.cost_curves(json.loads(parts_json), lab.masks.COST_LENGTHS)


# ---- the two pre-training objectives (the "MLM vs causal LM" tab) -----------------------------------
MLM, CLM = "toy:verse-mlm", "toy:verse-lm"       # the shipped character models: one of each objective
MAX_CHARS = 128                                   # the tab reads the first characters of the text


@st.cache_data(max_entries=32, show_spinner=False)
def objectives(text: str, position: int, device: str) -> dict[str, lab.objectives.Prediction | None]:
    """The masked model with the character hidden ("masked") and shown ("shown"), and the
    causal model from the characters before it ("causal"; None at position 0)."""
    text = text[:MAX_CHARS]
    _, mlm_tok = load_model(MLM, device)
    _, clm_tok = load_model(CLM, device)
    n = len(text)
    out = {
        "masked": run(MLM, device, lambda m, _n: lab.objectives.masked(m, mlm_tok, text, position), n),
        "shown": run(MLM, device, lambda m, _n: lab.objectives.masked(m, mlm_tok, text, position, hide=False), n),
        "causal": None,
    }
    if position > 0:
        out["causal"] = run(CLM, device, lambda m, _n: lab.objectives.next_token(m, clm_tok, text, position), n)
    return out

"""A loaded model's browser form (models/weights/browser.py) for the live instant view:
built once per model and server, as the bytes the browser-model component sends
(ui/widgets/attention_canvas.py).

Which weights travel: the exact ones (float16 when the checkpoint is float16 already, as the
verse and pe64 models are; else float32) when they take at most `LIVE_AUTO_BYTES`: the model
then comes with the instant view without asking. A bigger model (MiniLM: 121 MB exact)
travels as float16 (attention within 1.5e-2 of the model's, measured 2.2e-3), and only when
the reader asks, with its size on the button: `plan` is cheap (no bundle is built), `form`
builds the bytes once per server.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from models.weights.browser import (browser_config, browser_model, browser_tokenizer, bundle_json, exact_weights,
                                    unsupported_feature, weights_bytes)

from .gate import load_model

LIVE_AUTO_BYTES = 8_000_000


@dataclass(frozen=True)
class Plan:
    """How a model would travel: its weight format, whether that is exact, about how many
    bytes, and whether it comes without asking; `reason` (the API's sentence) when the
    model has no browser form."""

    weights: str
    exact: bool
    size: int
    automatic: bool
    reason: str | None = None
    rest: int = 0             # bytes beside the weights: the config and the tokenizer (MiniLM's vocabulary: ~0.3 MB)


@dataclass(frozen=True)
class Form:
    """The bytes the browser-model component sends: b"<id>\\n" + the bundle's JSON (the id
    lets the viewer find the model the other component loaded)."""

    id: str
    data: bytes
    size: int                 # of the bundle JSON


@st.cache_resource(max_entries=16, show_spinner=False)
def plan(key: str, device: str) -> Plan:
    """How the model would travel (see the module docstring); never raises for a model the
    browser pass does not compute or whose tokenizer it does not run: `reason` says why."""
    model, tok = load_model(key, device)
    why = unsupported_feature(model)
    if why is not None:
        return Plan(weights="", exact=False, size=0, automatic=False, reason=why)
    try:                                  # a tokenizer the browser does not run (BPE, word-level): no live form
        spec = browser_tokenizer(tok, model.cfg.max_len)
    except ValueError as e:
        return Plan(weights="", exact=False, size=0, automatic=False, reason=str(e))
    rest = len(bundle_json({"config": browser_config(model), "tokenizer": spec}).encode("utf-8"))
    exact = exact_weights(model)
    size = weights_bytes(model, exact) + rest
    if size <= LIVE_AUTO_BYTES:
        return Plan(weights=exact, exact=True, size=size, automatic=True, rest=rest)
    # too big to come without asking: float16 (the exact weights already when the checkpoint is float16)
    return Plan(weights="float16", exact=exact == "float16", size=weights_bytes(model, "float16") + rest,
                automatic=False, rest=rest)


@st.cache_resource(max_entries=16, show_spinner=False)
def int8_size(key: str, device: str) -> int:
    """The bytes of the int8 bundle (the small live export), deflated as `form` sends it: known
    only by compressing (~0.4 s for MiniLM, once per server); the bundle itself is built on click.
    For a model whose `plan` has no reason (no browser form, no size)."""
    model, _ = load_model(key, device)
    return weights_bytes(model, "int8", deflate=True) + plan(key, device).rest


@st.cache_resource(max_entries=4, show_spinner=False)
def form(key: str, device: str, weights: str) -> Form:
    """The model's bundle as bytes (0.1 s for verse-lm, ~1 s for MiniLM in float16; once per server).
    int8 weights (the small export) travel deflated."""
    model, tok = load_model(key, device)
    body = bundle_json(browser_model(model, tok, weights=weights, deflate=weights == "int8")).encode("utf-8")
    ident = f"{key}/{weights}/{len(body)}"
    return Form(id=ident, data=ident.encode("utf-8") + b"\n" + body, size=len(body))

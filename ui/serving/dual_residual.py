"""What the residual page's ResiDual view reads (ui/views/residual_dual_residual.py): the three
wirings on the sidebar's token vectors (lab/dual_residual.py), the vectors read in the gate."""
from __future__ import annotations

import streamlit as st

from lab import conv_zoo, dual_residual

from .gate import encode, load_model, run
from .run_key import RunKey

MAX_TOKENS = 64


@st.cache_data(max_entries=8, show_spinner=False)
def dual_wirings(key: RunKey, layers: int, gain: float) -> tuple[dict[str, dual_residual.Wiring], int, int]:
    """(wirings, tokens, width) on the sidebar's text."""
    model, tok = load_model(key.model_key, key.device)
    ids = encode(tok, model, key.text).ids[:MAX_TOKENS]
    x = run(key.model_key, key.device, lambda m, _n: conv_zoo.token_vectors(m, ids), len(ids))
    return dual_residual.wirings(x, layers, 0, gain), int(x.shape[0]), int(x.shape[1])

"""What the FFN page reads beyond the cached internals (ui/serving/cache.py): `mixing`,
whether the FFN mixes positions, run through the gate."""
from __future__ import annotations

import streamlit as st

from lab import ffn

from .gate import encode, load_model, run
from .run_key import RunKey


@st.cache_data(max_entries=8, show_spinner=False)
def mixing(key: RunKey, layer: int) -> ffn.Mixing:
    """lab.ffn.mixing on the sidebar's text (token 1 changed), in the gate."""
    model, tok = load_model(key.model_key, key.device)
    ids = encode(tok, model, key.text).ids[:128]
    tgt = encode(tok, model, key.target or key.text).ids[:128] if model.cfg.arch == "encoder-decoder" else None
    pos = min(1, len(tgt or ids) - 1)
    return run(key.model_key, key.device, lambda m, _n: ffn.mixing(m, ids, layer, pos, tgt_ids=tgt), len(ids))

"""What the FFN page reads beyond the cached internals (ui/serving/cache.py): `mixing`,
whether the FFN mixes positions, run through the gate."""
from __future__ import annotations

import streamlit as st

from lab import experts, ffn, sharding

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


@st.cache_data(max_entries=8, show_spinner=False)
def sharded(key: RunKey, layer: int, k: int) -> sharding.Sharding:
    """lab.sharding.shard on the sidebar's text: layer `layer`'s FFN split across k devices."""
    model, tok = load_model(key.model_key, key.device)
    ids = encode(tok, model, key.text).ids[:128]
    tgt = encode(tok, model, key.target or key.text).ids[:128] if model.cfg.arch == "encoder-decoder" else None
    return run(key.model_key, key.device, lambda m, _n: sharding.shard(m, ids, layer, k, tgt_ids=tgt),
               len(ids))


@st.cache_data(max_entries=8, show_spinner=False)
def routed(key: RunKey, layer: int, n_experts: int, top_k: int, seed: int) -> tuple[experts.Routing, list[str]]:
    """lab.experts.route on the sidebar's text, with the tokens the FFN read (the decoder's
    of an encoder-decoder)."""
    model, tok = load_model(key.model_key, key.device)
    enc = encode(tok, model, key.text)
    ids = enc.ids[:128]
    tgt = encode(tok, model, key.target or key.text) if model.cfg.arch == "encoder-decoder" else None
    tgt_ids = tgt.ids[:128] if tgt is not None else None
    r = run(key.model_key, key.device, lambda m, _n: experts.route(m, ids, layer, n_experts, top_k, seed, tgt_ids),
            len(ids))
    return r, list((tgt or enc).tokens[:128])

"""Beyond softmax attention: a lab where every variant runs on the same q, k, v.

The page picks one source of queries, keys and values — a head of the selected model
on the current text (the walk-through's cached `walk`, ui/serving/walkthrough.py) or
seeded random vectors (lab/beyond.py) — and hands it to the open section:

- long memory (`beyond_long_memory`): Transformer-XL recurrence, Infini-attention, LongNet;
- the recurrent family (`beyond_recurrent`): retention's three forms, gated retention,
  RWKV, a selective state-space step;
- memory per generated token (`beyond_kv_families`): bytes per token and in total, per family;
- MLP-Mixer beside attention (`beyond_mixer`);
- ternary weights (`beyond_ternary`): BitNet b1.58's absmean quantisation;
- retrieval (`beyond_retrieval`): MiniLM nearest chunks and RETRO's chunked cross-attention.

Only the open section runs (a radio bound to `?bx_view=`).
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from lab.beyond import QKV

from .. import serving
from ..i18n import t
from ..links import bound, choice, index_slider, show_notices
from ..page import require_model, require_text
from ..serving.beyond import random_qkv
from ..serving.walkthrough import token_lists, walk
from ..serving.run_key import RunKey
from ..sidebar import Selection
from . import (beyond_conv_zoo, beyond_kv_families, beyond_long_memory, beyond_mixer, beyond_recurrent,
               beyond_retrieval, beyond_ternary)

SECTIONS = ("long", "recurrent", "memory", "mixer", "conv", "ternary", "retrieval")
SOURCES = ("model", "random")
MAX_RANDOM = 512          # random q, k, v: at most this many positions
MAX_DIM = 256


def render(sel: Selection) -> None:
    """The beyond-softmax page."""
    st.title(t("bx_title"))
    st.markdown(t("bx_intro"))
    section = choice(st.radio, t("bx_section"), SECTIONS, param="bx_view", default="long", horizontal=True,
                     labels={s: t(f"bx_sec_{s}") for s in SECTIONS})
    show_notices()
    if section == "memory":         # the byte chart reads the model's shape, not q, k, v
        model, _ = require_model(sel)
        beyond_kv_families.render(sel, model.cfg)
        return
    if section == "ternary":        # quantises the model's own weights
        beyond_ternary.render(sel)
        return
    if section == "retrieval":      # its own model (the bundled MiniLM) and its own text
        beyond_retrieval.render(sel)
        return
    if section == "conv":           # the sidebar's token vectors through seeded convolutions
        beyond_conv_zoo.render(sel)
        return
    src = source(sel)
    if section == "long":
        beyond_long_memory.render(sel, src)
    elif section == "recurrent":
        beyond_recurrent.render(sel, src)
    else:
        beyond_mixer.render(sel, src)


def source(sel: Selection) -> QKV:
    """The source control (model head or random) and the q, k, v it gives."""
    kind = choice(st.radio, t("bx_source"), SOURCES, param="bx_src", default="model", horizontal=True,
                  labels={s: t(f"bx_src_{s}") for s in SOURCES})
    if kind == "random":
        c1, c2, c3 = st.columns(3)
        with c1:
            n = bound(st.number_input, t("bx_rand_n"), 2, MAX_RANDOM, 32, key="bx_n", url_default="32", step=1)
        with c2:
            d = bound(st.number_input, t("bx_rand_d"), 2, MAX_DIM, 16, key="bx_d", url_default="16", step=1)
        with c3:
            seed = bound(st.number_input, t("bx_rand_seed"), 0, 1_000_000, 0, key="bx_seed", url_default="0", step=1)
        return random_qkv(int(n), int(d), int(seed))
    model, _ = require_model(sel)
    require_text(sel)
    cfg = model.cfg
    stack = "decoder" if cfg.arch == "encoder-decoder" else "self"
    c1, c2 = st.columns(2)
    with c1:
        layer = index_slider(t("bx_layer"), cfg.n_layers, "bx_layer")
    with c2:
        head = index_slider(t("bx_head"), cfg.n_heads, "bx_head")
    w = walk(RunKey.of(sel), stack, layer, head, 0)
    q_tok, _, n_all = token_lists(RunKey.of(sel), stack)
    if n_all > len(q_tok):
        st.info(t("bx_truncated", kept=len(q_tok), n=n_all), icon=":material/content_cut:")
    n = len(q_tok)
    pattern = serving.attention_data(RunKey.of(sel)).patterns[stack][layer, head]
    return QKV("model", list(q_tok), np.asarray(w.q_all, np.float64), np.asarray(w.k_all, np.float64),
               np.asarray(w.v_all, np.float64), layer=layer, head=head, causal=cfg.arch != "encoder",
               softmax=np.asarray(pattern[:n, :n], np.float64), rotated=bool(w.rope))

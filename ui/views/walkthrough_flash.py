"""The walk-through's section 7: FlashAttention stepped through tile by tile on the walked
head (lab/flash.py: the online softmax over key tiles, checked against the model's own
z = pattern · V), with the memory it holds and the arithmetic it does. The model runs in the
gate (`serving.run`, cached in ui/serving/walkthrough.py); figures come from viz_core.flash.
A fragment: moving the tile sliders reruns this section only.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

import lab.flash
import viz_core.flash
import viz_core.walkthrough
from viz_core.labels import plain_label

from ..figure_words import words
from ..i18n import t
from ..markup import md_escape
from ..page import explain
from ..serving.walkthrough import Controls, flash
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export

TILES = (1, 2, 4, 8, 16, 32, 64)
BIG = 32_768            # the context length the memory caption compares with


def terms() -> dict[str, str]:
    named = words("fa_term_", ("score", "running_max", "denominator", "tile_max", "not_read"))
    return {**named, "query": t("term_query"), "key": t("term_key")}


@st.fragment
def section(sel: Selection, c: Controls, q_tokens: list[str], k_tokens: list[str]) -> None:
    st.subheader(t("fa_title"))
    st.markdown(t("fa_intro"))
    c1, c2 = st.columns(2)
    with c1:
        tile = int(st.select_slider(t("fa_tile"), TILES, value=4, key="fa_tile"))
    try:
        run = flash(RunKey.of(sel), c.stack, c.layer, c.head, tile)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    n_tiles = len(run.steps)
    sig = (sel.model_key, sel.text, sel.target, c.stack, c.layer, c.head, tile)
    if st.session_state.get("_fa_sig") != sig:             # another head or tile size: open on the last tile
        st.session_state["_fa_sig"] = sig
        st.session_state["fa_step"] = n_tiles
    with c2:
        read = int(st.slider(t("fa_step"), 1, max(n_tiles, 2), key="fa_step", disabled=n_tiles < 2))
    read = min(read, n_tiles)
    q = min(c.query, run.n - 1)
    step = run.steps[read - 1]
    left, right = st.columns([3, 2])
    with left:
        figure_export.chart(viz_core.flash.tile_grid(run.scores, tile, tile, read, q_tokens[: run.n],
                                                     k_tokens[: run.m], query=q,
                              terms=terms(), title=t("fa_grid_title", head=c.head, b=tile)),
                 key="fa_grid", width="stretch")
    with right:
        labels = [t("fa_term_tile", a=s.k_start, b=s.k_stop - 1) for s in run.steps]
        figure_export.chart(viz_core.flash.running_stats(labels, np.array([s.tile_max[q] for s in run.steps]),
                                  np.array([s.m[q] for s in run.steps]), np.array([s.l[q] for s in run.steps]),
                                  current=read - 1, terms=terms(),
                                  title=t("fa_stats_title", q=plain_label(q, q_tokens[q]))),
                 key="fa_stats", width="stretch")
    diff = float(np.abs(step.o[q] - run.out[q]).max())
    st.markdown(t("fa_partial", k=read, T=n_tiles, q=md_escape(plain_label(q, q_tokens[q])), diff=diff))
    figure_export.chart(viz_core.walkthrough.vector_figure({"O / l": step.o[q], "softmax(s)·V": run.model_z[q]},
                              terms={"dim": t("wt_term_dim"), "value": t("wt_term_value")}),
             key="fa_partial", width="stretch")
    if run.error < run.tolerance:
        st.success(t("fa_check_ok", err=run.error, ref=run.error_reference), icon=":material/check_circle:")
    else:
        st.error(t("fa_check_bad", err=run.error))
    cost(run, tile)


def cost(run: lab.flash.FlashRun, tile: int) -> None:
    mem = run.memory()
    big = lab.flash.memory(BIG, BIG, tile, tile, run.d_head)
    left, right = st.columns([2, 3])
    with left:
        figure_export.chart(viz_core.flash.memory_bars({t("fa_mem_matrix"): mem["matrix"],
                                                        t("fa_mem_stats"): mem["statistics"],
                                 t("fa_mem_tile"): mem["score_tile"], t("fa_mem_tiles"): mem["qkvo_tiles"]},
                                title=t("fa_memory_title")), key="fa_memory", width="stretch")
    with right:
        st.markdown(t("fa_memory_caption", n=run.n, matrix=mem["matrix"], stats=mem["statistics"],
                      tile=mem["score_tile"], big=BIG, big_matrix=big["matrix"], big_stats=big["statistics"],
                      big_tile=big["score_tile"]))
        flops = run.flops()
        extra = flops["flash"] - flops["standard"]
        st.markdown(t("fa_flops", standard=flops["standard"], extra=extra, pct=extra / flops["standard"]))

"""The masks page's block-sparse tab: a mask decided per b × b block (local, global and seeded
random blocks), its block layout and the same mask on the sidebar's tokens, with the share
of blocks a kernel computes (lab/block_sparse.py). Drawn only: the model is not rerun here."""
from __future__ import annotations

import numpy as np
import streamlit as st

import viz_core.masks
from lab import block_sparse
from lab.block_sparse import MAX_BLOCK

from ..figure_words import mask_terms
from ..i18n import t
from ..links import bound, show_notices
from ..widgets import figure_export
from ..widgets.notes import misconception


def controls(n: int) -> tuple[int, int, int, int, int]:
    c1, c2, c3, c4, c5 = st.columns(5)
    with c1:
        b = int(bound(st.slider, t("bsp_block"), 1, min(MAX_BLOCK, 16), 2, key="bsp_b", url_default="2"))
    with c2:
        local = int(bound(st.slider, t("bsp_local"), 0, 4, 1, key="bsp_local", url_default="1"))
    with c3:
        glob = int(bound(st.slider, t("bsp_global"), 0, 4, 1, key="bsp_global", url_default="1"))
    with c4:
        rnd = int(bound(st.slider, t("bsp_random"), 0, 4, 0, key="bsp_random", url_default="0"))
    with c5:
        seed = int(bound(st.number_input, t("bsp_seed"), 0, 10_000, 0, step=1, key="bsp_seed", url_default="0"))
    return b, local, glob, rnd, seed


def view(tokens: list[str], stack: str, composed: np.ndarray, kinds: list[str]) -> None:
    """`composed`: the token-level mask of the page's composer ([n, n] bool), made of the patterns `kinds`."""
    st.markdown(t("bsp_intro"))
    b, local, glob, rnd, seed = controls(len(tokens))
    show_notices()
    causal = stack == "decoder"
    try:
        bs = block_sparse.block_sparse(len(tokens), b, local, glob, rnd, seed, causal)
    except ValueError as e:
        st.error(str(e))
        return
    m1, m2, m3 = st.columns(3)
    m1.metric(t("bsp_metric_share"), f"{bs.computed} / {bs.dense_blocks} ({bs.share:.0%})")
    m2.metric(t("bsp_metric_pairs"), f"{bs.pairs:,} ({bs.density:.0%})")
    m3.metric(t("bsp_metric_kernel"), f"{bs.kernel_pairs:,}")
    names = [t("bsp_block_label", a=i * b, z=min(len(tokens), (i + 1) * b) - 1) for i in range(bs.n_blocks)]
    left, right = st.columns([2, 3])
    with left:
        figure_export.chart(viz_core.masks.mask_figure(bs.blocks, names, title=t("bsp_layout_title", nb=bs.n_blocks, b=b),
                                                       terms=mask_terms()), key="bsp_layout", width="stretch")
    with right:
        figure_export.chart(viz_core.masks.mask_figure(bs.mask, tokens, title=t("bsp_tokens_title", n=bs.n),
                                                       terms=mask_terms()), key="bsp_tokens", width="stretch")
    st.caption(t("bsp_caption", computed=bs.computed, dense=bs.dense_blocks, share=bs.share,
                 causal=t("bsp_causal") if causal else "", kernel=bs.kernel_pairs, pairs=bs.pairs,
                 diag=t("bsp_diag") if causal else ""))
    composed = np.asarray(composed, dtype=bool)
    hit = block_sparse.touched(composed, b)
    misconception("block_sparse", t("bsp_mis_common"),
                  t("bsp_mis_shown", names=t("bsp_sep").join(t(f"mk_kind_{k}") for k in kinds) or t("mk_cost_full"), b=b, density=composed.mean(), share=hit.mean(),
                    touched=int(hit.sum()), total=hit.size))

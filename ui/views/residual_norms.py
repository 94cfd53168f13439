"""The residual page's "LayerNorm vs BatchNorm" view: the sidebar's text and a second one
as one padded batch (the batch the masks page builds, lab/masks.pad_rows), the
statistics each norm would use (lab/norms.py: per token vs per feature, and how padding
moves BatchNorm's), and a real norm's input against its output with DyT's tanh fitted.
Passes run in the gate (`serving.run_padded`, `serving.record`), cached in
ui/serving/residual.py; figures: viz_core.norms.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from viz_core import norms

from ..figure_words import words
from ..i18n import t
from ..links import index_slider
from ..model_names import site_label
from ..page import explain
from ..serving.residual import batch, scatter, scatters
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

AXES = ("layernorm", "rmsnorm", "batchnorm", "dyt")


def terms() -> dict[str, str]:
    keys = ("token", "feature", "mean", "bn_real", "bn_all", "added", "change", "ln_change", "bn_change", "input",
            "output", "fit", "line")
    return words("bn_term_", keys)


def view(sel: Selection, cfg) -> None:
    st.markdown(t("bn_intro"))
    st.dataframe(pd.DataFrame({t("bn_col_norm"): [t(f"bn_axis_{a}") for a in AXES],
                               t("bn_col_over"): [t(f"bn_over_{a}") for a in AXES],
                               t("bn_col_padding"): [t(f"bn_pad_{a}") for a in AXES]}),
                 hide_index=True, width="stretch", key="bn_axes")
    st.caption(t("bn_this_model", norm=t(f"bn_axis_{cfg.norm}")))
    misconception("rmsnorm_speed", t("bn_mis_rms_common"), t("bn_mis_rms_shown", d=cfg.d_model))
    if cfg.arch == "encoder-decoder":
        st.info(t("bn_encdec"), icon=":material/info:")
    else:
        padded_view(sel, cfg)
    scatter_view(sel)


def padded_view(sel: Selection, cfg) -> None:
    c1, c2 = st.columns([3, 1])
    with c1:
        text2 = st.text_input(t("bn_text2"), t("bn_text2_default"), key="bn_text2", max_chars=400)
    with c2:
        layer = index_slider(t("layer"), cfg.n_layers, "bn_layer")
    if not text2.strip():
        st.info(t("bn_empty_text2"), icon=":material/edit:")
        return
    try:
        b = batch(sel.model_key, sel.device, sel.text, text2, layer)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    st.markdown(t("bn_batch", n=b.n, a=b.lengths[0], b=b.lengths[1], d=b.x.shape[2], layer=layer))
    left, right = st.columns(2)
    with left:
        figure_export.chart(norms.token_stat_map(b.ln_std, b.valid, b.tokens, value_name="σ", title=t("bn_ln_title")),
                 key="bn_ln_map", width="stretch")
        st.caption(t("bn_ln_caption", err=b.ln_change))
    with right:
        figure_export.chart(norms.feature_stats(b.bn_mean_real, b.bn_mean_all, terms=terms(), title=t("bn_bn_title")),
                 key="bn_features", width="stretch")
        st.caption(t("bn_bn_caption", shift=b.bn_change))
    if len(b.extra) > 1:
        figure_export.chart(norms.padding_sweep(b.extra, b.sweep_bn, b.sweep_ln, terms=terms(),
                                                title=t("bn_sweep_title")),
                 key="bn_sweep", width="stretch")
        st.caption(t("bn_sweep_caption", k=b.extra[-1], bn=b.sweep_bn[-1], ln=max(b.sweep_ln)))
    misconception("addnorm", t("bn_mis_common"), t("bn_mis_shown", bn=b.bn_change, ln=b.ln_change))


def scatter_view(sel: Selection) -> None:
    st.markdown(f"**{t('bn_scatter_title')}**")
    try:
        items = scatters(RunKey.of(sel))
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    # open on the norm whose cloud bends most (where tanh beats a straight line by the most)
    best = int(np.argmax([s.r2_tanh - s.r2_line for s in items]))
    misconception("ln_rnn", t("bn_mis_rnn_common"), t("bn_mis_rnn_shown", k=len(items)))
    labels = [site_label(s.label) for s in items]
    pick = st.selectbox(t("bn_scatter_norm"), list(range(len(items))), index=best, key="bn_norm",
                        format_func=labels.__getitem__)
    try:
        s = scatter(RunKey.of(sel), items[pick].module)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    slope = float(s.x @ s.y / max(float(s.x @ s.x), 1e-300))
    figure_export.chart(norms.tanh_scatter(s.x, s.y, s.token, s.alpha, s.gain, slope, terms=terms(),
                             title=t("bn_scatter_fig", norm=site_label(s.label))), key="bn_scatter", width="stretch")
    st.caption(t("bn_scatter_caption", n=len(s.x), alpha=s.alpha, g=s.gain, r2=s.r2_tanh, r2l=s.r2_line,
                 err=s.formula_error))
    if s.kind == "dyt":
        st.caption(t("bn_scatter_dyt", alpha=s.model_alpha))
    misconception("dyt", t("bn_mis_dyt_common"), t("bn_mis_dyt_shown", alpha=s.alpha, g=s.gain, r2=s.r2_tanh))

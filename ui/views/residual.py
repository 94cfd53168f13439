"""The residual-stream page: the stream's norm and each sub-layer's contribution, the
statistics around every norm, Pre-LN vs Post-LN side by side, the logit lens, A/B and
ablations. Numbers come from the cached internals (ui/serving/cache.py, lab/residual.py)
and the views' own cached passes (ui/serving/residual.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
from lab import norms
from models.weights import zoo
from viz_core.labels import plain_labels

from .. import serving
from ..i18n import FORMULAS, t
from ..links import choice, show_notices
from ..markup import md_escape
from ..model_names import site_labels
from ..page import explain, internals_page, task_example
from ..serving import InternalsData, RunKey
from ..serving.figures import shared_figure
from ..serving.residual import stream_growth
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets import compare
from ..widgets.ablation import ablation_panel
from ..widgets.notes import misconception
from . import (residual_compression, residual_dual_residual, residual_input_layer, residual_ln_training,
               residual_norms)

VIEWS = ("input", "stream", "norms", "batchnorm", "prepost", "training", "dual", "lens", "compression", "compare",
         "ablation")
# the shipped twin checkpoints (training lab): same task, data and seed, pre-LN and post-LN
PAIR = ("toy:reverse-sinusoidal", "toy:reverse-sinusoidal-postln")
FALLBACK = "custom:gpt"


def render(sel: Selection) -> None:
    """The residual-stream page."""
    data, model = internals_page(sel, t("res_title"), t("res_intro"), serving.internals)
    body(data, sel, model.cfg)


@st.fragment
def body(data: InternalsData, sel: Selection, cfg) -> None:
    """The view choice and the chosen view (a fragment: switching views reruns only this)."""
    view = choice(st.radio, t("view"), VIEWS, param="rview", default="stream", horizontal=True,
                  labels={v: t(f"res_view_{v}") for v in VIEWS})
    show_notices()
    if view == "input":
        with st.container(key="in_view"):
            residual_input_layer.view(sel, cfg)
    elif view == "stream":
        stream_view(data, sel)
    elif view == "norms":
        norms_view(data, cfg)
    elif view == "batchnorm":
        with st.container(key="bn_view"):
            residual_norms.view(sel, cfg)
    elif view == "prepost":
        prepost_view(sel)
    elif view == "training":
        with st.container(key="lnt_view"):
            residual_ln_training.view(sel, cfg)
    elif view == "dual":
        with st.container(key="rd_view"):
            residual_dual_residual.view(sel, cfg)
    elif view == "lens":
        lens_view(data, cfg)
    elif view == "compression":
        with st.container(key="cr_view"):
            residual_compression.view(data, sel)
    elif view == "compare":
        compare.residual_ab(sel)
    else:
        ablation_panel(sel)


# ---- the stream and its contributions ------------------------------------------------------
def stream_view(data: InternalsData, sel: Selection) -> None:
    c = data.contrib
    key = RunKey.of(sel)
    figure_export.chart(shared_figure("res_norm", key, lambda: vz.value_heatmap(
        c["stream_norm"], site_labels(data.labels), data.tokens, title=t("res_norm_title"), value_name="‖x‖")),
        key="res_norm", width="stretch")
    st.caption(t("res_norm_caption"))
    options = ["mean", *range(len(data.tokens))]
    labels = {"mean": t("res_all_positions"), **dict(enumerate(plain_labels(data.tokens)))}   # this run's language
    pos = st.selectbox(t("res_position"), options, key="res_pos", format_func=labels.__getitem__)

    def contributions():
        norm = c["norm"].mean(1) if pos == "mean" else c["norm"][:, pos]
        cos = c["cos_stream"].mean(1) if pos == "mean" else c["cos_stream"][:, pos]
        return vz.contribution_chart(site_labels(data.labels), norm, cos, title=t("res_contrib_title"),
                                     terms={"norm": t("term_norm"), "cosine": t("res_cos_stream")}, kinds=data.labels)
    figure_export.chart(shared_figure("res_contrib", (key, pos), contributions), key="res_contrib", width="stretch")
    st.caption(t("res_contrib_caption"))
    if data.additive:
        st.success(t("res_sum_ok", err=data.decomp_error), icon=":material/functions:")
        st.latex(FORMULAS["res_sum"])
    else:
        st.info(t("res_sum_post"), icon=":material/info:")
        st.latex(FORMULAS["res_post"])


# ---- normalisation --------------------------------------------------------------------------
def norms_view(data: InternalsData, cfg) -> None:
    ns = data.norms
    st.markdown(t("res_norms_intro", kind=t(f"bn_axis_{cfg.norm}"), where=t(f"res_where_{cfg.norm_position}")))
    names = site_labels(ns.labels)
    series = {t("res_in_std"): (names, np.sqrt(ns.in_var).mean(1)),
              t("res_out_std"): (names, np.sqrt(ns.out_var).mean(1))}
    if cfg.norm == "rmsnorm":      # LayerNorm's scale is the input std (+eps): the same line
        series[t("res_scale")] = (names, ns.scale.mean(1))
        series[t("res_in_abs_mean")] = (names, np.abs(ns.in_mean).mean(1))
    values = np.concatenate([v for _, v in series.values()])
    values = values[np.isfinite(values) & (values > 0)]
    wide = values.size > 0 and values.max() / values.min() > 10        # a log axis only where it helps
    figure_export.chart(vz.lines_chart(series, title=t("res_norms_title"), y_name=t("res_std"), log_y=bool(wide)),
             key="res_norms", width="stretch")
    table = pd.DataFrame({
        t("res_col_norm"): names,
        t("res_col_in_mean"): ns.in_mean.mean(1), t("res_col_in_var"): ns.in_var.mean(1),
        t("res_col_scale"): ns.scale.mean(1),
        t("res_col_out_mean"): ns.out_mean.mean(1), t("res_col_out_var"): ns.out_var.mean(1)})
    if cfg.norm == "dyt":
        table.insert(4, "α", ns.alpha)                                  # tanh(α x): DyT's only "scale"
    st.dataframe(table, hide_index=True, width="stretch", key="res_norms_table")
    st.caption(t("res_norms_caption"))
    st.latex(FORMULAS[f"norm_{cfg.norm}"])
    if cfg.norm == "layernorm":
        biased, unbiased = norms.variance_check(ns, cfg.d_model, cfg.norm_eps)
        misconception("variance", t("res_mis_var_common"),
                      t("res_mis_var_shown", eps=cfg.norm_eps, biased=biased, unbiased=unbiased))


# ---- pre-LN vs post-LN -------------------------------------------------------------------------
def _pair_keys() -> tuple[str, str, bool]:
    """The shipped pre/post twins when available, else two random GPT-2-style twins."""
    entries = [serving.entry(k) for k in PAIR]
    if all(e is not None and e.available for e in entries):
        return PAIR[0], PAIR[1], True
    return FALLBACK, FALLBACK, False


def prepost_view(sel: Selection) -> None:
    pre_key, post_key, shipped = _pair_keys()
    text = sel.text
    if shipped:
        text = (task_example(pre_key) or (sel.text,))[0]
        st.caption(t("res_pair_shipped", text=md_escape(text)))
    else:
        st.info(t("res_pair_random"), icon=":material/casino:")
    try:
        pre, pre_tokens = stream_growth(pre_key, sel.device, text, False)
        post, post_tokens = stream_growth(post_key, sel.device, text, not shipped)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    series = {t("res_pre_stream"): (site_labels(pre.steps), pre.stream),
              t("res_post_stream"): (site_labels(post.steps), post.stream)}
    if post.unnormed is not None:
        series[t("res_post_unnormed")] = (site_labels(post.steps[1:]), post.unnormed)
    left, right = st.columns([3, 2])
    with left:
        figure_export.chart(vz.lines_chart(series, title=t("res_prepost_title"), y_name=t("res_norm_axis")),
                 key="res_prepost", width="stretch")
    with right:
        # trained twins: from the embedding to the last layer. Random twins start from
        # N(0, 0.02) embeddings that a post-LN norm blows up to ~√d at once, so there the
        # growth is counted from the first layer's output
        start = 0 if shipped else 1
        what = "embed" if shipped else "first"
        st.metric(t(f"res_growth_pre_{what}"), f"×{pre.growth(start):.2f}")
        st.metric(t(f"res_growth_post_{what}"), f"×{post.growth(start):.2f}")
    # the two models side by side, token by token, on one colour scale
    top = float(max(pre.per_token.max(), post.per_token.max()))
    cols = st.columns(2)
    for col, res, tokens, key, name in ((cols[0], pre, pre_tokens, "res_pre_map", "res_pre_stream"),
                                        (cols[1], post, post_tokens, "res_post_map", "res_post_stream")):
        with col:
            figure_export.chart(vz.value_heatmap(res.per_token, site_labels(res.steps), tokens, title=t(name),
                                      value_name="‖x‖", zmin=0.0, zmax=top), key=key, width="stretch")
    st.markdown(t("res_ex_prepost"))
    c1, c2 = st.columns(2)
    c1.latex(FORMULAS["res_pre"])
    c2.latex(FORMULAS["res_post"])
    original = zoo.PRESETS["transformer"][2].norm_position
    misconception("postln", t("res_mis_postln_common"),
                  t("res_mis_postln_shown", where=t(f"norm_{original}"), pre=pre.growth(start),
                    post=post.growth(start)))


# ---- logit lens -----------------------------------------------------------------------------
def lens_view(data: InternalsData, cfg) -> None:
    if data.lens is None:
        st.info(t("res_lens_unavailable"), icon=":material/visibility_off:")
        return
    lens = data.lens
    shown = choice(st.radio, t("res_lens_colour"), ("top", "final"), param="lens", default="top", horizontal=True,
                   labels={"top": t("res_lens_top"), "final": t("res_lens_final")})
    z = lens.top_probs[..., 0] if shown == "top" else lens.final_token_prob
    text = [[cell[0] for cell in row] for row in data.lens_tokens]
    fig = vz.value_heatmap(z, site_labels(lens.labels), data.tokens, title=t("res_lens_title"),
                           value_name=t("term_probability"),
                           zmin=0.0, zmax=1.0, text=text)
    figure_export.chart(fig, key="res_lens", width="stretch")
    st.caption(t("res_lens_caption"))
    labels = plain_labels(data.tokens)
    pos = st.selectbox(t("res_position"), list(range(len(data.tokens))), index=len(data.tokens) - 1, key="lens_pos",
                       format_func=labels.__getitem__)
    rows = {t("layer"): site_labels(lens.labels)}
    for j in range(lens.top_ids.shape[-1]):
        rows[f"#{j + 1}"] = [f"{vz.visible_label(data.lens_tokens[i][pos][j])} ({lens.top_probs[i, pos, j]:.3g})"
                             for i in range(len(lens.labels))]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="lens_table")
    if cfg.arch == "encoder":
        st.caption(t("res_lens_encoder"))
    st.latex(FORMULAS["lens"])

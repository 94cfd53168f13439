"""The walk-through's section 6: why the scores are divided by √d_k, measured on the
walked head (lab/scaling.py: the variance of q·k, one query's softmax with and without
the division, the whole model without it, attention's nonlinearity), with the notes on
the two common explanations that the numbers contradict. The model runs in the gate
(`serving.run`, cached in ui/serving/walkthrough.py); figures come from viz_core.scaling.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
import lab.scaling
import viz_core.scaling
from viz_core.labels import plain_label

from ..figure_words import words
from ..i18n import t
from ..markup import md_escape
from ..page import explain
from ..serving.walkthrough import Controls, random_curve, study
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception


def terms() -> dict[str, str]:
    named = words("sc_term_", ("d_k", "variance", "random", "random_scaled", "head", "head_scaled", "weight"))
    return {**named, "with": t("sc_with"), "without": t("sc_without"), "key": t("term_key")}


def section(sel: Selection, c: Controls, q_tokens: list[str], k_tokens: list[str]) -> None:
    st.subheader(t("sc_title"))
    st.markdown(t("sc_intro"))
    try:
        s = study(RunKey.of(sel), c.stack, c.layer, c.head, c.query)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    h = s.head
    curve = random_curve()
    left, right = st.columns(2)
    with left:
        figure_export.chart(viz_core.scaling.variance_figure(curve.dims, curve.var, curve.stderr, curve.var_scaled,
                                    head=(h.d_k, h.var_dots, h.var_scaled), terms=terms(),
                                    title=t("sc_variance_title")), key="sc_variance", width="stretch")
        st.caption(t("sc_variance_caption", samples=curve.samples, dk=h.d_k, var=h.var_dots, scaled=h.var_scaled,
                     vq=h.var_q, vk=h.var_k))
    q_plain = plain_label(c.query, q_tokens[c.query])          # a figure title escapes it itself
    q_label = md_escape(q_plain)
    with right:
        weights = [np.where(h.with_scale.scores > -np.inf, r.weights, np.nan) for r in (h.with_scale, h.without)]
        figure_export.chart(viz_core.scaling.softmax_compare(*weights, k_tokens, terms=terms(),
                                                             title=t("sc_query_title", q=q_plain)),
                 key="sc_softmax", width="stretch")
        rows = [{t("sc_col_row"): t(name), t("sc_col_max"): r.max_weight, t("sc_col_entropy"): r.entropy,
                 t("sc_col_grad_s"): r.grad_scores, t("sc_col_grad_dot"): r.grad_dots}
                for name, r in (("sc_with", h.with_scale), ("sc_without", h.without))]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="sc_table")
        st.caption(t("sc_query_caption", err=h.model_error))
    misconception("mean", t("sc_mis_mean_common"),
                  t("sc_mis_mean_shown", v0=curve.var[0], d0=int(curve.dims[0]), v1=curve.var[-1],
                    d1=int(curve.dims[-1]), s1=curve.var_scaled[-1]))
    misconception("paper", t("sc_mis_paper_common"),
                  t("sc_mis_paper_shown", samples=curve.samples, v1=curve.var[-1], d1=int(curve.dims[-1]),
                    var=h.var_dots, dk=h.d_k))
    misconception("scale01", t("sc_mis01_common"),
                  t("sc_mis01_shown", lo=h.scaled_range[0], hi=h.scaled_range[1], scaled=h.var_scaled,
                    raw=h.var_dots))
    misconception("gradients", t("sc_mis_grad_common"),
                  t("sc_mis_grad_shown", q=q_label, w0=h.without.max_weight, g0=h.without.grad_scores,
                    w1=h.with_scale.max_weight, g1=h.with_scale.grad_scores))
    ablation(s, sel)
    misconception("linear", t("sc_mis_linear_common"), t("sc_mis_linear_shown", dev=s.nonlinearity))
    misconception("gradrisk", t("sc_mis_gradrisk_common"),
                  t("sc_mis_gradrisk_shown", dev=s.nonlinearity, g1=h.with_scale.grad_scores, g0=h.without.grad_scores))


def ablation(s: lab.scaling.ScalingStudy, sel: Selection) -> None:
    a = s.ablation
    st.markdown(f"**{t('sc_ablation_title')}**")
    st.markdown(t("sc_ablation_text", sqrt=math.sqrt(s.head.d_k)))
    layers = [f"L{i}" for i in range(len(a.entropy))]
    left, right = st.columns(2)
    with left:
        figure_export.chart(vz.lines_chart({t("sc_with"): (layers, a.entropy),
                                            t("sc_without"): (layers, a.entropy_unscaled)},
                                title=t("sc_entropy_title", stack=t(f"stack_{a.stack}")),
                                y_name=t("sc_col_entropy")), key="sc_entropy", width="stretch")
    with right:
        figure_export.chart(vz.lines_chart({t("sc_with"): (layers, a.max_weight),
                                 t("sc_without"): (layers, a.max_weight_unscaled)},
                                title=t("sc_maxw_title"), y_name=t("sc_col_max")), key="sc_maxw",
                 width="stretch")
    if a.logits:
        st.markdown(t("sc_change_logits", kl=float(a.change["kl"].mean()), changed=int(a.change["changed"].sum()),
                      n=len(a.change["kl"])))
    else:
        st.markdown(t("sc_change_hidden", cos=float(a.change["cosine"].mean()),
                      rel=float(a.change["rel_change"].mean())))

"""The FFN page's "mixture of experts" view: the loaded model's FFN of one layer cut along
d_ff into E experts, a seeded (untrained) router sending every token of the sidebar's text
to its top-k experts: the routing table, the load per expert with the balance loss, and the
parameters and compute against the dense FFN (lab/experts.py, via ui/serving/ffn.py)."""
from __future__ import annotations

import numpy as np
import streamlit as st

import viz_core.positional
from lab.experts import MAX_EXPERTS
from viz_core.labels import plain_labels

from ..i18n import t
from ..links import bound, show_notices
from ..markup import markdown_table
from ..page import explain
from ..serving.ffn import routed
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.model_loader import sci
from ..widgets.notes import misconception

MAX_ROWS = 64          # tokens listed in the routing table


def section(sel: Selection, cfg, layer: int) -> None:
    st.markdown(t("fe_intro", layer=layer))
    top_e = max(2, min(MAX_EXPERTS, 16, cfg.d_ff))
    c1, c2, c3 = st.columns(3)
    with c1:
        e = int(bound(st.slider, t("fe_experts"), 2, top_e, min(8, top_e), key="fe_e", url_default=str(min(8, top_e))))
    with c2:
        k = int(bound(st.slider, t("fe_topk"), 1, 4, 2, key="fe_k", url_default="2"))
    with c3:
        seed = int(bound(st.number_input, t("fe_seed"), 0, 10_000, 0, step=1, key="fe_seed", url_default="0",
                         help=t("fe_seed_help")))
    show_notices()
    k = min(k, e)
    try:
        r, tokens = routed(RunKey.of(sel), layer, e, k, seed)
    except (ValueError, RuntimeError) as err:
        st.error(t("run_failed", error=explain(err)))
        return
    params = sum(r.expert_params) + r.router_params
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("fe_metric_params"), f"{params:,}")
    m2.metric(t("fe_metric_active"), f"{r.active_params:,.0f}")
    m3.metric(t("fe_metric_compute"), f"{r.moe_flops / r.dense_flops:.1%}")
    m4.metric(t("fe_metric_diff"), f"{r.rel_diff:.3g}")
    st.caption(t("fe_compute_caption", dense=r.dense_flops, moe=r.moe_flops, all=sci(r.all_rel_diff), diff=r.rel_diff))
    names = [t("fe_expert", e=i) for i in range(e)]
    fig = viz_core.positional.bars(r.load.astype(np.float64), names, title=t("fe_load_title"), y_name=t("fe_load_y"),
                                   text_fmt=".0f")
    figure_export.chart(fig, key="fe_load", width="stretch")
    st.caption(t("fe_load_caption", n=r.n, k=k, total=int(r.load.sum()), ideal=r.ideal_load,
                 busiest=int(r.load.max()), idlest=int(r.load.min()), aux=r.aux_loss))
    st.markdown(f"**{t('fe_table_title')}**")
    labels = plain_labels(tokens[:r.n])
    rows = [[labels[i], *[f"{names[r.chosen[i, j]]} ({r.gates[i, j]:.2f})" for j in range(k)],
             f"{r.probs[i].max():.2f}"] for i in range(min(r.n, MAX_ROWS))]
    st.markdown(markdown_table([t("fe_col_token"), *[t("fe_col_choice", j=j + 1) for j in range(k)], t("fe_col_top")],
                               rows))
    misconception("ffn_experts", t("fe_mis_common"),
                  t("fe_mis_shown", e=e, k=k, params=params, active=round(r.active_params),
                    ratio=r.moe_flops / r.dense_flops))

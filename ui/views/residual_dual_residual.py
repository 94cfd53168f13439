"""The residual page's ResiDual view: Post-LN, Pre-LN and ResiDual (two residual streams)
wired on one seeded, untrained stack at the model's width and run on the sidebar's token
vectors: each layer's gradient norm and each layer's share of the stream it joins
(lab/dual_residual.py, via ui/serving/dual_residual.py)."""
from __future__ import annotations

import streamlit as st

from lab.dual_residual import WIRINGS
from viz_core.residual import lines_chart

from ..i18n import t
from ..links import bound, show_notices
from ..markup import markdown_table
from ..page import explain
from ..serving.dual_residual import dual_wirings
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception


def view(sel: Selection, cfg) -> None:
    c1, c2 = st.columns(2)
    with c1:
        layers = int(bound(st.slider, t("rd_layers"), 2, 24, 12, key="rd_layers", url_default="12"))
    with c2:
        gain = float(bound(st.select_slider, t("rd_gain"), [0.5, 1.0, 2.0, 4.0, 8.0], 4.0, key="rd_gain",
                           url_default="4.0", help=t("rd_gain_help")))
    show_notices()
    try:
        w, n, d = dual_wirings(RunKey.of(sel), layers, gain)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    st.markdown(t("rd_intro", layers=layers, d=d, n=n))
    xs = [t("rd_layer", i=i) for i in range(layers)]
    left, right = st.columns(2)
    with left:
        figure_export.chart(lines_chart({t(f"rd_wiring_{k}"): (xs, w[k].grad_norm) for k in WIRINGS},
                                        title=t("rd_grad_title"), y_name=t("rd_grad_y"), log_y=True),
                            key="rd_grad", width="stretch")
    with right:
        figure_export.chart(lines_chart({t(f"rd_wiring_{k}"): (xs, w[k].share) for k in WIRINGS},
                                        title=t("rd_share_title"), y_name=t("rd_share_y")),
                            key="rd_share", width="stretch")
    st.markdown(markdown_table([t("rd_col_wiring"), t("rd_col_spread"), t("rd_col_first"), t("rd_col_last")],
                               [[t(f"rd_wiring_{k}"), f"{w[k].spread:.3g}", f"{w[k].share[0]:.3g}",
                                 f"{w[k].share[-1]:.3g}"] for k in WIRINGS]))
    st.caption(t("rd_caption"))
    misconception("dual_residual", t("rd_mis_common"),
                  t("rd_mis_shown", pre_last=w["pre"].share[-1], pre_first=w["pre"].share[0],
                    post_last=w["post"].share[-1]))

"""The positional lab's "RoPE's cost" section: the position work of one forward pass (RoPE's
rotation of q and k in every layer, an additive table once, nothing) timed live at the
sidebar's model's shape and text length, beside that model's whole forward pass, with the
operations counted (lab/rope_cost.py, via ui/serving/positional.py `position_cost`)."""
from __future__ import annotations

import numpy as np
import streamlit as st

import viz_core.positional
from lab.rope_cost import SCHEMES

from ..figure_words import scheme_label
from ..i18n import t
from ..links import bound, show_notices
from ..markup import markdown_table
from ..page import explain
from ..serving.gate import load_model
from ..serving.positional import position_cost
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception


def duration(seconds: float) -> str:
    """0 s, 12.3 µs, 4.56 ms, 1.2 s."""
    if seconds == 0:
        return "0"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def section(sel: Selection) -> None:
    c1, c2 = st.columns([3, 1])
    with c1:
        repeats = int(bound(st.slider, t("rc_repeats"), 5, 200, 30, key="rc_repeats", url_default="30"))
    with c2:
        st.button(t("rc_again"), key="rc_again")                    # a click reruns: a fresh measurement
    show_notices()
    try:
        cost, own = position_cost(RunKey.of(sel), repeats)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    s = cost.shape
    st.caption(t("rc_intro", model=sel.model_label, layers=s.n_layers, heads=s.n_heads, kv=s.n_kv_heads,
                 d_head=s.d_head, d=s.d_model, n=s.n, own=scheme_label(own)))
    fwd = cost.forward
    rows = [[t(f"rc_scheme_{k}"), f"{cost.ops[k]:,}", duration(cost.seconds[k]),
             f"{cost.seconds[k] / fwd:.2%}" if fwd else "–"] for k in SCHEMES]
    rows.append([t("rc_scheme_forward"), "", duration(fwd) if fwd else "–", "100%" if fwd else "–"])
    m1, m2, m3 = st.columns(3)
    m1.metric(t("rc_metric_ratio"), f"{cost.ratio:.1f}×")
    m2.metric(t("rc_metric_ops"), f"{cost.ops['rope'] / max(cost.ops['table'], 1):.0f}×")
    m3.metric(t("rc_metric_share"), f"{cost.seconds['rope'] / fwd:.1%}" if fwd else "–")
    if not fwd:
        st.info(t("rc_no_forward"))
    left, right = st.columns([2, 3])
    with left:
        fig = viz_core.positional.bars(np.array([cost.seconds[k] * 1e6 for k in SCHEMES]),
                                       [t(f"rc_scheme_{k}") for k in SCHEMES], title=t("rc_chart_title"),
                                       y_name=t("rc_chart_y"), text_fmt=".4g")
        figure_export.chart(fig, key="rc_chart", width="stretch")
    with right:
        st.markdown(markdown_table([t("rc_col_scheme"), t("rc_col_ops"), t("rc_col_time"), t("rc_col_share")], rows))
    model, _ = load_model(sel.model_key, sel.device)
    device = str(next(model.parameters()).device)
    st.caption(t("rc_caption", repeats=cost.repeats, device=device.upper(), layers=s.n_layers))
    if fwd:
        misconception("rope_cost", t("rc_mis_common"),
                      t("rc_mis_shown", ops=cost.ops["rope"] / max(cost.ops["table"], 1), ratio=cost.ratio,
                        share=cost.seconds["rope"] / fwd))

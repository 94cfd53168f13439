"""The walk-through's fused-kernel section: the layer's attention as the unfused chain
(scores, mask, softmax, × V) and as one call to torch's scaled_dot_product_attention, both
checked against the model's hook output and timed live on the sidebar's text and longer
repeats of it (lab/fused.py, via ui/serving/fused.py)."""
from __future__ import annotations

import numpy as np
import streamlit as st

import viz_core.positional

from ..i18n import t
from ..links import bound
from ..markup import markdown_table
from ..page import explain
from ..serving.fused import fused_timings
from ..serving.gate import load_model
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.model_loader import sci, size_words
from ..widgets.notes import misconception


def duration(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def section(sel: Selection, c) -> None:
    st.subheader(t("fu_title"))
    model, _ = load_model(sel.model_key, sel.device)
    device = str(next(model.parameters()).device).upper()
    st.markdown(t("fu_intro", layer=c.layer, device=device))
    c1, c2 = st.columns([3, 1])
    with c1:
        runs = int(bound(st.slider, t("fu_runs"), 3, 50, 10, key="fu_runs", url_default="10"))
    with c2:
        st.button(t("fu_again"), key="fu_again")                    # a click reruns: a fresh measurement
    try:
        rows = fused_timings(RunKey.of(sel), c.stack, c.layer, runs)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    first, last = rows[0], rows[-1]
    st.caption(t("fu_check", model=sci(first.model_diff or 0.0), diff=sci(max(r.max_diff for r in rows))))
    left, right = st.columns([2, 3])
    with left:
        fig = viz_core.positional.bars(np.array([r.ratio for r in rows]), [f"{r.n}×{r.m}" for r in rows],
                                       title=t("fu_chart_title"), y_name=t("fu_chart_y"))
        figure_export.chart(fig, key="fu_chart", width="stretch")
    with right:
        st.markdown(markdown_table(
            [t("fu_col_len"), t("fu_col_unfused"), t("fu_col_fused"), t("fu_col_ratio"), t("fu_col_matrix"),
             t("fu_col_diff")],
            [[t("fu_row_len", n=r.n, m=r.m, r=r.repeat), duration(r.unfused_s), duration(r.fused_s), f"{r.ratio:.2f}×",
              size_words(r.matrix_bytes), sci(r.max_diff)] for r in rows]))
    st.caption(t("fu_caption", runs=runs, device=device))
    misconception("fused", t("fu_mis_common"),
                  t("fu_mis_shown", diff=sci(max(r.max_diff for r in rows)), n=last.n, m=last.m,
                    bytes=size_words(last.matrix_bytes), ratio=last.ratio))

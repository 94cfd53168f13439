"""The generation page's "training vs generation" section: the sidebar's text as teacher-
forced training examples from ONE causal pass (the shifted targets and each example's
loss) beside the same model run token by token with the KV cache, and the difference of
their logits (lab/teacher_forcing.py, in the gate: `serving.run`, cached in
ui/serving/generate.py; figures: viz_core.teacher_forcing).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
from lab import generate
from viz_core import teacher_forcing

from .. import serving
from ..figure_words import words
from ..i18n import t
from ..page import explain
from ..serving.generate import forcing
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception


def terms() -> dict[str, str]:
    return words("tf_term_", ("context", "target", "example", "loss")) | {"diff": t("tf_diff")}


def section(sel: Selection, arch: str) -> None:
    st.subheader(t("tf_title"))
    st.markdown(t("tf_intro", source=t("tf_source") if arch == "encoder-decoder" else ""))
    try:
        result = forcing(RunKey.of(sel))
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    if result is None:
        st.info(t("tf_short"), icon=":material/edit:")
        return
    r, tokens = result
    n = len(r.loss)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(t("tf_one_pass"), t("tf_one_pass_value", n=n))
    c2.metric(t("tf_mean_loss"), t("tf_mean_loss_value", loss=r.mean_loss))
    c3.metric(t("tf_cached"), t("tf_cached_value", n=r.n_passes_cached))
    c4.metric(t("tf_diff"), f"{r.max_diff:.1e}")
    figure_export.chart(teacher_forcing.examples_matrix(r.loss, tokens, terms=terms(), title=t("tf_matrix_title", n=n)),
             key="tf_matrix", width="stretch")
    st.caption(t("tf_loss_caption", n=n, loss=r.mean_loss))
    _, tok = serving.load_model(sel.model_key, sel.device)
    shown = [vz.visible_label(s) for s in tokens]
    st.dataframe(pd.DataFrame({
        t("tf_col_pos"): np.arange(n), t("tf_col_reads"): shown[:-1], t("tf_col_target"): shown[1:],
        t("tf_col_prob"): r.target_prob, t("tf_col_loss"): r.loss,
        t("tf_col_top_parallel"): [vz.visible_label(s) for s in generate.token_texts(tok, r.top_parallel[:-1])],
        t("tf_col_top_cached"): [vz.visible_label(s) for s in generate.token_texts(tok, r.top_cached[:-1])],
        t("tf_col_diff"): r.diff[:-1]}), hide_index=True, width="stretch", key="tf_table")
    figure_export.chart(teacher_forcing.position_diffs(r.diff, tokens, terms=terms(), title=t("tf_diff_title")),
                        key="tf_diffs",
             width="stretch")
    st.caption(t("tf_diff_caption", max=r.max_diff, agree=int((r.top_parallel == r.top_cached).sum()),
                 n=len(r.ids)))
    misconception("parallel", t("tf_mis_common"), t("tf_mis_shown", n=n, steps=r.n_passes_cached, diff=r.max_diff))
    misconception("sampling", t("tf_mis_sampling_common"), t("tf_mis_sampling_shown", n=n, loss=r.mean_loss))

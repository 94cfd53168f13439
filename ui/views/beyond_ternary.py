"""Beyond softmax, section 'ternary': one weight matrix of the selected model quantised
the BitNet b1.58 way (absmean, lab/ternary.py): the histogram before / after, the share
of each code, the error of the model with that matrix replaced on the current text (one
run through the gate, cached in ui/serving/beyond.py), and the bytes per weight and of the whole model
(figure: viz_core/ternary.py; strings: ui/strings/beyond_ternary.py)."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

import lab.ternary
import viz_core.ternary
from models.trace import Stack

from ..figure_words import words
from ..i18n import FORMULAS, t
from ..links import choice, index_slider, show_notices, stack_choice
from ..page import explain, require_model, require_text
from ..serving.beyond import Summary, errors, matrix_view, sizes
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception


def render(sel: Selection) -> None:
    st.header(t("bxm_tern_title"))
    st.markdown(t("bxm_tern_intro"))
    st.latex(FORMULAS["bxm_absmean"])
    model, _ = require_model(sel)
    require_text(sel)
    cfg = model.cfg
    mats = lab.ternary.matrices_of(model)
    c1, c2, c3 = st.columns([2, 3, 3])
    with c1:
        stack = stack_choice(Stack.blocks_of(cfg.arch), t("bxm_t_stack"), "bxm_stack")
    with c2:
        layer = index_slider(t("bxm_t_layer"), cfg.n_layers, "bxm_layer")
    with c3:
        matrix = choice(st.selectbox, t("bxm_t_matrix"), mats, param="bxm_matrix", default="W_Q",
                        labels={m: t(f"bxm_mat_{m}") for m in mats})
    show_notices()                  # link values these controls could not use
    terms = words("bxm_term_", viz_core.ternary.TERNARY_TERMS)
    rows, cols = lab.ternary.linear(model, stack, layer, matrix).weight.shape
    title = t("bxm_t_hist_title", matrix=t(f"bxm_mat_{matrix}"), layer=layer, rows=rows, cols=cols)
    fig, s = matrix_view(sel.model_key, sel.device, stack, layer, matrix, json.dumps(terms, sort_keys=True), title)
    figure_export.chart(fig, key="bxm_ternary_hist", width="stretch")
    st.markdown(t("bxm_t_summary", gamma=s.gamma, neg=s.shares[0], zero=s.shares[1], pos=s.shares[2],
                  werr=s.weight_error, serr=s.sign_error))
    misconception("bxm_adds", t("bxm_mis_adds_common"),
                  t("bxm_mis_adds_shown", rows=s.rows, cols=s.cols, adds=round(s.rows * s.cols * (1 - s.shares[1])),
                    mults=s.rows + s.cols, gamma=s.gamma))
    run_errors(sel, stack, layer, matrix)
    bits_table(sel, s)
    st.info(t("bxm_t_after_training"), icon=":material/school:")


def run_errors(sel: Selection, stack: str, layer: int, matrix: str) -> None:
    st.subheader(t("bxm_t_err_title"))
    try:
        err, n = errors(RunKey.of(sel), stack, layer, matrix)
    except (ValueError, RuntimeError) as e:
        st.warning(t("bxm_t_failed", error=explain(e)), icon=":material/error:")
        return
    st.markdown(t("bxm_t_err_intro", n=n))
    rows = [(t("bxm_t_err_matrix"), err.matrix_out), (t("bxm_t_err_layer", layer=layer), err.layer_out),
            (t("bxm_t_err_final"), err.final)]
    st.dataframe(pd.DataFrame(rows, columns=[t("bxm_t_col_what"), t("bxm_t_col_err")]), hide_index=True,
                 width="stretch", column_config={t("bxm_t_col_err"): st.column_config.NumberColumn(format="percent")})


def bits_table(sel: Selection, s: Summary) -> None:
    st.subheader(t("bxm_t_bits_title"))
    mb = sizes(sel.model_key, sel.device)
    per = lab.ternary.matrix_bytes(s.rows * s.cols)
    whole = {"fp32": mb.fp32, "fp16": mb.fp16, "ternary": mb.ternary_ideal, "packed": mb.ternary_packed}
    rows = [{t("bxm_t_col_format"): t(f"bxm_t_fmt_{f}"), t("bxm_t_col_bits"): lab.ternary.BITS[f],
             t("bxm_t_col_matrix"): per[f], t("bxm_t_col_model"): whole[f]} for f in lab.ternary.BITS]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={t("bxm_t_col_bits"): st.column_config.NumberColumn(format="%.3f"),
                                t("bxm_t_col_matrix"): st.column_config.NumberColumn(format="localized"),
                                t("bxm_t_col_model"): st.column_config.NumberColumn(format="localized")})
    st.caption(t("bxm_t_bits_note", mats=mb.n_matrices, tern=mb.ternary_params, params=mb.params))

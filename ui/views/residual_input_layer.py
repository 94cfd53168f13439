"""The residual page's "input layer" view: for the sidebar's text, the embedding rows the
model looks up, the segment and position vectors it adds, their sizes per token, and
what Vaswani et al.'s ×√d_model would make of them (lab/input_layer.py; the pass runs in
the gate, `serving.run`, cached in ui/serving/residual.py; the figure:
viz_core.input_layer.input_parts).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

import lab.input_layer
import viz_core as vz
import viz_core.input_layer
from models.trace import Stack

from ..i18n import t
from ..links import stack_choice
from ..page import explain
from ..serving.residual import input_layer
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

ADDED = ("learned", "sinusoidal")


def view(sel: Selection, cfg) -> None:
    st.markdown(t("res_in_intro"))
    stack = stack_choice(Stack.blocks_of(cfg.arch), t("res_in_stack"), "in_stack")
    try:
        data, tokens = input_layer(RunKey.of(sel), stack)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    scaled = st.toggle(t("res_in_show_scaled", s=math.sqrt(cfg.d_model)), False, key="in_scaled")
    parts = {t("res_in_token"): data.token_norm}
    if scaled:
        parts[t("res_in_scaled")] = data.scaled_norm
    if data.segment_norm is not None:
        parts[t("res_in_segment")] = data.segment_norm
    if data.position_norm is not None:
        parts[t("res_in_position")] = data.position_norm
    parts[t("res_in_sum")] = data.sum_norm
    figure_export.chart(viz_core.input_layer.input_parts(tokens, parts, terms={"norm": t("term_norm")},
                                                         title=t("res_in_title")),
             key="in_parts", width="stretch")
    table = {t("res_in_col_token"): [vz.visible_label(s) for s in tokens], "id": data.ids,
             t("res_in_token"): data.token_norm}
    if data.segment_norm is not None:
        table[t("res_in_segment")] = data.segment_norm
    if data.position_norm is not None:
        table[t("res_in_position")] = data.position_norm
        table[t("res_in_ratio")] = data.position_ratio
        table[t("res_in_cos")] = data.cos_token_position
    table[t("res_in_sum")] = data.sum_norm
    table[t("res_in_block")] = data.block_input_norm
    st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch", key="in_table")
    st.caption(t("res_in_check", err=data.lookup_error, sum_err=data.sum_error))
    misconception("embedding_table", t("res_in_mis_table_common"),
                  t("res_in_mis_table_shown", v=cfg.vocab_size, d=cfg.d_model, lo=int(min(data.ids)),
                    hi=int(max(data.ids))))
    explain_parts(data, cfg)


def explain_parts(data: lab.input_layer.InputLayer, cfg) -> None:
    d = cfg.d_model
    if cfg.positional in ADDED:
        ratio = float(np.median(data.position_ratio))
        st.markdown(t("res_in_added", scheme=t(f"pos_{cfg.positional}"), ratio=ratio))
    else:
        st.info(t("res_in_not_added", scheme=t(f"pos_{cfg.positional}")), icon=":material/info:")
    if data.segment_norm is not None:
        st.markdown(t("res_in_segments"))
    if cfg.embed_norm:
        st.markdown(t("res_in_embed_norm", before=float(data.sum_norm.mean()),
                      after=float(data.block_input_norm.mean())))
    st.markdown(t("res_in_sqrt", s=math.sqrt(d), d=d, pe=math.sqrt(d / 2), std=data.embed_std,
                  row=data.embed_std * math.sqrt(d), mean=float(data.token_norm.mean()),
                  scaled=float(data.scaled_norm.mean())))
    misconception("embed_scale", t("res_in_mis_scale_common"),
                  t("res_in_mis_scale_shown", pe=math.sqrt(d / 2), mean=float(data.token_norm.mean()),
                    scaled=float(data.scaled_norm.mean())))

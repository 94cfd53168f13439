"""The FFN page's "split across devices" view: the loaded model's FFN of one layer cut along
d_ff into k blocks (columns of W_in, rows of W_out), each block's partial output on the
sidebar's text, their sum against the model's own FFN output, the cut along d_model for
contrast, and what each device holds and makes (lab/sharding.py, via ui/serving/ffn.py)."""
from __future__ import annotations

import streamlit as st

from lab.sharding import MAX_DEVICES

from ..i18n import formula, t
from ..links import bound, show_notices
from ..markup import markdown_table
from ..page import explain
from ..serving.ffn import sharded
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets.model_loader import sci, size_words
from ..widgets.notes import misconception

DEFAULT_K = 4
ACT_NAMES = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU", "silu": "SiLU", "swiglu": "SwiGLU",
             "geglu": "GeGLU", "geglu_exact": "GeGLU"}


def section(sel: Selection, cfg, layer: int) -> None:
    act = ACT_NAMES.get(cfg.activation, cfg.activation)
    st.caption(t("fs_intro", layer=layer, act=act))
    top = max(1, min(MAX_DEVICES, 16, cfg.d_ff))
    k = int(bound(st.slider, t("fs_devices"), 1, top, min(DEFAULT_K, top), key="fs_k",
                  url_default=str(min(DEFAULT_K, top)), help=t("fs_devices_help")))
    show_notices()
    try:
        s = sharded(RunKey.of(sel), layer, k)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    st.latex(formula("fs_split"))
    c1, c2, c3 = st.columns(3)
    c1.metric(t("fs_metric_rel"), sci(s.rel_diff))
    c2.metric(t("fs_metric_abs"), sci(s.max_abs_diff))
    c3.metric(t("fs_metric_wrong"), f"{s.wrong_rel_diff:.3g}")
    st.caption(t("fs_rel_caption", n=s.n, act=act))
    rows = [[t("fs_row_whole"), f"0–{s.d_ff - 1}", f"{s.full_params:,}", size_words(s.full_params * s.bytes_per_param),
             f"{s.full_hidden:,}", f"{s.full_norm:.4g}"]]
    rows += [[f"{i}", f"{a}–{b - 1}", f"{p:,}", size_words(p * s.bytes_per_param), f"{h:,}", f"{nm:.4g}"]
             for i, ((a, b), p, h, nm) in enumerate(zip(s.blocks, s.params, s.hidden, s.partial_norm))]
    st.markdown(markdown_table([t("fs_col_device"), t("fs_col_units"), t("fs_col_params"), t("fs_col_bytes"),
                                t("fs_col_hidden"), t("fs_col_norm")], rows))
    st.caption(t("fs_table_caption", share=max(s.params) / s.full_params, full=s.full_params,
                 bytes=size_words(max(s.params) * s.bytes_per_param), per=s.bytes_per_param,
                 hshare=max(s.hidden) / s.full_hidden, reduce=s.reduce_values, full_norm=s.full_norm))
    misconception("ffn_sharding", t("fs_mis_common"),
                  t("fs_mis_shown", k=k, rel=sci(s.rel_diff), wrong=f"{s.wrong_rel_diff:.3g}"))

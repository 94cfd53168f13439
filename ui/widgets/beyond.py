"""What the Beyond page's sections share to draw a q, k, v source (`lab.beyond.QKV`): its
position labels, a computation whose settings may be refused, and an implied matrix beside
the model's own softmax weights. Used by ui/views/beyond_long_memory.py and beyond_recurrent.py."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

import viz_core as vz
from lab.beyond import QKV
from viz_core.labels import plain_labels

from ..i18n import t
from ..page import explain
from . import figure_export


def computed(fn: Callable, *args):
    """fn(*args), or a sentence on the page (and None) when the settings cannot be computed."""
    try:
        return fn(*args)
    except ValueError as e:
        st.warning(t("bxr_bad", error=explain(e)), icon=":material/block:")
        return None


def labels(src: QKV) -> list[str]:
    """Distinct plain position labels ("3·the"; random vectors: "3"), escaped by the figure builders."""
    if src.source == "random":
        return [str(i) for i in range(src.n)]
    return plain_labels(src.tokens)


def fmt(x: float) -> str:
    return f"{x:.1e}"


def beside_softmax(src: QKV, implied: np.ndarray, title: str, key: str, normalised: bool = False,
                   blank: np.ndarray | None = None, blank_word: str | None = None) -> None:
    """The implied matrix (cells in `blank` left blank: by default the future), beside the
    model's softmax weights when the source has them. Chart keys: `key`, `key`_soft."""
    tok = labels(src)
    blank = np.triu(np.ones(implied.shape, dtype=bool), 1) if blank is None else blank
    shown = np.where(blank, np.nan, implied)
    terms = {"query": t("term_query"), "key": t("term_key"), "masked": blank_word or t("bxr_future")}
    if normalised:
        fig = vz.head_heatmap(shown, tok, tok, clickable=False, square=False,
                              terms={**terms, "weight": t("term_weight")})
    else:
        fig = vz.matrix_heatmap(shown, row_labels=tok, col_labels=tok, row_name=t("term_query"),
                                col_name=t("term_key"), colorbar_title=t("bxr_value"), terms=terms)
    fig.update_layout(height=420)
    if src.softmax is None:
        st.markdown(f"**{title}**")
        figure_export.chart(fig, key=key, width="stretch")
        return
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('bxr_softmax', layer=src.layer, head=src.head)}**")
        soft = vz.head_heatmap(src.softmax, tok, tok, clickable=False, square=False,
                               terms={"query": t("term_query"), "key": t("term_key"), "weight": t("term_weight")})
        soft.update_layout(height=420)
        figure_export.chart(soft, key=f"{key}_soft", width="stretch")
    with right:
        st.markdown(f"**{title}**")
        figure_export.chart(fig, key=key, width="stretch")

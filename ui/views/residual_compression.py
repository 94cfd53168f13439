"""The residual page's *Compression (CRATE)* view: the coding rate and the sparsity of the
token vectors after the embedding and after every block, on the reader's text, for the loaded
model and every trained model of the catalogue, beside what the CRATE paper claims
(lab/compression.py; the stream comes from the cached internals,
ui/serving/cache.py)."""
from __future__ import annotations

import streamlit as st

import viz_core as vz
from lab import compression
from models.weights import zoo

from .. import model_names, serving
from ..i18n import FORMULAS, t
from ..markup import markdown_table
from ..page import explain
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export

COMPARED = ("pretrained", "lm")       # catalogue kinds trained on text a reader can type (not the toy tasks)


def compared(sel: Selection) -> list:
    """The loaded model first, then every available trained text model of the catalogue."""
    entries = [e for e in zoo.catalogue() if e.available and (e.key == sel.model_key or e.kind in COMPARED)]
    return sorted(entries, key=lambda e: e.key != sel.model_key)


def compression_of(key: RunKey) -> compression.Compression:
    data = serving.internals(key)
    return compression.compression(data.labels, data.stream)


def view(data: serving.InternalsData, sel: Selection) -> None:
    st.markdown(t("cr_intro"))
    st.latex(FORMULAS["cr_rate"])
    c = compression.compression(data.labels, data.stream)
    steps = [t("cr_embed") if s == "embed" else s for s in c.labels]
    left, right = st.columns(2)
    with left:
        fig = vz.lines_chart({sel.model_label: (steps, c.rate)}, title=t("cr_rate_title"), y_name=t("cr_rate"))
        figure_export.chart(fig, key="cr_rate", width="stretch")
    with right:
        fig = vz.lines_chart({sel.model_label: (steps, c.sparsity)}, title=t("cr_sparsity_title"),
                             y_name=t("cr_sparsity"))
        figure_export.chart(fig, key="cr_sparsity", width="stretch")
    st.caption(t("cr_caption", n=len(data.tokens), eps=compression.CODING_EPS))
    models_table(sel)


def models_table(sel: Selection) -> None:
    """Every compared model on the same text: the rate and sparsity after the embedding and
    after the last block, and the paper's claim against the count."""
    rows, falls, rises = [], 0, 0
    for e in compared(sel):
        try:
            c = compression_of(RunKey(e.key, sel.device, sel.text, sel.target))
        except (ValueError, RuntimeError) as err:
            st.caption(t("cr_model_failed", model=model_names.label(e), error=explain(err)))
            continue
        falls += bool(c.rate[-1] < c.rate[0])
        rises += bool(c.sparsity[-1] > c.sparsity[0])
        rows.append([model_names.label(e), str(len(c.labels) - 1), f"{c.rate[0]:.2f}", f"{c.rate[-1]:.2f}",
                     f"{c.rate[-1] - c.rate[0]:+.2f}", f"{c.sparsity[0]:.3f}", f"{c.sparsity[-1]:.3f}",
                     f"{c.sparsity[-1] - c.sparsity[0]:+.3f}"])
    if not rows:
        return
    st.markdown(f"**{t('cr_models_title')}**")
    st.markdown(markdown_table([t("cr_col_model"), t("cr_col_layers"), t("cr_col_rate0"), t("cr_col_rate1"),
                                t("cr_col_change"), t("cr_col_sp0"), t("cr_col_sp1"), t("cr_col_change")], rows))
    st.markdown(t("cr_claim", m=len(rows), falls=falls, rises=rises))

"""The attribution page's head detectors: every head scored for previous-token,
duplicate-token, induction, first-token (sink) and a diagonal the user picks, on a
random sequence repeated twice (or on the sidebar's text); a heatmap and a table, and a
head chosen there opens in the attention explorer (layer and head in its link).

Scores: lab/detectors.py, through ui/serving/attribution.py.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

import viz_core as vz
from lab import detectors
from models.trace import Stack

from ..figure_words import head_terms
from ..i18n import t
from ..links import bound, choice, stack_choice
from ..markup import md_code, md_escape
from ..page import explain, run_or_stop
from ..serving import attention_data, attribution
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export

SOURCES = ("repeat", "text")
ATTENTION_PAGE = "app_pages/attention.py"
_PICKED = "_detector_head"           # (layer, head) chosen on the heatmap or in the table


def names() -> dict[str, str]:
    return {d: t(f"at_det_{d}") for d in detectors.DETECTORS}


def render_view(sel: Selection, model) -> None:
    cfg = model.cfg
    c1, c2, c3 = st.columns([3, 2, 2])
    with c1:
        source = choice(st.radio, t("at_det_source"), SOURCES, param="dsource", default="repeat", horizontal=True,
                        labels={s: t(f"at_det_source_{s}") for s in SOURCES})
    with c2:
        offsets_text = bound(st.text_input, t("at_det_offsets"), "1", key="offsets", url_default="1",
                             help=t("at_det_offsets_help"))
    half = seed = None
    if source == "repeat":
        with c3:
            default = attribution.detector_half(sel.model_key, sel.device)
            half = int(st.number_input(t("at_det_half"), 2, 256, default, key=f"dhalf_{sel.model_key}",
                                       help=t("at_det_half_help")))
            seed = int(st.number_input(t("at_det_seed"), 0, 10_000, 0, key="dseed"))
    data = load(sel, source, half, seed, offsets_text)
    if data is None:
        return
    stacks = [s for s in Stack.attention_maps(cfg.arch) if s is not Stack.CROSS]
    stack = stack_choice(stacks, t("stack"), "dstack")
    scores = data.scores[stack]
    if data.text is not None:
        st.caption(t("at_det_sequence", n=len(data.tokens), half=data.half,
                     seq=md_code(" ".join(vz.visible_label(x) for x in data.tokens)[:400])))
    labels = names()
    detector = choice(st.radio, t("at_det_colour"), detectors.DETECTORS, param="detector", default="induction",
                      horizontal=True, labels=labels)
    picked = st.session_state.get(_PICKED)
    n_l, n_h = scores.scores[detector].shape
    if picked is None or not (picked[0] < n_l and picked[1] < n_h):
        picked = scores.best(detector)[:2]
    metrics = {labels[d]: scores.scores[d] for d in detectors.DETECTORS}
    fig = vz.head_metrics_chart(metrics, labels[detector], selected=picked, title=labels[detector],
                                terms=head_terms())
    figure_export.chart(fig, key="det_map", on_select=_on_cell, selection_mode="points", width="stretch")
    st.caption(chance_caption(scores, labels))
    rows = scores.table()
    st.session_state["_det_rows"] = rows
    table = pd.DataFrame(rows).rename(columns={**labels, "layer": t("layer"), "head": t("head")})
    st.dataframe(table, hide_index=True, width="stretch", key="det_table", on_select=_on_row,
                 selection_mode="single-row")
    open_head(picked, data)


def load(sel: Selection, source: str, half: int | None, seed: int | None, offsets_text: str):
    """The scores, or None after a sentence (offsets that do not parse, a sequence too long)."""
    try:
        if source == "repeat":
            offsets = detectors.parse_offsets(offsets_text or "1", 2 * half)
            return attribution.detector_scores(sel.model_key, sel.device, half, seed, offsets)
        tokens = run_or_stop(attention_data, sel).tokens
        offsets = detectors.parse_offsets(offsets_text or "1", len(tokens))
        return attribution.detector_scores_on_text(RunKey.of(sel), offsets)
    except ValueError as e:
        st.warning(explain(e), icon=":material/block:")
        return None


def chance_caption(scores: detectors.DetectorScores, labels: dict[str, str]) -> str:
    parts = [f"{labels[d]} {scores.chance[d]:.2f}" if scores.queries[d] else f"{labels[d]} –"
             for d in detectors.DETECTORS]
    return t("at_det_chance", chance=md_escape(" · ".join(parts)),
             offsets=md_escape(", ".join(str(o) for o in scores.offsets)))


def _on_cell() -> None:
    cells = vz.selected_customdata(st.session_state.get("det_map"))
    if cells:
        st.session_state[_PICKED] = (int(cells[0][0]), int(cells[0][1]))


def _on_row() -> None:
    rows = (st.session_state.get("det_table") or {}).get("selection", {}).get("rows", [])
    table = st.session_state.get("_det_rows")
    if rows and table is not None:
        st.session_state[_PICKED] = (int(table[rows[0]]["layer"]), int(table[rows[0]]["head"]))


def _open(layer: int, head: int, text: str | None) -> None:
    """Before the next run draws the sidebar: the head (and the sequence) to open."""
    st.session_state["layer"], st.session_state["head"] = layer, head
    if text is not None:
        st.session_state["text"] = text


def open_head(picked: tuple[int, int], data: attribution.DetectorData) -> None:
    """A button that opens the chosen head in the attention explorer (on the repeated
    sequence when the scores came from it), its layer and head in the link."""
    layer, head = picked
    label = t("at_det_open_seq" if data.text is not None else "at_det_open", layer=layer, head=head)
    if st.button(label, key="det_open", icon=":material/open_in_new:", type="primary", on_click=_open,
                 args=(layer, head, data.text)):
        st.switch_page(ATTENTION_PAGE, query_params={"layer": str(layer), "head": str(head)})
    st.caption(t("at_det_open_help"))

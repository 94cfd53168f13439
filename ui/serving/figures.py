"""Figures that every session showing the same thing shares: built once per process, not
once per session and run.

A cached rerun used to rebuild its plotly figures from cached numbers every time (plotly
validates every property it is given: 50-100 ms of CPU for a heat map), once per session.
A class of 30 on one text asks for the same figure 30 times per step. `shared_figure`
builds it once for the key, the UI language, the palette and the text scale, and hands
the same object to every session (`st.cache_resource`: no copy, no pickling; concurrent
first calls with one key wait for one build).

The rule that makes this safe: **a shared figure is never changed after it is built.**
`st.plotly_chart` only reads it (it serialises a copy), and figure_export copies before it
changes anything (`readable_bar_text`, `for_print`). A view that marks something on a
figure per session (a selected tile, a clicked cell) builds that figure itself, or marks
a copy.

The caller's key must name everything the figure shows apart from the language and the
look: the pass (`RunKey`) and every control that changes the drawing.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import streamlit as st

from viz_core import colors
from viz_core.figure import text_scale, use_text_scale

from ..i18n import lang


@st.cache_resource(max_entries=256, show_spinner=False)
def _built(topic: str, key: Hashable, language: str, palette: str, scale: float, _build: Callable[[], Any]) -> Any:
    with colors.use_palette(palette), use_text_scale(scale):
        return _build()


def shared_figure(topic: str, key: Hashable, build: Callable[[], Any]) -> Any:
    """`build()`'s figure for (`topic`, `key`) in this session's language, palette and text
    scale: built by the first session that asks, the same object for every other one.
    Do not change the figure it returns (see above)."""
    return _built(topic, key, lang(), colors.palette(), text_scale(), build)

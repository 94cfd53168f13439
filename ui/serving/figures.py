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

A shared figure is also serialised once (`share`): every `st.plotly_chart` of a plotly
figure starts with `fig.to_dict()`, a deep copy of the whole figure with its arrays written
out as base64, an eighth of the server's CPU in a page change between cached pages
(py-spy, one session). `SharedFigure.to_dict` keeps that dict and hands it out again; a
change to the figure (plotly announces every one through the `_send_*_msg` hooks its
`FigureWidget` listens to) drops it.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from viz_core import colors
from viz_core.figure import text_scale, use_text_scale

from ..i18n import lang


class SharedFigure(go.Figure):
    """A `go.Figure` whose `to_dict()` is computed once and then returned as is, until the
    figure changes. The dict it returns is the same object on every call: read it, do not
    change it (`st.plotly_chart` and `plotly.io.to_json` only read it)."""

    def to_dict(self) -> dict:
        memo = self.__dict__.get("_as_dict")
        if memo is None:
            memo = self._as_dict = super().to_dict()
        return memo

    def _changed(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("_as_dict", None)

    # plotly calls one of these on every change of the figure (a property set anywhere in
    # it, update_layout, add_trace, a trace moved or deleted...); a plain Figure ignores them.
    _send_addTraces_msg = _send_moveTraces_msg = _send_deleteTraces_msg = _changed
    _send_restyle_msg = _send_relayout_msg = _send_update_msg = _send_animate_msg = _changed


def share(figure: Any) -> Any:
    """`figure`, serialised once from now on if it is a plain `go.Figure` (the same object,
    its class made `SharedFigure`: no copy); anything else as it is."""
    if type(figure) is go.Figure:
        figure.__class__ = SharedFigure
    return figure


@st.cache_resource(max_entries=256, show_spinner=False)
def _built(topic: str, key: Hashable, language: str, palette: str, scale: float, _build: Callable[[], Any]) -> Any:
    with colors.use_palette(palette), use_text_scale(scale):
        return share(_build())


def shared_figure(topic: str, key: Hashable, build: Callable[[], Any]) -> Any:
    """`build()`'s figure for (`topic`, `key`) in this session's language, palette and text
    scale: built by the first session that asks, the same object for every other one.
    Do not change the figure it returns (see above)."""
    return _built(topic, key, lang(), colors.palette(), text_scale(), build)

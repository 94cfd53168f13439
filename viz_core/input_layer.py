"""Figure of the residual page's input-layer section (numbers from lab/input_layer.py): the
norm of each part of the input layer per token (token embedding, segment, position, their sum).

numpy in, plotly out; no torch, no streamlit. Shapes are stated and checked; labels are
escaped here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .figure import BLUE, GREY, ORANGE, RED, as_array, axis_ticks, check_labels, merge_terms
from .labels import position_labels

TERMS = {"norm": "‖·‖"}


def input_parts(tokens: Sequence[str], parts: Mapping[str, np.ndarray], *, terms: Mapping[str, str] | None = None,
                title: str = "") -> go.Figure:
    """Grouped bars per token [n]: the norm of each named part of the input layer
    (token embedding, segment, position, their sum, ...)."""
    if not parts:
        raise ValueError("input_parts: no parts to draw.")
    w = merge_terms(terms, TERMS)
    labels = position_labels(tokens)
    x = np.arange(len(labels))
    colors = (BLUE, GREY, ORANGE, RED, "#2ca02c", "#9467bd")
    fig = go.Figure()
    for i, (name, values) in enumerate(parts.items()):
        v = as_array(values, (1,), "input_parts", "[n]")
        check_labels(tokens, len(v), "input_parts", "tokens")
        fig.add_trace(go.Bar(x=x, y=v, name=html.escape(name), marker_color=colors[i % len(colors)],
                             customdata=labels, hovertemplate="%{customdata}: %{y:.4g}<extra>" + html.escape(name)
                             + "</extra>"))
    fig.update_layout(barmode="group", height=380, margin=dict(l=60, r=20, t=48 if title else 20, b=90),
                      xaxis=dict(range=[-0.5, len(x) - 0.5], **axis_ticks(labels)),
                      yaxis=dict(title=dict(text=w["norm"])), legend=dict(orientation="h", y=1.12, x=0),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


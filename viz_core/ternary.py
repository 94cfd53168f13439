"""Figures of the beyond-softmax page's ternary-weights section (`ui/views/beyond_ternary.py`,
numbers from `lab/ternary.py`): a weight matrix before / after ternary quantisation.

numpy in, plotly out; no torch, no streamlit. Names and terms are escaped here.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .figure import BLUE, GREY, ORANGE, RED, escape_text, merge_terms

TERNARY_TERMS = {"before": "trained weights", "after": "ternary codes", "weight": "weight", "count": "weights",
                 "share": "share", "threshold": "rounding threshold ±γ/2", "gamma": "±γ"}


def ternary_figure(weights: np.ndarray, gamma: float, shares: tuple[float, float, float], *,
                   bins: int = 80, terms: Mapping[str, str] | None = None, title: str = "") -> go.Figure:
    """Left: the histogram of the trained weights (any shape, flattened) with the rounding
    thresholds ±γ/2 (between them a weight becomes 0) and ±γ (where ±1 lands once
    dequantised). Right: the shares of the codes −1, 0, +1."""
    wts = np.asarray(weights, dtype=np.float64).ravel()
    if wts.size == 0 or not np.all(np.isfinite(wts)):
        raise ValueError("ternary_figure: the weights must be a non-empty array of finite numbers.")
    if len(shares) != 3:
        raise ValueError("ternary_figure: shares are the shares of -1, 0 and +1.")
    w = merge_terms(terms, TERNARY_TERMS)
    counts, edges = np.histogram(wts, bins=bins)
    mids = (edges[:-1] + edges[1:]) / 2
    fig = make_subplots(rows=1, cols=2, column_widths=[0.68, 0.32], horizontal_spacing=0.12,
                        subplot_titles=(escape_text(w["before"]), escape_text(w["after"])))
    fig.add_trace(go.Bar(x=mids, y=counts, width=edges[1] - edges[0], marker_color=BLUE, name=escape_text(w["before"]),
                         hovertemplate="%{x:.4g}: %{y}<extra></extra>", showlegend=False), row=1, col=1)
    for x, color, dash, key in ((gamma / 2, ORANGE, "dash", "threshold"), (gamma, RED, "dot", "gamma")):
        for sign in (-1, 1):
            fig.add_vline(x=sign * x, line=dict(color=color, dash=dash), row=1, col=1)
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line=dict(color=color, dash=dash),
                                 name=escape_text(w[key])), row=1, col=1)
    fig.add_trace(go.Bar(x=["−1", "0", "+1"], y=list(shares), marker_color=[RED, GREY, BLUE], showlegend=False,
                         text=[f"{s:.1%}" for s in shares], textposition="outside",
                         hovertemplate="%{x}: %{y:.2%}<extra></extra>"), row=1, col=2)
    fig.update_xaxes(title_text=escape_text(w["weight"]), row=1, col=1)
    fig.update_xaxes(type="category", row=1, col=2)
    fig.update_yaxes(title_text=escape_text(w["count"]), row=1, col=1)
    fig.update_yaxes(title_text=escape_text(w["share"]), tickformat=".0%", range=[0, max(shares) * 1.25 or 1],
                     row=1, col=2)
    fig.update_layout(height=380, margin=dict(l=70, r=20, t=70 if title else 50, b=50),
                      legend=dict(orientation="h", y=-0.2, x=0), bargap=0.05,
                      title=dict(text=escape_text(title)) if title else None)
    return fig

"""Figures of the √d_k section of the walk-through page (numbers from lab/scaling.py): the
variance of q·k against d_k (random and real), and one query's softmax with and without
the scaling (FlashAttention's figures are viz_core/flash.py).

numpy in, plotly out; no torch, no streamlit. Shapes are stated per function and
checked; labels are escaped here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .figure import BLUE, GREY, ORANGE, RED, as_array, axis_ticks, check_labels, merge_terms
from .labels import position_labels

SCALING_TERMS = {
    "d_k": "d_k", "variance": "Var", "random": "random q, k: Var(q·k)", "random_scaled": "random q, k: Var(q·k/√d_k)",
    "line": "Var = d_k", "one": "Var = 1", "head": "this head: Var(q·k)", "head_scaled": "this head: Var(q·k/√d_k)",
    "key": "key", "weight": "weight", "with": "÷√d_k (the model)", "without": "not divided",
}


def variance_figure(dims: np.ndarray, var: np.ndarray, stderr: np.ndarray, var_scaled: np.ndarray, *,
                    head: tuple[int, float, float] | None = None, terms: Mapping[str, str] | None = None,
                    title: str = "") -> go.Figure:
    """Var(q·k) against d_k on log–log axes: the sample variances [n] of random q, k with
    ±2 standard errors [n], the closed form Var = d_k, the scaled variances [n] along
    Var = 1, and (head) one real head as (d_k, Var(q·k), Var(q·k/√d_k))."""
    d = as_array(dims, (1,), "variance_figure", "[n]")
    v, se, vs = (as_array(a, (1,), "variance_figure", "[n]") for a in (var, stderr, var_scaled))
    if not (v.shape == se.shape == vs.shape == d.shape):
        raise ValueError("variance_figure: dims, var, stderr and var_scaled must have the same length.")
    w = merge_terms(terms, SCALING_TERMS)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=d, y=d, mode="lines", name=w["line"], line=dict(color=GREY, dash="dash")))
    fig.add_trace(go.Scatter(x=d, y=np.ones_like(d), mode="lines", name=w["one"], line=dict(color=GREY, dash="dot")))
    fig.add_trace(go.Scatter(x=d, y=v, mode="markers", name=w["random"], marker=dict(color=BLUE, size=9),
                             error_y=dict(type="data", array=2 * se, visible=True),
                             hovertemplate="d_k = %{x}: %{y:.4g}<extra></extra>"))
    fig.add_trace(go.Scatter(x=d, y=vs, mode="markers", name=w["random_scaled"],
                             marker=dict(color=ORANGE, size=9, symbol="diamond"),
                             hovertemplate="d_k = %{x}: %{y:.4g}<extra></extra>"))
    if head is not None:
        dk, hv, hs = head
        fig.add_trace(go.Scatter(x=[dk], y=[hv], mode="markers", name=w["head"],
                                 marker=dict(color=RED, size=16, symbol="star"),
                                 hovertemplate="d_k = %{x}: %{y:.4g}<extra></extra>"))
        fig.add_trace(go.Scatter(x=[dk], y=[hs], mode="markers", name=w["head_scaled"],
                                 marker=dict(color=RED, size=14, symbol="star-open"),
                                 hovertemplate="d_k = %{x}: %{y:.4g}<extra></extra>"))
    fig.update_layout(height=420, margin=dict(l=70, r=20, t=48 if title else 20, b=60),
                      xaxis=dict(type="log", title=dict(text=w["d_k"]), dtick=np.log10(2) if len(d) < 12 else None),
                      yaxis=dict(type="log", title=dict(text=w["variance"])),
                      legend=dict(orientation="h", y=-0.22, x=0), title=dict(text=html.escape(title)) if title else None)
    return fig


def softmax_compare(with_scale: np.ndarray, without: np.ndarray, tokens: Sequence[str], *,
                    terms: Mapping[str, str] | None = None, title: str = "") -> go.Figure:
    """One query's weights [m] over its keys, as the model computes them and with q·k not
    divided by √d_k; NaN = a masked key (no bar)."""
    a, b = (as_array(x, (1,), "softmax_compare", "[m]") for x in (with_scale, without))
    if a.shape != b.shape:
        raise ValueError("softmax_compare: the two rows differ in length.")
    check_labels(tokens, len(a), "softmax_compare", "tokens")
    w = merge_terms(terms, SCALING_TERMS)
    labels = position_labels(tokens)
    x = np.arange(len(a))
    fig = go.Figure([go.Bar(x=x, y=a, name=w["with"], marker_color=BLUE, customdata=labels,
                            hovertemplate="%{customdata}: %{y:.4f}<extra></extra>"),
                     go.Bar(x=x, y=b, name=w["without"], marker_color=ORANGE, customdata=labels,
                            hovertemplate="%{customdata}: %{y:.4f}<extra></extra>")])
    fig.update_layout(barmode="group", height=340, margin=dict(l=60, r=20, t=48 if title else 20, b=90),
                      xaxis=dict(range=[-0.5, len(a) - 0.5], **axis_ticks(labels)),
                      yaxis=dict(range=[0, 1.02], title=dict(text=w["weight"])),
                      legend=dict(orientation="h", y=1.12, x=0), title=dict(text=html.escape(title)) if title else None)
    return fig


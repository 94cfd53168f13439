"""Figures of the generate page's teacher-forcing section (numbers from
lab/teacher_forcing.py): one sequence as n training examples, and the parallel pass against
the cached one.

numpy in, plotly out; no torch, no streamlit. Shapes are stated per function and
checked; labels are escaped here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .colors import plotly_colorscale
from .figure import BLUE, RED, as_array, axis_ticks, check_labels, merge_terms
from .labels import position_labels

TERMS = {
    "context": "context (visible)", "target": "target: loss", "example": "example", "position": "position",
    "loss": "−log p(target)", "diff": "max |Δ logit|",
}


def examples_matrix(loss: np.ndarray, tokens: Sequence[str], *, terms: Mapping[str, str] | None = None,
                    title: str = "") -> go.Figure:
    """One sequence of n tokens as n − 1 training examples: row i reads tokens 0..i
    (context) and is scored on token i+1 (its loss [n−1] written in the cell); later
    tokens are hidden by the causal mask (blank)."""
    l_ = as_array(loss, (1,), "examples_matrix", "[n-1]")
    n = len(l_) + 1
    check_labels(tokens, n, "examples_matrix", "tokens")
    w = merge_terms(terms, TERMS)
    ctx = np.full((n - 1, n), np.nan, dtype=np.float32)
    tgt = np.full((n - 1, n), np.nan, dtype=np.float32)
    for i in range(n - 1):
        ctx[i, : i + 1] = 1.0
        tgt[i, i + 1] = l_[i]
    cols = position_labels(tokens)
    rows = [f"{i}→{i + 1}" for i in range(n - 1)]
    text = [[f"{tgt[i, j]:.2f}" if np.isfinite(tgt[i, j]) else "" for j in range(n)] for i in range(n - 1)]
    fig = go.Figure([
        go.Heatmap(z=ctx, x=np.arange(n), y=np.arange(n - 1), colorscale=[[0, "#cfe3f5"], [1, "#cfe3f5"]],
                   showscale=False, name=w["context"], hovertemplate=f"{w['context']}<extra></extra>", xgap=1, ygap=1),
        go.Heatmap(z=tgt, x=np.arange(n), y=np.arange(n - 1), colorscale=plotly_colorscale("magma")[::-1],
                   text=text, texttemplate="%{text}", name=w["target"],
                   colorbar=dict(title=dict(text=w["loss"]), thickness=14),
                   hovertemplate=f"{w['target']} %{{z:.4g}}<extra></extra>", xgap=1, ygap=1),
    ])
    fig.update_layout(height=int(np.clip(120 + 28 * n, 300, 760)), margin=dict(l=70, r=20, t=48 if title else 20, b=90),
                      plot_bgcolor="rgba(0,0,0,0)", xaxis=dict(range=[-0.5, n - 0.5], **axis_ticks(cols)),
                      yaxis=dict(range=[n - 1.5, -0.5], title=dict(text=w["example"]), **axis_ticks(rows)),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


def position_diffs(diff: np.ndarray, tokens: Sequence[str], *, terms: Mapping[str, str] | None = None,
                   title: str = "") -> go.Figure:
    """Per position [n]: the largest |logit difference| between the parallel pass and the
    cached token-by-token pass (log axis; an exact 0 is drawn at the axis floor)."""
    d = as_array(diff, (1,), "position_diffs", "[n]")
    check_labels(tokens, len(d), "position_diffs", "tokens")
    w = merge_terms(terms, TERMS)
    labels = position_labels(tokens)
    floor = 1e-12
    fig = go.Figure(go.Bar(x=np.arange(len(d)), y=np.maximum(d, floor), marker_color=BLUE, customdata=labels,
                           hovertemplate="%{customdata}: %{y:.2e}<extra></extra>"))
    fig.add_hline(y=1e-5, line=dict(color=RED, dash="dash"), annotation_text="1e-5")
    fig.update_layout(height=300, margin=dict(l=60, r=20, t=48 if title else 20, b=90),
                      xaxis=dict(range=[-0.5, len(d) - 0.5], **axis_ticks(labels)),
                      yaxis=dict(type="log", title=dict(text=w["diff"]), range=[-12, -2]),
                      title=dict(text=html.escape(title)) if title else None)
    return fig

"""Attention geometry: one head's queries and keys in one 2-D projection (numbers from
lab/qk_geometry.py; numpy in, plotly out).

Queries are circles, keys are triangles; both are coloured by position (the caller's
sequential palette, one colour axis) or by token (a categorical palette). Lines join the
query and key of the head's largest attention weights, more opaque for larger weights.
Axes are the two principal components with the share of variance each explains; the
aspect ratio is 1 (distances in the picture are distances in the projection).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from .colors import SEQUENTIAL, plotly_colorscale
from .figure import add_title, as_array, check_labels, merge_terms, text_scale
from .labels import escape_labels

GEOMETRY_TERMS: dict[str, str] = {
    "query": "query", "key": "key", "position": "position", "token": "token", "pc": "PC",
    "attention": "top attention", "probe": "probe text", "weight": "weight",
}
TOKEN_COLORS = tuple(qualitative.Dark24)
LINE_RGB = "90,90,90"


def qk_scatter(coords: np.ndarray, kind: Sequence[str], position: np.ndarray, tokens: Sequence[str], *,
               explained: Sequence[float], color_by: str = "position", pairs: np.ndarray | None = None,
               weights: np.ndarray | None = None, text: np.ndarray | None = None, title: str = "",
               terms: Mapping[str, str] | None = None, height: int = 480, marker_size: int = 9,
               colorbar: bool = True, legend: bool = True) -> go.Figure:
    """Scatter of P points [P, 2] (`kind` "q"/"k" per point, `position` [P], the token
    string per point in `tokens`), `explained` [2] ratios for the axis titles. `pairs`
    [K, 2] point indices (query point, key point) with `weights` [K] in [0, 1] draw
    lines. `text` [P] (0: the main text) fades the probe texts' points. Small multiples:
    ``colorbar=False, legend=False`` (one explanation beside them is enough)."""
    xy = as_array(coords, (2,), "qk_scatter", "[points, 2]")
    if xy.shape[1] != 2:
        raise ValueError(f"qk_scatter expects coords of shape [points, 2]; got {xy.shape}.")
    n = xy.shape[0]
    kinds = np.asarray(kind)
    pos = np.asarray(position)
    if kinds.shape != (n,) or pos.shape != (n,):
        raise ValueError("qk_scatter: kind and position need one entry per point.")
    if not set(np.unique(kinds)) <= {"q", "k"}:
        raise ValueError("qk_scatter: kind holds 'q' or 'k' per point.")
    check_labels(tokens, n, "qk_scatter", "tokens")
    if color_by not in ("position", "token"):
        raise ValueError(f"qk_scatter: color_by is 'position' or 'token'; got {color_by!r}.")
    w = merge_terms(terms, GEOMETRY_TERMS)
    labels = escape_labels(list(tokens))
    txt = np.zeros(n, np.int64) if text is None else np.asarray(text)
    fig = go.Figure()

    if pairs is not None and len(pairs):
        pr = np.asarray(pairs, np.int64)
        wt = np.ones(len(pr)) if weights is None else np.asarray(weights, np.float64)
        for i, ((a, b), v) in enumerate(zip(pr, wt)):
            fig.add_trace(go.Scatter(
                x=xy[[a, b], 0], y=xy[[a, b], 1], mode="lines", hoverinfo="skip",
                line=dict(color=f"rgba({LINE_RGB},{0.15 + 0.75 * float(np.clip(v, 0, 1)):.3f})", width=1.5),
                name=w["attention"], legendgroup="pairs", showlegend=i == 0))

    cats = {lab: j for j, lab in enumerate(dict.fromkeys(labels))}
    pmax = float(max(pos.max(), 1))
    for k_, symbol, open_ in (("q", "circle", False), ("k", "triangle-up", True)):
        sel = np.flatnonzero(kinds == k_)
        if not sel.size:
            continue
        name = w["query"] if k_ == "q" else w["key"]
        hover = [f"{name} · {w['position']} {int(pos[i])} · {labels[i]}"
                 + (f" · {w['probe']} {int(txt[i])}" if txt[i] else "") for i in sel]
        if color_by == "position":
            color = pos[sel].astype(np.float32)
            marker = dict(color=color, coloraxis="coloraxis")
        else:
            marker = dict(color=[TOKEN_COLORS[cats[labels[i]] % len(TOKEN_COLORS)] for i in sel])
        marker.update(symbol=symbol, size=marker_size,
                      opacity=np.where(txt[sel] > 0, 0.35, 0.95).astype(np.float32),
                      line=dict(width=1, color="rgba(40,40,40,0.7)"))
        fig.add_trace(go.Scatter(x=xy[sel, 0].astype(np.float32), y=xy[sel, 1].astype(np.float32), mode="markers",
                                 marker=marker, name=name, legendgroup=k_, hovertext=hover,
                                 hovertemplate="%{hovertext}<extra></extra>"))
    size = round(12 * text_scale())
    fig.update_layout(
        height=height, margin=dict(l=10, r=10, t=40 if title or legend else 10, b=10), font=dict(size=size),
        showlegend=legend, legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0.0),
        xaxis=dict(title=dict(text=f"{w['pc']}1 · {100 * float(explained[0]):.1f}%"), zeroline=False),
        yaxis=dict(title=dict(text=f"{w['pc']}2 · {100 * float(explained[1]):.1f}%"), zeroline=False,
                   scaleanchor="x", scaleratio=1),
    )
    if color_by == "position":
        fig.update_layout(coloraxis=dict(colorscale=plotly_colorscale(SEQUENTIAL), cmin=0.0, cmax=pmax,
                                         showscale=colorbar,
                                         colorbar=dict(title=dict(text=w["position"], side="right"), thickness=12,
                                                       len=0.8)))
    return add_title(fig, title)

"""Figures of the FlashAttention section of the walk-through page (numbers from
lab/flash.py): the tiles of FlashAttention with its running statistics, and the memory
the whole score matrix takes against FlashAttention's statistics and tile.

numpy in, plotly out; no torch, no streamlit. Shapes are stated per function and
checked; labels are escaped here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import DIVERGING, plotly_colorscale
from .figure import BLUE, GREY, HIGHLIGHT, ORANGE, RED, as_array, axis_ticks, check_labels, merge_terms
from .labels import escape_labels, position_labels

TERMS = {
    "key": "key", "query": "query", "score": "score", "tile": "key tile", "running_max": "running max m",
    "denominator": "l", "tile_max": "max in this tile", "not_read": "not read yet",
}


def tile_grid(scores: np.ndarray, tile_q: int, tile_k: int, read: int, q_tokens: Sequence[str], k_tokens: Sequence[str],
              *, query: int | None = None, terms: Mapping[str, str] | None = None, title: str = "") -> go.Figure:
    """The [n, m] scores (NaN = masked) cut into tiles of tile_q × tile_k; only the first
    `read` key tiles are drawn (the others are "not read yet"), the last one read is
    outlined, and the row of `query` is marked."""
    z = as_array(scores, (2,), "tile_grid", "[n, m]").copy()
    n, m = z.shape
    check_labels(q_tokens, n, "tile_grid", "query tokens")
    check_labels(k_tokens, m, "tile_grid", "key tokens")
    if tile_q < 1 or tile_k < 1:
        raise ValueError("tile_grid: a tile holds at least one query and one key.")
    w = merge_terms(terms, TERMS)
    seen = min(m, read * tile_k)
    z[:, seen:] = np.nan
    qs = position_labels(q_tokens)
    ks = position_labels(k_tokens)
    finite = z[np.isfinite(z)]
    top = float(np.abs(finite).max()) if finite.size else 1.0
    fig = go.Figure(go.Heatmap(z=z, x=np.arange(m), y=np.arange(n), zmin=-top, zmax=top,
                               colorscale=plotly_colorscale(DIVERGING), name="",
                               colorbar=dict(title=dict(text=w["score"]), thickness=14, len=0.9),
                               hovertemplate=f"{w['query']} %{{y}} → {w['key']} %{{x}}: %{{z:.4g}}<extra></extra>"))
    shapes = []
    for b in range(tile_k, m, tile_k):
        shapes.append(dict(type="line", x0=b - 0.5, x1=b - 0.5, y0=-0.5, y1=n - 0.5, line=dict(color=GREY, width=1)))
    for b in range(tile_q, n, tile_q):
        shapes.append(dict(type="line", x0=-0.5, x1=m - 0.5, y0=b - 0.5, y1=b - 0.5, line=dict(color=GREY, width=1)))
    if seen < m:
        shapes.append(dict(type="rect", x0=seen - 0.5, x1=m - 0.5, y0=-0.5, y1=n - 0.5, line=dict(width=0),
                           fillcolor="rgba(200,200,200,0.35)", layer="below"))
        fig.add_annotation(x=(seen + m - 1) / 2, y=(n - 1) / 2, text=w["not_read"], showarrow=False,
                           font=dict(color=GREY, size=13))
    if read >= 1:
        k0 = (min(read, -(-m // tile_k)) - 1) * tile_k
        shapes.append(dict(type="rect", x0=k0 - 0.5, x1=min(k0 + tile_k, m) - 0.5, y0=-0.5, y1=n - 0.5,
                           line=dict(color=HIGHLIGHT, width=3), fillcolor="rgba(0,0,0,0)"))
    if query is not None and 0 <= query < n:
        shapes.append(dict(type="rect", x0=-0.5, x1=m - 0.5, y0=query - 0.5, y1=query + 0.5,
                           line=dict(color="black", width=1, dash="dot"), fillcolor="rgba(0,0,0,0)"))
    fig.update_layout(shapes=shapes, height=int(np.clip(140 + 22 * n, 300, 700)),
                      margin=dict(l=90, r=20, t=48 if title else 20, b=90), plot_bgcolor="rgba(0,0,0,0)",
                      xaxis=dict(range=[-0.5, m - 0.5], **axis_ticks(ks)),
                      yaxis=dict(range=[n - 0.5, -0.5], **axis_ticks(qs)),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


def running_stats(tile_labels: Sequence[str], tile_max: np.ndarray, running_max: np.ndarray, denominator: np.ndarray,
                  *, current: int | None = None, terms: Mapping[str, str] | None = None,
                  title: str = "") -> go.Figure:
    """One query row's state after each key tile [T]: the tile's own max and the running
    max m (top), the running denominator l (bottom). −∞ (a tile it may not see) is drawn
    as a gap."""
    tm, rm, den = (as_array(a, (1,), "running_stats", "[T]") for a in (tile_max, running_max, denominator))
    check_labels(tile_labels, len(rm), "running_stats", "tile labels")
    w = merge_terms(terms, TERMS)
    labels = escape_labels(tile_labels)
    x = np.arange(len(rm))
    clean = [np.where(np.isfinite(a), a, np.nan).astype(np.float32) for a in (tm, rm)]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1)
    fig.add_trace(go.Scatter(x=x, y=clean[0], mode="markers", name=w["tile_max"], marker=dict(color=ORANGE, size=9)),
                  row=1, col=1)
    fig.add_trace(go.Scatter(x=x, y=clean[1], mode="lines+markers", name=w["running_max"], line=dict(color=BLUE)),
                  row=1, col=1)
    fig.add_trace(go.Bar(x=x, y=den, name=w["denominator"], marker_color=GREY), row=2, col=1)
    if current is not None and 0 <= current < len(rm):
        for row in (1, 2):
            fig.add_vline(x=current, line=dict(color=HIGHLIGHT, width=2, dash="dot"), row=row, col=1)
    fig.update_yaxes(title_text=w["running_max"], row=1, col=1)
    fig.update_yaxes(title_text=w["denominator"], row=2, col=1)
    fig.update_xaxes(tickmode="array", tickvals=x, ticktext=labels, row=2, col=1)
    fig.update_layout(height=420, margin=dict(l=70, r=20, t=48 if title else 20, b=70),
                      legend=dict(orientation="h", y=1.1, x=0), title=dict(text=html.escape(title)) if title else None)
    return fig


def memory_bars(parts: Mapping[str, float], *, title: str = "", unit: str = "") -> go.Figure:
    """Horizontal bars of a few named quantities on a log axis (e.g. numbers held by the
    whole score matrix against FlashAttention's statistics and tile)."""
    if not parts:
        raise ValueError("memory_bars: nothing to draw.")
    names = escape_labels(list(parts))
    values = as_array(np.asarray(list(parts.values()), dtype=np.float64), (1,), "memory_bars", "[n]")
    colors = [RED if i == 0 else BLUE for i in range(len(values))]
    fig = go.Figure(go.Bar(x=values, y=names, orientation="h", marker_color=colors,
                           text=[f"{v:,.0f}" for v in values], textposition="outside",
                           hovertemplate="%{y}: %{x:,.0f}" + html.escape(unit) + "<extra></extra>"))
    fig.update_layout(height=80 + 40 * len(values), margin=dict(l=10, r=40, t=40 if title else 10, b=30),
                      xaxis=dict(type="log"), yaxis=dict(autorange="reversed", automargin=True),
                      title=dict(text=html.escape(title)) if title else None)
    return fig

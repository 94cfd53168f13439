"""Figures the lessons draw that no explorer page has: a token strip, signed bars for one
query's scores, Q/K/V side by side, and one query's weighted sum of values.

numpy + token strings in, plotly out; labels escaped (position-prefixed, "3·the").
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import DIVERGING, plotly_colorscale
from .figure import BLUE, GREY, ORANGE, add_title, as_array, axis_ticks, check_labels, text_scale
from .labels import escape_labels, numbered, position_labels


def token_strip(tokens: Sequence[str], ids: Sequence[int], special: Sequence[bool], *, title: str = "",
                terms: Mapping[str, str] | None = None) -> go.Figure:
    """The tokens in reading order as boxes, each with its id under it; special tokens
    ([CLS], <bos>, …) in grey. len(tokens) == len(ids) == len(special)."""
    n = len(tokens)
    check_labels(tokens, len(ids), "token_strip", "tokens")
    check_labels(tokens, len(special), "token_strip", "special flags")
    words = {"id": "id", **(terms or {})}
    labels = escape_labels(tokens)
    per_row = 12
    x = np.arange(n) % per_row
    y = -(np.arange(n) // per_row)
    colours = [GREY if s else BLUE for s in special]
    scale = text_scale()                                 # larger boxes and text on a projector
    fig = go.Figure(go.Scatter(
        x=x, y=y, mode="markers+text", marker=dict(symbol="square", size=round(46 * scale), color=colours,
                                                   opacity=0.18, line=dict(color=colours, width=2)),
        text=[f"{lab}<br><span style='font-size:{round(10 * scale)}px'>{words['id']} {i}</span>"
              for lab, i in zip(labels, ids)],
        textfont=dict(size=round(13 * scale)), hovertext=numbered(labels),
        hovertemplate="%{hovertext}<extra></extra>", name=""))
    rows = int(np.ceil(n / per_row)) or 1
    fig.update_layout(xaxis=dict(visible=False, range=[-0.7, per_row - 0.3]),
                      yaxis=dict(visible=False, range=[-rows + 0.4, 0.6]),
                      height=round((70 + 70 * rows) * scale),
                      margin=dict(l=10, r=10, t=40 if title else 10, b=10), showlegend=False)
    return add_title(fig, title)


def signed_bars(values: np.ndarray, k_tokens: Sequence[str], *, highlight: int | None = None, title: str = "",
                value_name: str = "score", fmt: str = ".3f") -> go.Figure:
    """One query's values over its keys in key order (scores may be negative; -inf/NaN =
    masked, drawn as a grey stub at 0 labelled "−∞"). `highlight`: a key outlined in orange."""
    v = as_array(values, (1,), "signed_bars", "[k] (one query's row)", strict=False).astype(np.float64)
    check_labels(k_tokens, v.shape[0], "signed_bars", "key tokens")
    labels = position_labels(k_tokens)
    ok = np.isfinite(v)
    shown = np.where(ok, v, 0.0).astype(np.float32)
    colours = [(ORANGE if i == highlight else BLUE) if ok[i] else GREY for i in range(len(v))]
    text = [format(x, fmt) if ok[i] else "−∞" for i, x in enumerate(v)]
    fig = go.Figure(go.Bar(x=np.arange(len(v)), y=shown, marker=dict(color=colours), text=text,
                           textposition="outside", cliponaxis=False, customdata=np.arange(len(v), dtype=np.int32),
                           hovertemplate="%{customdata}: %{text}<extra></extra>", name=""))
    fig.update_layout(xaxis=axis_ticks(labels, 48), yaxis=dict(title=dict(text=value_name), zeroline=True),
                      height=360, margin=dict(l=10, r=10, t=40 if title else 10, b=10), bargap=0.2)
    return add_title(fig, title)


def qkv_figure(q: np.ndarray, k: np.ndarray, v: np.ndarray, tokens: Sequence[str], k_tokens: Sequence[str] | None = None,
               *, title: str = "", names: Sequence[str] = ("Q", "K", "V"), dim_name: str = "dimension") -> go.Figure:
    """Q [n, dh], K [m, dh], V [m, dh] of one head as three heatmaps sharing one signed scale."""
    k_tokens = tokens if k_tokens is None else k_tokens
    mats = [as_array(a, (2,), "qkv_figure", "[pos, d_head]").astype(np.float32) for a in (q, k, v)]
    check_labels(tokens, mats[0].shape[0], "qkv_figure", "query tokens")
    check_labels(k_tokens, mats[1].shape[0], "qkv_figure", "key tokens")
    half = float(max(np.abs(m).max() for m in mats)) or 1.0
    fig = make_subplots(rows=1, cols=3, subplot_titles=list(names), horizontal_spacing=0.06)
    for j, (m, toks) in enumerate(zip(mats, (tokens, k_tokens, k_tokens))):
        fig.add_trace(go.Heatmap(z=m, zmin=-half, zmax=half, colorscale=plotly_colorscale(DIVERGING),
                                 showscale=j == 2, name="", hovertemplate="%{y}, %{x}: %{z:.4f}<extra></extra>"),
                      row=1, col=j + 1)
        fig.update_yaxes(autorange="reversed", row=1, col=j + 1, **axis_ticks(escape_labels(toks), 32))
        fig.update_xaxes(title=dict(text=dim_name), row=1, col=j + 1)
    n = max(m.shape[0] for m in mats)
    # a row per token tall enough for its label, which grows on a projector (text_scale), as the names do
    fig.update_layout(height=int(np.clip(140 + 18 * n * text_scale(), 300, 900)), margin=dict(l=10, r=10, t=60, b=10))
    fig.update_annotations(font_size=round(13 * text_scale()))
    return add_title(fig, title, margin_t=60)


def weighted_values(weights: np.ndarray, v: np.ndarray, k_tokens: Sequence[str], *, title: str = "",
                    sum_label: str = "Σ = z", dim_name: str = "dimension") -> go.Figure:
    """Each key's share p_j · v_j [m, dh] and their sum z (the last row), one signed scale:
    the rows a query's output is made of."""
    w = as_array(weights, (1,), "weighted_values", "[k]", strict=False).astype(np.float64)
    vv = as_array(v, (2,), "weighted_values", "[k, d_head]").astype(np.float64)
    check_labels(k_tokens, vv.shape[0], "weighted_values", "key tokens")
    parts = np.nan_to_num(w)[:, None] * vv
    z = np.vstack([parts, parts.sum(0, keepdims=True)]).astype(np.float32)
    labels = [*position_labels(k_tokens), sum_label]
    half = float(np.abs(z).max()) or 1.0
    fig = go.Figure(go.Heatmap(z=z, zmin=-half, zmax=half, colorscale=plotly_colorscale(DIVERGING), name="",
                               hovertemplate="%{y}, %{x}: %{z:.4f}<extra></extra>"))
    fig.update_layout(yaxis=dict(autorange="reversed", **axis_ticks(labels, 48)),
                      xaxis=dict(title=dict(text=dim_name)),
                      height=int(np.clip(120 + 20 * len(labels), 300, 800)), margin=dict(l=10, r=10, t=48, b=10))
    fig.add_hline(y=len(labels) - 1.5, line=dict(color="black", width=2))
    return add_title(fig, title, margin_t=48)

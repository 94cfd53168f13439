"""Figures the lessons draw that no explorer page has: a token strip, signed bars for one
query's scores, Q/K/V side by side, and one query's weighted sum of values.

numpy + token strings in, plotly out; labels escaped (position-prefixed, "3·the").
"""
from __future__ import annotations

import functools
import json
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
    strip = dict(
        type="scatter", x=x, y=y, mode="markers+text",
        marker=dict(symbol="square", size=round(46 * scale), color=colours, opacity=0.18, line=dict(color=colours, width=2)),
        text=[f"{lab}<br><span style='font-size:{round(10 * scale)}px'>{words['id']} {i}</span>"
              for lab, i in zip(labels, ids)],
        textfont=dict(size=round(13 * scale)), hovertext=numbered(labels),
        hovertemplate="%{hovertext}<extra></extra>", name="")
    rows = int(np.ceil(n / per_row)) or 1
    fig = go.Figure(data=[strip], layout=dict(                 # one call: see viz_core/attention._matrix_figure
        xaxis=dict(visible=False, range=[-0.7, per_row - 0.3]), yaxis=dict(visible=False, range=[-rows + 0.4, 0.6]),
        height=round((70 + 70 * rows) * scale), margin=dict(l=10, r=10, t=40 if title else 10, b=10), showlegend=False))
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
    bars = dict(type="bar", x=np.arange(len(v)), y=shown, marker=dict(color=colours), text=text,
                textposition="outside", cliponaxis=False, customdata=np.arange(len(v), dtype=np.int32),
                hovertemplate="%{customdata}: %{text}<extra></extra>", name="")
    fig = go.Figure(data=[bars], layout=dict(
        xaxis=axis_ticks(labels, 48), yaxis=dict(title=dict(text=value_name), zeroline=True),
        height=360, margin=dict(l=10, r=10, t=40 if title else 10, b=10), bargap=0.2))
    return add_title(fig, title)


def qkv_figure(q: np.ndarray, k: np.ndarray, v: np.ndarray, tokens: Sequence[str], k_tokens: Sequence[str] | None = None,
               *, title: str = "", names: Sequence[str] = ("Q", "K", "V"), dim_name: str = "dimension") -> go.Figure:
    """Q [n, dh], K [m, dh], V [m, dh] of one head as three heatmaps sharing one signed scale."""
    k_tokens = tokens if k_tokens is None else k_tokens
    mats = [as_array(a, (2,), "qkv_figure", "[pos, d_head]").astype(np.float32) for a in (q, k, v)]
    check_labels(tokens, mats[0].shape[0], "qkv_figure", "query tokens")
    check_labels(k_tokens, mats[1].shape[0], "qkv_figure", "key tokens")
    half = float(max(np.abs(m).max() for m in mats)) or 1.0
    layout = json.loads(_three_panels(tuple(names)))
    traces = []
    for j, (m, toks) in enumerate(zip(mats, (tokens, k_tokens, k_tokens))):
        axis = "" if j == 0 else str(j + 1)
        traces.append(dict(type="heatmap", z=m, zmin=-half, zmax=half, colorscale=plotly_colorscale(DIVERGING),
                           showscale=j == 2, name="", hovertemplate="%{y}, %{x}: %{z:.4f}<extra></extra>",
                           xaxis=f"x{axis}", yaxis=f"y{axis}"))
        layout[f"yaxis{axis}"].update(autorange="reversed", **axis_ticks(escape_labels(toks), 32))
        layout[f"xaxis{axis}"]["title"] = dict(text=dim_name)
    scale = text_scale()
    for note in layout["annotations"]:                  # the panels' names
        note["font"]["size"] = round(13 * scale)
    n = max(m.shape[0] for m in mats)
    # a row per token tall enough for its label, which grows on a projector (text_scale), as the names do
    layout.update(height=int(np.clip(140 + 18 * n * scale, 300, 900)), margin=dict(l=10, r=10, t=60, b=10))
    fig = go.Figure(data=traces, layout=layout)         # one call: see viz_core/attention._matrix_figure (96 -> 14 ms)
    return add_title(fig, title, margin_t=60)


@functools.lru_cache(maxsize=8)
def _three_panels(names: tuple[str, ...]) -> str:
    """make_subplots' layout of three panels side by side (the axes' domains and anchors, the
    names as annotations), as JSON: made once, copied per figure (make_subplots and the
    update_* calls on its figure took most of qkv_figure's time)."""
    panels = make_subplots(rows=1, cols=3, subplot_titles=list(names), horizontal_spacing=0.06)
    layout = panels.to_plotly_json()["layout"]
    layout.pop("template", None)
    return json.dumps(layout)


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
    cells = dict(type="heatmap", z=z, zmin=-half, zmax=half, colorscale=plotly_colorscale(DIVERGING), name="",
                 hovertemplate="%{y}, %{x}: %{z:.4f}<extra></extra>")
    above_sum = dict(type="line", xref="x domain", x0=0, x1=1, yref="y", y0=len(labels) - 1.5, y1=len(labels) - 1.5,
                     line=dict(color="black", width=2))           # what fig.add_hline draws
    fig = go.Figure(data=[cells], layout=dict(
        yaxis=dict(autorange="reversed", **axis_ticks(labels, 48)), xaxis=dict(title=dict(text=dim_name)),
        height=int(np.clip(120 + 20 * len(labels), 300, 800)), margin=dict(l=10, r=10, t=48, b=10), shapes=[above_sum]))
    return add_title(fig, title, margin_t=48)

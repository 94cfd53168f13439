"""Figures of the beyond-softmax page's memory and ternary sections: bytes held against
context length per family, and a weight matrix before / after ternary quantisation.
(The Mixer section uses `head_heatmap` and `matrix_heatmap`.)

numpy in, plotly out; no torch, no streamlit. Names and terms are escaped here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
import plotly.colors as pcolors
from plotly.subplots import make_subplots

from .figure import BLUE, GREY, ORANGE, RED, as_array, merge_terms

MEMORY_TERMS = {"context": "context length n (tokens)", "total": "bytes held", "next": "bytes added by the next token",
                "total_title": "held in all", "next_title": "added per new token", "model_max": "this model's max_len"}
TERNARY_TERMS = {"before": "trained weights", "after": "ternary codes", "weight": "weight", "count": "weights",
                 "share": "share", "threshold": "rounding threshold ±γ/2", "gamma": "±γ"}


def _esc(text: str) -> str:
    """Escaped for plotly's HTML-like labels (no &#x27; entities: plotly shows those as typed)."""
    return html.escape(text, quote=False)


def _bytes_text(b: float) -> str:
    """1.5 KiB, 3.2 GiB: a byte count as hover text."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(b) < 1024 or unit == "TiB":
            return f"{b:.0f} {unit}" if unit == "B" else f"{b:.3g} {unit}"
        b /= 1024
    return str(b)


def memory_chart(contexts: np.ndarray, totals: Mapping[str, np.ndarray], next_token: Mapping[str, np.ndarray], *,
                 dashed: tuple[str, ...] = (), model_max: int | None = None, terms: Mapping[str, str] | None = None,
                 title: str = "") -> go.Figure:
    """Two panels over the context lengths [m] (log x): the bytes held in all (log y) and
    the bytes the next token adds (linear y; a constant state adds 0). One line per
    family name in `totals` / `next_token` ([m] each); names in `dashed` (the constant
    states) dashed; `model_max` draws a vertical line at the model's own length limit."""
    n = as_array(contexts, (1,), "memory_chart", "[m]")
    if set(totals) != set(next_token):
        raise ValueError("memory_chart: totals and next_token must name the same families.")
    w = merge_terms(terms, MEMORY_TERMS)
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.1,
                        subplot_titles=(_esc(w["total_title"]), _esc(w["next_title"])))
    palette = pcolors.qualitative.D3
    for i, name in enumerate(totals):
        tot = as_array(totals[name], (1,), "memory_chart", "[m]")
        nxt = as_array(next_token[name], (1,), "memory_chart", "[m]")
        if tot.shape != n.shape or nxt.shape != n.shape:
            raise ValueError(f"memory_chart: the values of {name!r} do not match the context lengths.")
        label = _esc(name)
        style = dict(color=palette[i % len(palette)], width=2.5, dash="dash" if name in dashed else "solid")
        for col, y in ((1, tot), (2, nxt)):
            fig.add_trace(go.Scatter(x=n, y=y, mode="lines", name=label, legendgroup=label, showlegend=col == 1,
                                     line=style, customdata=[_bytes_text(v) for v in y],
                                     hovertemplate=f"{label}<br>n = %{{x}}: %{{customdata}}<extra></extra>"),
                          row=1, col=col)
    if model_max:
        for col in (1, 2):
            fig.add_vline(x=model_max, line=dict(color=GREY, dash="dot"), row=1, col=col)
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line=dict(color=GREY, dash="dot"),
                                 name=f"{_esc(w['model_max'])} = {model_max}"), row=1, col=1)
    fig.update_xaxes(type="log", title_text=_esc(w["context"]))
    fig.update_yaxes(type="log", title_text=_esc(w["total"]), row=1, col=1)
    fig.update_yaxes(title_text=_esc(w["next"]), rangemode="tozero", row=1, col=2)
    fig.update_layout(height=460, margin=dict(l=70, r=20, t=70 if title else 50, b=60),
                      legend=dict(orientation="h", y=-0.2, x=0),
                      title=dict(text=_esc(title)) if title else None)
    return fig


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
                        subplot_titles=(_esc(w["before"]), _esc(w["after"])))
    fig.add_trace(go.Bar(x=mids, y=counts, width=edges[1] - edges[0], marker_color=BLUE, name=_esc(w["before"]),
                         hovertemplate="%{x:.4g}: %{y}<extra></extra>", showlegend=False), row=1, col=1)
    for x, color, dash, key in ((gamma / 2, ORANGE, "dash", "threshold"), (gamma, RED, "dot", "gamma")):
        for sign in (-1, 1):
            fig.add_vline(x=sign * x, line=dict(color=color, dash=dash), row=1, col=1)
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line=dict(color=color, dash=dash),
                                 name=_esc(w[key])), row=1, col=1)
    fig.add_trace(go.Bar(x=["−1", "0", "+1"], y=list(shares), marker_color=[RED, GREY, BLUE], showlegend=False,
                         text=[f"{s:.1%}" for s in shares], textposition="outside",
                         hovertemplate="%{x}: %{y:.2%}<extra></extra>"), row=1, col=2)
    fig.update_xaxes(title_text=_esc(w["weight"]), row=1, col=1)
    fig.update_xaxes(type="category", row=1, col=2)
    fig.update_yaxes(title_text=_esc(w["count"]), row=1, col=1)
    fig.update_yaxes(title_text=_esc(w["share"]), tickformat=".0%", range=[0, max(shares) * 1.25 or 1],
                     row=1, col=2)
    fig.update_layout(height=380, margin=dict(l=70, r=20, t=70 if title else 50, b=50),
                      legend=dict(orientation="h", y=-0.2, x=0), bargap=0.05,
                      title=dict(text=_esc(title)) if title else None)
    return fig

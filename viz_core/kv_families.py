"""Figures of the beyond-softmax page's memory section (`ui/views/beyond_kv_families.py`,
numbers from `lab/kv_families.py`): bytes held against context length per family.

numpy in, plotly out; no torch, no streamlit. Names and terms are escaped here.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
import plotly.colors as pcolors
from plotly.subplots import make_subplots

from .figure import GREY, as_array, escape_text, merge_terms

MEMORY_TERMS = {"context": "context length n (tokens)", "total": "bytes held", "next": "bytes added by the next token",
                "total_title": "held in all", "next_title": "added per new token", "model_max": "this model's max_len"}


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
                        subplot_titles=(escape_text(w["total_title"]), escape_text(w["next_title"])))
    palette = pcolors.qualitative.D3
    for i, name in enumerate(totals):
        tot = as_array(totals[name], (1,), "memory_chart", "[m]")
        nxt = as_array(next_token[name], (1,), "memory_chart", "[m]")
        if tot.shape != n.shape or nxt.shape != n.shape:
            raise ValueError(f"memory_chart: the values of {name!r} do not match the context lengths.")
        label = escape_text(name)
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
                                 name=f"{escape_text(w['model_max'])} = {model_max}"), row=1, col=1)
    fig.update_xaxes(type="log", title_text=escape_text(w["context"]))
    fig.update_yaxes(type="log", title_text=escape_text(w["total"]), row=1, col=1)
    fig.update_yaxes(title_text=escape_text(w["next"]), rangemode="tozero", row=1, col=2)
    fig.update_layout(height=460, margin=dict(l=70, r=20, t=70 if title else 50, b=60),
                      legend=dict(orientation="h", y=-0.2, x=0),
                      title=dict(text=escape_text(title)) if title else None)
    return fig

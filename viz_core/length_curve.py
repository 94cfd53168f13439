"""Figures of "train short, test long", the positional page's length-curve section (numbers
from lab/length_curve.py): numpy in, plotly out.

- `length_curves`: bits per character against evaluation length (Press et al. 2022,
  Figure 1 at toy scale), a learned table's end marked, stock curves dashed beside.
- `distance_profile`: mean attention weight against query-key distance (log x), one panel
  per scheme, one line per evaluation length.

Their default words are the knobs figures' (`viz_core.pe_knobs.DEFAULT_WORDS`).
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .figure import as_array
from .positional import PALETTE
from .pe_knobs import merged_words


def length_curves(factors: Sequence[float], curves: Mapping[str, Sequence[float | None]], *,
                  stock: Mapping[str, Sequence[float | None]] | None = None, table_end: float | None = None,
                  title: str = "", words: Mapping[str, str] | None = None, height: int = 400) -> go.Figure:
    """Bits per character per scheme against the length factor. None/NaN: the model cannot
    read that length (a learned table) — the line stops. `stock`: the same curves without
    the knobs, dashed. `table_end`: the factor where the learned table ends (a marked line)."""
    if not curves:
        raise ValueError("length_curves got no schemes.")
    w = merged_words(words)
    x = np.asarray(factors, dtype=np.float64)
    fig = go.Figure()
    for i, (name, ys) in enumerate(curves.items()):
        color = PALETTE[i % len(PALETTE)]
        y = np.array([np.nan if v is None else v for v in ys], dtype=np.float64)
        if y.shape != x.shape:
            raise ValueError(f"length_curves: {name!r} has {y.shape[0]} values for {x.shape[0]} lengths.")
        if stock is not None and name in stock:
            ys0 = np.array([np.nan if v is None else v for v in stock[name]], dtype=np.float64)
            first = not any(tr.legendgroup == "stock" for tr in fig.data)    # one legend entry for all
            fig.add_trace(go.Scatter(x=x, y=ys0, mode="lines", line=dict(color=color, width=1.5, dash="dash"),
                                     name=html.escape(w["stock"]), legendgroup="stock", showlegend=first,
                                     opacity=0.6,
                                     hovertemplate=f"{html.escape(name)} ({html.escape(w['stock'])}): ×%{{x:g}}, "
                                                   f"%{{y:.3f}}<extra></extra>"))
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines+markers", name=html.escape(name),
                                 line=dict(color=color, width=2.5), marker=dict(size=8),
                                 hovertemplate=f"{html.escape(name)}: ×%{{x:g}}, %{{y:.3f}}<extra></extra>"))
    finite = [v for ys in curves.values() for v in ys if v is not None and np.isfinite(v)]
    top = min(max(finite), 3 * min(finite)) if finite else 1.0      # a blow-up runs off the top, not the scale
    if table_end is not None:      # a legend line (a vline's annotation lands at 10^x on a log axis)
        fig.add_trace(go.Scatter(x=[table_end, table_end], y=[0.0, top * 1.05], mode="lines",
                                 name=html.escape(w["table_end"]), line=dict(color="#666", dash="dot", width=1.5),
                                 hoverinfo="skip"))
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height,
                      margin=dict(l=60, r=20, t=44 if title else 16, b=110),
                      xaxis=dict(title=dict(text=html.escape(w["factor"])), type="log", tickvals=x,
                                 ticktext=[f"×{f:g}" for f in x]),
                      yaxis=dict(title=dict(text=html.escape(w["bpc"])),
                                 range=[0.0, top * 1.05] if finite else None),
                      legend=dict(orientation="h", yanchor="top", y=-0.3))
    return fig


def distance_profile(panels: Mapping[str, Mapping[str, tuple[np.ndarray, np.ndarray]]], *, title: str = "",
                     words: Mapping[str, str] | None = None, cols: int = 3, panel_height: int = 250) -> go.Figure:
    """One panel per scheme {scheme: {length label: (distances [D], mean weight [D])}}:
    the mean attention weight at each query-key distance, log-log (distance 0 is drawn at
    0.5 so the token itself stays on the log axis)."""
    if not panels:
        raise ValueError("distance_profile got no schemes.")
    w = merged_words(words)
    names = list(panels)
    rows = (len(names) + cols - 1) // cols
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[html.escape(n) for n in names],
                        horizontal_spacing=0.06, vertical_spacing=0.14)
    labels: list[str] = []
    for i, name in enumerate(names):
        r, c = i // cols + 1, i % cols + 1
        for j, (label, (d, y)) in enumerate(panels[name].items()):
            if label not in labels:
                labels.append(label)
            d = np.asarray(d, dtype=np.float64)
            y = as_array(y, (1,), "distance_profile", "[D]")
            fig.add_trace(go.Scatter(x=np.where(d == 0, 0.5, d), y=np.where(y > 0, y, np.nan), mode="lines",
                                     name=html.escape(label), legendgroup=label, showlegend=i == 0,
                                     line=dict(color=PALETTE[labels.index(label) % len(PALETTE)], width=2),
                                     customdata=d,
                                     hovertemplate=f"{html.escape(name)} · {html.escape(label)}<br>"
                                                   f"{html.escape(w['distance'])} %{{customdata:g}}: "
                                                   f"%{{y:.3g}}<extra></extra>"),
                          row=r, col=c)
        # decades only (dtick 1 on a log axis): minor labels (2, 5, 20…) crowd a small panel
        fig.update_xaxes(type="log", dtick=1, row=r, col=c,
                         title=dict(text=html.escape(w["distance"])) if i + cols >= len(names) else None)
        fig.update_yaxes(type="log", dtick=1, exponentformat="power", row=r, col=c,
                         title=dict(text=html.escape(w["weight"])) if c == 1 else None)
    fig.update_layout(title=dict(text=html.escape(title)) if title else None,
                      height=int(rows * panel_height + (70 if title else 40) + 90),
                      margin=dict(l=70, r=20, t=60 if title else 30, b=100),
                      legend=dict(orientation="h", yanchor="top", y=-70 / (rows * panel_height), x=0))
    return fig

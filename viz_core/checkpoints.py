"""Figures of the positional page's checkpoints section (numbers from lab/checkpoints.py) that
viz_core/positional.py does not draw: numpy in, plotly out.

- `entropy_chart`: attention entropy per layer and head (bits), stock beside the knobs.

Its default words are the knobs figures' (`viz_core.pe_knobs.DEFAULT_WORDS`).
"""
from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from .figure import as_array
from .positional import PALETTE
from .pe_knobs import merged_words


def entropy_chart(entropy: Mapping[str, np.ndarray], *, stock: Mapping[str, np.ndarray] | None = None,
                  title: str = "", words: Mapping[str, str] | None = None, height: int = 320) -> go.Figure:
    """Mean attention entropy (bits) of every head, grouped by scheme {name: [layers, heads]};
    `stock`: the same without the knobs, as open markers."""
    if not entropy:
        raise ValueError("entropy_chart got no models.")
    w = merged_words(words)
    fig = go.Figure()
    for i, (name, e) in enumerate(entropy.items()):
        e = as_array(e, (2,), "entropy_chart", "[layers, heads]")
        labels = [f"{name} L{l}H{h}" for l in range(e.shape[0]) for h in range(e.shape[1])]
        fig.add_trace(go.Bar(x=[html.escape(s) for s in labels], y=e.reshape(-1), name=html.escape(name),
                             marker=dict(color=PALETTE[i % len(PALETTE)]),
                             hovertemplate="%{x}: %{y:.2f}<extra></extra>"))
        if stock is not None and name in stock:
            s0 = as_array(stock[name], (2,), "entropy_chart", "[layers, heads]")
            fig.add_trace(go.Scatter(x=[html.escape(s) for s in labels], y=s0.reshape(-1), mode="markers",
                                     marker=dict(symbol="line-ew-open", size=14, color="#222", line=dict(width=2)),
                                     name=html.escape(w["stock"]), showlegend=i == 0,
                                     hovertemplate=f"%{{x}} ({html.escape(w['stock'])}): %{{y:.2f}}<extra></extra>"))
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height, bargap=0.15,
                      margin=dict(l=60, r=20, t=44 if title else 16, b=90),
                      yaxis=dict(title=dict(text=html.escape(w["entropy"]))), xaxis=dict(tickangle=-60),
                      legend=dict(orientation="h", y=-0.45))
    return fig

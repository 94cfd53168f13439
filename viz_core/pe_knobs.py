"""Figures of the positional knobs (numbers from lab/pe_knobs.py): numpy in, plotly out.

- `wavelength_chart`: RoPE's wavelength per rotating pair, stock and under the knobs,
  against the training and evaluation lengths.
- `DEFAULT_WORDS`: the words of every figure the knobs re-draw (this one, the length
  curves of viz_core/length_curve.py, the entropy chart of viz_core/checkpoints.py); the
  knobs panel (ui/widgets/positional_knobs.py) translates them all at once.
"""
from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from .figure import as_array
from .positional import PALETTE

DEFAULT_WORDS = {"pair": "rotating pair i", "wavelength": "wavelength (positions)", "stock": "stock",
                 "knobs": "with the knobs", "train": "training length {n}", "eval": "evaluation length {n}",
                 "factor": "evaluation length / training length", "bpc": "bits per character",
                 "table_end": "learned table ends", "distance": "query-key distance", "weight": "mean attention weight",
                 "length": "×{f} ({n} chars)", "layer": "layer", "head": "head", "entropy": "entropy (bits)"}


def merged_words(words: Mapping[str, str] | None) -> dict[str, str]:
    """DEFAULT_WORDS updated with the caller's (translated) words."""
    return {**DEFAULT_WORDS, **(words or {})}


def wavelength_chart(stock: np.ndarray, knobbed: np.ndarray | None, train_len: int, eval_len: int | None = None, *,
                     title: str = "", words: Mapping[str, str] | None = None, height: int = 380) -> go.Figure:
    """Wavelength 2π/θ_i of every rotating pair [pairs] on a log axis; horizontal lines
    at the training length (and the evaluation length): a pair whose wavelength exceeds
    the training length never turned a whole circle in training."""
    w = merged_words(words)
    stock = as_array(stock, (1,), "wavelength_chart", "[pairs]")
    pairs = np.arange(stock.shape[0])
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=pairs, y=stock, mode="lines+markers", name=html.escape(w["stock"]),
                             line=dict(color=PALETTE[0], width=2, dash="dash" if knobbed is not None else "solid"),
                             hovertemplate=f"i=%{{x}}: %{{y:.4g}}<extra>{html.escape(w['stock'])}</extra>"))
    if knobbed is not None:
        knobbed = as_array(knobbed, (1,), "wavelength_chart", "[pairs]")
        fig.add_trace(go.Scatter(x=pairs, y=knobbed, mode="lines+markers", name=html.escape(w["knobs"]),
                                 line=dict(color=PALETTE[1], width=2),
                                 hovertemplate=f"i=%{{x}}: %{{y:.4g}}<extra>{html.escape(w['knobs'])}</extra>"))
    # reference lengths as legend lines (an hline's annotation lands at 10^y on a log axis)
    ends = [-0.3, pairs[-1] + 0.3]
    refs = [(train_len, w["train"].format(n=train_len), "#444")]
    if eval_len and eval_len != train_len:
        refs.append((eval_len, w["eval"].format(n=eval_len), PALETTE[2]))
    for value, label, color in refs:
        fig.add_trace(go.Scatter(x=ends, y=[value, value], mode="lines", name=html.escape(label),
                                 line=dict(color=color, dash="dot", width=1.5), hoverinfo="skip"))
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height,
                      margin=dict(l=60, r=20, t=44 if title else 16, b=90),
                      xaxis=dict(title=dict(text=html.escape(w["pair"]))),
                      yaxis=dict(title=dict(text=html.escape(w["wavelength"])), type="log", dtick=1),
                      legend=dict(orientation="h", yanchor="top", y=-0.32))
    return fig

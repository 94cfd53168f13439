"""Figures of the residual page's norms section (numbers from lab/norms.py): LayerNorm
against BatchNorm on a padded batch, and a norm's input against its output with a fitted tanh.

numpy in, plotly out; no torch, no streamlit. Shapes are stated per function and
checked; labels are escaped here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .colors import NAN_CSS, SEQUENTIAL, plotly_colorscale
from .figure import BLUE, GREY, RED, as_array, merge_terms

TERMS = {
    "token": "token", "feature": "feature", "mean": "mean", "padding": "padding",
    "ln": "LayerNorm: per token", "bn_real": "BatchNorm over real tokens", "bn_all": "BatchNorm over the padded batch",
    "added": "padding tokens added", "change": "largest change", "ln_change": "LayerNorm (real tokens)",
    "bn_change": "BatchNorm mean", "input": "input x", "output": "output (gain and bias removed)",
    "fit": "g·tanh(αx)", "line": "best line c·x",
}


def token_stat_map(values: np.ndarray, valid: np.ndarray, rows: Sequence[Sequence[str]], *, value_name: str = "std",
                   title: str = "") -> go.Figure:
    """[B, n] one number per token of a padded batch (LayerNorm's statistic); padding
    cells hatched grey with the value still shown (LayerNorm computes it, nobody reads it)."""
    z = as_array(values, (2,), "token_stat_map", "[B, n]")
    v = np.asarray(valid, dtype=bool)
    if v.shape != z.shape or len(rows) != z.shape[0]:
        raise ValueError("token_stat_map: values, valid and the rows' tokens must agree in shape.")
    text = [[html.escape(str(t))[:12] for t in r] for r in rows]
    real = np.where(v, z, np.nan)
    pad = np.where(v, np.nan, 1.0)
    fig = go.Figure([
        go.Heatmap(z=real, colorscale=plotly_colorscale(SEQUENTIAL), text=text, texttemplate="%{text}",
                   colorbar=dict(title=dict(text=html.escape(value_name)), thickness=14), name="",
                   hovertemplate="%{text}: %{z:.4g}<extra></extra>", xgap=2, ygap=2),
        go.Heatmap(z=pad, colorscale=[[0, NAN_CSS], [1, NAN_CSS]], showscale=False, text=text, texttemplate="%{text}",
                   hoverinfo="skip", xgap=2, ygap=2),
    ])
    fig.update_layout(height=120 + 60 * z.shape[0], margin=dict(l=60, r=20, t=48 if title else 20, b=30),
                      yaxis=dict(tickmode="array", tickvals=list(range(z.shape[0])),
                                 ticktext=[f"#{i + 1}" for i in range(z.shape[0])], autorange="reversed"),
                      xaxis=dict(showticklabels=False), title=dict(text=html.escape(title)) if title else None)
    return fig


def feature_stats(real: np.ndarray, padded: np.ndarray, *, terms: Mapping[str, str] | None = None,
                  title: str = "", max_features: int = 96) -> go.Figure:
    """BatchNorm's per-feature mean [d] over the real tokens and over the padded batch
    (first `max_features` features)."""
    a, b = (as_array(x, (1,), "feature_stats", "[d]") for x in (real, padded))
    if a.shape != b.shape:
        raise ValueError("feature_stats: the two statistics differ in length.")
    w = merge_terms(terms, TERMS)
    k = min(len(a), max_features)
    x = np.arange(k)
    fig = go.Figure([go.Scatter(x=x, y=a[:k], mode="lines+markers", name=w["bn_real"], line=dict(color=BLUE),
                                marker=dict(size=4)),
                     go.Scatter(x=x, y=b[:k], mode="lines+markers", name=w["bn_all"], line=dict(color=RED),
                                marker=dict(size=4))])
    fig.update_layout(height=320, margin=dict(l=60, r=20, t=48 if title else 20, b=50),
                      xaxis=dict(title=dict(text=w["feature"])), yaxis=dict(title=dict(text=w["mean"])),
                      legend=dict(orientation="h", y=1.15, x=0), title=dict(text=html.escape(title)) if title else None)
    return fig


def padding_sweep(extra: Sequence[int], bn: Sequence[float], ln: Sequence[float], *,
                  terms: Mapping[str, str] | None = None, title: str = "") -> go.Figure:
    """How far each norm's statistics move as padding is added [k]: BatchNorm's mean
    against LayerNorm's statistics of the real tokens."""
    x = as_array(np.asarray(extra, dtype=np.float64), (1,), "padding_sweep", "[k]")
    b, l_ = (as_array(np.asarray(v, dtype=np.float64), (1,), "padding_sweep", "[k]") for v in (bn, ln))
    if not (x.shape == b.shape == l_.shape):
        raise ValueError("padding_sweep: extra, bn and ln must have the same length.")
    w = merge_terms(terms, TERMS)
    fig = go.Figure([go.Scatter(x=x, y=b, mode="lines+markers", name=w["bn_change"], line=dict(color=RED)),
                     go.Scatter(x=x, y=l_, mode="lines+markers", name=w["ln_change"], line=dict(color=BLUE))])
    fig.update_layout(height=320, margin=dict(l=60, r=20, t=48 if title else 20, b=50),
                      xaxis=dict(title=dict(text=w["added"])), yaxis=dict(title=dict(text=w["change"])),
                      legend=dict(orientation="h", y=1.15, x=0), title=dict(text=html.escape(title)) if title else None)
    return fig


def tanh_scatter(x: np.ndarray, y: np.ndarray, token: np.ndarray, alpha: float, gain: float, slope: float, *,
                 terms: Mapping[str, str] | None = None, title: str = "") -> go.Figure:
    """A norm's input components x [N] against its output components y [N], coloured by
    the token they come from [N]; the fitted y = gain·tanh(alpha·x) and the line slope·x."""
    xs, ys = (as_array(a, (1,), "tanh_scatter", "[N]") for a in (x, y))
    tok = np.asarray(token)
    if not (xs.shape == ys.shape == tok.shape):
        raise ValueError("tanh_scatter: x, y and token must have the same length.")
    w = merge_terms(terms, TERMS)
    grid = np.linspace(float(xs.min()), float(xs.max()), 400)
    fig = go.Figure([
        go.Scattergl(x=xs, y=ys, mode="markers", name=w["token"], showlegend=False,
                     marker=dict(size=4, color=tok.astype(np.float32), colorscale=plotly_colorscale(SEQUENTIAL),
                                 opacity=0.55, colorbar=dict(title=dict(text=w["token"]), thickness=12)),
                     hovertemplate="x %{x:.3g} → %{y:.3g}<extra></extra>"),
        go.Scatter(x=grid, y=gain * np.tanh(alpha * grid), mode="lines", name=w["fit"], line=dict(color=RED, width=3)),
        go.Scatter(x=grid, y=slope * grid, mode="lines", name=w["line"], line=dict(color=GREY, dash="dash")),
    ])
    lo, hi = float(ys.min()), float(ys.max())
    pad = 0.1 * (hi - lo or 1.0)
    fig.update_layout(height=460, margin=dict(l=60, r=20, t=48 if title else 20, b=50),
                      xaxis=dict(title=dict(text=w["input"])),
                      yaxis=dict(title=dict(text=w["output"]), range=[lo - pad, hi + pad]),
                      legend=dict(orientation="h", y=1.1, x=0), title=dict(text=html.escape(title)) if title else None)
    return fig


"""Figures and small numpy helpers for the FFN page: which neurons to show, how sparse
the activations are, the activation heatmap (click a cell to open a neuron), the
activation function over its inputs, one neuron's activation per token, the tokens a
vector promotes, and the parameter share of each part.

numpy in, plotly out; no torch, no streamlit. Every function states the shape it
takes and raises ValueError for another one. Token labels are escaped
(viz_core.labels) before plotly sees them.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import DIVERGING, plotly_colorscale
from .figure import (BLUE, ORANGE, RED, as_array, as_matrix, axis_ticks, check_labels, fit_height, marker_layer,
                     merge_terms, outline)
from .labels import escape_labels, position_labels

FFN_TERMS = {"token": "token", "neuron": "neuron", "activation": "activation", "count": "count",
             "layer": "layer", "sparsity": "sparsity", "score": "score"}


# --------------------------------------------------------------------------- FFN: numbers


def top_neurons(acts: np.ndarray, k_per_token: int = 8, max_neurons: int = 48) -> np.ndarray:
    """Neuron ids worth showing for acts [pos, d_ff]: the union of each token's k
    strongest (|activation|) neurons, ordered by their largest |activation|, at most
    ``max_neurons``."""
    a = np.abs(as_array(acts, (2,), "top_neurons", "[pos, d_ff]", strict=False))
    if k_per_token < 1 or max_neurons < 1:
        raise ValueError("top_neurons: k_per_token and max_neurons must be at least 1.")
    k = min(k_per_token, a.shape[1])
    picked = np.unique(np.argpartition(-a, k - 1, axis=1)[:, :k])
    order = np.argsort(-a[:, picked].max(0), kind="stable")
    return picked[order][:max_neurons].astype(np.int64)


def sparsity(post: np.ndarray, exact: bool, tol: float = 0.01) -> np.ndarray:
    """Fraction of activations that are zero (``exact``, ReLU) or within ``tol`` of zero
    (GELU, SwiGLU), per layer, for post [layer, pos, d_ff] -> [layer]."""
    p = as_array(post, (3,), "sparsity", "[layer, pos, d_ff]", strict=False)
    if tol < 0:
        raise ValueError("sparsity: tol must be >= 0.")
    zero = p == 0 if exact else np.abs(p) <= tol
    return zero.mean(axis=(1, 2)).astype(np.float32)


# --------------------------------------------------------------------------- FFN: figures


def activation_heatmap(
    acts: np.ndarray,
    tokens: Sequence[str],
    neuron_ids: Sequence[int],
    *,
    selected: int | None = None,
    title: str = "",
    zmax: float | None = None,
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """acts [pos, n] (n chosen neurons) as a heatmap, tokens down, neurons across.

    Every cell carries an invisible marker (trace ``"click"``, customdata
    ``[pos, neuron_id]``) so a click anywhere opens that neuron. At most 64 x 128 cells.
    The selected neuron's column is outlined."""
    fn = "activation_heatmap"
    z = as_matrix(acts, fn, "[pos, neurons]", (tokens, "tokens"), (neuron_ids, "neuron ids"), strict=False)
    n_pos, n = z.shape
    if n_pos * n > 128 * 64:
        raise ValueError(f"{fn}: {n_pos} x {n} cells is too many for a clickable heatmap (max 8192).")
    w = merge_terms(terms, FFN_TERMS)
    rows = position_labels(tokens)
    cols = [f"n{int(j)}" for j in neuron_ids]
    # one outlier (e.g. a [CLS] neuron at 20) would wash out every other cell: the
    # colour range is the 99th percentile of |activation| unless given; hover shows the value
    half = float(zmax) if zmax else float(np.percentile(np.abs(z[np.isfinite(z)]), 99)) if np.isfinite(z).any() else 1.0
    half = half or 1.0
    fig = go.Figure(go.Heatmap(
        z=z, x=np.arange(n), y=np.arange(n_pos), zmin=-half, zmax=half, colorscale=plotly_colorscale(DIVERGING),
        name="", hoverinfo="skip",
        colorbar=dict(title=dict(text=w["activation"]), thickness=14, len=0.9),
    ))
    # the hover and the click belong to one marker per cell (the heatmap's own hover
    # would take the click away from them)
    yy, xx = np.meshgrid(np.arange(n_pos), np.arange(n), indexing="ij")
    fig.add_trace(marker_layer(
        x=xx.ravel().astype(np.int32), y=yy.ravel().astype(np.int32),
        customdata=[[int(r), int(neuron_ids[c])] for r, c in zip(yy.ravel(), xx.ravel())],
        hovertext=[f"{rows[r]} · {cols[c]}: {z[r, c]:.4g}" for r, c in zip(yy.ravel(), xx.ravel())],
    ))
    if selected is not None and int(selected) in [int(j) for j in neuron_ids]:
        c = [int(j) for j in neuron_ids].index(int(selected))
        outline(fig, c - 0.5, c + 0.5, -0.5, n_pos - 0.5)
    fig.update_layout(
        xaxis=dict(title=dict(text=w["neuron"]), range=[-0.5, n - 0.5], **axis_ticks(cols)),
        yaxis=dict(title=dict(text=w["token"]), range=[n_pos - 0.5, -0.5], **axis_ticks(rows)),
        height=int(np.clip(160 + 22 * n_pos, 300, 800)), margin=dict(l=110, r=20, t=48 if title else 20, b=70),
        hoverdistance=-1, clickmode="event+select", dragmode=False, plot_bgcolor="rgba(0,0,0,0)",
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title)))
    return fit_height(fig)          # token labels: more room for a long text or a projector's larger labels


def activation_function_figure(
    pre: np.ndarray,
    curve_x: np.ndarray,
    curve_y: np.ndarray,
    *,
    name: str,
    bins: int = 60,
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """The activation function drawn over the histogram of its inputs.
    pre: any shape (flattened), the pre-activations of one layer; curve_x, curve_y [n]."""
    x = np.asarray(pre, dtype=np.float32).ravel()
    cx, cy = (as_array(c, (1,), "activation_function_figure", "[n]", strict=False) for c in (curve_x, curve_y))
    if cx.shape != cy.shape:
        raise ValueError("activation_function_figure: curve_x and curve_y differ in length.")
    w = merge_terms(terms, FFN_TERMS)
    counts, edges = np.histogram(x[np.isfinite(x)], bins=bins, range=(float(cx.min()), float(cx.max())))
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Bar(x=((edges[:-1] + edges[1:]) / 2).astype(np.float32), y=counts.astype(np.int32),
                         width=float(edges[1] - edges[0]), marker_color="rgba(31,119,180,0.45)",
                         name=w["count"], hovertemplate="%{x:.3g}: %{y}<extra></extra>"), secondary_y=False)
    fig.add_trace(go.Scatter(x=cx, y=cy, mode="lines", line=dict(color=ORANGE, width=3), name=html.escape(name),
                             hovertemplate="f(%{x:.3g}) = %{y:.3g}<extra></extra>"), secondary_y=True)
    fig.update_yaxes(title_text=w["count"], secondary_y=False)
    fig.update_yaxes(title_text=html.escape(name), secondary_y=True, zeroline=True)
    fig.update_xaxes(title_text=w["activation"])
    fig.update_layout(height=340, margin=dict(l=60, r=60, t=30, b=50), bargap=0,
                      legend=dict(orientation="h", y=1.12, x=0))
    return fig


def sparsity_chart(frac: np.ndarray, *, title: str = "", terms: Mapping[str, str] | None = None) -> go.Figure:
    """Fraction of (near-)zero activations per layer, frac [layer] in [0, 1]."""
    f = as_array(frac, (1,), "sparsity_chart", "[layer]", strict=False)
    w = merge_terms(terms, FFN_TERMS)
    fig = go.Figure(go.Bar(x=np.arange(len(f)), y=f, marker_color=BLUE, text=[f"{v:.0%}" for v in f],
                           textposition="outside", hovertemplate=f"{w['layer']} %{{x}}: %{{y:.1%}}<extra></extra>"))
    fig.update_layout(yaxis=dict(range=[0, 1.1], tickformat=".0%", title=dict(text=w["sparsity"])),
                      xaxis=dict(title=dict(text=w["layer"]), tickmode="linear", dtick=1),
                      height=300, margin=dict(l=60, r=20, t=40 if title else 20, b=50),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


def token_bars(values: np.ndarray, tokens: Sequence[str], *, title: str = "", value_name: str = "activation",
               highlight: Sequence[int] = (), numbered: bool = True, red_positive: bool = False) -> go.Figure:
    """One value per token, values [pos], as vertical bars (e.g. one neuron's activation);
    blue above 0, red below (``red_positive``: red above, blue below, as the diverging
    heat maps beside it). numbered=False: the labels are names, not tokens, and are
    shown without their position (e.g. each MLP's share of a logit, "L0 MLP")."""
    v = as_array(values, (1,), "token_bars", "[pos]", strict=False)
    check_labels(tokens, len(v), "token_bars", "tokens")
    labels = position_labels(tokens) if numbered else escape_labels(tokens)
    up, down = (RED, BLUE) if red_positive else (BLUE, RED)
    colors = [ORANGE if i in set(highlight) else (up if x >= 0 else down) for i, x in enumerate(v)]
    fig = go.Figure(go.Bar(x=np.arange(len(v)), y=v, marker_color=colors, customdata=labels,
                           hovertemplate="%{customdata}: %{y:.4g}<extra></extra>"))
    fig.update_layout(xaxis=axis_ticks(labels), yaxis=dict(title=dict(text=html.escape(value_name))),
                      height=320, margin=dict(l=60, r=20, t=40 if title else 20, b=90),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


def vocab_bars(top_tokens: Sequence[str], top_scores: np.ndarray, bottom_tokens: Sequence[str],
               bottom_scores: np.ndarray, *, title: str = "", terms: Mapping[str, str] | None = None) -> go.Figure:
    """Tokens a vector promotes (top, positive scores) and suppresses (bottom) as
    horizontal bars; scores [k] each."""
    ts, bs = (as_array(s, (1,), "vocab_bars", "[k]", strict=False) for s in (top_scores, bottom_scores))
    check_labels(top_tokens, len(ts), "vocab_bars", "top tokens")
    check_labels(bottom_tokens, len(bs), "vocab_bars", "bottom tokens")
    w = merge_terms(terms, FFN_TERMS)
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.22)
    for col, toks, s, color in ((1, top_tokens, ts, BLUE), (2, bottom_tokens, bs, RED)):
        labels = [f"{lab} " for lab in escape_labels(toks)]
        fig.add_trace(go.Bar(x=s, y=[f"{i + 1}. {lab}" for i, lab in enumerate(labels)], orientation="h",
                             marker_color=color, hovertemplate="%{y}: %{x:.4g}<extra></extra>", name=""),
                      row=1, col=col)
        fig.update_yaxes(autorange="reversed", row=1, col=col)
    fig.update_xaxes(title_text=w["score"])
    fig.update_layout(height=max(300, 40 + 26 * max(len(ts), len(bs))), showlegend=False,
                      margin=dict(l=140, r=20, t=40 if title else 20, b=50),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


def share_chart(parts: Mapping[str, int], labels: Mapping[str, str] | None = None, *, title: str = "") -> go.Figure:
    """Parameter count by part (a dict part -> count) as a donut."""
    keys = [k for k, v in parts.items() if v > 0]
    if not keys:
        raise ValueError("share_chart: every part is empty.")
    names = [html.escape((labels or {}).get(k, k)) for k in keys]
    fig = go.Figure(go.Pie(labels=names, values=np.array([parts[k] for k in keys], dtype=np.int64), hole=0.45,
                           sort=False, textinfo="label+percent", textposition="inside", hovertemplate="%{label}: %{value:,}<extra></extra>"))
    fig.update_layout(height=320, margin=dict(l=20, r=20, t=40 if title else 20, b=20), showlegend=False,
                      uniformtext=dict(minsize=10, mode="hide"),   # tiny slices (norms): hover only
                      title=dict(text=html.escape(title)) if title else None)
    return fig

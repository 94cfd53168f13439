"""Figures of the masks lab: numpy in, plotly out (the Q/K/V walk-through's vectors and KV
cache are viz_core/walkthrough.py).

Conventions as in :mod:`viz_core.figure`: labels escaped and position-prefixed
(two "the" tokens stay two rows), numpy arrays (never lists) for the data, a wrong
shape raises ``ValueError``. No torch, no streamlit.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .attention import matrix_heatmap
from .figure import add_title, axis_ticks, check_labels, fit_height, merge_terms, template_text
from .labels import escape_labels, position_labels

ALLOWED = "#3b6fd8"      # may attend
BLOCKED = "#e8e8ee"      # masked
EMPTY = "#e4572e"        # a query row with nothing to attend to
NEG_INF = "−∞"

MASK_TERMS: dict[str, str] = {
    "query": "query", "key": "key", "allowed": "may attend", "blocked": "masked",
    "empty": "nothing to attend to", "length": "sequence length", "pairs": "attended pairs", "keys": "keys it may attend to",
    "layer": "layers", "reached": "inputs reached", "query_head": "query heads",
    "kv_head": "key/value heads", "bytes": "KV cache", "dim": "dimension", "value": "value", "fewest": "min",
}


def _bool2d(mask: np.ndarray, fn: str) -> np.ndarray:
    m = np.asarray(mask)
    if m.ndim != 2:
        raise ValueError(f"{fn}: expected a [q, k] mask, got shape {m.shape}.")
    return m.astype(bool)


def mask_figure(
    mask: np.ndarray,
    q_tokens: Sequence[str],
    k_tokens: Sequence[str] | None = None,
    *,
    title: str = "",
    terms: Mapping[str, str] | None = None,
    height: int | None = None,
) -> go.Figure:
    """A bool mask [q, k] (True = may attend): blue cells may attend, light grey are
    masked, and a query row with nothing to attend to is drawn red across."""
    fn = "mask_figure"
    m = _bool2d(mask, fn)
    k_tokens = q_tokens if k_tokens is None else k_tokens
    check_labels(q_tokens, m.shape[0], fn, "query tokens")
    check_labels(k_tokens, m.shape[1], fn, "key tokens")
    w = merge_terms(terms, MASK_TERMS)
    empty = ~m.any(axis=1)
    z = np.where(m, 1, 0).astype(np.float32)
    z[empty] = 2
    rows, cols = position_labels(q_tokens), position_labels(k_tokens)
    status = np.array([w["blocked"], w["allowed"], w["empty"]], dtype=object)[z.astype(int)]
    fig = go.Figure(go.Heatmap(
        z=z, x=cols, y=rows, zmin=0, zmax=2, showscale=False, xgap=1, ygap=1,
        colorscale=[[0, BLOCKED], [0.33, BLOCKED], [0.33, ALLOWED], [0.66, ALLOWED], [0.66, EMPTY], [1, EMPTY]],
        customdata=status, name="",
        hovertemplate=f"{template_text(w['query'])} %{{y}} → {template_text(w['key'])} %{{x}}: "
                      "%{customdata}<extra></extra>",
    ))
    n = max(m.shape)
    fig.update_layout(
        xaxis=dict(type="category", categoryorder="array", categoryarray=cols, side="top",
                   title=dict(text=w["key"]), **axis_ticks(escape_labels(k_tokens), 40, values=cols)),
        yaxis=dict(type="category", categoryorder="array", categoryarray=rows[::-1], title=dict(text=w["query"]),
                   scaleanchor="x", scaleratio=1, **axis_ticks(escape_labels(q_tokens), 40, values=rows)),
        plot_bgcolor="rgba(0,0,0,0)", margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        height=height or int(np.clip(220 + 22 * n, 320, 760)),
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title), y=0.99), margin_t=90)
    return fit_height(fig)          # token labels: more room for a long text or a projector's larger labels


def masked_scores_figure(
    scores: np.ndarray,
    mask: np.ndarray,
    q_tokens: Sequence[str],
    k_tokens: Sequence[str] | None = None,
    *,
    title: str = "",
    max_text: int = 16,
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """Scores [q, k] with the masked cells set to −∞ (what the model adds before the
    softmax). −∞ cells are grey, hover "−∞", and up to ``max_text`` tokens they are
    written "−∞" in the cell."""
    fn = "masked_scores_figure"
    s = np.asarray(scores, dtype=np.float32)
    m = _bool2d(mask, fn)
    if s.shape != m.shape:
        raise ValueError(f"{fn}: scores {s.shape} and mask {m.shape} differ in shape.")
    k_tokens = q_tokens if k_tokens is None else k_tokens
    w = merge_terms(terms, MASK_TERMS)
    shown = np.where(m, s, -np.inf).astype(np.float32)
    fig = matrix_heatmap(shown, row_labels=q_tokens, col_labels=k_tokens, title=title,
                         row_name=w["query"], col_name=w["key"], colorbar_title=w["value"],
                         terms={"masked": NEG_INF, "row": w["query"], "col": w["key"]})
    if max(m.shape) <= max_text and (~m).any():
        qi, ki = np.nonzero(~m)
        rows, cols = position_labels(q_tokens), position_labels(k_tokens)
        fig.add_trace(go.Scatter(
            x=[cols[k] for k in ki], y=[rows[q] for q in qi], mode="text", text=[NEG_INF] * len(qi),
            textfont=dict(size=9, color="#555"), hoverinfo="skip", showlegend=False, name="neg_inf",
        ))
    return fig


def per_query_bars(counts: np.ndarray, q_tokens: Sequence[str], *, terms: Mapping[str, str] | None = None
                   ) -> go.Figure:
    """How many keys each query may attend to [q]; queries with none in red."""
    c = np.asarray(counts)
    if c.ndim != 1:
        raise ValueError(f"per_query_bars: expected [q] counts, got shape {c.shape}.")
    check_labels(q_tokens, c.shape[0], "per_query_bars", "query tokens")
    w = merge_terms(terms, MASK_TERMS)
    labels = position_labels(q_tokens)
    fig = go.Figure(go.Bar(
        x=np.arange(len(c), dtype=np.int32), y=c.astype(np.int32),
        marker=dict(color=[EMPTY if v == 0 else ALLOWED for v in c]), name="",
        hovertext=labels, hovertemplate="%{hovertext}: %{y}<extra></extra>",
    ))
    fig.update_layout(xaxis=dict(title=dict(text=w["query"]), **axis_ticks(escape_labels(q_tokens), 40)),
                      yaxis=dict(title=dict(text=w["keys"]), rangemode="tozero"),
                      height=260, margin=dict(l=10, r=10, t=10, b=10), bargap=0.15)
    return fig


def cost_chart(lengths: Sequence[int], curves: Mapping[str, Sequence[int]], *, title: str = "",
               terms: Mapping[str, str] | None = None) -> go.Figure:
    """Attended pairs (the work and memory of attention) against sequence length, on
    log-log axes: one line per pattern (e.g. "full n²" and the composed mask)."""
    x = np.asarray(lengths, dtype=np.int64)
    w = merge_terms(terms, MASK_TERMS)
    fig = go.Figure()
    for name, ys in curves.items():
        y = np.asarray(ys, dtype=np.int64)
        if y.shape != x.shape:
            raise ValueError(f"cost_chart: curve {name!r} has {y.shape[0]} points for {x.shape[0]} lengths.")
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines+markers", name=html.escape(name),
                                 hovertemplate=f"n=%{{x}}: %{{y:,}} {template_text(w['pairs'])}"
                                               f"<extra>{template_text(html.escape(name))}</extra>"))
    fig.update_layout(xaxis=dict(type="log", title=dict(text=w["length"])),
                      yaxis=dict(type="log", title=dict(text=w["pairs"])),
                      legend=dict(orientation="h", y=-0.25), height=380,
                      margin=dict(l=10, r=10, t=40 if title else 10, b=10))
    return add_title(fig, title)


def coverage_chart(reach: np.ndarray, *, terms: Mapping[str, str] | None = None) -> go.Figure:
    """Receptive field over layers: for each number of layers (x), the fraction of
    (position, input) pairs connected, and the fewest inputs any position reaches."""
    r = np.asarray(reach).astype(bool)
    if r.ndim != 3:
        raise ValueError(f"coverage_chart: expected [layers, q, k], got shape {r.shape}.")
    w = merge_terms(terms, MASK_TERMS)
    layers = np.arange(1, r.shape[0] + 1, dtype=np.int32)
    frac = r.mean(axis=(1, 2)).astype(np.float32)
    fewest = r.sum(axis=2).min(axis=1).astype(np.int32)
    fig = go.Figure()
    fig.add_trace(go.Bar(x=layers, y=frac, name=html.escape(w["reached"]), marker=dict(color=ALLOWED),
                         customdata=fewest, hovertemplate=f"L=%{{x}}: %{{y:.0%}} ({template_text(w['fewest'])} %{{customdata}})<extra></extra>"))
    # one tick per layer up to 12; deeper (24), plotly picks the ticks so they do not collide
    fig.update_layout(xaxis=dict(title=dict(text=w["layer"]), dtick=1 if len(layers) <= 12 else None),
                      yaxis=dict(title=dict(text=w["reached"]), range=[0, 1.05], tickformat=".0%"),
                      height=260, margin=dict(l=10, r=10, t=10, b=10), showlegend=False)
    return fig

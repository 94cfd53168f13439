"""Figures of the beyond-softmax page's long-memory section (`ui/views/beyond_long_memory.py`,
numbers from `lab/long_memory.py`; numpy in, plotly out): Transformer-XL's four score terms
for one query and the reach of its cache per layer, lines against a length, and LongNet's
dilated patterns in one map."""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .figure import add_title, axis_ticks, check_labels, merge_terms, template_text
from .labels import escape_labels

LONG_TERMS: dict[str, str] = {"key": "key", "score": "score term", "total": "sum", "layer": "layers",
                              "reach": "positions reached", "with": "with the cache", "without": "without"}


def long_terms_chart(terms: Mapping[str, np.ndarray], key_labels: Sequence[str], *, total: np.ndarray | None = None,
                     title: str = "", words: Mapping[str, str] | None = None) -> go.Figure:
    """Grouped bars, one group per key, one bar per named score term [keys]; an optional
    marker line for their sum."""
    w = merge_terms(words, LONG_TERMS)
    labels = escape_labels(key_labels)
    fig = go.Figure()
    for name, values in terms.items():
        y = np.asarray(values, dtype=np.float64).ravel()
        check_labels(key_labels, len(y), "long_terms_chart", "key labels")
        fig.add_trace(go.Bar(x=labels, y=y, name=html.escape(name),
                             hovertemplate=f"{template_text(w['key'])} %{{x}}: %{{y:.4g}}"
                                           f"<extra>{template_text(html.escape(name))}</extra>"))
    if total is not None:
        fig.add_trace(go.Scatter(x=labels, y=np.asarray(total, dtype=np.float64), mode="markers",
                                 marker=dict(symbol="diamond", size=10, color="black"), name=w["total"],
                                 hovertemplate=f"%{{x}}: %{{y:.4g}}<extra>{template_text(w['total'])}</extra>"))
    fig.update_layout(barmode="group", height=340, legend=dict(orientation="h", y=-0.3),
                      xaxis=dict(title=dict(text=w["key"]), **axis_ticks(labels, 40)),
                      yaxis=dict(title=dict(text=w["score"]), zeroline=True),
                      margin=dict(l=10, r=10, t=40 if title else 10, b=10))
    return add_title(fig, title)


def long_reach_chart(with_cache: np.ndarray, without: np.ndarray, n: int, *, title: str = "",
                     words: Mapping[str, str] | None = None) -> go.Figure:
    """Positions the last query reaches after 1..L layers [L], with and without the cache;
    a dashed line at the text's length."""
    w = merge_terms(words, LONG_TERMS)
    a, b = np.asarray(with_cache, dtype=np.int64), np.asarray(without, dtype=np.int64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"long_reach_chart: expected two [layers] arrays, got {a.shape} and {b.shape}.")
    layers = np.arange(1, len(a) + 1)
    fig = go.Figure([
        go.Bar(x=layers, y=a, name=w["with"], hovertemplate="L=%{x}: %{y}<extra></extra>"),
        go.Bar(x=layers, y=b, name=w["without"], hovertemplate="L=%{x}: %{y}<extra></extra>"),
    ])
    fig.add_hline(y=n, line_dash="dash", line_color="grey", annotation_text=f"n = {int(n)}",
                  annotation_position="top left")
    fig.update_layout(barmode="group", height=320, legend=dict(orientation="h", y=-0.3),
                      xaxis=dict(title=dict(text=w["layer"]), dtick=1),
                      yaxis=dict(title=dict(text=w["reach"]), rangemode="tozero"),
                      margin=dict(l=10, r=10, t=40 if title else 10, b=10))
    return add_title(fig, title)


def long_lines_chart(x: Sequence[float], curves: Mapping[str, Sequence[float]], *, x_title: str, y_title: str,
                     title: str = "", log_y: bool = True) -> go.Figure:
    """Lines against a length on a log x axis (and log y by default): e.g. keys per query or
    bytes held against n, one line per named curve."""
    xs = np.asarray(x, dtype=np.float64)
    fig = go.Figure()
    for name, ys in curves.items():
        y = np.asarray(ys, dtype=np.float64)
        if y.shape != xs.shape:
            raise ValueError(f"long_lines_chart: curve {name!r} has {y.shape} points for {xs.shape} lengths.")
        fig.add_trace(go.Scatter(x=xs, y=y, mode="lines+markers", name=html.escape(name),
                                 hovertemplate=f"n=%{{x:,}}: %{{y:,.4g}}<extra>{template_text(html.escape(name))}"
                                               "</extra>"))
    fig.update_layout(xaxis=dict(type="log", title=dict(text=html.escape(x_title))),
                      yaxis=dict(type="log" if log_y else "linear", title=dict(text=html.escape(y_title))),
                      legend=dict(orientation="h", y=-0.3), height=340,
                      margin=dict(l=10, r=10, t=40 if title else 10, b=10))
    return add_title(fig, title)


MAX_HOVER_CELLS = 128 * 128     # beyond: the hover names the cell, not the pairs holding it
PATTERN_COLOURS = ("#f0f0f0", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")


def long_pattern_chart(patterns: np.ndarray, names: Sequence[str], labels: Sequence[str], *, title: str = "",
                       words: Mapping[str, str] | None = None) -> go.Figure:
    """Several bool patterns [P, n, n] in one map: each cell coloured by the first pattern
    that holds it (light grey: none), the hover naming every pattern that does."""
    pats = np.asarray(patterns).astype(bool)
    if pats.ndim != 3 or pats.shape[1] != pats.shape[2] or not 1 <= pats.shape[0] <= len(PATTERN_COLOURS) - 1:
        raise ValueError(f"long_pattern_chart: expected [P <= 8, n, n] patterns, got {pats.shape}.")
    if len(names) != pats.shape[0]:
        raise ValueError(f"long_pattern_chart: {len(names)} names for {pats.shape[0]} patterns.")
    n = pats.shape[1]
    check_labels(labels, n, "long_pattern_chart", "labels")
    w = merge_terms(words, {"query": "query", "key": "key", "none": "not read"})
    first = np.where(pats.any(0), pats.argmax(0) + 1, 0)
    safe = [html.escape(s) for s in names]
    code = (pats.astype(np.int64) << np.arange(pats.shape[0])[:, None, None]).sum(0)      # which patterns, as bits
    table = np.array([", ".join(safe[p] for p in range(len(safe)) if c >> p & 1) or w["none"]
                      for c in range(1 << len(safe))], dtype=object)
    hover = n * n <= MAX_HOVER_CELLS
    k = pats.shape[0]
    scale = []
    for c in range(k + 1):           # one flat band per value 0..k
        scale += [[c / (k + 1), PATTERN_COLOURS[c]], [(c + 1) / (k + 1), PATTERN_COLOURS[c]]]
    ticks = escape_labels(labels)
    fig = go.Figure(go.Heatmap(z=first, x=list(range(n)), y=list(range(n)), zmin=-0.5, zmax=k + 0.5,
                               colorscale=scale, showscale=False, xgap=1 if n <= 64 else 0, ygap=1 if n <= 64 else 0,
                               customdata=table[code] if hover else None, name="",
                               hovertemplate=f"{template_text(w['query'])} %{{y}} → {template_text(w['key'])} %{{x}}"
                                             + (": %{customdata}" if hover else "") + "<extra></extra>"))
    for c, name in enumerate(safe, start=1):     # a legend entry per pattern
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name,
                                 marker=dict(symbol="square", size=12, color=PATTERN_COLOURS[c])))
    fig.update_layout(height=460, legend=dict(orientation="h", y=-0.15),
                      xaxis=dict(title=dict(text=w["key"]), **axis_ticks(ticks, 40)),
                      yaxis=dict(title=dict(text=w["query"]), autorange="reversed",
                                 **axis_ticks(ticks, 40)),
                      margin=dict(l=10, r=10, t=40 if title else 10, b=10), plot_bgcolor="white")
    return add_title(fig, title)

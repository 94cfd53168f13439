"""The lines view (BertViz style): queries in a left column, keys in a right one, a
line from each query to each key it attends to, one colour per head.

numpy arrays + token strings in, one plotly figure out; readable up to 64 tokens
(beyond, use :func:`viz_core.attention.head_heatmap`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.colors as pcolors
import plotly.graph_objects as go

from .figure import HIGHLIGHT, add_title, as_array, check_labels, merge_terms
from .labels import escape_labels


def line_view(
    pattern: np.ndarray,
    tokens: Sequence[str],
    *,
    k_tokens: Sequence[str] | None = None,
    head_ids: Sequence[int] | None = None,
    query: int | None = None,
    threshold: float = 0.01,
    colors: Sequence[str] | None = None,
    n_bins: int = 8,
    max_tokens: int = 64,
    title: str = "",
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """BertViz-style lines from each query (left column) to each key (right column).

    pattern: [heads, q, k] or [q, k]; ``tokens`` has q entries (``k_tokens``, k
    entries, defaults to ``tokens``). ``head_ids`` picks heads along axis 0 (default
    all); each gets one colour. A line is drawn when its weight >= ``threshold``,
    with opacity = its weight, rounded to one of ``n_bins`` bins: each (head, bin)
    is ONE scatter trace whose segments are separated by NaN, so a 12-head view is
    at most 12 * n_bins traces, not one per line. ``query=i`` draws only that
    query's lines. More than ``max_tokens`` tokens on a side raises ValueError
    (the columns become unreadable; use :func:`head_heatmap`). Token markers are
    clickable: customdata ``[q, -1]`` on the left, ``[-1, k]`` on the right.
    """
    fn = "line_view"
    p = as_array(pattern, (2, 3), fn, "[heads, q, k] or [q, k]")
    if p.ndim == 2:
        p = p[None]  # [1, q, k]
    n_heads, n_q, n_k = p.shape
    k_tokens = tokens if k_tokens is None else k_tokens
    check_labels(tokens, n_q, fn, "query tokens")
    check_labels(k_tokens, n_k, fn, "key tokens")
    if max(n_q, n_k) > max_tokens:
        raise ValueError(
            f"{fn} draws one line per token pair and is unreadable beyond {max_tokens} "
            f"tokens; got {max(n_q, n_k)}. Use head_heatmap for long texts."
        )
    heads = list(range(n_heads)) if head_ids is None else [int(h) for h in head_ids]
    if not heads or any(not 0 <= h < n_heads for h in heads):
        raise ValueError(f"{fn}: head_ids must be in 0..{n_heads - 1}; got {list(head_ids or [])}.")
    if query is not None:
        if not -n_q <= query < n_q:
            raise ValueError(f"{fn}: query must be in 0..{n_q - 1}; got {query}.")
        query %= n_q
    if colors is None:
        palette = pcolors.qualitative.Plotly if len(heads) <= 10 else pcolors.qualitative.Dark24
        colors = [palette[i % len(palette)] for i in range(len(heads))]
    elif len(colors) < len(heads):
        raise ValueError(f"{fn}: got {len(colors)} colors for {len(heads)} heads.")
    if n_bins < 1:
        raise ValueError(f"{fn}: n_bins must be at least 1.")
    words = merge_terms(terms)
    edges = np.linspace(threshold, 1.0, n_bins + 1)  # weight bins over [threshold, 1]

    fig = go.Figure()
    for head, color in zip(heads, colors):
        w = p[head]  # [q, k]
        keep = np.isfinite(w) & (w >= threshold)
        if query is not None:
            keep[np.arange(n_q) != query] = False
        qi, ki = np.nonzero(keep)  # one entry per line
        bins = np.clip(np.digitize(w[qi, ki], edges) - 1, 0, n_bins - 1)
        group = f"head{head}"
        for b in np.unique(bins):
            sel = bins == b
            m = int(sel.sum())
            xs = np.full(3 * m, np.nan, dtype=np.float32)  # [x_q, x_k, NaN] per line
            ys = np.full(3 * m, np.nan, dtype=np.float32)
            xs[0::3], xs[1::3] = 0.0, 1.0
            ys[0::3], ys[1::3] = qi[sel], ki[sel]
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines", line=dict(color=color, width=2),
                opacity=float(np.clip((edges[b] + edges[b + 1]) / 2, 0.05, 1.0)),
                hoverinfo="skip", legendgroup=group, showlegend=False, name=f"H{head}",
            ))
        if len(heads) > 1:  # legend entry only (toggles every bin of the head)
            fig.add_trace(go.Scatter(
                x=[None], y=[None], mode="lines", line=dict(color=color, width=3),
                legendgroup=group, name=f"{words['head']} {head}", showlegend=True,
            ))

    q_labels, k_labels = escape_labels(tokens), escape_labels(k_tokens)
    q_size = np.full(n_q, 7, dtype=np.int32)
    q_color = np.full(n_q, "#888888", dtype=object)
    if query is not None:
        q_size[query], q_color[query] = 11, HIGHLIGHT
    for side, labels, n, pos in (("left", q_labels, n_q, 0.0), ("right", k_labels, n_k, 1.0)):
        word = words["query"] if side == "left" else words["key"]
        fig.add_trace(go.Scatter(
            x=np.full(n, pos, dtype=np.float32), y=np.arange(n, dtype=np.int32),
            mode="markers+text", text=labels, cliponaxis=False,
            textposition="middle left" if side == "left" else "middle right",
            marker=dict(size=q_size if side == "left" else 7,
                        color=list(q_color) if side == "left" else "#888888"),
            customdata=[[i, -1] for i in range(n)] if side == "left" else [[-1, j] for j in range(n)],
            hovertext=[f"{word} {lab} ({i})" for i, lab in enumerate(labels)],
            hovertemplate="%{hovertext}<extra></extra>", showlegend=False, name=side,
        ))
    n = max(n_q, n_k)
    fig.update_layout(
        xaxis=dict(visible=False, range=[-1.0, 2.0], fixedrange=True),
        yaxis=dict(visible=False, range=[n - 0.5, -0.5], fixedrange=True),
        plot_bgcolor="rgba(0,0,0,0)",
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        height=int(max(260, 40 + 22 * n)),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0),
    )
    return add_title(fig, title)

"""Figures of the Q/K/V walk-through page (numbers from lab/walkthrough.py, lab/kv.py): vectors
as rows of a heatmap, which key/value head each query head reads, and the KV cache's size
per attention family.

Conventions as in :mod:`viz_core.figure`: labels escaped, numpy arrays (never lists) for
the data, a wrong shape raises ``ValueError``. No torch, no streamlit. The colours and
figure words are the masks lab's (viz_core/masks.py).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .attention import matrix_heatmap
from .figure import add_title, merge_terms, template_text
from .masks import ALLOWED, EMPTY, MASK_TERMS


def vector_figure(values: Mapping[str, np.ndarray], *, title: str = "", max_text: int = 16,
                  terms: Mapping[str, str] | None = None) -> go.Figure:
    """Several vectors of the same length as rows of one heatmap (e.g. q, k, q⊙k, v),
    numbers written in the cells when there are at most ``max_text`` dimensions."""
    names = list(values)
    if not names:
        raise ValueError("vector_figure: give at least one vector.")
    rows = [np.asarray(values[n], dtype=np.float32).ravel() for n in names]
    if len({r.shape[0] for r in rows}) != 1:
        raise ValueError("vector_figure: every vector must have the same length.")
    w = merge_terms(terms, MASK_TERMS)
    z = np.stack(rows)
    fig = matrix_heatmap(z, row_labels=names, col_labels=[str(i) for i in range(z.shape[1])], title=title,
                         row_name=" ", col_name=w["dim"], colorbar_title=w["value"], max_ticks=16)
    if z.shape[1] <= max_text:
        fig.update_traces(texttemplate="%{z:.2f}", textfont=dict(size=10), selector=dict(type="heatmap"))
    fig.update_layout(height=int(max(190, 120 + 34 * len(names))))
    return fig


def kv_sharing_figure(groups: Sequence[int], *, title: str = "", terms: Mapping[str, str] | None = None
                      ) -> go.Figure:
    """Which query heads (top row) read which key/value head (bottom row): MHA draws
    straight lines, GQA fans groups into one kv head, MQA fans all heads into one."""
    g = np.asarray(groups, dtype=np.int32)
    if g.ndim != 1 or g.size == 0:
        raise ValueError("kv_sharing_figure: expected a list with the kv head of each query head.")
    w = merge_terms(terms, MASK_TERMS)
    n_q, n_kv = g.size, int(g.max()) + 1
    xq = np.arange(n_q, dtype=np.float32)
    xkv = (np.arange(n_kv, dtype=np.float32) + 0.5) * n_q / n_kv - 0.5          # centred under their group
    palette = ["#636EFA", "#EF553B", "#00CC96", "#AB63FA", "#FFA15A", "#19D3F3", "#FF6692", "#B6E880"]
    fig = go.Figure()
    for h in range(n_q):
        fig.add_trace(go.Scatter(x=[xq[h], xkv[g[h]]], y=[1, 0], mode="lines", hoverinfo="skip", showlegend=False,
                                 line=dict(color=palette[g[h] % len(palette)], width=2)))
    fig.add_trace(go.Scatter(x=xq, y=np.ones(n_q, dtype=np.float32), mode="markers+text", showlegend=False,
                             text=[f"Q{h}" for h in range(n_q)], textposition="top center", name="",
                             marker=dict(size=16, color=[palette[i % len(palette)] for i in g], symbol="circle"),
                             hovertemplate=f"{template_text(w['query_head'])} %{{text}}<extra></extra>"))
    fig.add_trace(go.Scatter(x=xkv, y=np.zeros(n_kv, dtype=np.float32), mode="markers+text", showlegend=False,
                             text=[f"KV{j}" for j in range(n_kv)], textposition="bottom center", name="",
                             marker=dict(size=20, color=[palette[j % len(palette)] for j in range(n_kv)],
                                         symbol="square"),
                             hovertemplate=f"{template_text(w['kv_head'])} %{{text}}<extra></extra>"))
    fig.update_layout(xaxis=dict(visible=False, range=[-1, n_q]),
                      yaxis=dict(range=[-0.6, 1.6], tickvals=[0, 1], ticktext=[w["kv_head"], w["query_head"]],
                                 zeroline=False, showgrid=False),
                      height=240, margin=dict(l=10, r=10, t=40 if title else 10, b=10),
                      plot_bgcolor="rgba(0,0,0,0)")
    return add_title(fig, title)


def kv_cache_chart(options: Mapping[str, float], selected: str | None = None, *, unit: str = "MiB",
                   terms: Mapping[str, str] | None = None) -> go.Figure:
    """KV-cache size of the same model with different numbers of kv heads (bars)."""
    w = merge_terms(terms, MASK_TERMS)
    names = [html.escape(n) for n in options]
    vals = np.asarray(list(options.values()), dtype=np.float64)
    fig = go.Figure(go.Bar(
        x=names, y=vals, name="", texttemplate="%{y:.3g} " + unit, textposition="outside", cliponaxis=False,
        marker=dict(color=[EMPTY if n == (html.escape(selected) if selected else None) else ALLOWED for n in names]),
        hovertemplate="%{x}: %{y:.4g} " + unit + "<extra></extra>",
    ))
    fig.update_layout(yaxis=dict(title=dict(text=f"{w['bytes']} ({unit})"), rangemode="tozero"),
                      xaxis=dict(type="category"), height=300, margin=dict(l=10, r=10, t=30, b=10))
    return fig

"""Figures of the residual-stream page: a labelled [steps, tokens] heatmap (norms, the
logit lens, A/B distances), each step's contribution (norm and cosine with the
stream), and lines across layers (e.g. the stream's norm in a pre-LN and a post-LN
model).

numpy in, plotly out; no torch, no streamlit. Every function states the shape it
takes and raises ValueError for another one. Labels are escaped here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .colors import DIVERGING, SEQUENTIAL, plotly_colorscale
from .figure import BLUE, GREY, ORANGE, as_array, as_matrix, axis_ticks, check_labels, fit_height, merge_terms
from .labels import escape_labels, position_labels

RESIDUAL_TERMS = {"norm": "norm", "cosine": "cosine"}
CONTRIB_ROWS, CONTRIB_GAP = (0.55, 0.45), 0.08     # the contribution chart: the two rows' shares, the gap between them


def value_heatmap(
    z: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    title: str = "",
    value_name: str = "value",
    cmap: str = SEQUENTIAL,
    zmin: float | None = None,
    zmax: float | None = None,
    text: Sequence[Sequence[str]] | None = None,
    col_tokens: bool = True,
) -> go.Figure:
    """A labelled [rows, cols] heatmap (rows: steps/layers, cols: tokens) with hover,
    optionally a short text in every cell (e.g. the logit lens's top token). Labels and
    texts are escaped here. ``cmap`` diverging centres the range on 0."""
    fn = "value_heatmap"
    a = as_matrix(z, fn, "[rows, cols]", (row_labels, "row labels"), (col_labels, "column labels"), strict=False)
    n_r, n_c = a.shape
    rows = escape_labels(row_labels)
    cols = position_labels(col_labels) if col_tokens else escape_labels(col_labels)
    finite = a[np.isfinite(a)]
    if cmap == DIVERGING and zmax is None:
        zmax = float(np.abs(finite).max()) if finite.size else 1.0
        zmin = -zmax
    trace = dict(z=a, x=np.arange(n_c), y=np.arange(n_r), zmin=zmin, zmax=zmax, colorscale=plotly_colorscale(cmap),
                 colorbar=dict(title=dict(text=html.escape(value_name)), thickness=14, len=0.9), name="")
    cd = [[f"{r} · {c}" for c in cols] for r in rows]
    if text is not None:
        if len(text) != n_r or any(len(r) != n_c for r in text):
            raise ValueError(f"{fn}: text must be [{n_r}][{n_c}] strings.")
        trace["text"] = [escape_labels(list(r), max_chars=10) for r in text]
        trace["texttemplate"] = "%{text}"
        trace["textfont"] = dict(size=11)
        cd = [[f"{cd[i][j]} → {trace['text'][i][j]}" for j in range(n_c)] for i in range(n_r)]
    trace["customdata"] = np.array(cd)
    trace["hovertemplate"] = f"%{{customdata}}<br>{html.escape(value_name)}: %{{z:.4g}}<extra></extra>"
    # one constructor call: plotly's update_layout re-walks the whole figure (3x the build time)
    fig = go.Figure(data=[go.Heatmap(**trace)], layout=dict(
        xaxis=dict(range=[-0.5, n_c - 0.5], **axis_ticks(cols)),
        yaxis=dict(range=[n_r - 0.5, -0.5], **axis_ticks(rows)),
        height=int(np.clip(150 + 26 * n_r, 280, 820)), margin=dict(l=90, r=20, t=48 if title else 20, b=90),
        plot_bgcolor="rgba(0,0,0,0)", title=dict(text=html.escape(title)) if title else None,
    ))
    return fit_height(fig)          # row labels: more room on a projector's larger labels


def contribution_chart(labels: Sequence[str], norm: np.ndarray, cos: np.ndarray, *, title: str = "",
                       terms: Mapping[str, str] | None = None, kinds: Sequence[str] | None = None) -> go.Figure:
    """Each step's contribution: its norm (bars, top) and its cosine with the stream it
    is added to (bars in [-1, 1], bottom). norm, cos [n]. `kinds`: the steps' own names
    ("embed", "L0 attn", "L0 mlp"), which pick the colours (grey, blue, orange) when
    `labels` are shown in another language (default: `labels`)."""
    n_, c_ = (as_array(a, (1,), "contribution_chart", "[n]", strict=False) for a in (norm, cos))
    check_labels(labels, len(n_), "contribution_chart", "labels")
    if c_.shape != n_.shape:
        raise ValueError("contribution_chart: norm and cos differ in length.")
    w = merge_terms(terms, RESIDUAL_TERMS)
    names = escape_labels(labels)
    kinds = labels if kinds is None else kinds
    check_labels(kinds, len(n_), "contribution_chart", "kinds")
    colors = [GREY if "embed" in lab else (BLUE if "attn" in lab or "cross" in lab else ORANGE) for lab in kinds]
    x = np.arange(len(n_))
    bars = [go.Bar(x=x, y=v, marker_color=colors, customdata=names, xaxis=xa, yaxis=ya,
                   hovertemplate=f"%{{customdata}}: {w[term]} %{{y:{fmt}}}<extra></extra>")
            for v, term, fmt, xa, ya in ((n_, "norm", ".4g", "x", "y"), (c_, "cosine", ".3f", "x2", "y2"))]
    # two rows sharing x, laid out as plotly.subplots.make_subplots(rows=2, shared_xaxes=True,
    # vertical_spacing=CONTRIB_GAP, row_heights=CONTRIB_ROWS) would, in one constructor call: the subplot
    # helpers and update_*axes re-walk the figure (4x the build time of a page change)
    top, bottom = ((1 - CONTRIB_GAP) * h for h in CONTRIB_ROWS)
    fig = go.Figure(data=bars, layout=dict(
        xaxis=dict(anchor="y", domain=[0.0, 1.0], matches="x2", showticklabels=False),
        yaxis=dict(anchor="x", domain=[1 - top, 1.0], title=dict(text=w["norm"])),
        # turned labels end at their tick (counter-clockwise): turned clockwise, the last one ran past the plot
        xaxis2=dict(anchor="y2", domain=[0.0, 1.0], tickmode="array", tickvals=x, ticktext=names,
                    autotickangles=[0, -30, -60, -90]),
        yaxis2=dict(anchor="x2", domain=[0.0, bottom], title=dict(text=w["cosine"]), range=[-1.05, 1.05]),
        height=460, showlegend=False, margin=dict(l=70, r=20, t=40 if title else 20, b=80),
        title=dict(text=html.escape(title)) if title else None,
    ))
    return fig


def lines_chart(series: Mapping[str, tuple[Sequence[str], np.ndarray]], *, title: str = "", y_name: str = "",
                log_y: bool = False) -> go.Figure:
    """One line per named series, each (x labels [n], values [n]); e.g. the stream's norm
    per layer for a pre-LN and a post-LN model. Series may differ in length."""
    if not series:
        raise ValueError("lines_chart: no series.")
    fig = go.Figure()
    for name, (xs, ys) in series.items():
        y = as_array(ys, (1,), "lines_chart", "[n]", strict=False)
        check_labels(xs, len(y), "lines_chart", "x labels")
        fig.add_trace(go.Scatter(x=escape_labels(xs), y=y, mode="lines+markers", name=html.escape(name),
                                 hovertemplate="%{x}: %{y:.4g}<extra>" + html.escape(name) + "</extra>"))
    fig.update_layout(height=360, margin=dict(l=70, r=20, t=48 if title else 20, b=70),
                      yaxis=dict(title=dict(text=html.escape(y_name)), type="log" if log_y else "linear",
                                 **({"dtick": "D2"} if log_y else {})),
                      legend=dict(orientation="h", y=-0.25, x=0),
                      title=dict(text=html.escape(title)) if title else None)
    return fig

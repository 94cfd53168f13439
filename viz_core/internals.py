"""Figures and pure numpy helpers for the FFN and residual-stream pages, and the A/B
difference of two inputs. numpy in, plotly out; no torch, no streamlit.

Every function states the shape it takes and raises ValueError for another one.
Token labels are escaped (viz_core.labels) before plotly sees them.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .figure import HIGHLIGHT, axis_ticks, marker_layer
from .colors import DIVERGING, SEQUENTIAL, plotly_colorscale
from .labels import escape_labels

DEFAULT_TERMS = {"token": "token", "neuron": "neuron", "activation": "activation", "count": "count",
                 "layer": "layer", "norm": "norm", "cosine": "cosine", "probability": "probability",
                 "sparsity": "sparsity", "score": "score", "difference": "difference", "step": "step"}
BLUE, ORANGE, GREY = "#1f77b4", "#ff7f0e", "#7f7f7f"


def _terms(overrides: Mapping[str, str] | None) -> dict[str, str]:
    return {**DEFAULT_TERMS, **{k: html.escape(v) for k, v in (overrides or {}).items()}}


def _arr(x: np.ndarray, ndim: int, fn: str, doc: str) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != ndim:
        raise ValueError(f"{fn} expects an array of shape {doc}; got shape {a.shape}.")
    return a.astype(np.float32) if a.dtype != np.float32 and np.issubdtype(a.dtype, np.number) else a


def _labels(labels: Sequence[str], n: int, fn: str, what: str) -> None:
    if len(labels) != n:
        raise ValueError(f"{fn}: {len(labels)} {what} for {n} entries.")


# --------------------------------------------------------------------------- FFN: numbers


def top_neurons(acts: np.ndarray, k_per_token: int = 8, max_neurons: int = 48) -> np.ndarray:
    """Neuron ids worth showing for acts [pos, d_ff]: the union of each token's k
    strongest (|activation|) neurons, ordered by their largest |activation|, at most
    ``max_neurons``."""
    a = np.abs(_arr(acts, 2, "top_neurons", "[pos, d_ff]"))
    if k_per_token < 1 or max_neurons < 1:
        raise ValueError("top_neurons: k_per_token and max_neurons must be at least 1.")
    k = min(k_per_token, a.shape[1])
    picked = np.unique(np.argpartition(-a, k - 1, axis=1)[:, :k])
    order = np.argsort(-a[:, picked].max(0), kind="stable")
    return picked[order][:max_neurons].astype(np.int64)


def sparsity(post: np.ndarray, exact: bool, tol: float = 0.01) -> np.ndarray:
    """Fraction of activations that are zero (``exact``, ReLU) or within ``tol`` of zero
    (GELU, SwiGLU), per layer, for post [layer, pos, d_ff] -> [layer]."""
    p = _arr(post, 3, "sparsity", "[layer, pos, d_ff]")
    if tol < 0:
        raise ValueError("sparsity: tol must be >= 0.")
    zero = p == 0 if exact else np.abs(p) <= tol
    return zero.mean(axis=(1, 2)).astype(np.float32)


def difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A - B for two arrays of the same shape (the same layer for text A and text B)."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.shape != b.shape:
        raise ValueError(f"A and B must have the same shape to be subtracted; got {a.shape} and {b.shape}. "
                         "Texts of different lengths have different numbers of positions.")
    return a - b


def differing_positions(tokens_a: Sequence[str], tokens_b: Sequence[str]) -> list[int]:
    """Positions whose tokens differ between two tokenisations of the same length."""
    if len(tokens_a) != len(tokens_b):
        raise ValueError(f"Text A has {len(tokens_a)} tokens and text B has {len(tokens_b)}: the difference "
                         "view compares position by position, so both need the same number of tokens.")
    return [i for i, (x, y) in enumerate(zip(tokens_a, tokens_b)) if x != y]


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
    z = _arr(acts, 2, fn, "[pos, neurons]")
    n_pos, n = z.shape
    _labels(tokens, n_pos, fn, "tokens")
    _labels(neuron_ids, n, fn, "neuron ids")
    if n_pos * n > 128 * 64:
        raise ValueError(f"{fn}: {n_pos} x {n} cells is too many for a clickable heatmap (max 8192).")
    w = _terms(terms)
    rows = [f"{i}·{lab}" for i, lab in enumerate(escape_labels(tokens))]
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
        fig.add_shape(type="rect", x0=c - 0.5, x1=c + 0.5, y0=-0.5, y1=n_pos - 0.5,
                      line=dict(color=HIGHLIGHT, width=2), fillcolor="rgba(0,0,0,0)")
    fig.update_layout(
        xaxis=dict(title=dict(text=w["neuron"]), range=[-0.5, n - 0.5], **axis_ticks(cols)),
        yaxis=dict(title=dict(text=w["token"]), range=[n_pos - 0.5, -0.5], **axis_ticks(rows)),
        height=int(np.clip(160 + 22 * n_pos, 300, 800)), margin=dict(l=110, r=20, t=48 if title else 20, b=70),
        hoverdistance=-1, clickmode="event+select", dragmode=False, plot_bgcolor="rgba(0,0,0,0)",
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title)))
    return fig


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
    cx, cy = _arr(curve_x, 1, "activation_function_figure", "[n]"), _arr(curve_y, 1, "activation_function_figure", "[n]")
    if cx.shape != cy.shape:
        raise ValueError("activation_function_figure: curve_x and curve_y differ in length.")
    w = _terms(terms)
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
    f = _arr(frac, 1, "sparsity_chart", "[layer]")
    w = _terms(terms)
    fig = go.Figure(go.Bar(x=np.arange(len(f)), y=f, marker_color=BLUE, text=[f"{v:.0%}" for v in f],
                           textposition="outside", hovertemplate=f"{w['layer']} %{{x}}: %{{y:.1%}}<extra></extra>"))
    fig.update_layout(yaxis=dict(range=[0, 1.1], tickformat=".0%", title=dict(text=w["sparsity"])),
                      xaxis=dict(title=dict(text=w["layer"]), tickmode="linear", dtick=1),
                      height=300, margin=dict(l=60, r=20, t=40 if title else 20, b=50),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


def token_bars(values: np.ndarray, tokens: Sequence[str], *, title: str = "", value_name: str = "activation",
               highlight: Sequence[int] = ()) -> go.Figure:
    """One value per token, values [pos], as vertical bars (e.g. one neuron's activation)."""
    v = _arr(values, 1, "token_bars", "[pos]")
    _labels(tokens, len(v), "token_bars", "tokens")
    labels = [f"{i}·{lab}" for i, lab in enumerate(escape_labels(tokens))]
    colors = [ORANGE if i in set(highlight) else (BLUE if x >= 0 else "#d62728") for i, x in enumerate(v)]
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
    ts, bs = _arr(top_scores, 1, "vocab_bars", "[k]"), _arr(bottom_scores, 1, "vocab_bars", "[k]")
    _labels(top_tokens, len(ts), "vocab_bars", "top tokens")
    _labels(bottom_tokens, len(bs), "vocab_bars", "bottom tokens")
    w = _terms(terms)
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.22)
    for col, toks, s, color in ((1, top_tokens, ts, BLUE), (2, bottom_tokens, bs, "#d62728")):
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


# --------------------------------------------------------------------------- residual stream


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
    a = _arr(z, 2, fn, "[rows, cols]")
    n_r, n_c = a.shape
    _labels(row_labels, n_r, fn, "row labels")
    _labels(col_labels, n_c, fn, "column labels")
    rows = escape_labels(row_labels)
    cols = [f"{i}·{lab}" for i, lab in enumerate(escape_labels(col_labels))] if col_tokens else escape_labels(col_labels)
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
    fig = go.Figure(go.Heatmap(**trace))
    fig.update_layout(
        xaxis=dict(range=[-0.5, n_c - 0.5], **axis_ticks(cols)),
        yaxis=dict(range=[n_r - 0.5, -0.5], **axis_ticks(rows)),
        height=int(np.clip(150 + 26 * n_r, 280, 820)), margin=dict(l=90, r=20, t=48 if title else 20, b=90),
        plot_bgcolor="rgba(0,0,0,0)", title=dict(text=html.escape(title)) if title else None,
    )
    return fig


def contribution_chart(labels: Sequence[str], norm: np.ndarray, cos: np.ndarray, *, title: str = "",
                       terms: Mapping[str, str] | None = None) -> go.Figure:
    """Each step's contribution: its norm (bars, top) and its cosine with the stream it
    is added to (bars in [-1, 1], bottom). norm, cos [n]."""
    n_, c_ = _arr(norm, 1, "contribution_chart", "[n]"), _arr(cos, 1, "contribution_chart", "[n]")
    _labels(labels, len(n_), "contribution_chart", "labels")
    if c_.shape != n_.shape:
        raise ValueError("contribution_chart: norm and cos differ in length.")
    w = _terms(terms)
    names = escape_labels(labels)
    colors = [GREY if "embed" in lab else (BLUE if "attn" in lab or "cross" in lab else ORANGE) for lab in labels]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08, row_heights=[0.55, 0.45])
    x = np.arange(len(n_))
    fig.add_trace(go.Bar(x=x, y=n_, marker_color=colors, customdata=names,
                         hovertemplate=f"%{{customdata}}: {w['norm']} %{{y:.4g}}<extra></extra>"), row=1, col=1)
    fig.add_trace(go.Bar(x=x, y=c_, marker_color=colors, customdata=names,
                         hovertemplate=f"%{{customdata}}: {w['cosine']} %{{y:.3f}}<extra></extra>"), row=2, col=1)
    fig.update_yaxes(title_text=w["norm"], row=1, col=1)
    fig.update_yaxes(title_text=w["cosine"], range=[-1.05, 1.05], row=2, col=1)
    fig.update_xaxes(tickmode="array", tickvals=x, ticktext=names, row=2, col=1)
    fig.update_layout(height=460, showlegend=False, margin=dict(l=70, r=20, t=40 if title else 20, b=80),
                      title=dict(text=html.escape(title)) if title else None)
    return fig


def lines_chart(series: Mapping[str, tuple[Sequence[str], np.ndarray]], *, title: str = "", y_name: str = "",
                log_y: bool = False) -> go.Figure:
    """One line per named series, each (x labels [n], values [n]); e.g. the stream's norm
    per layer for a pre-LN and a post-LN model. Series may differ in length."""
    if not series:
        raise ValueError("lines_chart: no series.")
    fig = go.Figure()
    for name, (xs, ys) in series.items():
        y = _arr(ys, 1, "lines_chart", "[n]")
        _labels(xs, len(y), "lines_chart", "x labels")
        fig.add_trace(go.Scatter(x=escape_labels(xs), y=y, mode="lines+markers", name=html.escape(name),
                                 hovertemplate="%{x}: %{y:.4g}<extra>" + html.escape(name) + "</extra>"))
    fig.update_layout(height=360, margin=dict(l=70, r=20, t=48 if title else 20, b=70),
                      yaxis=dict(title=dict(text=html.escape(y_name)), type="log" if log_y else "linear",
                                 **({"dtick": "D2"} if log_y else {})),
                      legend=dict(orientation="h", y=-0.25, x=0),
                      title=dict(text=html.escape(title)) if title else None)
    return fig

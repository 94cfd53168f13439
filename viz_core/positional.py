"""Figures of the positional-encoding lab: numpy in, plotly figures out.

Position x dimension tables, position x position matrices (similarities, biases, bucket
maps, attention maps), curves over the distance, 2-D rotation arrows (sinusoidal shift,
RoPE), slopes, and the length-extrapolation and shift-test charts.

Matrices use numeric axes (positions are numbers). Up to ``MAX_HOVER_CELLS`` cells they
are a ``go.Heatmap`` with a hover per cell; beyond, they are coloured here and shipped as
one PNG (see viz_core/README.md). NaN cells are grey: a learned table that ends before
the asked length shows grey rows past its end and a line where it ends.
"""
from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import DIVERGING, NAN_CSS, SEQUENTIAL, plotly_colorscale, to_rgb
from .figure import as_array, colorbar_only, fit_height, text_scale
from .labels import escape_labels
from .png import png_data_uri

MAX_HOVER_CELLS = 128 * 128
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def _token_ticks(tick_labels: Sequence[str] | None, n: int, max_n: int, size: int) -> dict:
    """Axis settings that label each of the ``n`` positions with its token (escaped
    here), when tokens are given and there are at most ``max_n``; else none."""
    if tick_labels is None or n > max_n:
        return {}
    return dict(tickvals=np.arange(n, dtype=np.int32), ticktext=escape_labels(list(tick_labels)),
                tickfont=dict(size=round(size * text_scale())))


def _range(z: np.ndarray, center: float | None) -> tuple[float, float]:
    finite = z[np.isfinite(z)]
    if not finite.size:
        return -1.0, 1.0
    if center is None:
        lo, hi = float(finite.min()), float(finite.max())
        return (lo, hi) if hi > lo else (lo - 1.0, hi + 1.0)
    half = float(np.abs(finite - center).max()) or 1.0
    return center - half, center + half


def _heatmap_trace(z: np.ndarray, zmin: float, zmax: float, cmap: str, *, x_name: str, y_name: str,
                   value_name: str, showscale: bool = True, coloraxis: str | None = None) -> list:
    """A matrix as a heatmap (small) or a PNG image (large); NaN cells grey."""
    n_r, n_c = z.shape
    x_name, y_name, value_name = (html.escape(s) for s in (x_name, y_name, value_name))
    if n_r * n_c <= MAX_HOVER_CELLS:
        traces = [go.Heatmap(
            z=z, x0=0, dx=1, y0=0, dy=1, zmin=zmin, zmax=zmax, colorscale=plotly_colorscale(cmap),
            hoverongaps=False, name="", showscale=showscale and coloraxis is None,
            coloraxis=coloraxis,
            hovertemplate=f"{y_name} %{{y}}, {x_name} %{{x}}: %{{z:.4g}}<extra></extra>",
            colorbar=dict(title=dict(text=value_name, side="right"), thickness=12, len=0.9),
        )]
        if np.isnan(z).any():
            traces.append(go.Heatmap(
                z=np.where(np.isnan(z), 1.0, np.nan).astype(np.float32), x0=0, dx=1, y0=0, dy=1,
                colorscale=[[0.0, NAN_CSS], [1.0, NAN_CSS]], showscale=False, hoverinfo="skip", name="nan"))
        return traces
    rgb = to_rgb(z, zmin, zmax, cmap, levels=254)
    traces = [go.Image(source=png_data_uri(rgb), x0=0, dx=1, y0=0, dy=1, name="",
                       hovertemplate=f"{y_name} %{{y}}, {x_name} %{{x}}<extra></extra>")]
    if showscale:
        traces.append(colorbar_only(cmap, zmin, zmax, title=dict(text=value_name, side="right"), thickness=12, len=0.9))
    return traces


def matrix(values: np.ndarray, *, title: str = "", x_name: str = "key position", y_name: str = "query position",
           value_name: str = "value", center: float | None = 0.0, cmap: str | None = None,
           zrange: tuple[float, float] | None = None, height: int = 380,
           tick_labels: Sequence[str] | None = None, showscale: bool = True) -> go.Figure:
    """A position x position (or any) matrix [rows, cols] with numeric axes, row 0 on top.

    ``center`` (default 0) gives a diverging scale centred there; ``None`` a sequential
    min..max scale. ``zrange`` fixes the colour range (to compare several panels).
    ``tick_labels`` (tokens of a square matrix, escaped here) label both axes."""
    z = as_array(values, (2,), "matrix", "[rows, cols]")
    if tick_labels is not None and (len(tick_labels) != z.shape[1] or z.shape[0] != z.shape[1]):
        raise ValueError(f"matrix got {len(tick_labels)} tick labels for a {z.shape[0]}x{z.shape[1]} matrix.")
    zmin, zmax = zrange if zrange is not None else _range(z, center)
    cmap = cmap or (SEQUENTIAL if center is None else DIVERGING)
    fig = go.Figure(_heatmap_trace(z, zmin, zmax, cmap, x_name=x_name, y_name=y_name, value_name=value_name,
                                   showscale=showscale))
    n_r, n_c = z.shape
    ticks = _token_ticks(tick_labels, n_c, 64, 10)
    fig.update_layout(
        title=dict(text=html.escape(title)) if title else None, height=height,
        margin=dict(l=60, r=20, t=44 if title else 16, b=48), plot_bgcolor="rgba(0,0,0,0)",
        xaxis=dict(title=dict(text=html.escape(x_name)), range=[-0.5, n_c - 0.5], showgrid=False, zeroline=False,
                   **ticks),
        yaxis=dict(title=dict(text=html.escape(y_name)), range=[n_r - 0.5, -0.5], showgrid=False, zeroline=False,
                   scaleanchor=False, **ticks),
    )
    return fit_height(fig)          # token labels: more room for a long text or a projector's larger labels


def pe_table(pe: np.ndarray, *, wavelengths: np.ndarray | None = None, table_end: int | None = None,
             title: str = "", terms: Mapping[str, str] | None = None, zrange: tuple[float, float] | None = None,
             height: int = 520) -> go.Figure:
    """A position table [positions, dims] as a heatmap, with the wavelength of each
    dimension (in positions, log scale) in a strip above when given. The colour range is
    ±(99.5th percentile of |values|) unless ``zrange`` is given. Rows that are NaN
    (past the end of a learned table) are grey, and ``table_end`` draws the line where
    the table ends."""
    z = as_array(pe, (2,), "pe_table", "[positions, dims]")
    n_pos, d = z.shape
    words = {"position": "position", "dimension": "dimension", "value": "value", "wavelength": "wavelength",
             "table_end": "table ends at {n}", **(terms or {})}
    # the same layout with or without wavelengths, so tables side by side line up
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.22, 0.78], vertical_spacing=0.04)
    if wavelengths is not None:
        wavelengths = as_array(wavelengths, (1,), "pe_table", "[dims]")
        if wavelengths.shape[0] != d:
            raise ValueError(f"pe_table got {wavelengths.shape[0]} wavelengths for {d} dimensions.")
        fig.add_trace(go.Scatter(x=np.arange(d, dtype=np.int32), y=wavelengths, mode="lines", name="",
                                 line=dict(color=PALETTE[0]), showlegend=False,
                                 hovertemplate=f"{html.escape(words['dimension'])} %{{x}}: "
                                               f"{html.escape(words['wavelength'])} %{{y:.4g}}<extra></extra>"),
                      row=1, col=1)
        fig.update_yaxes(type="log", title=dict(text=html.escape(words["wavelength"])), row=1, col=1)
    else:
        fig.add_trace(go.Scatter(x=[d / 2], y=[0.0], mode="text", hoverinfo="skip", showlegend=False, name="",
                                 text=[html.escape(words.get("no_wavelength", "no fixed wavelength"))],
                                 textfont=dict(color="#888888")), row=1, col=1)
        fig.update_yaxes(visible=False, range=[-1, 1], row=1, col=1)
    heat_row = 2
    if zrange is None:
        # a robust range: a few large entries (learned tables have some) must not wash out the rest
        finite = np.abs(z[np.isfinite(z)])
        half = float(np.percentile(finite, 99.5)) if finite.size else 1.0
        zrange = (-(half or 1.0), half or 1.0)
    zmin, zmax = zrange
    for tr in _heatmap_trace(z, zmin, zmax, DIVERGING, x_name=words["dimension"], y_name=words["position"],
                             value_name=words["value"]):
        fig.add_trace(tr, row=heat_row, col=1)
    # scaleanchor False: an image path (large tables) must fill the panel, not keep square pixels
    fig.update_yaxes(range=[n_pos - 0.5, -0.5], title=dict(text=html.escape(words["position"])), showgrid=False,
                     zeroline=False, scaleanchor=False, row=heat_row, col=1)
    fig.update_xaxes(range=[-0.5, d - 0.5], showgrid=False, zeroline=False, row=heat_row, col=1,
                     title=dict(text=html.escape(words["dimension"])))
    if table_end is not None and 0 < table_end < n_pos:
        fig.add_shape(type="line", x0=-0.5, x1=d - 0.5, y0=table_end - 0.5, y1=table_end - 0.5,
                      line=dict(color="#d62728", width=2, dash="dash"), row=heat_row, col=1)
        fig.add_annotation(x=d / 2, y=table_end - 0.5, text=html.escape(words["table_end"].format(n=table_end)),
                           showarrow=False, yshift=10, font=dict(color="#d62728"), bgcolor="rgba(255,255,255,0.8)",
                           row=heat_row, col=1)
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height,
                      margin=dict(l=64, r=20, t=44 if title else 16, b=48), plot_bgcolor="rgba(0,0,0,0)")
    return fig


def curves(series: Mapping[str, tuple[np.ndarray, np.ndarray]], *, title: str = "", x_name: str = "distance",
           y_name: str = "value", markers: bool = False, height: int = 340, log_x: bool = False,
           overlap: bool = False) -> go.Figure:
    """Lines y(x), one per named series {name: (x [n], y [n])}. NaN in y leaves a gap.
    ``overlap``: the series are expected to coincide, so earlier ones are drawn wider
    underneath the later ones (every one stays visible)."""
    if not series:
        raise ValueError("curves got no series to draw.")
    fig = go.Figure()
    for i, (name, (x, y)) in enumerate(series.items()):
        x, y = np.asarray(x), as_array(y, (1,), "curves", "[n]")
        if x.shape != y.shape:
            raise ValueError(f"curves: series {name!r} has {x.shape[0]} x values and {y.shape[0]} y values.")
        fig.add_trace(go.Scatter(x=x.astype(np.float32), y=y, mode="lines+markers" if markers else "lines",
                                 name=html.escape(name), line=dict(color=PALETTE[i % len(PALETTE)],
                                                                   width=2 + 3 * (len(series) - 1 - i) if overlap else 2),
                                 hovertemplate=f"{html.escape(name)}<br>{html.escape(x_name)} %{{x}}: "
                                               f"%{{y:.4g}}<extra></extra>"))
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height,
                      margin=dict(l=60, r=20, t=44 if title else 16, b=48),
                      xaxis=dict(title=dict(text=html.escape(x_name)), type="log" if log_x else "linear"),
                      yaxis=dict(title=dict(text=html.escape(y_name))),
                      legend=dict(orientation="h", y=-0.22))
    return fig


def rotation_arrows(pairs: np.ndarray, *, panel_titles: Sequence[str], arrow_names: Sequence[str],
                    title: str = "", dashed: Sequence[bool] | None = None, colors: Sequence[str] | None = None,
                    height: int = 360) -> go.Figure:
    """2-D arrows from the origin, one small panel per frequency.

    ``pairs`` [panels, arrows, 2]: arrow a of panel p ends at pairs[p, a]. The unit circle
    is drawn in every panel. Used for the sinusoidal shift (PE(pos), M_k·PE(pos),
    PE(pos+k) per pair) and for RoPE (q rotated to several positions)."""
    z = as_array(pairs, (3,), "rotation_arrows", "[panels, arrows, 2]")
    n_p, n_a, two = z.shape
    if two != 2:
        raise ValueError(f"rotation_arrows expects 2-D points in the last axis; got {two}.")
    if len(panel_titles) != n_p or len(arrow_names) != n_a:
        raise ValueError(f"rotation_arrows got {len(panel_titles)} panel titles for {n_p} panels and "
                         f"{len(arrow_names)} arrow names for {n_a} arrows.")
    dashed = list(dashed) if dashed is not None else [False] * n_a
    colors = list(colors) if colors is not None else [PALETTE[a % len(PALETTE)] for a in range(n_a)]
    if len(dashed) != n_a or len(colors) != n_a:
        raise ValueError(f"rotation_arrows got {len(dashed)} dash flags and {len(colors)} colours for {n_a} arrows.")
    # a newline in a panel title becomes a line break (titles are escaped first)
    fig = make_subplots(rows=1, cols=n_p, subplot_titles=[html.escape(s).replace("\n", "<br>") for s in panel_titles],
                        horizontal_spacing=0.03)
    circle = np.linspace(0, 2 * math.pi, 97)
    lim = max(1.1, float(np.nanmax(np.abs(z))) * 1.1)
    for p in range(n_p):
        fig.add_trace(go.Scatter(x=np.cos(circle).astype(np.float32), y=np.sin(circle).astype(np.float32),
                                 mode="lines", line=dict(color="#bbbbbb", width=1), hoverinfo="skip",
                                 showlegend=False), row=1, col=p + 1)
        for a in range(n_a):
            color = colors[a]
            x, y = float(z[p, a, 0]), float(z[p, a, 1])
            fig.add_trace(go.Scatter(
                x=[0.0, x], y=[0.0, y], mode="lines+markers", name=html.escape(arrow_names[a]),
                legendgroup=str(a), showlegend=p == 0,
                line=dict(color=color, width=2.5, dash="dash" if dashed[a] else "solid"),
                marker=dict(size=[0, 9], symbol="arrow", angleref="previous", color=color),
                hovertemplate=f"{html.escape(arrow_names[a])}: (%{{x:.3f}}, %{{y:.3f}})<extra></extra>"),
                row=1, col=p + 1)
        axis = dict(range=[-lim, lim], showgrid=False, zeroline=True, zerolinecolor="#e5e5e5", showticklabels=False)
        fig.update_xaxes(**axis, row=1, col=p + 1)
        fig.update_yaxes(**axis, scaleanchor=f"x{p + 1 if p else ''}", scaleratio=1, row=1, col=p + 1)
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height,
                      margin=dict(l=10, r=10, t=100 if title else 56, b=10),
                      legend=dict(orientation="h", y=-0.05), plot_bgcolor="rgba(0,0,0,0)")
    return fig


def bars(values: np.ndarray, labels: Sequence[str], *, title: str = "", y_name: str = "value",
         log_y: bool = False, text_fmt: str = ".3g", height: int = 300) -> go.Figure:
    """One bar per label (ALiBi slopes per head, the shift-test change per scheme). NaN
    bars are left out and labelled "n/a"."""
    v = as_array(values, (1,), "bars", "[n]")
    if len(labels) != v.shape[0]:
        raise ValueError(f"bars got {len(labels)} labels for {v.shape[0]} values.")
    text = ["n/a" if not np.isfinite(x) else format(float(x), text_fmt) for x in v]
    fig = go.Figure(go.Bar(x=escape_labels(list(labels)), y=v, text=text, textposition="outside",
                           marker_color=[PALETTE[i % len(PALETTE)] for i in range(len(v))], name="",
                           hovertemplate="%{x}: %{y:.4g}<extra></extra>"))
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height,
                      margin=dict(l=60, r=20, t=44 if title else 16, b=48),
                      yaxis=dict(title=dict(text=html.escape(y_name)), type="log" if log_y else "linear"))
    return fig


def matrix_grid(mats: np.ndarray, *, panel_titles: Sequence[str], title: str = "", x_name: str = "key position",
                y_name: str = "query position", value_name: str = "value", center: float | None = 0.0,
                cmap: str | None = None, cols: int = 4, tick_labels: Sequence[str] | None = None,
                panel_height: int = 230) -> go.Figure:
    """Small multiples of same-sized matrices [panels, rows, cols] on one colour scale
    (ALiBi bias per head, T5 bias per head, attention per scheme). NaN cells are grey.
    ``tick_labels`` (token strings, escaped here) label both axes when given."""
    z = as_array(mats, (3,), "matrix_grid", "[panels, rows, cols]")
    n_p, n_r, n_c = z.shape
    if len(panel_titles) != n_p:
        raise ValueError(f"matrix_grid got {len(panel_titles)} titles for {n_p} panels.")
    if tick_labels is not None and (len(tick_labels) != n_c or n_r != n_c):
        raise ValueError(f"matrix_grid got {len(tick_labels)} tick labels for a {n_r}x{n_c} matrix.")
    cols = max(1, min(cols, n_p))
    rows = math.ceil(n_p / cols)
    zmin, zmax = _range(z, center)
    cmap = cmap or (SEQUENTIAL if center is None else DIVERGING)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[html.escape(s) for s in panel_titles],
                        horizontal_spacing=0.05, vertical_spacing=0.12 if rows > 1 else 0.0)
    small = n_p * n_r * n_c <= 4 * MAX_HOVER_CELLS
    for p in range(n_p):
        r, c = p // cols + 1, p % cols + 1
        if small:
            traces = _heatmap_trace(z[p], zmin, zmax, cmap, x_name=x_name, y_name=y_name, value_name=value_name,
                                    coloraxis="coloraxis")
        else:
            traces = _heatmap_trace(z[p], zmin, zmax, cmap, x_name=x_name, y_name=y_name, value_name=value_name,
                                    showscale=p == 0)
        for tr in traces:
            fig.add_trace(tr, row=r, col=c)
        ticks = _token_ticks(tick_labels, n_c, 40, 9)
        fig.update_xaxes(range=[-0.5, n_c - 0.5], showgrid=False, zeroline=False, row=r, col=c,
                         **ticks, **({"tickangle": -90} if ticks else {}))
        fig.update_yaxes(range=[n_r - 0.5, -0.5], showgrid=False, zeroline=False, row=r, col=c,
                         scaleanchor=f"x{p + 1 if p else ''}", scaleratio=1, constrain="domain", **ticks)
    if small:
        fig.update_layout(coloraxis=dict(colorscale=plotly_colorscale(cmap), cmin=zmin, cmax=zmax,
                                         colorbar=dict(title=dict(text=html.escape(value_name), side="right"), thickness=12)))
    fig.update_layout(title=dict(text=html.escape(title)) if title else None,
                      height=int(rows * panel_height + (60 if title else 30) + (40 if tick_labels is not None else 0)),
                      margin=dict(l=40, r=20, t=60 if title else 30, b=20), plot_bgcolor="rgba(0,0,0,0)")
    return fig


def extrapolation_chart(factors: Sequence[float], accuracy: Mapping[str, Sequence[float]], *, title: str = "",
                        x_name: str = "test length / train length", y_name: str = "exact-match accuracy",
                        height: int = 380) -> go.Figure:
    """Accuracy per scheme at multiples of the training length. NaN = not measurable
    (e.g. longer than a learned table): drawn as a gap and an x marker on the axis."""
    if not accuracy:
        raise ValueError("extrapolation_chart got no schemes.")
    x = np.asarray(factors, dtype=np.float32)
    fig = go.Figure()
    for i, (name, acc) in enumerate(accuracy.items()):
        y = np.asarray(acc, dtype=np.float32)
        if y.shape != x.shape:
            raise ValueError(f"extrapolation_chart: {name!r} has {y.shape[0]} values for {x.shape[0]} lengths.")
        color = PALETTE[i % len(PALETTE)]
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines+markers", name=html.escape(name),
                                 line=dict(color=color, width=2), marker=dict(size=8),
                                 hovertemplate=f"{html.escape(name)}: ×%{{x}}, %{{y:.1%}}<extra></extra>"))
        gaps = ~np.isfinite(y)
        if gaps.any():
            fig.add_trace(go.Scatter(x=x[gaps], y=np.zeros(int(gaps.sum()), dtype=np.float32), mode="markers",
                                     marker=dict(symbol="x-thin", size=12, line=dict(width=2, color=color)),
                                     showlegend=False, hoverinfo="skip", name=""))
    fig.update_layout(title=dict(text=html.escape(title)) if title else None, height=height,
                      margin=dict(l=60, r=20, t=44 if title else 16, b=48),
                      xaxis=dict(title=dict(text=html.escape(x_name)), tickvals=x, ticktext=[f"×{f:g}" for f in x]),
                      yaxis=dict(title=dict(text=html.escape(y_name)), range=[-0.03, 1.05], tickformat=".0%"),
                      # hung from its top below the axis title (anchored at its bottom, it sat on the title)
                      legend=dict(orientation="h", yanchor="top", y=-0.3))
    return fig

"""Plotly figures of attention patterns: numpy arrays + token strings in, figure out.

Conventions shared by every builder here:

* Axes are numeric (0..n-1) with ``tickvals``/``ticktext`` set to escaped labels.
  Plotly's categorical axes merge identical labels, so two "the" tokens would
  collapse into one row on a categorical axis.
* Array data goes to plotly as numpy (float32 / int), which plotly 7 serialises as
  base64 ``{"dtype", "bdata", "shape"}`` instead of long JSON lists.
* Up to ``max_hover_tokens`` tokens a matrix is a ``go.Heatmap`` with a hover per
  cell. Beyond, the matrix is coloured here (LUT -> uint8 RGB) and shipped as one
  PNG in a ``go.Image``: a 512x512 map is then tens of KB instead of ~1.4 MB.
* Clicks: Streamlit cannot report a click on a heatmap cell, but it reports a
  click on a scatter point, with the point's ``customdata``. So clickable figures
  carry an invisible scatter layer (trace name ``"click"``) with
  ``customdata = [row, col]`` (e.g. ``[q, k]`` or ``[layer, head]``). It is a plain
  list on purpose: a 2-D numpy customdata reaches plotly.js as typed-array rows,
  which the browser's JSON.stringify turns into ``{"0": q, "1": k}`` (checked with
  Streamlit 1.67). ``layout.hoverdistance = -1`` makes the nearest marker win,
  i.e. a click anywhere inside a cell selects that cell. Read clicks back with
  :func:`viz_core.events.selected_customdata`.
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.colors as pcolors
import plotly.graph_objects as go

from .colors import DIVERGING, NAN_CSS, SEQUENTIAL, plotly_colorscale, to_rgb
from .labels import escape_labels, position_labels
from .png import png_data_uri

MAX_HOVER_TOKENS = 128  # above this, matrices are drawn as a PNG image
MAX_TICKS = 40  # at most this many tick labels per axis; others are thinned out
CLICK_TRACE = "click"  # name of the invisible scatter layer that receives clicks
HIGHLIGHT = "#ff4b4b"  # outline of the selected cell / tile
DOT_COLUMN = " "  # category of the clickable dots left of a heatmap (labels all contain "·")
DOT_COLOR = "rgba(110,110,110,0.55)"

# Words that appear inside figures. The UI passes translated ones via ``terms=``.
DEFAULT_TERMS: dict[str, str] = {
    "query": "query",
    "key": "key",
    "masked": "masked",
    "layer": "layer",
    "head": "head",
    "weight": "attention weight",
    "row": "row",
    "col": "column",
    "value": "value",
}


# --------------------------------------------------------------------------- helpers


def _terms(overrides: Mapping[str, str] | None) -> dict[str, str]:
    words = dict(DEFAULT_TERMS)
    words.update(overrides or {})
    return {k: html.escape(str(v)) for k, v in words.items()}


def _as_array(x: np.ndarray, ndims: tuple[int, ...], fn: str, shape_doc: str) -> np.ndarray:
    """Return ``x`` as float32 after checking its number of dimensions."""
    a = np.asarray(x)
    if a.ndim not in ndims:
        raise ValueError(f"{fn} expects an array of shape {shape_doc}; got shape {a.shape}.")
    if a.size == 0:
        raise ValueError(f"{fn} got an empty array of shape {a.shape}; there is nothing to draw.")
    if not (np.issubdtype(a.dtype, np.number) or a.dtype == bool):
        raise ValueError(f"{fn} expects numbers; got an array of dtype {a.dtype}.")
    return a.astype(np.float32, copy=False)


def _check_labels(labels: Sequence[str] | None, n: int, fn: str, what: str) -> None:
    if labels is None:
        return
    if isinstance(labels, str):
        raise ValueError(f"{fn}: {what} must be a list of strings, not one string.")
    if len(labels) != n:
        raise ValueError(f"{fn}: got {len(labels)} {what} but the array has {n} along that axis.")


def _axis_ticks(labels: Sequence[str], max_ticks: int = MAX_TICKS, values: Sequence[str] | None = None) -> dict:
    """Tick every k-th position so that at most ``max_ticks`` labels are drawn.
    ``values``: the category names of a category axis (default: positions 0..n-1)."""
    step = max(1, math.ceil(len(labels) / max_ticks))
    idx = list(range(0, len(labels), step))
    size = 12 if len(idx) <= 24 else 10 if len(idx) <= 48 else 9
    return dict(
        tickmode="array",
        # small plain list: layout arrays are not decoded from bdata everywhere
        tickvals=idx if values is None else [values[i] for i in idx],
        ticktext=[labels[i] for i in idx],
        tickfont=dict(size=size),
        showgrid=False,
        zeroline=False,
        automargin=True,
    )


def _text_px(label: str, size: int) -> float:
    """Approximate rendered width of an (escaped) label in px: CJK and other wide
    characters take about one em, others about 0.6 em."""
    text = html.unescape(label)
    return sum(size * (1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6) for c in text)


def _fixed_margins(x_ticks: dict, y_ticks: dict, title: bool) -> tuple[dict, dict, dict]:
    """Margins computed here from the tick labels, and the x tick angle fixed, instead
    of plotly's automargin: automargin draws every figure twice (measured: a 64-token
    heatmap takes ~80 ms to draw with it, ~25 ms without)."""
    xs, ys = x_ticks["tickfont"]["size"], y_ticks["tickfont"]["size"]
    x_widths = [_text_px(t, xs) for t in x_ticks["ticktext"]] or [0.0]
    y_width = max([_text_px(t, ys) for t in y_ticks["ticktext"]] or [0.0])
    # labels side by side need ~their width plus a gap; ~450 px is a narrow plot
    rotate = sum(x_widths) + 8 * len(x_widths) > 450
    x_extent = max(x_widths) if rotate else xs * 1.3
    margin = dict(l=int(y_width + 40), r=10, t=40 if title else 16, b=int(x_extent + 44))
    # "allow": plotly would otherwise measure every label to hide those past the edge
    fixed = dict(automargin=False, ticklabeloverflow="allow")
    return margin, dict(fixed, tickangle=-90 if rotate else 0), fixed


def _format(v: float, fmt: str, masked: str) -> str:
    return masked if not np.isfinite(v) else format(float(v), fmt)


def _tpl(text: str) -> str:
    """Make text safe to embed in a hovertemplate: "%{" would be read as a field."""
    return text.replace("%", "&#37;")


def _marker_layer(
    x: np.ndarray,
    y: np.ndarray,
    customdata: list | None,
    hovertext: list[str] | None,
    prefix: str = "",
) -> dict:
    """Invisible markers that carry hover text and turn a click into a selection.

    The hover shows ``prefix`` + the point's hovertext.
    ``customdata=None`` gives a hover-only layer (trace name ``"hover"``).
    Returned as a trace dict: plotly validates it once, in ``fig.add_traces``.
    """
    return dict(
        type="scatter",
        x=x,
        y=y,
        mode="markers",
        name=CLICK_TRACE if customdata is not None else "hover",
        customdata=customdata,  # plain list of [row, col]: see the module docstring
        hovertext=hovertext,
        hovertemplate=f"{_tpl(prefix)}%{{hovertext}}<extra></extra>" if hovertext is not None else None,
        hoverinfo=None if hovertext is not None else "none",
        marker=dict(size=6, symbol="square", color="rgba(0,0,0,0)", line=dict(width=0)),
        # Plotly restyles selected / unselected points after a click; keep them invisible.
        selected=dict(marker=dict(opacity=0)),
        unselected=dict(marker=dict(opacity=0)),
        showlegend=False,
    )


def _outline(fig: go.Figure, x0: float, x1: float, y0: float, y1: float) -> None:
    fig.add_shape(
        type="rect", x0=x0, x1=x1, y0=y0, y1=y1, line=dict(color=HIGHLIGHT, width=2),
        fillcolor="rgba(0,0,0,0)", layer="above",
    )


def _colorbar_only(cmap: str, zmin: float, zmax: float, title: str) -> go.Scatter:
    """An empty trace that only draws a colorbar (``go.Image`` has none)."""
    return go.Scatter(
        x=[None], y=[None], mode="markers", hoverinfo="skip", showlegend=False,
        marker=dict(colorscale=plotly_colorscale(cmap), cmin=zmin, cmax=zmax, color=[zmin],
                    showscale=True, colorbar=dict(title=dict(text=title), thickness=14)),
    )


def _matrix_figure(
    z: np.ndarray,
    row_labels: list[str],
    col_labels: list[str],
    *,
    row_name: str,
    col_name: str,
    sep: str,
    value_fmt: str,
    masked_word: str,
    zmin: float,
    zmax: float,
    cmap: str,
    hover_cells: bool,
    clickable: bool,
    square: bool,
    colorbar_title: str,
    max_ticks: int,
) -> go.Figure:
    """Draw a [rows, cols] matrix; non-finite cells are masked (grey).

    ``hover_cells`` True: a ``go.Heatmap`` on category axes whose categories are the
    position-prefixed labels ("3·the", unique even for repeated tokens), so the
    heatmap's own hovertemplate names both tokens and no per-cell text is sent; tick
    text shows the plain labels. If ``clickable``, a column of dots left of the map,
    one per row (customdata ``[row, -1]``): Streamlit cannot report a click on a
    heatmap cell, and a marker per cell costs too much (measured in Chromium at 128
    tokens: ~1.1 s to draw and ~730 KB, against ~40 ms and ~110 KB this way).
    ``hover_cells`` False: one PNG ``go.Image`` and one invisible marker per row; the
    nearest marker wins the hover, so a click anywhere in a row selects that row.
    """
    n_r, n_c = z.shape
    z = np.where(np.isfinite(z), z, np.nan).astype(np.float32)  # ±inf (masked scores) -> NaN
    masked = np.isnan(z)
    fig = go.Figure()

    if hover_cells:
        rows = [f"{i}·{lab}" for i, lab in enumerate(row_labels)]   # unique category names
        cols = [f"{j}·{lab}" for j, lab in enumerate(col_labels)]
        fig.add_trace(go.Heatmap(
            z=z, x=cols, y=rows, zmin=zmin, zmax=zmax, colorscale=plotly_colorscale(cmap), name="",
            hoverongaps=False,
            hovertemplate=f"{_tpl(row_name)} %{{y}}{_tpl(sep)}{_tpl(col_name)} %{{x}}: %{{z:{value_fmt}}}<extra></extra>",
            colorbar=dict(title=dict(text=colorbar_title), thickness=14, len=0.9, nticks=6),
        ))
        if masked.any():
            # NaN cells are holes in a heatmap; fill them with grey so that "masked"
            # does not depend on the page background (light or dark theme).
            fig.add_trace(go.Heatmap(
                z=np.where(masked, 1.0, np.nan).astype(np.float32), x=cols, y=rows,
                colorscale=[[0.0, NAN_CSS], [1.0, NAN_CSS]], showscale=False, hoverongaps=False,
                hovertemplate=f"{_tpl(row_name)} %{{y}}{_tpl(sep)}{_tpl(col_name)} %{{x}}: {_tpl(masked_word)}"
                              "<extra></extra>", name="masked",
            ))
        x_categories = cols
        if clickable:
            # the dots sit in an extra, unlabelled category left of the first key
            x_categories = [DOT_COLUMN, *cols]
            fig.add_trace(dict(
                type="scatter", x=[DOT_COLUMN] * n_r, y=rows, mode="markers", name=CLICK_TRACE,
                customdata=[[i, -1] for i in range(n_r)],
                hovertemplate=f"{_tpl(row_name)} %{{y}}<extra></extra>",
                marker=dict(size=9, color=DOT_COLOR, line=dict(width=0)),
                selected=dict(marker=dict(color=HIGHLIGHT)), unselected=dict(marker=dict(opacity=1)),
                showlegend=False,
            ))
        fig.update_layout(meta={"x_offset": len(x_categories) - n_c})
        x_ticks = dict(_axis_ticks(col_labels, max_ticks, values=cols), categoryorder="array",
                       categoryarray=x_categories)
        y_ticks = _axis_ticks(row_labels, max_ticks, values=rows)
        x_range, axis_type = [-0.5, len(x_categories) - 0.5], "category"
    else:
        rgb = to_rgb(z, zmin, zmax, cmap, levels=254)  # [rows, cols, 3] uint8, NaN -> grey
        fig.add_trace(go.Image(
            source=png_data_uri(rgb), x0=0, dx=1, y0=0, dy=1, name="",
            hovertemplate=f"{_tpl(row_name)} %{{y}}{_tpl(sep)}{_tpl(col_name)} %{{x}}<extra></extra>",
            hoverinfo="skip" if clickable else None,
        ))
        fig.add_trace(_colorbar_only(cmap, zmin, zmax, colorbar_title))
        if clickable:
            rows_idx = np.arange(n_r)
            fig.add_trace(_marker_layer(
                x=np.full(n_r, -0.5, dtype=np.float32), y=rows_idx.astype(np.int32),
                customdata=[[int(i), -1] for i in rows_idx],
                hovertext=[f"{row_name} {lab} ({i})" for i, lab in enumerate(row_labels)],
            ))
        x_ticks, y_ticks = _axis_ticks(col_labels, max_ticks), _axis_ticks(row_labels, max_ticks)
        x_range, axis_type = [-0.5, n_c - 0.5], "linear"

    margin, x_fixed, y_fixed = _fixed_margins(x_ticks, y_ticks, title=False)
    fig.update_layout(
        xaxis=dict(type=axis_type, range=x_range, title=dict(text=col_name),
                   constrain="domain", **{**x_ticks, **x_fixed}),
        yaxis=dict(type=axis_type, range=[n_r - 0.5, -0.5],  # reversed: row 0 (first query) on top
                   title=dict(text=row_name), constrain="domain",
                   scaleanchor="x" if square else False, scaleratio=1, **{**y_ticks, **y_fixed}),
        plot_bgcolor="rgba(0,0,0,0)",
        # image: the nearest row marker wins the hover (a click anywhere in a row selects
        # it); heatmap: the cell under the cursor, or a dot within a few pixels
        hoverdistance=-1 if (clickable and not hover_cells) else 6,
        margin=margin,
        # Tick labels (up to 24 chars, rotated under the x axis) take ~200 px.
        height=int(np.clip(300 + 20 * max(n_r, n_c), 460, 800)) if square else
        int(np.clip(200 + 20 * n_r, 300, 800)),
    )
    return fig


# --------------------------------------------------------------------------- head heatmap


def head_heatmap(
    pattern: np.ndarray,
    q_tokens: Sequence[str],
    k_tokens: Sequence[str],
    *,
    title: str = "",
    zmin: float = 0.0,
    zmax: float | None = None,
    clickable: bool = True,
    max_hover_tokens: int = MAX_HOVER_TOKENS,
    cmap: str = SEQUENTIAL,
    selected: tuple[int, int] | None = None,
    max_ticks: int = MAX_TICKS,
    terms: Mapping[str, str] | None = None,
    square: bool = True,
) -> go.Figure:
    """One head's attention pattern as a heatmap.

    pattern: [q, k] weights (rows sum to 1); NaN marks masked cells (grey, hover
    "masked"). ``len(q_tokens) == q`` and ``len(k_tokens) == k``. Query 0 is on
    top. ``zmax=None`` uses the largest finite weight.

    Up to ``max_hover_tokens`` tokens per axis: ``go.Heatmap`` with hover "query
    3·tok → key 5·tok: 0.1234", and when ``clickable`` a dot beside each query row
    with ``customdata=[q, -1]``. Beyond: a PNG ``go.Image`` and, when ``clickable``,
    one invisible marker per query row with ``customdata=[q, -1]`` (a click anywhere
    in a row selects that query). ``selected=(q, k)`` outlines a cell
    (``k=-1``: the whole row). ``square=False`` lets the map fill a wide area with
    rectangular cells instead of keeping them square.
    """
    fn = "head_heatmap"
    p = _as_array(pattern, (2,), fn, "[q, k] (one head; index [layer, head] first)")
    n_q, n_k = p.shape
    _check_labels(q_tokens, n_q, fn, "query tokens")
    _check_labels(k_tokens, n_k, fn, "key tokens")
    words = _terms(terms)
    if zmax is None:
        finite = p[np.isfinite(p)]
        zmax = float(finite.max()) if finite.size else 1.0
    if zmax <= zmin:  # e.g. an all-zero map: any non-empty range will do
        zmax = zmin + 1.0
    fig = _matrix_figure(
        p, escape_labels(q_tokens), escape_labels(k_tokens),
        row_name=words["query"], col_name=words["key"], sep=" → ", value_fmt=".4f",
        masked_word=words["masked"], zmin=float(zmin), zmax=float(zmax), cmap=cmap,
        hover_cells=max(n_q, n_k) <= max_hover_tokens, clickable=clickable, square=square,
        colorbar_title=words["weight"], max_ticks=max_ticks,
    )
    if selected is not None:
        q, k = selected
        dx = (fig.layout.meta or {}).get("x_offset", 0)     # the dot column, if any
        for trace in fig.data:
            if trace.name == CLICK_TRACE and dx:            # colour the selected query's dot
                trace.marker.color = [HIGHLIGHT if i == q else DOT_COLOR for i in range(n_q)]
        if k is None or k < 0:
            _outline(fig, dx - 0.5, dx + n_k - 0.5, q - 0.5, q + 0.5)
        else:
            _outline(fig, dx + k - 0.5, dx + k + 0.5, q - 0.5, q + 0.5)
    if title:
        fig.update_layout(title=dict(text=html.escape(title)), margin_t=48)
    return fig


def matrix_heatmap(
    values: np.ndarray,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    title: str = "",
    center: float = 0.0,
    zmax: float | None = None,
    cmap: str = DIVERGING,
    row_name: str | None = None,
    col_name: str | None = None,
    colorbar_title: str | None = None,
    max_hover_cells: int = 64 * 64,
    clickable: bool = False,
    square: bool = False,
    max_ticks: int = MAX_TICKS,
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """Signed values [rows, cols] (scores, Q/K/V [pos, d_head], activations).

    Diverging colormap centred at ``center``: the colour range is
    ``center ± max|values - center|`` (or ``center ± zmax``), so 0 is white.
    Non-finite cells (e.g. -inf masked scores) are grey with hover "masked".
    Labels default to the index; they are escaped. Up to ``max_hover_cells``
    cells: heatmap with hover; beyond: PNG image (see :func:`head_heatmap`).
    """
    fn = "matrix_heatmap"
    z = _as_array(values, (2,), fn, "[rows, cols]")
    n_r, n_c = z.shape
    _check_labels(row_labels, n_r, fn, "row labels")
    _check_labels(col_labels, n_c, fn, "column labels")
    words = _terms(terms)
    rows = escape_labels(row_labels) if row_labels is not None else [str(i) for i in range(n_r)]
    cols = escape_labels(col_labels) if col_labels is not None else [str(j) for j in range(n_c)]
    if zmax is None:
        finite = z[np.isfinite(z)]
        zmax = float(np.abs(finite - center).max()) if finite.size else 1.0
    half = float(zmax) or 1.0  # all values equal to center: any symmetric range
    fig = _matrix_figure(
        z, rows, cols,
        row_name=html.escape(row_name) if row_name else words["row"],
        col_name=html.escape(col_name) if col_name else words["col"],
        sep=", ", value_fmt=".4g", masked_word=words["masked"],
        zmin=center - half, zmax=center + half, cmap=cmap,
        hover_cells=n_r * n_c <= max_hover_cells, clickable=clickable, square=square,
        colorbar_title=html.escape(colorbar_title) if colorbar_title else words["value"],
        max_ticks=max_ticks,
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title)), margin_t=48)
    return fig


# --------------------------------------------------------------------------- model view


def _block_reduce(x: np.ndarray, factor: int, how: str) -> np.ndarray:
    """Shrink the last two axes [..., a, b] by ``factor`` -> [..., ceil(a/f), ceil(b/f)].

    NaN (masked) cells are ignored; an all-NaN block stays NaN.
    """
    if factor == 1:
        return x
    *lead, a, b = x.shape
    pa, pb = -a % factor, -b % factor  # pad to whole blocks with NaN
    x = np.pad(x, [(0, 0)] * len(lead) + [(0, pa), (0, pb)], constant_values=np.nan)
    blocks = x.reshape(*lead, (a + pa) // factor, factor, (b + pb) // factor, factor)
    finite = np.isfinite(blocks)
    if how == "max":
        out = np.where(finite, blocks, -np.inf).max(axis=(-3, -1))
        return np.where(np.isneginf(out), np.nan, out)
    count = finite.sum(axis=(-3, -1))
    total = np.where(finite, blocks, 0.0).sum(axis=(-3, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def model_view(
    patterns: np.ndarray,
    *,
    layer_labels: Sequence[str] | None = None,
    head_labels: Sequence[str] | None = None,
    gap: int = 1,
    cmap: str = SEQUENTIAL,
    normalize: str = "tile",
    tile_px: int = 64,
    reduce: str = "max",
    selected: tuple[int, int] | None = None,
    title: str = "",
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """Every head of every layer as a grid of small maps in ONE image.

    patterns: [layers, heads, q, k]. Rows of the grid are layers, columns heads.
    Each tile is shrunk to at most ``tile_px`` x ``tile_px`` pixels by block-max
    (``reduce="max"``, default: a one-token diagonal or a sink column stays visible
    after shrinking, a mean would fade it by the block factor) or ``"mean"``.
    ``normalize="tile"`` (default) scales each tile to its own maximum, so a
    diffuse head is as readable as a sharp one; ``"global"`` uses one scale for
    all tiles, so brightness compares across heads. Tiles are separated by
    ``gap`` pixels of white. One invisible marker per tile carries
    ``customdata=[layer, head]``: a click on a tile selects that head.
    """
    fn = "model_view"
    p = _as_array(patterns, (4,), fn, "[layers, heads, q, k]")
    n_l, n_h, n_q, n_k = p.shape
    _check_labels(layer_labels, n_l, fn, "layer labels")
    _check_labels(head_labels, n_h, fn, "head labels")
    if normalize not in ("tile", "global"):
        raise ValueError(f"{fn}: normalize must be 'tile' or 'global', not {normalize!r}.")
    if reduce not in ("max", "mean"):
        raise ValueError(f"{fn}: reduce must be 'max' or 'mean', not {reduce!r}.")
    if gap < 0 or tile_px < 1:
        raise ValueError(f"{fn}: gap must be >= 0 and tile_px >= 1.")
    words = _terms(terms)
    layers = escape_labels(layer_labels) if layer_labels is not None else [f"L{i}" for i in range(n_l)]
    heads = escape_labels(head_labels) if head_labels is not None else [f"H{i}" for i in range(n_h)]

    # Same factor on both axes keeps the tile's aspect (q != k for cross-attention).
    tiles = _block_reduce(p, math.ceil(max(n_q, n_k) / tile_px), reduce)  # [L, H, tq, tk]
    tq, tk = tiles.shape[-2:]
    finite = np.where(np.isfinite(tiles), tiles, -np.inf)
    if normalize == "tile":
        vmax = finite.max(axis=(-2, -1), keepdims=True)  # [L, H, 1, 1]
    else:
        vmax = np.full((1, 1, 1, 1), finite.max())
    vmax = np.where(vmax > 0, vmax, 1.0)  # an all-zero tile stays at the low colour
    rgb = to_rgb(tiles / vmax, 0.0, 1.0, cmap, levels=254)  # [L, H, tq, tk, 3]

    # Pad every tile with `gap` white pixels below and to the right, interleave
    # [L, tq+gap, H, tk+gap] and drop the trailing gap: one [height, width, 3] image.
    rgb = np.pad(rgb, [(0, 0), (0, 0), (0, gap), (0, gap), (0, 0)], constant_values=255)
    canvas = rgb.transpose(0, 2, 1, 3, 4).reshape(n_l * (tq + gap), n_h * (tk + gap), 3)
    canvas = np.ascontiguousarray(canvas[: canvas.shape[0] - gap, : canvas.shape[1] - gap])
    height_px, width_px = canvas.shape[:2]

    # Tile centres in image pixel coordinates.
    cx = np.arange(n_h) * (tk + gap) + (tk - 1) / 2  # [H]
    cy = np.arange(n_l) * (tq + gap) + (tq - 1) / 2  # [L]
    ll, hh = np.meshgrid(np.arange(n_l), np.arange(n_h), indexing="ij")  # [L, H]
    fig = go.Figure(go.Image(source=png_data_uri(canvas), x0=0, dx=1, y0=0, dy=1,
                             hoverinfo="skip", name=""))
    fig.add_trace(_marker_layer(
        x=cx[hh.ravel()].astype(np.float32), y=cy[ll.ravel()].astype(np.float32),
        customdata=np.stack([ll.ravel(), hh.ravel()], axis=1).tolist(),
        hovertext=[f"{words['layer']} {layers[l]}, {words['head']} {heads[h]}"
                   for l, h in zip(ll.ravel(), hh.ravel())],
    ))
    # tile geometry, so that mark_tile() can outline a head on a cached figure
    fig.update_layout(meta={"tile_w": int(tk), "tile_h": int(tq), "gap": int(gap), "layers": n_l, "heads": n_h})
    if selected is not None:
        mark_tile(fig, *selected)
    aspect = height_px / width_px
    fig.update_layout(
        xaxis=dict(tickmode="array", tickvals=cx.tolist(), ticktext=heads, side="bottom",
                   range=[-0.5, width_px - 0.5], showgrid=False, zeroline=False,
                   constrain="domain", automargin=False),
        yaxis=dict(tickmode="array", tickvals=cy.tolist(), ticktext=layers,
                   range=[height_px - 0.5, -0.5], scaleanchor="x", scaleratio=1,
                   showgrid=False, zeroline=False, constrain="domain", automargin=False),
        hoverdistance=-1,  # the nearest tile centre is the tile under the cursor
        plot_bgcolor="rgba(0,0,0,0)",
        # head labels below the grid: plotly's toolbar (top right) never covers them;
        # fixed margins (no automargin: it draws the figure twice)
        margin=dict(l=10 + int(_text_px(max(layers, key=len), 12)) + 12, r=10, t=60 if title else 30, b=34),
        height=int(np.clip(aspect * 760 + 80, 240, 900)),
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title)))
    return fig


def mark_tile(fig: go.Figure, layer: int, head: int) -> go.Figure:
    """Outline one head's tile on a figure made by :func:`model_view` (in place;
    cheap, so the model view itself can be built once and cached)."""
    meta = fig.layout.meta
    if not isinstance(meta, dict) or "tile_w" not in meta:
        raise ValueError("mark_tile needs a figure made by model_view.")
    if not (0 <= layer < meta["layers"] and 0 <= head < meta["heads"]):
        raise ValueError(f"mark_tile: no tile for layer {layer}, head {head} "
                         f"(the grid is {meta['layers']} x {meta['heads']}).")
    tk, tq, gap = meta["tile_w"], meta["tile_h"], meta["gap"]
    x0, y0 = head * (tk + gap) - 0.5, layer * (tq + gap) - 0.5
    _outline(fig, x0, x0 + tk, y0, y0 + tq)
    return fig


# --------------------------------------------------------------------------- line view


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
    p = _as_array(pattern, (2, 3), fn, "[heads, q, k] or [q, k]")
    if p.ndim == 2:
        p = p[None]  # [1, q, k]
    n_heads, n_q, n_k = p.shape
    k_tokens = tokens if k_tokens is None else k_tokens
    _check_labels(tokens, n_q, fn, "query tokens")
    _check_labels(k_tokens, n_k, fn, "key tokens")
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
    words = _terms(terms)
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
    if title:
        fig.update_layout(title=dict(text=html.escape(title)))
    return fig


# --------------------------------------------------------------------------- query bars


def query_bars(
    weights: np.ndarray,
    k_tokens: Sequence[str],
    *,
    top_k: int | None = None,
    title: str = "",
    color: str = "#636EFA",
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """One query's attention over the keys as horizontal bars, largest on top.

    weights: [k], ``len(k_tokens) == k``. Labels are escaped and prefixed by their
    position ("3·the") so repeated tokens stay apart. ``top_k`` keeps only the k
    largest bars. Non-finite (masked) keys are left out. Each bar's customdata is
    its key position, so a click reports which key was chosen.
    """
    fn = "query_bars"
    w = _as_array(weights, (1,), fn, "[k] (one query's row)")
    _check_labels(k_tokens, w.shape[0], fn, "key tokens")
    if top_k is not None and top_k < 1:
        raise ValueError(f"{fn}: top_k must be at least 1; got {top_k}.")
    words = _terms(terms)
    labels = position_labels(k_tokens)
    keys = np.flatnonzero(np.isfinite(w))
    keys = keys[np.argsort(-w[keys], kind="stable")][:top_k]  # [m] positions, sorted
    vals = w[keys].astype(np.float32)
    m = len(keys)
    fig = go.Figure(go.Bar(
        x=vals, y=np.arange(m, dtype=np.int32), orientation="h",
        marker=dict(color=color), customdata=keys.astype(np.int32),
        hovertext=[f"{words['key']} {labels[i]}" for i in keys],
        hovertemplate="%{hovertext}: %{x:.4f}<extra></extra>",
        texttemplate="%{x:.3f}", textposition="outside", cliponaxis=False, name="",
    ))
    top = float(vals.max()) if m else 1.0
    fig.update_layout(
        xaxis=dict(range=[0, max(top, 1e-9) * 1.18], title=dict(text=words["weight"]),
                   zeroline=False),
        yaxis=dict(range=[m - 0.5, -0.5], **_axis_ticks([labels[i] for i in keys], 64)),
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        height=int(np.clip(70 + 22 * m, 200, 1400)),
        bargap=0.15,
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title)))
    return fig


# --------------------------------------------------------------------------- head metrics


def head_metrics_chart(
    metrics: Mapping[str, np.ndarray],
    metric: str,
    *,
    cmap: str = SEQUENTIAL,
    selected: tuple[int, int] | None = None,
    show_values: bool = True,
    title: str = "",
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """A layers x heads heatmap of one metric, e.g. from ``analysis.head_metrics``.

    metrics: name -> [layers, heads] array (all the same shape); ``metric`` picks
    the one coloured. The hover lists every metric of the head. One invisible
    marker per cell carries ``customdata=[layer, head]``.
    """
    fn = "head_metrics_chart"
    if metric not in metrics:
        raise ValueError(f"{fn}: unknown metric {metric!r}; available: {list(metrics)}.")
    z = _as_array(metrics[metric], (2,), fn, "[layers, heads]")
    n_l, n_h = z.shape
    others = {}
    for name, arr in metrics.items():
        a = np.asarray(arr)
        if a.shape != z.shape:
            raise ValueError(f"{fn}: metric {name!r} has shape {a.shape}, expected {z.shape}.")
        others[html.escape(str(name))] = a
    words = _terms(terms)
    name = html.escape(metric)
    ll, hh = np.meshgrid(np.arange(n_l), np.arange(n_h), indexing="ij")  # [L, H]
    hover = []
    for l, h in zip(ll.ravel(), hh.ravel()):
        lines = [f"{words['layer']} {l}, {words['head']} {h}"]
        lines += [(f"<b>{k}: {_format(a[l, h], '.4g', '-')}</b>" if k == name
                   else f"{k}: {_format(a[l, h], '.4g', '-')}") for k, a in others.items()]
        hover.append("<br>".join(lines))
    fig = go.Figure(go.Heatmap(
        z=z, x0=0, dx=1, y0=0, dy=1, colorscale=plotly_colorscale(cmap), hoverinfo="skip",
        texttemplate="%{z:.2f}" if show_values and z.size <= 400 else None,
        colorbar=dict(title=dict(text=name), thickness=14), name="",
    ))
    fig.add_trace(_marker_layer(
        x=hh.ravel().astype(np.int32), y=ll.ravel().astype(np.int32),
        customdata=np.stack([ll.ravel(), hh.ravel()], axis=1).tolist(), hovertext=hover,
    ))
    if selected is not None:
        l, h = selected
        _outline(fig, h - 0.5, h + 0.5, l - 0.5, l + 0.5)
    fig.update_layout(
        xaxis=dict(range=[-0.5, n_h - 0.5], side="top", constrain="domain",
                   title=dict(text=words["head"]), **_axis_ticks([f"H{i}" for i in range(n_h)])),
        yaxis=dict(range=[n_l - 0.5, -0.5], scaleanchor="x", scaleratio=1, constrain="domain",
                   title=dict(text=words["layer"]), **_axis_ticks([f"L{i}" for i in range(n_l)])),
        hoverdistance=-1,
        plot_bgcolor="rgba(0,0,0,0)",
        margin=dict(l=10, r=10, t=60 if title else 30, b=10),
        height=int(np.clip(120 + 40 * n_l, 240, 700)),
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title)))
    return fig

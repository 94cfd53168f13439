"""One head up close: its attention pattern (or any signed matrix: scores, Q/K/V,
activations) as a heatmap, and one query's row as bars.

numpy arrays + token strings in, plotly figures out. The conventions (numeric or
position-prefixed axes, numpy data, a PNG image beyond ``MAX_HOVER_TOKENS``, the
invisible click layer) are described in :mod:`viz_core.figure`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .colors import DIVERGING, NAN_CSS, SEQUENTIAL, plotly_colorscale, to_rgb
from .figure import (
    CLICK_TRACE,
    DOT_COLOR,
    DOT_COLUMN,
    HIGHLIGHT,
    MAX_HOVER_TOKENS,
    MAX_TICKS,
    add_title,
    as_array,
    as_matrix,
    axis_ticks,
    check_labels,
    colorbar_only,
    fit_height,
    fixed_margins,
    marker_layer,
    merge_terms,
    outline,
    template_text,
)
from .labels import escape_labels, numbered, position_labels
from .png import png_data_uri

# The colour constants live in viz_core.figure.



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
    cell = f"{template_text(row_name)} %{{y}}{template_text(sep)}{template_text(col_name)} %{{x}}"  # hover: which cell
    # the traces (as dicts) and the layout are gathered first and given to go.Figure once:
    # plotly's add_trace / update_layout re-walk the figure on each call, and a go.Heatmap
    # object is deep-copied into the figure (50 -> 14 ms for a 50-token head map)
    traces: list = []
    meta = None

    if hover_cells:
        rows = numbered(row_labels)   # unique category names
        cols = numbered(col_labels)
        traces.append(dict(
            type="heatmap", z=z, x=cols, y=rows, zmin=zmin, zmax=zmax, colorscale=plotly_colorscale(cmap), name="",
            hoverongaps=False,
            hovertemplate=f"{cell}: %{{z:{value_fmt}}}<extra></extra>",
            colorbar=dict(title=dict(text=colorbar_title), thickness=14, len=0.9, nticks=6),
        ))
        if masked.any():
            # NaN cells are holes in a heatmap; fill them with grey so that "masked"
            # does not depend on the page background (light or dark theme).
            traces.append(dict(
                type="heatmap", z=np.where(masked, 1.0, np.nan).astype(np.float32), x=cols, y=rows,
                colorscale=[[0.0, NAN_CSS], [1.0, NAN_CSS]], showscale=False, hoverongaps=False,
                hovertemplate=f"{cell}: {template_text(masked_word)}<extra></extra>", name="masked",
            ))
        x_categories = cols
        if clickable:
            # the dots sit in an extra, unlabelled category left of the first key
            x_categories = [DOT_COLUMN, *cols]
            traces.append(dict(
                type="scatter", x=[DOT_COLUMN] * n_r, y=rows, mode="markers", name=CLICK_TRACE,
                customdata=[[i, -1] for i in range(n_r)],
                hovertemplate=f"{template_text(row_name)} %{{y}}<extra></extra>",
                marker=dict(size=9, color=DOT_COLOR, line=dict(width=0)),
                selected=dict(marker=dict(color=HIGHLIGHT)), unselected=dict(marker=dict(opacity=1)),
                showlegend=False,
            ))
        meta = {"x_offset": len(x_categories) - n_c}
        x_ticks = dict(axis_ticks(col_labels, max_ticks, values=cols), categoryorder="array",
                       categoryarray=x_categories)
        y_ticks = axis_ticks(row_labels, max_ticks, values=rows)
        x_range, axis_type = [-0.5, len(x_categories) - 0.5], "category"
    else:
        rgb = to_rgb(z, zmin, zmax, cmap, levels=254)  # [rows, cols, 3] uint8, NaN -> grey
        traces.append(go.Image(
            source=png_data_uri(rgb), x0=0, dx=1, y0=0, dy=1, name="",
            hovertemplate=f"{cell}<extra></extra>",
            hoverinfo="skip" if clickable else None,
        ))
        traces.append(colorbar_only(cmap, zmin, zmax, title=dict(text=colorbar_title), thickness=14))
        if clickable:
            rows_idx = np.arange(n_r)
            traces.append(marker_layer(
                x=np.full(n_r, -0.5, dtype=np.float32), y=rows_idx.astype(np.int32),
                customdata=[[int(i), -1] for i in rows_idx],
                hovertext=[f"{row_name} {lab} ({i})" for i, lab in enumerate(row_labels)],
            ))
        x_ticks, y_ticks = axis_ticks(col_labels, max_ticks), axis_ticks(row_labels, max_ticks)
        x_range, axis_type = [-0.5, n_c - 0.5], "linear"

    margin, x_fixed, y_fixed = fixed_margins(x_ticks, y_ticks, title=False)
    layout = dict(
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
    if meta is not None:
        layout["meta"] = meta
    return go.Figure(data=traces, layout=layout)


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
    p = as_matrix(pattern, fn, "[q, k] (one head; index [layer, head] first)",
                  (q_tokens, "query tokens"), (k_tokens, "key tokens"))
    n_q, n_k = p.shape
    words = merge_terms(terms)
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
            outline(fig, dx - 0.5, dx + n_k - 0.5, q - 0.5, q + 0.5)
        else:
            outline(fig, dx + k - 0.5, dx + k + 0.5, q - 0.5, q + 0.5)
    return fit_height(add_title(fig, title, margin_t=48))   # room for the token labels


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
    z = as_matrix(values, fn, "[rows, cols]", (row_labels, "row labels"), (col_labels, "column labels"))
    n_r, n_c = z.shape
    words = merge_terms(terms)
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
    return fit_height(add_title(fig, title, margin_t=48))   # room for the token labels

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
    w = as_array(weights, (1,), fn, "[k] (one query's row)")
    check_labels(k_tokens, w.shape[0], fn, "key tokens")
    if top_k is not None and top_k < 1:
        raise ValueError(f"{fn}: top_k must be at least 1; got {top_k}.")
    words = merge_terms(terms)
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
        yaxis=dict(range=[m - 0.5, -0.5], **axis_ticks([labels[i] for i in keys], 64)),
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        height=int(np.clip(70 + 22 * m, 200, 1400)),
        bargap=0.15,
    )
    return add_title(fig, title)

"""Every head at once, as a layers x heads grid: the model view (each head's pattern
shrunk to a tile of one image) and the head-metrics chart (one number per head).

Both carry one invisible marker per head with ``customdata=[layer, head]``, so a click
on a tile or a cell selects that head (see :mod:`viz_core.figure`).
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .colors import SEQUENTIAL, plotly_colorscale, to_rgb
from .figure import (add_title, as_array, axis_ticks, check_labels, marker_layer, merge_terms, outline, text_px,
                     text_scale)
from .labels import escape_labels
from .png import png_data_uri


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
    p = as_array(patterns, (4,), fn, "[layers, heads, q, k]")
    n_l, n_h, n_q, n_k = p.shape
    check_labels(layer_labels, n_l, fn, "layer labels")
    check_labels(head_labels, n_h, fn, "head labels")
    if normalize not in ("tile", "global"):
        raise ValueError(f"{fn}: normalize must be 'tile' or 'global', not {normalize!r}.")
    if reduce not in ("max", "mean"):
        raise ValueError(f"{fn}: reduce must be 'max' or 'mean', not {reduce!r}.")
    if gap < 0 or tile_px < 1:
        raise ValueError(f"{fn}: gap must be >= 0 and tile_px >= 1.")
    words = merge_terms(terms)
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
    fig.add_trace(marker_layer(
        x=cx[hh.ravel()].astype(np.float32), y=cy[ll.ravel()].astype(np.float32),
        customdata=np.stack([ll.ravel(), hh.ravel()], axis=1).tolist(),
        hovertext=[words["tile"].format(layer=layers[l], head=heads[h], l=l, h=h)
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
        # (labels in the theme's tick size: 12 px, larger by text_scale() on a projector)
        margin=dict(l=10 + int(text_px(max(layers, key=len), 12 * text_scale())) + 12, r=10,
                    t=60 if title else 30, b=int(34 * text_scale())),
        # a deep model's grid (24 x 14: aspect 1.7) is held to ~one screen: narrower, not taller
        height=int(np.clip(aspect * 760 + 80, 240, 680)),
    )
    return add_title(fig, title)


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
    outline(fig, x0, x0 + tk, y0, y0 + tq)
    return fig


# --------------------------------------------------------------------------- head metrics


def _format(v: float, fmt: str, masked: str) -> str:
    return masked if not np.isfinite(v) else format(float(v), fmt)


def head_metrics_chart(
    metrics: Mapping[str, np.ndarray],
    metric: str,
    *,
    cmap: str = SEQUENTIAL,
    selected: tuple[int, int] | None = None,
    show_values: bool = True,
    title: str = "",
    terms: Mapping[str, str] | None = None,
    zmid: float | None = None,
) -> go.Figure:
    """A layers x heads heatmap of one metric, e.g. from ``lab.attention.head_metrics``.

    metrics: name -> [layers, heads] array (all the same shape); ``metric`` picks
    the one coloured. The hover lists every metric of the head. One invisible
    marker per cell carries ``customdata=[layer, head]``. ``zmid``: the value at the
    colour scale's middle (0 for signed values such as logit contributions, with a
    diverging ``cmap``).
    """
    fn = "head_metrics_chart"
    if metric not in metrics:
        raise ValueError(f"{fn}: unknown metric {metric!r}; available: {list(metrics)}.")
    z = as_array(metrics[metric], (2,), fn, "[layers, heads]")
    n_l, n_h = z.shape
    others = {}
    for name, arr in metrics.items():
        a = np.asarray(arr)
        if a.shape != z.shape:
            raise ValueError(f"{fn}: metric {name!r} has shape {a.shape}, expected {z.shape}.")
        others[html.escape(str(name))] = a
    words = merge_terms(terms)
    name = html.escape(metric)
    ll, hh = np.meshgrid(np.arange(n_l), np.arange(n_h), indexing="ij")  # [L, H]
    hover = []
    for l, h in zip(ll.ravel(), hh.ravel()):
        lines = [f"{words['layer']} {l}, {words['head']} {h}"]
        lines += [(f"<b>{k}: {_format(a[l, h], '.4g', '-')}</b>" if k == name
                   else f"{k}: {_format(a[l, h], '.4g', '-')}") for k, a in others.items()]
        hover.append("<br>".join(lines))
    height = int(np.clip(120 + 40 * n_l, 240, 700))
    # values in the cells only where they are legible: a cell (square) of >= ~30 px, i.e. up to ~18 layers
    legible = (height - 110) / n_l >= 30 and z.size <= 400
    fig = go.Figure(go.Heatmap(
        z=z, x0=0, dx=1, y0=0, dy=1, colorscale=plotly_colorscale(cmap), hoverinfo="skip", zmid=zmid,
        texttemplate="%{z:.2f}" if show_values and legible else None,
        colorbar=dict(title=dict(text=name), thickness=14), name="",
    ))
    fig.add_trace(marker_layer(
        x=hh.ravel().astype(np.int32), y=ll.ravel().astype(np.int32),
        customdata=np.stack([ll.ravel(), hh.ravel()], axis=1).tolist(), hovertext=hover,
    ))
    if selected is not None:
        l, h = selected
        outline(fig, h - 0.5, h + 0.5, l - 0.5, l + 0.5)
    fig.update_layout(
        xaxis=dict(range=[-0.5, n_h - 0.5], side="top", constrain="domain",
                   title=dict(text=words["head"]), **axis_ticks([f"H{i}" for i in range(n_h)])),
        yaxis=dict(range=[n_l - 0.5, -0.5], scaleanchor="x", scaleratio=1, constrain="domain",
                   title=dict(text=words["layer"]), **axis_ticks([f"L{i}" for i in range(n_l)])),
        hoverdistance=-1,
        plot_bgcolor="rgba(0,0,0,0)",
        margin=dict(l=10, r=10, t=60 if title else 30, b=10),
        height=height,
    )
    return add_title(fig, title)

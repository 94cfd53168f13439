"""Helpers shared by the figure modules of viz_core: constants, input checks, axis
ticks, margins, hover templates, figure words, and the invisible click layer.

Conventions every builder follows:

* Axes are numeric (0..n-1) with ``tickvals``/``ticktext`` set to escaped labels
  (:func:`axis_ticks`). Plotly's categorical axes merge identical labels, so two
  "the" tokens would collapse into one row on a categorical axis (a category axis
  is used only with position-prefixed names such as "3·the").
* Array data goes to plotly as numpy (float32 / int), which plotly 7 serialises as
  base64 ``{"dtype", "bdata", "shape"}`` instead of long JSON lists.
* Up to ``MAX_HOVER_TOKENS`` tokens a matrix is a ``go.Heatmap`` with a hover per
  cell. Beyond, the matrix is coloured here (LUT -> uint8 RGB) and shipped as one
  PNG in a ``go.Image``: a 512x512 map is then tens of KB instead of ~1.4 MB.
* Clicks: Streamlit cannot report a click on a heatmap cell, but it reports a
  click on a scatter point, with the point's ``customdata``. So clickable figures
  carry an invisible scatter layer (:func:`marker_layer`, trace name
  ``CLICK_TRACE``) with ``customdata = [row, col]`` (e.g. ``[q, k]`` or
  ``[layer, head]``). It is a plain list on purpose: a 2-D numpy customdata reaches
  plotly.js as typed-array rows, which the browser's JSON.stringify turns into
  ``{"0": q, "1": k}`` (checked with Streamlit 1.67). ``layout.hoverdistance = -1``
  makes the nearest marker win, i.e. a click anywhere inside a cell selects that
  cell. Read clicks back with :func:`viz_core.events.selected_customdata`.
* Words drawn inside a figure ("query", "layer", ...) have English defaults; the UI
  passes translated ones via ``terms=``, merged (and escaped) by :func:`merge_terms`.
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .colors import plotly_colorscale
from .setting import Setting

MAX_HOVER_TOKENS = 128  # above this, matrices are drawn as a PNG image
MAX_TICKS = 40  # at most this many tick labels per axis; others are thinned out
CLICK_TRACE = "click"  # name of the invisible scatter layer that receives clicks
HIGHLIGHT = "#ff4b4b"  # outline of the selected cell / tile
DOT_COLUMN = " "  # category of the clickable dots left of a heatmap (labels all contain "·")
DOT_COLOR = "rgba(110,110,110,0.55)"
BLUE, ORANGE, GREY, RED = "#1f77b4", "#ff7f0e", "#7f7f7f", "#d62728"  # bar colours (plotly's D3 set)



def check_scale(scale: float) -> float:
    """A text scale between 0.5 and 3, else ValueError."""
    if not 0.5 <= float(scale) <= 3.0:
        raise ValueError(f"Text scale must be between 0.5 and 3; got {scale}.")
    return float(scale)


# How much larger than their own size the figures' explicitly sized texts (tick labels)
# are drawn: 1 normally, more on a projector (ui/presenter.py). Per caller (setting.py).
TEXT_SCALE: Setting[float] = Setting("text_scale", 1.0, check_scale)
text_scale = TEXT_SCALE.get
use_text_scale = TEXT_SCALE.use
set_text_scale_source = TEXT_SCALE.set_source

# Words of the attention figures; other modules keep their own defaults.
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
    # one head's name: {layer}/{head} are its labels ("L0", "H3"), {l}/{h} its numbers
    "tile": "layer {layer}, head {head}",
}


def merge_terms(overrides: Mapping[str, str] | None, defaults: Mapping[str, str] = DEFAULT_TERMS) -> dict[str, str]:
    """The figure's words: ``defaults`` (plain text that needs no escaping) updated
    with ``overrides`` (e.g. translated words), which are HTML-escaped here."""
    return {**defaults, **{k: html.escape(str(v)) for k, v in (overrides or {}).items()}}


def as_array(x: np.ndarray, ndims: tuple[int, ...], fn: str, shape_doc: str, *, strict: bool = True) -> np.ndarray:
    """Return ``x`` as an array after checking its number of dimensions.

    ``strict`` (the attention and positional figures): the array must be non-empty
    numbers (bool counts) and comes back float32. ``strict=False`` (the FFN and
    residual figures): any contents pass and only numbers are made float32, so an
    empty array or a list with ``None`` gaps is drawn as it is.
    """
    a = np.asarray(x)
    if a.ndim not in ndims:
        raise ValueError(f"{fn} expects an array of shape {shape_doc}; got shape {a.shape}.")
    if not strict:
        return a.astype(np.float32) if a.dtype != np.float32 and np.issubdtype(a.dtype, np.number) else a
    if a.size == 0:
        raise ValueError(f"{fn} got an empty array of shape {a.shape}; there is nothing to draw.")
    if not (np.issubdtype(a.dtype, np.number) or a.dtype == bool):
        raise ValueError(f"{fn} expects numbers; got an array of dtype {a.dtype}.")
    return a.astype(np.float32, copy=False)


def check_labels(labels: Sequence[str] | None, n: int, fn: str, what: str) -> None:
    """Raise ValueError unless ``labels`` is None or a list of ``n`` strings."""
    if labels is None:
        return
    if isinstance(labels, str):
        raise ValueError(f"{fn}: {what} must be a list of strings, not one string.")
    if len(labels) != n:
        raise ValueError(f"{fn}: got {len(labels)} {what} but the array has {n} along that axis.")


def as_matrix(
    values: np.ndarray,
    fn: str,
    shape_doc: str,
    rows: tuple[Sequence[str] | None, str],
    cols: tuple[Sequence[str] | None, str],
    *,
    strict: bool = True,
) -> np.ndarray:
    """``values`` as a [rows, cols] array (see :func:`as_array`); ``rows`` / ``cols``:
    (labels or None, what they are called in an error) for each axis, checked
    against its length with :func:`check_labels`."""
    z = as_array(values, (2,), fn, shape_doc, strict=strict)
    for (labels, what), n in zip((rows, cols), z.shape):
        check_labels(labels, n, fn, what)
    return z


def axis_ticks(labels: Sequence[str], max_ticks: int = MAX_TICKS, values: Sequence[str] | None = None) -> dict:
    """Tick every k-th position so that at most ``max_ticks`` labels are drawn.
    ``values``: the category names of a category axis (default: positions 0..n-1)."""
    step = max(1, math.ceil(len(labels) / max_ticks))
    idx = list(range(0, len(labels), step))
    size = round((12 if len(idx) <= 24 else 10 if len(idx) <= 48 else 9) * text_scale())
    return dict(
        tickmode="array",
        # small plain list: layout arrays are not decoded from bdata everywhere
        tickvals=idx if values is None else [values[i] for i in idx],
        ticktext=[labels[i] for i in idx],
        tickfont=dict(size=size),
        # when labels must turn, they turn counter-clockwise and end at their tick (plotly's own
        # 30 degrees start there and run right: the last label ran past the plot and was hidden)
        autotickangles=[0, -30, -60, -90],
        showgrid=False,
        zeroline=False,
        automargin=True,
    )


def text_px(label: str, size: int) -> float:
    """Approximate rendered width of an (escaped) label in px: CJK and other wide
    characters take about one em, others about 0.6 em."""
    text = html.unescape(label)
    return sum(size * (1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6) for c in text)


def fixed_margins(x_ticks: dict, y_ticks: dict, title: bool) -> tuple[dict, dict, dict]:
    """Margins computed here from the tick labels (as made by :func:`axis_ticks`), and
    the x tick angle fixed, instead of plotly's automargin: automargin draws every
    figure twice (measured: a 64-token heatmap takes ~80 ms to draw with it, ~25 ms
    without). Returns (margin, x-axis settings, y-axis settings)."""
    xs, ys = x_ticks["tickfont"]["size"], y_ticks["tickfont"]["size"]
    x_widths = [text_px(t, xs) for t in x_ticks["ticktext"]] or [0.0]
    y_width = max([text_px(t, ys) for t in y_ticks["ticktext"]] or [0.0])
    # labels side by side need ~their width plus a gap; ~450 px is a narrow plot
    rotate = sum(x_widths) + 8 * len(x_widths) > 450
    x_extent = max(x_widths) if rotate else xs * 1.3
    # room for the axis title beside the labels: its font grows with the text on a projector
    # (Streamlit's theme), and a title without room is drawn over the labels
    s = text_scale()
    margin = dict(l=int(y_width + 40 * s), r=10, t=40 if title else 16, b=int(x_extent + 44 * s))
    # "allow": plotly would otherwise measure every label to hide those past the edge
    fixed = dict(automargin=False, ticklabeloverflow="allow")
    return margin, dict(fixed, tickangle=-90 if rotate else 0), fixed


LABEL_LINE = 1.4        # px of axis per px of tick font: one label's line, with a gap to the next
MAX_FIG_PX = 1600       # the tallest a figure grows for its labels (MAX_TICKS keeps it far below)


def x_label_extent(x_ticks: Mapping) -> float:
    """px the x axis's tick labels take across the axis: the longest label when they stand
    turned (a fixed -90 angle, or too wide side by side, as in :func:`fixed_margins`), else one
    line of text."""
    size = float((x_ticks.get("tickfont") or {}).get("size") or 12)
    widths = [text_px(str(t), size) for t in (x_ticks.get("ticktext") or ())] or [0.0]
    turned = x_ticks.get("tickangle") in (-90, 90) or sum(widths) + 8 * len(widths) > 450
    return max(widths) if turned else size * 1.3


def label_rows_height(fig: go.Figure) -> int:
    """The height (px) ``fig`` needs for the tick labels down its y axis (from
    :func:`axis_ticks`) to stand one to a line at their font size, with the x axis's labels,
    the axis title and the figure's title around them. On a projector the labels are drawn
    larger (:func:`text_scale`, ui/presenter.py), so they need more room. 0 when the y axis
    has no labels of its own."""
    y = fig.layout.yaxis
    labels = y.ticktext or ()
    if not labels:
        return 0
    s = text_scale()
    x = fig.layout.xaxis
    x_ticks = {"ticktext": x.ticktext, "tickfont": {"size": x.tickfont.size}, "tickangle": x.tickangle}
    rows = len(labels) * float(y.tickfont.size or 12) * LABEL_LINE
    chrome = (30 + 30 + (40 if fig.layout.title.text else 0)) * s        # axis title, padding, the title
    return int(min(rows + x_label_extent(x_ticks) + chrome, MAX_FIG_PX))


def fit_height(fig: go.Figure, height: int | None = None) -> go.Figure:
    """Set ``fig``'s height to ``height`` px (default: the height it has), or more where its
    y axis's labels need more (:func:`label_rows_height`): a long text, or presenter mode's
    larger labels, grows the figure instead of crowding and cutting its token labels."""
    base = int(height if height is not None else (fig.layout.height or 0))
    fig.layout.height = max(base, label_rows_height(fig))
    return fig


def escape_text(text: str) -> str:
    """Escaped for plotly's HTML-like labels (no &#x27; entities: plotly shows those as typed)."""
    return html.escape(text, quote=False)


def template_text(text: str) -> str:
    """Make (escaped) text safe to embed in a hovertemplate: "%{" would be read as a field."""
    return text.replace("%", "&#37;")


def marker_layer(
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
        hovertemplate=f"{template_text(prefix)}%{{hovertext}}<extra></extra>" if hovertext is not None else None,
        hoverinfo=None if hovertext is not None else "none",
        marker=dict(size=6, symbol="square", color="rgba(0,0,0,0)", line=dict(width=0)),
        # Plotly restyles selected / unselected points after a click; keep them invisible.
        selected=dict(marker=dict(opacity=0)),
        unselected=dict(marker=dict(opacity=0)),
        showlegend=False,
    )


def outline(fig: go.Figure, x0: float, x1: float, y0: float, y1: float) -> None:
    """Draw the HIGHLIGHT rectangle (the selected cell, row or tile) on ``fig``."""
    fig.add_shape(
        type="rect", x0=x0, x1=x1, y0=y0, y1=y1, line=dict(color=HIGHLIGHT, width=2),
        fillcolor="rgba(0,0,0,0)", layer="above",
    )


def colorbar_only(cmap: str, zmin: float, zmax: float, **colorbar) -> go.Scatter:
    """An empty trace that only draws a colorbar (``go.Image`` has none); ``colorbar``:
    the colorbar's settings (title, thickness, ...)."""
    return go.Scatter(
        x=[None], y=[None], mode="markers", hoverinfo="skip", showlegend=False,
        marker=dict(colorscale=plotly_colorscale(cmap), cmin=zmin, cmax=zmax, color=[zmin],
                    showscale=True, colorbar=colorbar),
    )


def add_title(fig: go.Figure, title: str, **layout) -> go.Figure:
    """Set the (escaped) title, with more ``layout`` settings (e.g. ``margin_t``),
    when ``title`` is not empty."""
    if title:
        # one relayout of these paths (plotly's own underscore rule: margin_t is margin.t);
        # update_layout would re-walk the whole figure (3 ms against 0.5 ms for a head map)
        fig.plotly_relayout({"title.text": html.escape(title), **{k.replace("_", "."): v for k, v in layout.items()}})
    return fig


def play_controls(names: Sequence[str], labels: Sequence[str], active: int, words: Mapping[str, str], *,
                  y: float, prefix: str = "", duration: int = 350, redraw: bool = True,
                  font_size: int = 13, slider_x: float = 0.1) -> dict:
    """Layout settings of an animation's controls: plotly's own play / pause buttons and
    a step slider over the frames ``names`` (shown as ``labels``), ``active`` first.
    ``words`` gives "play" and "pause"; ``y``: where the row sits and ``slider_x`` where
    the slider starts, right of the buttons (paper coordinates).
    Everything runs in the browser, without a server round trip."""
    steps = [dict(method="animate", label=label,
                  args=[[name], dict(mode="immediate", frame=dict(duration=0, redraw=redraw),
                                     transition=dict(duration=0))]) for name, label in zip(names, labels)]
    play = dict(label="▶ " + words["play"], method="animate",
                args=[None, dict(frame=dict(duration=duration, redraw=redraw), fromcurrent=True,
                                 transition=dict(duration=0))])
    pause = dict(label="❚❚ " + words["pause"], method="animate",   # U+23F8 (⏸) is missing from common fonts
                 args=[[None], dict(mode="immediate", frame=dict(duration=0, redraw=False))])
    return dict(
        sliders=[dict(active=active, steps=steps, x=slider_x, len=1.0 - slider_x, y=y, pad=dict(t=10),
                      currentvalue=dict(prefix=prefix, font=dict(size=font_size)))],
        updatemenus=[dict(type="buttons", direction="left", x=0.0, y=y, xanchor="left", yanchor="top",
                          pad=dict(t=10, r=10), showactive=False, buttons=[play, pause])],
    )

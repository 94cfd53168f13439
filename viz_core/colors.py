"""Colormaps as 256-entry lookup tables, built from plotly's own colour scales.

The small-matrix path hands plotly a ``colorscale`` and lets the browser colour the
cells; the large-matrix path colours the matrix here (value -> LUT index -> RGB)
and ships a PNG. Both start from the same plotly colour stops, so a head looks the
same whichever path drew it. No matplotlib.

The sequential map is a *role*, not a fixed name: ``SEQUENTIAL`` ("sequential") is
resolved when a figure is built, to the palette of the caller (``palette()``; see
``use_palette`` and viz_core/setting.py), so a builder's ``cmap=SEQUENTIAL`` default
follows a reader's palette choice without a new argument on every builder. The
diverging map stays ``rdbu_r`` (blue-red, readable with red-green colour blindness).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import plotly.colors as pcolors

from .setting import Setting

# Name -> plotly colour stops (evenly spaced, low value first).
# "rdbu_r" is the usual signed-values map: negative = blue, 0 = white, positive = red.
COLORSCALES: dict[str, list[str]] = {
    "viridis": pcolors.sequential.Viridis,
    "cividis": pcolors.sequential.Cividis,
    "magma": pcolors.sequential.Magma,
    "inferno": pcolors.sequential.Inferno,
    "plasma": pcolors.sequential.Plasma,
    "blues": pcolors.sequential.Blues,
    "greys": pcolors.sequential.Greys,
    "rdbu": pcolors.diverging.RdBu,
    "rdbu_r": pcolors.diverging.RdBu[::-1],
    "piyg": pcolors.diverging.PiYG,
}

SEQUENTIAL = "sequential"  # the role: the current palette (resolved at build time)
DIVERGING = "rdbu_r"

# Colour of masked / undefined cells (NaN, ±inf): a neutral light grey that no
# colormap above produces at either end.
NAN_RGB: tuple[int, int, int] = (200, 200, 200)
NAN_CSS = "rgb({},{},{})".format(*NAN_RGB)

# The sequential palettes a reader may pick: perceptually uniform, monotonic in
# lightness and colour-blind safe (none relies on red vs green). "inferno" runs from
# black to pale yellow: the widest lightness range, the high-contrast choice for a
# washed-out projector. (Greys would be as contrasted but hides masked cells, whose
# grey NAN_RGB it contains.)
PALETTES: tuple[str, ...] = ("viridis", "cividis", "inferno")
DEFAULT_PALETTE = "viridis"


def check_palette(name: str) -> str:
    """``name`` if it is one of ``PALETTES``, else ValueError with the choices."""
    if name not in PALETTES:
        raise ValueError(f"Unknown palette {name!r}; choose one of {', '.join(PALETTES)}.")
    return name


# The palette of the caller (viz_core/setting.py): the innermost `use_palette` block of
# this thread, else the app's per-session choice (`set_palette_source`), else viridis.
PALETTE: Setting[str] = Setting("palette", DEFAULT_PALETTE, check_palette)
palette = PALETTE.get
use_palette = PALETTE.use
set_palette_source = PALETTE.set_source


def _check_name(cmap: str) -> str:
    key = cmap.lower()
    if key == SEQUENTIAL:
        return palette()
    if key not in COLORSCALES:
        raise ValueError(f"Unknown colormap {cmap!r}; choose one of {sorted(COLORSCALES)}.")
    return key


def colormap_lut(cmap: str = SEQUENTIAL) -> np.ndarray:
    """Return the colormap as a read-only uint8 array of shape [256, 3].

    Entry i is the colour of the value i/255 on the scale, linearly interpolated
    (in RGB, as plotly.js does) between the plotly colour stops.
    """
    return _lut(_check_name(cmap))


@lru_cache(maxsize=None)
def _lut(key: str) -> np.ndarray:
    stops = COLORSCALES[key]
    rgb01, _ = pcolors.convert_colors_to_same_type(list(stops), colortype="tuple")
    stops_rgb = np.asarray(rgb01, dtype=np.float64) * 255.0  # [n_stops, 3]
    where = np.linspace(0.0, 1.0, len(stops_rgb))  # stop positions
    t = np.linspace(0.0, 1.0, 256)
    lut = np.stack([np.interp(t, where, stops_rgb[:, c]) for c in range(3)], axis=-1)
    lut = np.clip(np.rint(lut), 0, 255).astype(np.uint8)  # [256, 3]
    lut.setflags(write=False)  # cached and shared: nobody may edit it
    return lut


def plotly_colorscale(cmap: str = SEQUENTIAL) -> list[list]:
    """Return ``[[position, "rgb(...)"], ...]`` for a ``go.Heatmap`` colorscale."""
    return pcolors.make_colorscale(list(COLORSCALES[_check_name(cmap)]))


def to_rgb(
    values: np.ndarray,
    vmin: float | None = None,
    vmax: float | None = None,
    cmap: str = SEQUENTIAL,
    *,
    levels: int = 256,
) -> np.ndarray:
    """Colour an array of any shape [...] into uint8 RGB of shape [..., 3].

    Values are clipped to [vmin, vmax] (default: the finite min / max) and mapped
    linearly onto the 256-entry LUT. Non-finite values (NaN for masked cells, -inf
    for masked scores) become ``NAN_RGB`` grey. ``levels`` < 256 uses only that
    many evenly spaced LUT entries: the image paths use 254, so that the colours +
    grey + a gap colour fit a 256-colour palette PNG (a third of the RGB size).
    """
    if not 2 <= levels <= 256:
        raise ValueError(f"to_rgb: levels must be between 2 and 256; got {levels}.")
    v = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(v)
    if vmin is None or vmax is None:
        lo, hi = (float(v[finite].min()), float(v[finite].max())) if finite.any() else (0.0, 1.0)
        vmin = lo if vmin is None else vmin
        vmax = hi if vmax is None else vmax
    if not (np.isfinite(vmin) and np.isfinite(vmax)) or vmax < vmin:
        raise ValueError(f"to_rgb needs finite vmin <= vmax; got vmin={vmin}, vmax={vmax}.")
    span = (vmax - vmin) or 1.0  # constant input: everything lands on the low end
    t = np.where(finite, (v - vmin) / span, 0.0)
    level = np.rint(np.clip(t, 0.0, 1.0) * (levels - 1))  # [...] in 0..levels-1
    idx = np.rint(level * (255 / (levels - 1))).astype(np.intp)  # [...] LUT index
    rgb = colormap_lut(cmap)[idx]  # [..., 3]
    rgb[~finite] = NAN_RGB
    return rgb

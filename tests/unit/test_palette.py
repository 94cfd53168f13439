"""The palette seam (viz_core/colors.py, viz_core/setting.py): builders that ask for the
SEQUENTIAL role draw in the caller's palette, on the plotly-colorscale path and on the
PNG (LUT) path; the palette is scoped to a `with` block and to one thread; the text
scale of tick labels follows the same seam."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import viz_core
from tests.unit.test_viz_core import decode_image
from viz_core import colors
from viz_core.figure import MAX_HOVER_TOKENS, axis_ticks, text_scale, use_text_scale


def pattern(n: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    p = rng.random((n, n)).astype(np.float32)
    return p / p.sum(-1, keepdims=True)                  # [q, k], rows sum to 1


def heat(z: np.ndarray):
    labels = [f"t{i}" for i in range(len(z))]
    return viz_core.head_heatmap(z, labels, labels)


def heatmap_scale(fig) -> list:
    return [list(s) for s in next(t for t in fig.data if t.type == "heatmap").colorscale]


def test_default_palette_is_viridis():
    assert colors.palette() == colors.DEFAULT_PALETTE == "viridis"
    assert colors.plotly_colorscale() == colors.plotly_colorscale("viridis")
    assert np.array_equal(colors.colormap_lut(), colors.colormap_lut("viridis"))


def test_plotly_path_follows_the_palette_and_the_default_comes_back():
    n = 6
    before = heatmap_scale(heat(pattern(n)))
    with colors.use_palette("cividis") as name:
        assert name == "cividis" and colors.palette() == "cividis"
        inside = heatmap_scale(heat(pattern(n)))
    after = heatmap_scale(heat(pattern(n)))
    assert inside == [list(s) for s in colors.plotly_colorscale("cividis")]
    assert before == after == [list(s) for s in colors.plotly_colorscale("viridis")]
    assert inside[0][1] != before[0][1]


def test_png_path_follows_the_palette():
    """The all-heads grid and a big matrix are coloured here (LUT -> PNG)."""
    p = np.zeros((1, 1, 4, 4), np.float32)
    p[0, 0] = np.eye(4)                                   # top colour on the diagonal, bottom off it
    for name in colors.PALETTES:
        with colors.use_palette(name):
            img = decode_image(viz_core.model_view(p, gap=0))
        lut = colors.colormap_lut(name)
        assert tuple(img[0, 0]) == tuple(lut[255]) and tuple(img[0, 1]) == tuple(lut[0]), name
    n = MAX_HOVER_TOKENS + 2                              # beyond the hover limit: drawn as a PNG
    with colors.use_palette("inferno"):
        img = decode_image(heat(np.eye(n, dtype=np.float32)))
    assert tuple(img[0, 0]) == tuple(colors.colormap_lut("inferno")[255])
    assert tuple(img[0, 1]) == tuple(colors.colormap_lut("inferno")[0])


def test_named_and_diverging_maps_do_not_follow_the_palette():
    with colors.use_palette("cividis"):
        assert colors.plotly_colorscale("viridis") == colors.plotly_colorscale("viridis")
        assert np.array_equal(colors.colormap_lut("viridis")[0], [68, 1, 84])
        assert colors.plotly_colorscale(colors.DIVERGING)[0][1] == colors.plotly_colorscale("rdbu_r")[0][1]


def test_another_thread_does_not_see_the_palette():
    seen: dict[str, str] = {}
    ready, done = threading.Event(), threading.Event()

    def other() -> None:
        ready.wait(5)
        seen["other"] = colors.palette()
        with colors.use_palette("inferno"):               # and its own block stays its own
            done.set()
            seen["other_inside"] = colors.palette()

    worker = threading.Thread(target=other)
    worker.start()
    with colors.use_palette("cividis"):
        ready.set()
        done.wait(5)
        seen["main"] = colors.palette()
    worker.join(5)
    assert seen == {"other": "viridis", "other_inside": "inferno", "main": "cividis"}
    assert colors.palette() == "viridis"


def test_a_source_answers_when_no_block_is_active():
    asked = {"value": "cividis"}
    app_source = colors.set_palette_source(lambda: asked["value"])   # the app's, if ui was imported
    try:
        assert colors.palette() == "cividis"
        with colors.use_palette("inferno"):               # a block wins over the source
            assert colors.palette() == "inferno"
        asked["value"] = "jet"                            # a bad answer: the default
        assert colors.palette() == "viridis"
        asked["value"] = None
        assert colors.palette() == "viridis"
        colors.set_palette_source(None)
        assert colors.palette() == "viridis"
    finally:
        colors.set_palette_source(app_source)


def test_unknown_palette_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="viridis, cividis, inferno"):
        with colors.use_palette("jet"):
            pass
    assert colors.palette() == "viridis"
    # red-green alone is never offered; the sequential choices are perceptually uniform maps
    assert set(colors.PALETTES) == {"viridis", "cividis", "inferno"}


def test_text_scale_grows_tick_labels_and_margins():
    labels = [f"token{i}" for i in range(8)]
    assert text_scale() == 1.0 and axis_ticks(labels)["tickfont"]["size"] == 12
    with use_text_scale(1.5):
        assert axis_ticks(labels)["tickfont"]["size"] == 18
        big = viz_core.head_heatmap(pattern(8), labels, labels)
    small = viz_core.head_heatmap(pattern(8), labels, labels)
    assert big.layout.yaxis.tickfont.size == 18 and small.layout.yaxis.tickfont.size == 12
    assert big.layout.margin.l > small.layout.margin.l    # margins measured from the larger labels
    with pytest.raises(ValueError):
        with use_text_scale(10):
            pass


def test_a_heat_map_grows_with_its_token_labels_and_the_text_scale():
    """Issue 35: token labels are not crowded or cut on a projector (presenter mode draws them
    1.5 times larger): every map with token labels down its side is at least as tall as its
    labels need, and a page's fixed height is a floor (`vz.fit_height`), never a ceiling."""
    from viz_core.figure import LABEL_LINE, fit_height, label_rows_height

    for n in (8, 19, 40, 64):
        labels = [f"token{i}" for i in range(n)]
        small = viz_core.head_heatmap(pattern(n), labels, labels, square=False, title="L0 H0")
        with use_text_scale(1.5):
            big = viz_core.head_heatmap(pattern(n), labels, labels, square=False, title="L0 H0")
            fitted = fit_height(viz_core.head_heatmap(pattern(n), labels, labels, square=False, title="L0 H0"), 600)
        shown = len(big.layout.yaxis.ticktext)
        assert big.layout.height >= shown * big.layout.yaxis.tickfont.size * LABEL_LINE, n
        assert big.layout.height >= small.layout.height, n
        assert fitted.layout.height >= max(600, big.layout.height), n
    n = 40
    labels = [f"token{i}" for i in range(n)]
    with use_text_scale(1.5):
        fixed = fit_height(viz_core.head_heatmap(pattern(n), labels, labels, square=False), 600)
        assert fixed.layout.height > 600 and fixed.layout.height == label_rows_height(fixed)
    assert fit_height(viz_core.head_heatmap(pattern(4), labels[:4], labels[:4], square=False), 600).layout.height == 600

"""viz_core figure builders: escaping, shapes, click layers, payload sizes."""

import base64
import io
import json
import subprocess
import sys

import numpy as np
import pytest

import viz_core as vz
from lab import attention
from viz_core.figure import CLICK_TRACE
from viz_core.colors import NAN_RGB, colormap_lut, plotly_colorscale, to_rgb
from viz_core.labels import escape_labels, position_labels
from viz_core.png import png_bytes

EVIL = "<b>x</b><script>alert(1)</script><style>*{display:none}</style>"


def softmax(shape, std=2.0, causal=True, seed=0) -> np.ndarray:
    """Attention-like float32 patterns [..., n, n]; causal ones have exact zeros above the diagonal."""
    s = np.random.default_rng(seed).normal(size=shape) * std
    n = shape[-1]
    if causal:
        s = np.where(np.tri(n, dtype=bool), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)).astype(np.float32)


def tokens(n):
    return [f"t{i}" for i in range(n)]


def spec(fig) -> dict:
    """The JSON the browser receives."""
    return json.loads(fig.to_json())


def all_strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from all_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from all_strings(v)


def click_traces(fig):
    return [t for t in fig.data if t.name == CLICK_TRACE]


def click_customdata(fig) -> list:
    return [list(cd) for t in click_traces(fig) for cd in t.customdata]


def decode_image(fig) -> np.ndarray:
    """Decode the PNG of the figure's go.Image into [h, w, 3] uint8."""
    pil = pytest.importorskip("PIL.Image")
    img = next(t for t in fig.data if t.type == "image")
    data = base64.b64decode(img.source.split(",", 1)[1])
    return np.asarray(pil.open(io.BytesIO(data)).convert("RGB"))


# ------------------------------------------------------------------ colors, png


def test_lut_matches_plotly_stops():
    lut = colormap_lut("viridis")
    assert lut.shape == (256, 3) and lut.dtype == np.uint8
    assert tuple(lut[0]) == (0x44, 0x01, 0x54)  # Viridis "#440154"
    assert tuple(lut[-1]) == (0xFD, 0xE7, 0x25)  # "#fde725"
    assert plotly_colorscale("viridis")[0] == [0.0, "#440154"]
    assert tuple(colormap_lut("rdbu_r")[0]) == (5, 48, 97)  # negative end is blue
    with pytest.raises(ValueError):
        colormap_lut("jet")


def test_to_rgb_clips_and_greys_out_nan():
    v = np.array([[-1.0, 0.0, 0.5], [1.0, 2.0, np.nan]])
    rgb = to_rgb(v, 0.0, 1.0)
    lut = colormap_lut("viridis")
    assert rgb.shape == (2, 3, 3) and rgb.dtype == np.uint8
    assert tuple(rgb[0, 0]) == tuple(lut[0])  # clipped below
    assert tuple(rgb[1, 1]) == tuple(lut[255])  # clipped above
    assert tuple(rgb[0, 2]) == tuple(lut[128])  # 0.5 * 255 = 127.5 -> 128
    assert tuple(rgb[1, 2]) == NAN_RGB
    assert tuple(to_rgb(np.array([-np.inf]), 0, 1)[0]) == NAN_RGB
    centre = to_rgb(np.array([0.0]), -1, 1, "rdbu_r")[0].astype(int)
    assert np.abs(centre - 247).max() <= 2  # 0 is (nearly) the white middle stop
    with pytest.raises(ValueError):
        to_rgb(v, 1.0, 0.0)


def test_png_round_trip_palette_and_rgb():
    pil = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(0)
    few = colormap_lut("viridis")[rng.integers(0, 256, size=(37, 53))]  # <= 256 colours: palette
    many = rng.integers(0, 256, size=(20, 30, 3), dtype=np.uint8)  # > 256 colours: RGB
    for img, mode in [(few, "P"), (many, "RGB")]:
        decoded = pil.open(io.BytesIO(png_bytes(img)))
        assert decoded.mode == mode
        np.testing.assert_array_equal(np.asarray(decoded.convert("RGB")), img)
    with pytest.raises(ValueError):
        png_bytes(np.zeros((4, 4), np.uint8))


# ------------------------------------------------------------------ labels


def test_escape_labels_makes_html_literal():
    (out,) = escape_labels([EVIL], max_chars=1000)
    assert "<" not in out and ">" not in out
    assert out.startswith("&lt;b&gt;x&lt;/b&gt;&lt;script&gt;")


def test_escape_labels_shows_invisible_tokens():
    out = escape_labels(["\u200b", "\n", " ", "  ", "", "a\u200bb", "\t", "\u3000", "$x$", "é"])
    assert out == ["⟨U+200B⟩", "⏎", "␣", "␣␣", "∅", "a⟨U+200B⟩b", "⇥", "⟨U+3000⟩", "&#36;x&#36;", "é"]


def test_escape_labels_truncates_long_tokens():
    (out,) = escape_labels(["x" * 40])
    assert out == "x" * 23 + "…" and len(out) == 24
    (short,) = escape_labels(["x" * 24])
    assert short == "x" * 24
    # Truncation happens before escaping: no half entity.
    (amp,) = escape_labels(["&" * 30])
    assert amp == "&amp;" * 23 + "…"


def test_escape_labels_rejects_a_plain_string():
    with pytest.raises(ValueError):
        escape_labels("the cat")


def test_position_labels_keep_duplicates_distinct():
    labels = position_labels(["the", "cat", "the", "<"])
    assert labels == ["0·the", "1·cat", "2·the", "3·&lt;"]
    assert len(set(labels)) == 4


# ------------------------------------------------------------------ head_heatmap


def test_head_heatmap_small_is_binary_heatmap_on_unique_categories():
    toks = ["[CLS]", "the", "cat", "the", "[SEP]"]
    p = softmax((5, 5))
    fig = vz.head_heatmap(p, toks, toks)
    s = spec(fig)
    heat = s["data"][0]
    assert heat["type"] == "heatmap"
    assert heat["z"]["dtype"] == "f4" and "bdata" in heat["z"]  # numpy float32, not lists
    names = ["0·[CLS]", "1·the", "2·cat", "3·the", "4·[SEP]"]  # both "the" stay apart
    assert heat["x"] == names and heat["y"] == names
    assert s["layout"]["xaxis"]["type"] == "category"
    assert s["layout"]["xaxis"]["tickvals"] == names and s["layout"]["xaxis"]["ticktext"] == toks
    assert s["layout"]["yaxis"]["ticktext"] == toks
    assert s["layout"]["yaxis"]["range"] == [4.5, -0.5]  # query 0 on top
    # the dot column sits left of the first key
    assert s["layout"]["xaxis"]["categoryarray"] == [" ", *names]


def test_head_heatmap_click_layer_is_one_dot_per_query():
    p = softmax((4, 6), causal=False)
    fig = vz.head_heatmap(p, tokens(4), tokens(6))
    (dots,) = click_traces(fig)
    assert click_customdata(fig) == [[q, -1] for q in range(4)]
    assert list(dots.x) == [" "] * 4 and list(dots.y) == [f"{q}·t{q}" for q in range(4)]
    # customdata stays a plain list: numpy rows would reach Python as {"0": q, "1": k}
    assert isinstance(spec(fig)["data"][-1]["customdata"], list)
    # no marker per cell: the payload grows with the rows, not with rows x keys
    n = 128
    big = vz.head_heatmap(softmax((n, n)), tokens(n), tokens(n))
    assert sum(len(t.x) for t in big.data if t.type == "scatter") == n
    assert len(big.to_json()) < 250_000


def test_head_heatmap_hover_is_the_heatmaps_own():
    toks = ["[CLS]", "the", "cat"]
    p = np.array([[1.0, np.nan, np.nan], [0.25, 0.75, np.nan], [0.1, 0.2, 0.7]], np.float32)
    fig = vz.head_heatmap(p, toks, toks)
    heat = fig.data[0]
    assert heat.hovertemplate == "query %{y} → key %{x}: %{z:.4f}<extra></extra>" and heat.hoverongaps is False
    masked = next(t for t in fig.data if t.name == "masked")    # grey overlay, says "masked"
    assert masked.type == "heatmap" and masked.hovertemplate.endswith(": masked<extra></extra>")
    z = np.asarray(masked.z)
    assert z[0, 2] == 1.0 and np.isnan(z[2, 0])
    fig = vz.head_heatmap(p, toks, toks, terms={"query": "查询", "key": "键", "masked": "已遮蔽"})
    assert fig.data[0].hovertemplate.startswith("查询 %{y} → 键 %{x}")
    assert next(t for t in fig.data if t.name == "masked").hovertemplate.endswith("已遮蔽<extra></extra>")


def test_head_heatmap_not_clickable_still_hovers():
    fig = vz.head_heatmap(softmax((3, 3)), tokens(3), tokens(3), clickable=False)
    assert click_traces(fig) == []
    assert fig.data[0].hovertemplate is not None
    assert list(fig.layout.xaxis.categoryarray) == [f"{i}·t{i}" for i in range(3)]


def test_head_heatmap_never_emits_raw_html():
    toks = ["a", EVIL, "a%{x}", "$x$"]
    fig = vz.head_heatmap(softmax((4, 4)), toks, toks, title=EVIL)
    text = fig.to_json()
    assert "<script" not in text and "\\u003cscript" not in text and "\\u003cstyle" not in text
    for string in all_strings(spec(fig)):
        assert "<script" not in string and "<style" not in string and "<b>x" not in string
    # labels reach the hover only through %{x} / %{y}, never inside a template
    assert all("a%{x}" not in (t.hovertemplate or "") for t in fig.data)


def test_head_heatmap_large_is_small_png_with_row_click_layer():
    n = 512
    fig = vz.head_heatmap(softmax((n, n)), tokens(n), tokens(n))
    assert [t.type for t in fig.data][0] == "image"
    size = len(fig.to_json())
    assert size < 200_000, size
    assert click_customdata(fig) == [[q, -1] for q in range(n)]
    ticks = fig.layout.xaxis.ticktext
    assert 10 <= len(ticks) <= 40 and ticks[1] != "t1"  # thinned
    img = decode_image(fig)
    assert img.shape == (n, n, 3)
    assert tuple(img[0, 5]) == NAN_RGB or tuple(img[0, 5]) == tuple(colormap_lut("viridis")[0])


def test_head_heatmap_masked_cells_grey_in_image():
    p = softmax((200, 200))
    p[np.triu_indices(200, 1)] = np.nan
    img = decode_image(vz.head_heatmap(p, tokens(200), tokens(200)))
    assert tuple(img[0, 199]) == NAN_RGB
    assert tuple(img[199, 0]) != NAN_RGB


def test_head_heatmap_selected_outline():
    fig = vz.head_heatmap(softmax((4, 4)), tokens(4), tokens(4), selected=(2, 1))
    (shape,) = fig.layout.shapes            # key 1 is category 2: the dot column comes first
    assert (shape.x0, shape.x1, shape.y0, shape.y1) == (1.5, 2.5, 1.5, 2.5)
    (dots,) = click_traces(fig)
    assert list(dots.marker.color).index("#ff4b4b") == 2  # the selected query's dot is red
    fig = vz.head_heatmap(softmax((4, 4)), tokens(4), tokens(4), selected=(3, -1), clickable=False)
    (shape,) = fig.layout.shapes            # whole row, no dot column
    assert (shape.x0, shape.x1, shape.y0, shape.y1) == (-0.5, 3.5, 2.5, 3.5)


def test_head_heatmap_shape_errors():
    with pytest.raises(ValueError, match="shape"):
        vz.head_heatmap(np.ones((2, 3, 3)), tokens(3), tokens(3))
    with pytest.raises(ValueError):
        vz.head_heatmap(np.ones((3, 3)), tokens(2), tokens(3))
    with pytest.raises(ValueError):
        vz.head_heatmap(np.ones((3, 4)), tokens(3), tokens(3))
    with pytest.raises(ValueError):
        vz.head_heatmap(np.ones((0, 0)), [], [])


# ------------------------------------------------------------------ model_view


def test_model_view_6x12_at_512_tokens_under_1mb():
    p = softmax((6, 12, 512, 512), std=3.0)
    fig = vz.model_view(p)
    size = len(fig.to_json())
    assert size < 1_000_000, size
    img = decode_image(fig)
    assert img.shape == (6 * 64 + 5, 12 * 64 + 11, 3)  # 64 px tiles, 1 px gaps
    assert np.all(img[64, :] == 255) and np.all(img[:, 64] == 255)  # gap lines are white
    assert click_customdata(fig) == [[l, h] for l in range(6) for h in range(12)]
    assert list(fig.layout.xaxis.ticktext) == [f"H{h}" for h in range(12)]
    assert list(fig.layout.yaxis.ticktext) == [f"L{l}" for l in range(6)]
    np.testing.assert_allclose(fig.layout.xaxis.tickvals[:2], [31.5, 96.5])  # tile centres


def test_model_view_block_max_keeps_a_thin_diagonal():
    p = np.broadcast_to(np.eye(512, dtype=np.float32), (1, 2, 512, 512))
    img = decode_image(vz.model_view(p, reduce="max"))
    top = tuple(colormap_lut("viridis")[255])
    assert all(tuple(img[i, i]) == top for i in range(64))
    p = p.copy()
    p[0, 1, :8, :8] = 1.0  # a full 8x8 block elsewhere sets the global scale to 1
    img_mean = decode_image(vz.model_view(p, reduce="mean", normalize="global"))
    assert tuple(img_mean[0, 0]) != top  # a mean over 8x8 blocks fades the diagonal to 1/8
    assert tuple(img_mean[0, 65]) == top


def test_model_view_tile_vs_global_normalisation():
    p = np.zeros((1, 2, 4, 4), np.float32)
    p[0, 0] = np.eye(4)  # max 1
    p[0, 1] = np.eye(4) * 0.5  # max 0.5
    top = tuple(colormap_lut("viridis")[255])
    img = decode_image(vz.model_view(p, normalize="tile", gap=1))
    assert tuple(img[0, 0]) == top and tuple(img[0, 5]) == top  # both tiles reach the top colour
    img = decode_image(vz.model_view(p, normalize="global", gap=1))
    assert tuple(img[0, 0]) == top and tuple(img[0, 5]) != top


def test_model_view_errors_and_selected():
    with pytest.raises(ValueError):
        vz.model_view(np.ones((12, 8, 8)))
    with pytest.raises(ValueError):
        vz.model_view(np.ones((2, 2, 4, 4)), normalize="row")
    with pytest.raises(ValueError):
        vz.model_view(np.ones((2, 2, 4, 4)), head_labels=["a"])
    fig = vz.model_view(softmax((2, 3, 8, 8)), selected=(1, 2))
    (shape,) = fig.layout.shapes
    assert (shape.x0, shape.y0) == (2 * 9 - 0.5, 9 - 0.5)


# ------------------------------------------------------------------ line_view


def test_line_view_groups_lines_into_binned_traces():
    n, heads = 20, 3
    p = softmax((heads, n, n), std=1.0, causal=False)
    fig = vz.line_view(p, tokens(n), threshold=0.01, n_bins=8)
    lines = [t for t in fig.data if t.mode == "lines" and t.x is not None and len(t.x) > 1]
    assert len(lines) <= heads * 8
    segments = sum(len(t.x) // 3 for t in lines)
    assert segments == int((p >= 0.01).sum())  # every line above the threshold, once
    for t in lines:
        assert np.isnan(t.x[2::3]).all() and set(t.x[0::3]) == {0.0} and set(t.x[1::3]) == {1.0}
        assert 0 < t.opacity <= 1
    assert sum(1 for t in fig.data if t.showlegend) == heads


def test_line_view_query_draws_only_that_row():
    p = softmax((2, 10, 10), causal=False)
    fig = vz.line_view(p, tokens(10), query=3, head_ids=[1])
    lines = [t for t in fig.data if t.mode == "lines" and t.x is not None and len(t.x) > 1]
    assert lines and all(set(t.y[0::3]) == {3.0} for t in lines)
    assert sum(len(t.x) // 3 for t in lines) == int((p[1, 3] >= 0.01).sum())
    left = next(t for t in fig.data if t.name == "left")
    assert list(left.customdata[3]) == [3, -1]


def test_line_view_escapes_and_limits():
    toks = ["a", EVIL, "c"]
    fig = vz.line_view(softmax((3, 3)), toks)
    assert "<script" not in fig.to_json() and "\\u003cscript" not in fig.to_json()
    with pytest.raises(ValueError, match="64"):
        vz.line_view(softmax((65, 65)), tokens(65))
    with pytest.raises(ValueError):
        vz.line_view(softmax((2, 3, 3)), tokens(3), head_ids=[2])
    with pytest.raises(ValueError):
        vz.line_view(softmax((2, 3, 3)), tokens(3), colors=["red"])
    with pytest.raises(ValueError):
        vz.line_view(softmax((3, 3)), tokens(4))


# ------------------------------------------------------------------ query_bars


def test_query_bars_sorted_top_k_and_disambiguated():
    w = np.array([0.1, 0.4, np.nan, 0.3, 0.2], np.float32)
    fig = vz.query_bars(w, ["the", "cat", "pad", "the", EVIL], top_k=3)
    (bar,) = fig.data
    np.testing.assert_allclose(bar.x, [0.4, 0.3, 0.2])
    assert list(bar.customdata) == [1, 3, 4]
    assert list(fig.layout.yaxis.ticktext) == ["1·cat", "3·the", "4·&lt;b&gt;x&lt;/b&gt;&lt;script&gt;alert(1…"]
    assert "<script" not in fig.to_json()
    all_bars = vz.query_bars(w, tokens(5)).data[0]
    assert list(all_bars.customdata) == [1, 3, 4, 0]  # the NaN (masked) key is left out
    with pytest.raises(ValueError):
        vz.query_bars(np.ones((2, 3)), tokens(3))
    with pytest.raises(ValueError):
        vz.query_bars(np.ones(3), tokens(2))


# ------------------------------------------------------------------ head metrics, matrix


def test_head_metrics_chart_click_layer_and_errors():
    metrics = attention.head_metrics(softmax((3, 4, 6, 6)))
    fig = vz.head_metrics_chart(metrics, "entropy")
    assert spec(fig)["data"][0]["z"]["dtype"] == "f4"
    assert click_customdata(fig) == [[l, h] for l in range(3) for h in range(4)]
    hover = click_traces(fig)[0].hovertext[5]  # layer 1, head 1
    assert hover.startswith("layer 1, head 1<br><b>entropy: ")
    assert f"sparsity: {metrics['sparsity'][1, 1]:.4g}" in hover
    with pytest.raises(ValueError, match="available"):
        vz.head_metrics_chart(metrics, "nope")
    with pytest.raises(ValueError):
        vz.head_metrics_chart({"a": np.ones((2, 3)), "b": np.ones(3)}, "a")


def test_matrix_heatmap_diverging_and_masked():
    v = np.array([[1.0, -3.0], [-np.inf, 2.0]])
    fig = vz.matrix_heatmap(v, row_labels=["a", "b"])
    heat = fig.data[0]
    assert (heat.zmin, heat.zmax) == (-3.0, 3.0)  # symmetric around 0
    assert heat.colorscale[0][1] == "rgb(5,48,97)"  # rdbu_r: blue for negative
    assert click_traces(fig) == []
    masked = next(t for t in fig.data if t.name == "masked")
    assert np.asarray(masked.z)[1, 0] == 1.0 and masked.hovertemplate == "row %{y}, column %{x}: masked<extra></extra>"
    assert list(heat.y) == ["0·a", "1·b"] and list(heat.x) == ["0·0", "1·1"]
    big = vz.matrix_heatmap(np.random.default_rng(0).normal(size=(12, 768)))
    assert big.data[0].type == "image" and len(big.to_json()) < 300_000
    with pytest.raises(ValueError):
        vz.matrix_heatmap(np.ones(3))
    with pytest.raises(ValueError):
        vz.matrix_heatmap(np.ones((2, 2)), col_labels=["x"])


# ------------------------------------------------------------------ events, purity


def test_selected_customdata_reads_all_forms():
    event = {"selection": {"points": [
        {"customdata": [3, 5]},
        {"customdata": {"0": 1, "1": 2}},  # a numpy row, as the browser sends it
        {"customdata": 7},
        {"x": 1},
    ]}}
    assert vz.selected_customdata(event) == [(3, 5), (1, 2), (7,)]
    assert vz.selected_customdata(None) == []
    assert vz.selected_customdata({"selection": {"points": []}}) == []


def test_viz_core_imports_no_torch_and_no_streamlit():
    code = "import sys, viz_core; print(any(m in sys.modules for m in ('torch', 'streamlit')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_mark_tile_outlines_the_right_tile_on_a_cached_figure():
    import viz_core as vz
    p = np.full((2, 3, 5, 5), 0.2, dtype=np.float32)
    fig = vz.model_view(p, gap=1)
    assert not fig.layout.shapes
    vz.mark_tile(fig, 1, 2)
    (rect,) = fig.layout.shapes
    assert (rect.x0, rect.x1, rect.y0, rect.y1) == (2 * 6 - 0.5, 2 * 6 + 4.5, 6 - 0.5, 6 + 4.5)
    assert vz.model_view(p, selected=(1, 2)).layout.shapes[0].x0 == rect.x0
    with pytest.raises(ValueError, match="no tile"):
        vz.mark_tile(fig, 2, 0)
    with pytest.raises(ValueError, match="model_view"):
        vz.mark_tile(vz.head_heatmap(p[0, 0], list("abcde"), list("abcde")), 0, 0)

"""The Streamlit app through `streamlit.testing.v1.AppTest` (no browser).

Each test opens the app the way a user does: app.py runs first (sidebar, navigation),
then `switch_page` to the page under test. Charts are checked through their plotly
spec (`json.loads(element.proto.spec)`): plotly 7 sends numpy arrays as
``{"dtype", "bdata", "shape"}`` with ``shape`` a string such as ``"8, 8"``.

Chart clicks: AppTest has no API for a plotly (or dataframe) selection, and setting
``at.session_state["head_map"] = {...}`` changes the chart's return value but does NOT
fire its ``on_select`` callback, which is where the app reacts. `select` below sends
the event as the browser does, as the widget's JSON string value in the next run's
widget states, so the callback runs exactly as in a real session.
"""
from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
ATTENTION = "app_pages/attention.py"
TIMEOUT = 120  # s per script run; the first one imports torch and loads MiniLM

TEXT = "the cat sat on the mat"
TEXT_TOKENS = ["[CLS]", "the", "cat", "sat", "on", "the", "mat", "[SEP]"]
DEFAULT_TOKENS = ["[CLS]", "the", "students", "watched", "the", "model", "read", "their", "sentence", ",",
                  "and", "every", "head", "chose", "where", "to", "look", ".", "[SEP]"]
EVIL = "<b>x</b><script>alert(1)</script><style>*{display:none}</style>"
T5_LABEL = "T5-style encoder-decoder"
MINILM_LABEL = "MiniLM (BERT, 6×12)"
EMPTY_PROMPT = "Type a sentence in the sidebar to see how the model reads it."


# --------------------------------------------------------------------------- helpers


def open_app(query: dict[str, str] | None = None, page: str | None = ATTENTION, *,
             direct: bool = False) -> AppTest:
    """Run app.py with `query` as the URL's query params, then open `page`.

    ``direct``: open `page` in the very first run (like following a link to
    /attention?...); otherwise the home page runs first and the test switches."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.query_params.update(query or {})
    if direct and page:
        at.switch_page(page)
    at.run()
    if page and not direct:
        at.switch_page(page).run()
    assert_ok(at)
    return at


def assert_ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert_ok(at)
    return at


def set_text(at: AppTest, text: str) -> AppTest:
    at.text_area(key="text").input(text)
    return rerun(at)


def chart_ids(at: AppTest) -> list[str]:
    """The keys of the plotly charts on the page (their element ids end in "-<key>")."""
    return [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]


def spec(at: AppTest, key: str) -> dict:
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-" + key)]
    assert len(charts) == 1, f"plotly chart {key!r} not found; charts: {chart_ids(at)}"
    return json.loads(charts[0].proto.spec)


def decode(value: Any) -> np.ndarray:
    """A plotly array from a spec: a base64 typed array or a plain list."""
    if isinstance(value, dict) and "bdata" in value:
        arr = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = [int(s) for s in str(value.get("shape", len(arr))).split(",")]
        return arr.reshape(shape)
    return np.asarray(value)


def heatmap_z(fig: dict) -> np.ndarray:
    """z of the first heatmap trace (the weights; NaN = masked)."""
    heatmaps = [tr for tr in fig["data"] if tr.get("type") == "heatmap"]
    assert heatmaps, [tr.get("type") for tr in fig["data"]]
    return decode(heatmaps[0]["z"]).astype(np.float64)


def assert_rows_sum_to_one(z: np.ndarray) -> None:
    sums = np.nansum(z, axis=-1)
    np.testing.assert_allclose(sums, 1.0, atol=1e-4)
    assert np.all(np.nan_to_num(z, nan=0.0) >= 0)


def select(at: AppTest, key: str, event: dict, kind: str = "plotly_chart") -> AppTest:
    """Rerun as if the user had selected `event` in chart/dataframe `key`."""
    nodes = [n for n in at.get(kind) if n.proto.id.endswith("-" + key)]
    assert len(nodes) == 1, f"{kind} {key!r} not found"
    states = at._tree.get_widget_states()  # what at.run() would send, plus the selection
    states.widgets.append(WidgetState(id=nodes[0].proto.id, string_value=json.dumps(event)))
    at._run(states)
    assert_ok(at)
    return at


def points(*customdata: list[int]) -> dict:
    pts = [{"curve_number": 1, "point_number": i, "point_index": i, "x": c[1], "y": c[0], "customdata": list(c)}
           for i, c in enumerate(customdata)]
    return {"selection": {"points": pts, "point_indices": list(range(len(pts))), "box": [], "lasso": []}}


def find_block(node: Any, key: str) -> Any | None:
    """The container created with st.container(key=key), or None."""
    for child in getattr(node, "children", {}).values():
        if getattr(getattr(child, "proto", None), "id", "").endswith("-" + key):
            return child
        found = find_block(child, key)
        if found is not None:
            return found
    return None


def as_shown(markdown: str) -> str:
    """What a reader sees of markdown that escapes its specials (backslashes, entities)
    and shows link values as code spans."""
    text = re.sub(r"(`+) (.*?) \1", lambda m: m.group(2).replace("\\", "\\\\"), markdown)
    return html.unescape(re.sub(r"\\(.)", r"\1", text))


def warnings_text(at: AppTest) -> str:
    return "\n".join(as_shown(w.value) for w in at.warning)


def everything_rendered(at: AppTest) -> str:
    """Every piece of text the page sends to the browser, except widget values."""
    parts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error",
                 "success", "latex", "code"):
        parts += [str(e.value) for e in getattr(at, kind)]
    parts += [c.proto.spec for c in at.get("plotly_chart")]
    parts += [df.value.to_csv() + " ".join(map(str, df.value.columns)) for df in at.dataframe]
    parts += [str(tb.value) for tb in at.table]
    return "\n".join(parts)


# --------------------------------------------------------------------------- pages


def test_home_page_shows_the_tokens_of_the_default_text():
    at = open_app(page=None)
    assert [t.value for t in at.title] == ["Glassbox"]
    badges = [m.value for m in at.markdown if "-badge[" in m.value]
    assert len(badges) == 1
    found = [re.sub(r"\\(.)", r"\1", tok) for tok in re.findall(r":\w+-badge\[((?:\\.|[^\]\\])*)\]", badges[0])]
    assert found == DEFAULT_TOKENS
    assert any(f"{len(DEFAULT_TOKENS)} tokens" in c.value for c in at.caption)


def test_home_catalogue_is_one_table_listing_every_model():
    from models.weights import zoo

    at = open_app(page=None)
    tables = [m.value for m in at.markdown if m.value.startswith("| ")]
    assert len(tables) == 1 and not at.table
    rows = tables[0].split("\n")[2:]
    entries = zoo.catalogue()
    assert len(rows) == len(entries)
    for row, entry in zip(rows, entries):
        assert as_shown(row.split(" | ")[0].lstrip("| ")) == entry.label
        assert (" | ✓ | " in row) == entry.available


def test_first_sidebar_edit_is_kept():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.run()
    set_text(at, TEXT)
    assert at.session_state["_selection"].text == TEXT


def test_home_page_follows_the_sidebar_text():
    at = open_app(page=None)
    set_text(at, TEXT)
    badges = next(m.value for m in at.markdown if "-badge[" in m.value)
    assert ":gray-badge[\\[CLS\\]]" in badges and ":blue-badge[mat]" in badges
    assert "students" not in badges
    assert any(f"{len(TEXT_TOKENS)} tokens" in c.value for c in at.caption)


def test_attention_page_charts():
    at = open_app({"text": TEXT})
    assert [t.value for t in at.title] == ["Attention explorer"]
    assert chart_ids(at)[:2] == ["model_view", "head_map"]

    # the model view: one image of all tiles + one click marker per (layer, head) of MiniLM 6x12
    mv = spec(at, "model_view")
    assert [tr["type"] for tr in mv["data"]] == ["image", "scatter"]
    cells = {tuple(c) for c in mv["data"][1]["customdata"]}
    assert cells == {(layer, head) for layer in range(6) for head in range(12)}
    assert mv["layout"]["yaxis"]["ticktext"] == [f"L{i}" for i in range(6)]
    assert mv["layout"]["xaxis"]["ticktext"] == [f"H{i}" for i in range(12)]

    # the head heatmap: [n, n] weights whose rows sum to 1, tokens as tick labels
    hm = spec(at, "head_map")
    z = heatmap_z(hm)
    assert z.shape == (len(TEXT_TOKENS), len(TEXT_TOKENS))
    assert not np.isnan(z).any()  # MiniLM is bidirectional: nothing masked
    assert_rows_sum_to_one(z)
    assert hm["layout"]["xaxis"]["ticktext"] == TEXT_TOKENS
    assert hm["layout"]["yaxis"]["ticktext"] == TEXT_TOKENS
    assert "Layer 0, head 0" in hm["layout"]["title"]["text"]
    click_rows = [c for tr in hm["data"] if tr.get("name") == "click" for c in tr["customdata"]]
    assert click_rows == [[q, -1] for q in range(len(TEXT_TOKENS))]  # one dot per query


def test_layer_and_head_sliders_change_the_heatmap():
    at = open_app({"text": TEXT})
    z00 = heatmap_z(spec(at, "head_map"))
    at.slider(key="layer").set_value(4)
    at.slider(key="head").set_value(7)
    rerun(at)
    hm = spec(at, "head_map")
    assert "Layer 4, head 7" in hm["layout"]["title"]["text"]
    z47 = heatmap_z(hm)
    assert_rows_sum_to_one(z47)
    assert not np.allclose(z00, z47)


def test_url_params_seed_the_widgets():
    at = open_app({"text": TEXT, "layer": "2", "head": "3", "view": "metrics", "lang": "中文"})
    assert at.radio(key="lang").value == "中文"
    assert at.text_area(key="text").value == TEXT
    assert at.slider(key="layer").value == 2
    assert at.slider(key="head").value == 3
    assert at.radio(key="view__zh").value == "metrics"
    assert at.radio(key="view__zh").options[2] == "头指标"
    assert [t.value for t in at.title] == ["注意力浏览器"]
    assert at.text_area(key="text").label == "输入文本"
    assert "metrics_chart" in chart_ids(at) and "head_map" not in chart_ids(at)
    # the metrics chart outlines the head from the link: layer 2 (row), head 3 (column)
    shapes = spec(at, "metrics_chart")["layout"]["shapes"]
    assert [(s["x0"], s["y0"]) for s in shapes] == [(2.5, 1.5)]
    assert [d.key for d in at.dataframe] == ["metrics_table"]
    assert not at.warning  # a valid link: no notice
    assert at.query_params["view"] == "metrics"


def test_invalid_url_params_are_replaced_with_a_notice():
    at = open_app({"layer": "999", "head": "-1", "model": "nope", "view": "bogus"}, direct=True)
    notices = warnings_text(at)
    for param, value in [("layer", "999"), ("head", "-1"), ("model", "nope"), ("view", "bogus")]:
        assert f"{param}={value} is not valid" in notices, notices
    assert len(at.warning) == 4
    assert at.slider(key="layer").value == 0 and at.slider(key="head").value == 0
    assert at.selectbox(key="model").value == "minilm"
    assert at.radio(key="view__en").value == "heads"
    assert "head_map" in chart_ids(at)
    for param in ("layer", "head", "model", "view"):
        assert param not in at.query_params
    rerun(at)
    assert not at.warning  # shown once, for the link that had them


def test_adjusted_url_param_gets_an_info_notice():
    at = open_app({"layer": "2.7", "text": TEXT})
    assert at.slider(key="layer").value == 2
    assert any("layer=2.7 was adjusted to 2." in as_shown(i.value) for i in at.info), [i.value for i in at.info]


def test_model_param_is_the_catalogue_label():
    at = open_app({"model": T5_LABEL, "text": TEXT})
    assert at.selectbox(key="model").value == "custom:t5"
    assert not at.warning


# --------------------------------------------------------------------------- views


def test_every_view_renders_for_minilm():
    at = open_app({"text": TEXT})
    expected = {
        "heads": ["model_view", "head_map"],
        "lines": ["line_view"],
        "metrics": ["metrics_chart"],
        "rollout": ["rollout_map"],
    }
    for view in ("lines", "metrics", "rollout", "heads"):
        at.radio(key="view__en").set_value(view)
        rerun(at)
        assert at.radio(key="view__en").value == view
        assert chart_ids(at) == expected[view], (view, chart_ids(at))
        if view == "lines":
            fig = spec(at, "line_view")
            assert fig["data"], "the line view draws no trace"
            assert at.multiselect(key="line_heads").value == [0]
        if view == "metrics":
            fig = spec(at, "metrics_chart")
            z = heatmap_z(fig)
            assert z.shape == (6, 12)
            assert np.all((z >= 0) & (z <= np.log(len(TEXT_TOKENS)) + 1e-6))  # entropy in [0, ln n]
            table = at.dataframe(key="metrics_table").value
            assert len(table) == 6 * 12
        if view == "rollout":
            z = heatmap_z(spec(at, "rollout_map"))
            assert z.shape == (len(TEXT_TOKENS),) * 2
            assert_rows_sum_to_one(z)
            assert np.all(np.diag(z) >= 0.5)  # layer 0: half of each row is the residual
            at.slider(key="layer").set_value(5)
            z5 = heatmap_z(spec(rerun(at), "rollout_map"))
            assert "0…5" in spec(at, "rollout_map")["layout"]["title"]["text"]
            assert_rows_sum_to_one(z5)
            assert not np.allclose(z, z5)
            at.slider(key="layer").set_value(0)
            rerun(at)
        assert [d.key for d in at.get("download_button")] == ["dl_csv", "dl_npz", "dl_json"]


def test_mean_and_max_of_heads():
    at = open_app({"text": TEXT, "layer": "1"})
    heads = []
    for h in range(12):
        at.slider(key="head").set_value(h)
        heads.append(heatmap_z(spec(rerun(at), "head_map")))
    heads = np.stack(heads)  # [H, q, k]

    at.radio(key="combine__en").set_value("mean")
    hm = spec(rerun(at), "head_map")
    assert "Layer 1, mean of heads" in hm["layout"]["title"]["text"]
    np.testing.assert_allclose(heatmap_z(hm), heads.mean(0), atol=1e-5)
    assert_rows_sum_to_one(heatmap_z(hm))
    assert not spec(at, "model_view")["layout"].get("shapes")  # no single head outlined

    at.radio(key="combine__en").set_value("max")
    hm = spec(rerun(at), "head_map")
    assert "Layer 1, max of heads" in hm["layout"]["title"]["text"]
    np.testing.assert_allclose(heatmap_z(hm), heads.max(0), atol=1e-6)


def test_encoder_decoder_stacks():
    at = open_app({"model": T5_LABEL, "text": TEXT, "target": "le chat"})
    tgt = ["[CLS]", "le", "chat", "[SEP]"]
    stack = at.radio(key="stack__en")
    assert stack.value == "encoder"
    assert stack.options == ["Encoder self", "Decoder self", "Cross (decoder → encoder)"]
    assert heatmap_z(spec(at, "head_map")).shape == (len(TEXT_TOKENS),) * 2

    stack.set_value("decoder")
    z = heatmap_z(spec(rerun(at), "head_map"))
    assert z.shape == (len(tgt), len(tgt))
    assert np.isnan(z[np.triu_indices(len(tgt), k=1)]).all()  # causal: the future is masked
    assert not np.isnan(z[np.tril_indices(len(tgt))]).any()
    assert_rows_sum_to_one(z)

    at.radio(key="stack__en").set_value("cross")
    hm = spec(rerun(at), "head_map")
    z = heatmap_z(hm)
    assert z.shape == (len(tgt), len(TEXT_TOKENS))  # [tgt, src]
    assert_rows_sum_to_one(z)
    assert hm["layout"]["yaxis"]["ticktext"] == tgt
    assert hm["layout"]["xaxis"]["ticktext"] == TEXT_TOKENS
    mv = spec(at, "model_view")
    assert {tuple(c) for c in mv["data"][1]["customdata"]} == {(l, h) for l in range(2) for h in range(4)}

    at.radio(key="view__en").set_value("rollout")
    rerun(at)
    assert "rollout_map" not in chart_ids(at)  # rollout is not defined for cross-attention
    assert any("cross-attention" in i.value for i in at.info)


def test_decoder_only_preset_is_causal():
    at = open_app({"model": "GPT-2-style decoder", "text": TEXT})
    assert at.selectbox(key="model").value == "custom:gpt"
    z = heatmap_z(spec(at, "head_map"))
    n = len(TEXT_TOKENS)
    assert z.shape == (n, n)
    assert np.isnan(z[np.triu_indices(n, k=1)]).all()
    assert_rows_sum_to_one(z)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("text", ["", "   \n\t  "], ids=["empty", "whitespace"])
@pytest.mark.parametrize("page", [None, ATTENTION], ids=["home", "attention"])
def test_empty_text_prompts_for_input(text, page):
    at = open_app(page=page)
    set_text(at, text)
    assert any(i.value == EMPTY_PROMPT for i in at.info), [i.value for i in at.info]
    if page == ATTENTION:
        assert not at.get("plotly_chart")


def test_very_long_text_is_truncated_to_512_tokens():
    at = open_app()
    set_text(at, "word " * 4000)  # 20,000 characters
    assert len(at.text_area(key="text").value) == 20_000
    notes = [i.value for i in at.info if "tokens" in i.value]
    assert notes and "shows the first 512" in notes[0], [i.value for i in at.info]
    hm = spec(at, "head_map")
    # above 128 tokens the map is one PNG image; its axes span the 512 positions
    assert hm["layout"]["xaxis"]["range"] == [-0.5, 511.5]
    assert hm["layout"]["yaxis"]["range"] == [511.5, -0.5]
    rows = [c for tr in hm["data"] if tr.get("name") == "click" for c in tr["customdata"]]
    assert rows == [[q, -1] for q in range(512)]  # one click target per query row
    assert max(hm["layout"]["xaxis"]["tickvals"]) <= 511
    assert hm["layout"]["xaxis"]["ticktext"][0] == "[CLS]"


@pytest.mark.parametrize("text, tick", [
    ("hi 😀🎉 ok", "[UNK]"),
    ("שלום עולם مرحبا", "ש"),
    ("zero\u200bwidth and\u200b", "and"),
    ("bell\x07ring \x00 nul\x1b[31m", "bell"),
], ids=["emoji", "rtl", "zero-width", "control"])
def test_unusual_characters(text, tick):
    at = open_app()
    set_text(at, text)
    hm = spec(at, "head_map")
    z = heatmap_z(hm)
    ticks = hm["layout"]["xaxis"]["ticktext"]
    assert z.shape == (len(ticks), len(ticks))
    assert_rows_sum_to_one(z)
    assert tick in ticks
    for kind in ("lines", "metrics", "rollout"):
        at.radio(key="view__en").set_value(kind)
        rerun(at)


def _assert_escaped(rendered: str) -> None:
    for raw in ("<script", "<style", "<b>", "</b>"):
        assert raw not in rendered, f"unescaped {raw!r} reached the page"


def test_html_in_the_text_is_shown_literally():
    at = open_app(page=None)
    set_text(at, EVIL)
    _assert_escaped(everything_rendered(at))
    badges = next(m.value for m in at.markdown if "-badge[" in m.value)
    assert ":blue-badge[&lt;]" in badges and ":blue-badge[script]" in badges

    at.switch_page(ATTENTION)
    rerun(at)
    hm = spec(at, "head_map")
    ticks = hm["layout"]["xaxis"]["ticktext"]
    # WordPiece splits "<script>" into "<", "script", ">": each shows as escaped text
    assert ["&lt;", "script", "&gt;"] == ticks[9:12], ticks
    assert "&lt;" in hm["layout"]["yaxis"]["ticktext"]
    # click the "<" query row: its token reaches the detail panel's title and table
    select(at, "head_map", points([1, -1]))
    assert any(m.value.startswith("**Query 1: &lt;") for m in at.markdown), [m.value for m in at.markdown]
    rendered = everything_rendered(at)
    for view in ("lines", "metrics", "rollout"):
        at.radio(key="view__en").set_value(view)
        rendered += everything_rendered(rerun(at))
    _assert_escaped(rendered)
    assert "&lt;" in rendered


def test_html_in_the_target_text_is_shown_literally():
    at = open_app({"model": T5_LABEL, "text": TEXT, "target": EVIL})
    at.radio(key="stack__en").set_value("cross")
    hm = spec(rerun(at), "head_map")
    assert "&lt;" in hm["layout"]["yaxis"]["ticktext"]
    _assert_escaped(everything_rendered(at))


# --------------------------------------------------------------------------- clicks


def test_clicking_a_heatmap_cell_opens_the_detail_panel():
    at = open_app({"text": TEXT})
    assert find_block(at.main, "detail_panel") is None
    assert any(i.value.startswith("Click the dot beside a query") for i in at.info)
    z = heatmap_z(spec(at, "head_map"))

    select(at, "head_map", points([1, -1]))  # the dot of query 1 ("the")
    panel = find_block(at.main, "detail_panel")
    assert panel is not None
    assert any(m.value == "**Query 1: the**" for m in panel.markdown)
    bars = [c for c in panel.get("plotly_chart") if c.proto.id.endswith("-detail_bars")]
    assert len(bars) == 1
    bar = json.loads(bars[0].proto.spec)["data"][0]
    np.testing.assert_allclose(decode(bar["x"]), np.sort(z[1])[::-1], atol=1e-6)
    table = panel.dataframe[0].value
    assert list(table.iloc[:, 0]) == list(range(1, len(TEXT_TOKENS) + 1))
    np.testing.assert_allclose(table.iloc[:, 3].to_numpy(), np.sort(z[1])[::-1], atol=1e-6)
    assert list(table.iloc[:, 1]) == [TEXT_TOKENS[i] for i in table.iloc[:, 2]]
    # the clicked query's row is outlined on the heatmap (x starts after the dot column)
    shapes = spec(at, "head_map")["layout"]["shapes"]
    assert [(s["x0"], s["x1"], s["y0"]) for s in shapes] == [(0.5, len(TEXT_TOKENS) + 0.5, 0.5)]

    # the panel follows the slider (same cell, another head)
    at.slider(key="head").set_value(5)
    rerun(at)
    assert find_block(at.main, "detail_panel") is not None
    # ... and closes when the text changes
    set_text(at, "a different sentence")
    assert find_block(at.main, "detail_panel") is None


def test_clicking_a_model_view_tile_opens_that_head():
    at = open_app({"text": TEXT})
    at.radio(key="combine__en").set_value("mean")
    rerun(at)
    select(at, "model_view", points([3, 5]))
    assert at.slider(key="layer").value == 3
    assert at.slider(key="head").value == 5
    assert at.radio(key="combine__en").value == "one"  # a tile is one head
    assert "Layer 3, head 5" in spec(at, "head_map")["layout"]["title"]["text"]
    assert len(spec(at, "model_view")["layout"]["shapes"]) == 1  # the tile is outlined


def test_metrics_table_row_and_chart_cell_open_that_head():
    at = open_app({"text": TEXT, "view": "metrics"})
    table = at.dataframe(key="metrics_table").value
    row = 30
    layer, head = int(table.iloc[row]["Layer"]), int(table.iloc[row]["Head"])
    select(at, "metrics_table", {"selection": {"rows": [row], "columns": [], "cells": []}}, kind="dataframe")
    assert at.radio(key="view__en").value == "heads"
    assert (at.slider(key="layer").value, at.slider(key="head").value) == (layer, head)
    assert f"Layer {layer}, head {head}" in spec(at, "head_map")["layout"]["title"]["text"]

    at.radio(key="view__en").set_value("metrics")
    rerun(at)
    select(at, "metrics_chart", points([4, 9]))
    assert at.radio(key="view__en").value == "heads"
    assert (at.slider(key="layer").value, at.slider(key="head").value) == (4, 9)


def test_language_switch_keeps_the_view_and_the_head():
    at = open_app({"text": TEXT, "view": "metrics", "layer": "3"})
    at.radio(key="lang").set_value("中文")
    rerun(at)
    assert [t.value for t in at.title] == ["注意力浏览器"]
    assert at.radio(key="view__zh").value == "metrics"
    assert at.slider(key="layer").value == 3
    assert at.slider(key="layer").label == "层"
    assert "metrics_chart" in chart_ids(at)


# --------------------------------------------------------------------------- export


def test_export_buttons():
    at = open_app({"text": TEXT})
    buttons = {b.key: b for b in at.get("download_button")}
    assert set(buttons) == {"dl_csv", "dl_npz", "dl_json"}
    assert "CSV" in buttons["dl_csv"].proto.label
    assert "NPZ" in buttons["dl_npz"].proto.label
    assert "JSON" in buttons["dl_json"].proto.label

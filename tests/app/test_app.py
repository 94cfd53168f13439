"""The Streamlit app through `streamlit.testing.v1.AppTest` (no browser): the home page, the
attention explorer's charts, links, views, clicks and exports, and bad input.

The helpers (opening a page, reading a chart's plotly spec back, sending a chart click)
are in `tests/app/helpers.py`, which says how each works.
"""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tests.app.helpers import (ATTENTION, DEFAULT_TOKENS, EMPTY_PROMPT, EVIL, GPT_LABEL, T5_LABEL, TEXT, TEXT_TOKENS,
                               as_shown, assert_escaped, assert_rows_sum_to_one, chart_ids, decode, everything_rendered,
                               find_block, heatmap_z, instant_data, new_app, open_app, open_folded, points, rerun,
                               select, select_instant, set_text, spec, warnings_text)
from viz_core.attention_pack import unpack_attention


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
    from ui.model_names import label_in

    at = open_app(page=None)
    # the catalogue is one markdown table (the task -> architecture expander holds two more of its own)
    tables = [m.value for m in at.markdown if m.value.startswith("| model | kind |")]
    assert len(tables) == 1 and not at.table
    rows = tables[0].split("\n")[2:]
    entries = zoo.catalogue()
    assert len(rows) == len(entries)
    for row, entry in zip(rows, entries):
        assert as_shown(row.split(" | ")[0].lstrip("| ")) == label_in(entry, "en")
        assert (" | ✓ | " in row) == entry.available


def test_first_sidebar_edit_is_kept():
    at = new_app()
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


def test_attention_page_opens_on_the_instant_view():
    at = open_app({"text": TEXT})
    assert [t.value for t in at.title] == ["Attention explorer"]
    assert at.radio(key="view__en").value == "instant"
    assert "view" not in at.query_params            # the default is not written into the link
    # every head is drawn in the browser: no plotly figure, the browser picks the head
    assert not at.get("plotly_chart"), chart_ids(at)
    assert at.slider(key="layer").disabled and at.slider(key="head").disabled
    data = instant_data(at)
    assert data["selected"] == [0, 0]
    payload = data["payload"]
    assert payload["q_tokens"] == TEXT_TOKENS and payload["k_tokens"] == TEXT_TOKENS
    assert (payload["n_layers"], payload["n_heads"]) == (6, 12)    # MiniLM 6x12
    values, err = unpack_attention(payload)
    assert values.shape == (6, 12, len(TEXT_TOKENS), len(TEXT_TOKENS))
    assert not np.isnan(values).any()                # MiniLM is bidirectional: nothing masked
    np.testing.assert_allclose(values.sum(-1), 1.0, atol=float(err.max()) * len(TEXT_TOKENS) + 1e-6)
    assert not at.get("download_button")                         # the export section is folded: nothing built
    open_folded(at, "_open_export")
    assert [d.key for d in at.get("download_button")] == ["dl_csv", "dl_npz", "dl_json", "dl_html", "dl_live_small"]


def test_attention_page_charts():
    at = open_app({"text": TEXT, "view": "heads"})
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
    at = open_app({"text": TEXT, "view": "heads"})
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
    assert at.radio(key="view__zh").options[3] == "头指标"         # instant, heads, lines, metrics, ...
    assert [t.value for t in at.title] == ["注意力探查器"]
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
    assert at.radio(key="view__en").value == "instant"        # the default view
    assert not chart_ids(at) and instant_data(at)["selected"] == [0, 0]
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
        "instant": [],                  # drawn in the browser (the component), no plotly chart
        "heads": ["model_view", "head_map"],
        "lines": ["line_view"],
        "metrics": ["metrics_chart"],
        "rollout": ["rollout_map"],
    }
    assert at.radio(key="view__en").value == "instant" and instant_data(at)
    for view in ("lines", "metrics", "rollout", "heads", "instant"):
        at.radio(key="view__en").set_value(view)
        rerun(at)
        assert at.radio(key="view__en").value == view
        assert chart_ids(at) == expected[view], (view, chart_ids(at))
        if view == "instant":
            assert instant_data(at)["payload"]["q_tokens"] == TEXT_TOKENS
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
        open_folded(at, "_open_export")
        assert [d.key for d in at.get("download_button")] == ["dl_csv", "dl_npz", "dl_json", "dl_html",
                                                              "dl_live_small"]


def test_mean_and_max_of_heads():
    at = open_app({"text": TEXT, "layer": "1", "view": "heads"})
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
    at = open_app({"model": T5_LABEL, "text": TEXT, "target": "le chat", "view": "heads"})
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
    at = open_app({"model": GPT_LABEL, "text": TEXT, "view": "heads"})
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
    at = open_app({"view": "heads"})
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
    # the default instant view: the canvas's token labels are the visible ones
    payload = instant_data(at)["payload"]
    assert tick in payload["q_tokens"] and payload["k_tokens"] == payload["q_tokens"]
    values, err = unpack_attention(payload)
    assert values.shape[2:] == (len(payload["q_tokens"]),) * 2
    at.radio(key="view__en").set_value("heads")
    hm = spec(rerun(at), "head_map")
    z = heatmap_z(hm)
    ticks = hm["layout"]["xaxis"]["ticktext"]
    assert z.shape == (len(ticks), len(ticks))
    assert_rows_sum_to_one(z)
    assert tick in ticks
    assert ticks == payload["q_tokens"]           # both views label the tokens alike
    for kind in ("lines", "metrics", "rollout"):
        at.radio(key="view__en").set_value(kind)
        rerun(at)


def test_html_in_the_text_is_shown_literally():
    at = open_app(page=None)
    set_text(at, EVIL)
    assert_escaped(everything_rendered(at))
    badges = next(m.value for m in at.markdown if "-badge[" in m.value)
    assert ":blue-badge[&lt;]" in badges and ":blue-badge[script]" in badges

    at.switch_page(ATTENTION)
    rerun(at)
    # the default instant view: the viewer writes tokens with textContent / canvas fillText, so
    # its labels are the raw text (never parsed as HTML); the caption of a chosen query escapes
    payload = instant_data(at)["payload"]
    assert ["<", "script", ">"] == payload["q_tokens"][9:12], payload["q_tokens"]
    select_instant(at, layer=0, head=0, query=9)
    assert any("query 9 (&lt;)" in c.value for c in at.caption), [c.value for c in at.caption]
    assert_escaped(everything_rendered(at))

    at.radio(key="view__en").set_value("heads")
    hm = spec(rerun(at), "head_map")
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
    assert_escaped(rendered)
    assert "&lt;" in rendered


def test_html_in_the_target_text_is_shown_literally():
    at = open_app({"model": T5_LABEL, "text": TEXT, "target": EVIL, "view": "heads"})
    at.radio(key="stack__en").set_value("cross")
    hm = spec(rerun(at), "head_map")
    assert "&lt;" in hm["layout"]["yaxis"]["ticktext"]
    assert_escaped(everything_rendered(at))


# --------------------------------------------------------------------------- clicks


def test_clicking_a_heatmap_cell_opens_the_detail_panel():
    at = open_app({"text": TEXT, "view": "heads"})
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
    at = open_app({"text": TEXT, "view": "heads"})
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
    assert [t.value for t in at.title] == ["注意力探查器"]
    assert at.radio(key="view__zh").value == "metrics"
    assert at.slider(key="layer").value == 3
    assert at.slider(key="layer").label == "层"
    assert "metrics_chart" in chart_ids(at)
    at.radio(key="lang").set_value("English")        # the language held for a run is let go by the next one
    rerun(at)
    assert [t.value for t in at.title] == ["Attention explorer"]
    assert at.slider(key="layer").label == "Layer"


# --------------------------------------------------------------------------- export


def test_export_buttons():
    at = open_folded(open_app({"text": TEXT}), "_open_export")
    buttons = {b.key: b for b in at.get("download_button")}
    # MiniLM's live file comes in int8 only (its exact form, 121 MB, is not offered as a file)
    assert set(buttons) == {"dl_csv", "dl_npz", "dl_json", "dl_html", "dl_live_small"}
    assert "HTML" in buttons["dl_html"].proto.label
    assert "int8" in buttons["dl_live_small"].proto.label
    assert "CSV" in buttons["dl_csv"].proto.label
    assert "NPZ" in buttons["dl_npz"].proto.label
    assert "JSON" in buttons["dl_json"].proto.label

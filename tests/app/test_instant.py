"""The instant attention view (ui/widgets/attention_canvas.py) under AppTest: the
component gets the packed payload of every head once, and a selection sent back by the
browser moves the URL-bound layer/head sliders."""
from __future__ import annotations

import json

import numpy as np
from streamlit.proto.WidgetStates_pb2 import WidgetState

from viz_core.attention_pack import unpack_attention

from .helpers import ATTENTION, TEXT, TEXT_TOKENS, assert_ok, instant_data, open_app, open_folded, select_instant


def _component(at):
    nodes = [n for n in at.get("bidi_component") if n.proto.id.endswith("-instant_canvas")]
    assert len(nodes) == 1, [n.proto.id for n in at.get("bidi_component")]
    return nodes[0]


def test_instant_view_sends_every_head_once_and_follows_the_browser():
    at = open_app({"text": TEXT, "view": "instant", "layer": "2", "head": "3"})
    assert_ok(at)
    node = _component(at)
    data = json.loads(node.proto.bytes)
    payload = data["payload"]
    assert data["selected"] == [2, 3]
    assert payload["q_tokens"] == TEXT_TOKENS and (payload["n_layers"], payload["n_heads"]) == (6, 12)
    values, err = unpack_attention(payload)
    np.testing.assert_allclose(np.nansum(values, -1), 1.0, atol=err.max() * len(TEXT_TOKENS) + 1e-6)
    assert "Layer {layer}, head {head}" == payload["labels"]["heading"]

    # the browser reports a new head: the sliders (and so the URL) follow; data is unchanged
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=node.proto.id,
                                      json_value=json.dumps({"selection": {"layer": 4, "head": 7, "query": 2}})))
    at._run(states)
    assert_ok(at)
    assert at.slider(key="layer").value == 4 and at.slider(key="head").value == 7
    assert at.query_params["layer"] in ("4", ["4"]) and at.query_params["head"] in ("7", ["7"])
    assert json.loads(_component(at).proto.bytes) == data              # the same element: sent as a reference
    assert any("query 2 (cat)" in c.value for c in at.caption)


def test_instant_view_in_chinese():
    at = open_app({"text": TEXT, "view": "instant", "lang": "中文"})
    assert_ok(at)
    payload = json.loads(_component(at).proto.bytes)["payload"]
    assert payload["labels"]["heading"] == "第 {layer} 层，第 {head} 个头"
    assert at.slider(key="layer").disabled and at.slider(key="head").disabled


def test_a_link_back_to_the_page_opens_the_viewer_on_the_head_it_names():
    # the viewer's start used to survive a visit to another page: a link (here the detectors'
    # "open layer 1, head 3") moved the sliders and the URL, and the viewer opened on the old head
    at = open_app({"text": TEXT}, direct=True)
    assert instant_data(at)["selected"] == [0, 0]
    at.switch_page("app_pages/home.py").run()
    at.query_params.update({"layer": "1", "head": "3"})
    at.switch_page(ATTENTION).run()
    assert_ok(at)
    assert (at.slider(key="layer").value, at.slider(key="head").value) == (1, 3)
    assert instant_data(at)["selected"] == [1, 3]


def test_a_head_switch_in_the_viewer_keeps_its_start():
    # the browser's own switch moves the sliders; the data sent stays the same (the message
    # cache turns it into a reference), so the viewer is not restarted
    at = open_app({"text": TEXT}, direct=True)
    before = instant_data(at)
    select_instant(at, 2, 5)
    assert (at.slider(key="layer").value, at.slider(key="head").value) == (2, 5)
    assert instant_data(at) == before


VERSE = "Verse LM (characters, 中文 + English)"


def _nodes(at, suffix: str):
    return [n for n in at.get("bidi_component") if n.proto.id.endswith(suffix)]


def test_a_small_model_comes_with_the_live_box_and_its_bytes_once():
    """verse-lm has a browser form of 3.3 MB (its exact float16 weights): the viewer gets the
    live box's words and the model's id, and a second component carries the model's bytes
    (raw bytes, no JSON: the same bytes every rerun, sent once by Streamlit's message cache)."""
    from models.weights.browser import FORMAT

    at = open_app({"text": "床前明月光", "view": "instant", "model": VERSE})
    assert_ok(at)
    data = json.loads(_nodes(at, "-instant_canvas")[0].proto.bytes)
    live = data["live"]
    assert live["text"] == "床前明月光" and live["labels"]["use"] == "Use this text on every page"
    (model,) = _nodes(at, "-instant_canvas_model")
    raw = model.proto.bytes
    ident, body = raw.split(b"\n", 1)
    assert ident.decode() == live["model_id"] and ident.startswith(b"toy:verse-lm/float16/")
    bundle = json.loads(body)
    assert bundle["format"] == FORMAT and bundle["config"]["arch"] == "decoder"
    assert any("costs the server nothing" in c.value and "exact weights" in c.value for c in at.caption)
    # the export offers the live file with its size before the download
    labels = [b.label for b in open_folded(at, "_open_export").get("download_button")]
    assert any(label.startswith("All heads, live: the model inside the file (3.") for label in labels)
    assert "Smaller live file, int8 weights (about 1.7 MB)" in labels          # 1.58 MB of model, deflated + the page
    # the reader sends the box's text to every page: the sidebar takes it
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=_nodes(at, "-instant_canvas")[0].proto.id,
                                      json_value=json.dumps({"text": "举头望明月"})))
    at._run(states)
    assert_ok(at)
    assert at.text_area(key="text").value == "举头望明月"


def test_live_box_in_chinese_and_minilm_asks_first():
    at = open_app({"text": "床前明月光", "view": "instant", "model": VERSE, "lang": "中文"})
    assert_ok(at)
    live = json.loads(_nodes(at, "-instant_canvas")[0].proto.bytes)["live"]
    assert live["labels"]["box"].startswith("你的文本")
    assert any("不占用服务器" in c.value for c in at.caption)
    at = open_app({"text": TEXT, "view": "instant"})               # MiniLM: 60 MB, only when asked
    assert_ok(at)
    assert "live" not in json.loads(_nodes(at, "-instant_canvas")[0].proto.bytes)
    assert not _nodes(at, "-instant_canvas_model")
    assert at.toggle(key="instant_live").label.startswith("Recompute in this browser as I type")
    labels = [b.label for b in open_folded(at, "_open_export").get("download_button")]                      # the int8 file only, deflated
    assert "Smaller live file, int8 weights (about 28.2 MB)" in labels          # the issue's <= 30 MB
    assert not any(label.startswith("All heads, live") for label in labels)

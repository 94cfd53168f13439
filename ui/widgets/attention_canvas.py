"""The "instant" attention viewer: a Streamlit v2 custom component that receives every
layer and head of the text once and draws, hovers, zooms and switches heads in the
browser (viz_core/web/attention.js, the same script as the standalone HTML export).

Why v2 (`st.components.v2.component`): inline HTML/CSS/JS registered from Python, no
iframe and no build step or npm at run time; state goes back with setStateValue.

Sending the payload once: the component's `data` is the packed payload plus the
selection it starts from, as JSON bytes (`_data_bytes`: the payload's JSON written once
per payload, in the serving layer's shared store), and that start is frozen while the
view stays open (`_START`). A head switch in the browser sends only {layer, head, query}
back; the callback moves the URL-bound layer/head sliders (ui/links.py index_slider), and
the rerun sends the same `data` again, which Streamlit's message cache turns into a
reference of a few bytes instead of the payload.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from viz_core.attention_html import live_js, model_js, viewer_css, viewer_js

_ADAPTER = """
export default function (component) {
  const { parentElement, setStateValue } = component;
  const data = JSON.parse(new TextDecoder().decode(component.data));     // JSON bytes (_data_bytes)
  const host = parentElement;
  const prev = host.__gbInstant;
  const cleanup = () => { const cur = host.__gbInstant; if (cur) { cur.destroy(); host.__gbInstant = null; } };
  const live = data.live || null;          // {model_id, text, labels}: recompute in this browser as the reader types
  const id = data.payload.id + "/" + data.text_scale + "/" + (live ? live.model_id : "");
  if (prev && prev.id === id) {
    prev.send = setStateValue;          // same text: keep the viewer and what the reader did in it
    return cleanup;
  }
  if (prev) prev.destroy();
  const payload = Object.assign({}, data.payload, { selected: data.selected, text_scale: data.text_scale });
  const state = { id, send: setStateValue, destroy: null };
  const onSelect = (sel) => state.send("selection", sel);
  if (!live) {
    const viewer = glassboxAttention(host, payload, { onSelect });
    state.destroy = () => viewer.destroy();
  } else {
    const entry = glassboxLive.modelEntry(live.model_id);
    const view = glassboxLive(host, entry.model, payload, {
      text: live.text, labels: live.labels, serverPayload: payload, selected: data.selected, onSelect,
      onUse: (text) => state.send("text", text),
    });
    if (!entry.model) entry.wait((e) => { if (host.__gbInstant === state) view.setModel(e.model, e.error); });
    state.destroy = () => view.destroy();
  }
  host.__gbInstant = state;
  return cleanup;
}
"""

# the browser-model component: no drawing; it loads the bundle it is sent (raw bytes:
# b"<id>\n" + JSON, ui/serving/browser.py) into the registry the viewer reads. Its data is
# the same bytes on every rerun, so Streamlit's message cache sends them once per session.
_MODEL_ADAPTER = """
export default function (component) {
  const bytes = component.data;
  if (!(bytes instanceof Uint8Array)) return;
  const cut = bytes.indexOf(10);
  const id = new TextDecoder().decode(bytes.subarray(0, cut));
  const entry = glassboxLive.modelEntry(id);
  if (entry.started) return;
  entry.started = true;
  setTimeout(() => {
    let bundle;
    try {
      bundle = JSON.parse(new TextDecoder().decode(bytes.subarray(cut + 1)));
    } catch (err) {
      entry.settle(null, String(err && err.message || err));
      return;
    }
    glassboxModel.loadAsync(bundle).then((model) => entry.settle(model, null),
                                         (err) => entry.settle(null, String(err && err.message || err)));
  }, 0);
}
"""

NAME = "glassbox.attention_canvas"
_START = "_instant_start"      # session key: (payload id, [layer, head]) the open viewer started from

# registered once, at import
_component = st.components.v2.component(NAME, css=viewer_css(), js=viewer_js() + live_js() + _ADAPTER)
_model_component = st.components.v2.component("glassbox.browser_model", js=model_js() + live_js() + _MODEL_ADAPTER)


def selection(key: str) -> dict | None:
    """The viewer's last selection {layer, head, query} (None before the first one)."""
    state = st.session_state.get(key)
    if state is None:
        return None
    value = state.get("selection") if hasattr(state, "get") else getattr(state, "selection", None)
    return value if isinstance(value, dict) else None


def _data_bytes(payload_json: str, rest: dict) -> bytes:
    """The component's data, {"payload": payload, **rest}, as JSON bytes, around the payload's
    JSON written once (ui/serving/attention.instant_payload_json): given a dict, Streamlit
    writes it as JSON twice on every run (the message, and a sorted copy for the element's
    identity); bytes are hashed, not re-written, for the identity."""
    return (json.dumps(rest)[:-1] + ', "payload": ' + payload_json + "}").encode()


def attention_canvas(payload: dict, payload_json: str, layer: int, head: int, *, key: str, text_scale: float = 1.0,
                     on_select: Callable[[], None] | None = None, live: Live | None = None) -> dict | None:
    """Mount the viewer for `payload` (viz_core.attention_pack.pack_attention; `payload_json`:
    the same as JSON, ui/serving/attention.instant_payload_json), starting at (layer, head)
    the first time this text is shown, with text `text_scale` times the normal size
    (presenter mode); returns the last selection. With `live`, a text box above
    the viewer recomputes every head in the browser as the reader types (the model's bytes
    travel in a second, invisible component, once per session)."""
    start = st.session_state.get(_START)
    # the head the open viewer shows: its last selection, else where it started. Sliders
    # that say otherwise were moved by something else (a link, another page's button):
    # start again from them. (A start kept from an earlier visit of the page would open
    # the viewer on the old head while the sliders and the link name another.)
    chosen = selection(key)
    shown = [int(chosen["layer"]), int(chosen["head"])] if chosen else (start[1] if start else None)
    if start is None or start[0] != payload["id"] or shown != [int(layer), int(head)]:
        start = (payload["id"], [int(layer), int(head)])
        st.session_state[_START] = start
    rest = {"selected": start[1], "text_scale": float(text_scale)}
    callbacks = {"on_selection_change": on_select or (lambda: None)}
    if live is not None:
        rest["live"] = {"model_id": live.model_id, "text": live.text, "labels": dict(live.labels)}
        callbacks["on_text_change"] = live.on_text
    _component(key=key, data=_data_bytes(payload_json, rest), **callbacks)
    if live is not None:
        _model_component(key=f"{key}_model", data=live.model_bytes)
    return selection(key)


@dataclass(frozen=True)
class Live:
    """The live text box: the model's browser form (`model_bytes` = b"<model_id>\n" + bundle
    JSON, ui/serving/browser.py), the text it starts from, its words, and what to do when
    the reader sends the text to every page (`on_text`; read it with `sent_text`)."""

    model_id: str
    model_bytes: bytes
    text: str
    labels: tuple[tuple[str, str], ...]
    on_text: Callable[[], None]


def sent_text(key: str) -> str | None:
    """The text the reader sent from the live box ("use on every page"), if any."""
    state = st.session_state.get(key)
    value = state.get("text") if hasattr(state, "get") else getattr(state, "text", None)
    return value if isinstance(value, str) else None


def forget_start() -> None:
    """The view was left: next time the viewer starts from the sliders again."""
    st.session_state.pop(_START, None)

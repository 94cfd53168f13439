"""The "instant" attention viewer: a Streamlit v2 custom component that receives every
layer and head of the text once and draws, hovers, zooms and switches heads in the
browser (viz_core/web/attention.js, the same script as the standalone HTML export).

Why v2 (`st.components.v2.component`): inline HTML/CSS/JS registered from Python, no
iframe and no build step or npm at run time; state goes back with setStateValue.

Sending the payload once: the component's `data` is the packed payload plus the
selection it starts from, and that start is frozen while the view stays open
(`_START`). A head switch in the browser sends only {layer, head, query} back; the
callback moves the URL-bound layer/head sliders (ui/links.py index_slider), and the
rerun sends the same `data` again, which Streamlit's message cache turns into a
reference of a few bytes instead of the payload.
"""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from viz_core.attention_html import viewer_css, viewer_js

_ADAPTER = """
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const host = parentElement;
  const prev = host.__gbInstant;
  const cleanup = () => { const cur = host.__gbInstant; if (cur) { cur.viewer.destroy(); host.__gbInstant = null; } };
  const id = data.payload.id + "/" + data.text_scale;
  if (prev && prev.id === id) {
    prev.send = setStateValue;          // same text: keep the viewer and what the reader did in it
    return cleanup;
  }
  if (prev) prev.viewer.destroy();
  const payload = Object.assign({}, data.payload, { selected: data.selected, text_scale: data.text_scale });
  const state = { id, send: setStateValue, viewer: null };
  state.viewer = glassboxAttention(host, payload, { onSelect: (sel) => state.send("selection", sel) });
  host.__gbInstant = state;
  return cleanup;
}
"""

NAME = "glassbox.attention_canvas"
_START = "_instant_start"      # session key: (payload id, [layer, head]) the open viewer started from

# registered once, at import
_component = st.components.v2.component(NAME, css=viewer_css(), js=viewer_js() + _ADAPTER)


def selection(key: str) -> dict | None:
    """The viewer's last selection {layer, head, query} (None before the first one)."""
    state = st.session_state.get(key)
    if state is None:
        return None
    value = state.get("selection") if hasattr(state, "get") else getattr(state, "selection", None)
    return value if isinstance(value, dict) else None


def attention_canvas(payload: dict, layer: int, head: int, *, key: str, text_scale: float = 1.0,
                     on_select: Callable[[], None] | None = None) -> dict | None:
    """Mount the viewer for `payload` (viz_core.attention_pack.pack_attention), starting
    at (layer, head) the first time this text is shown, with text `text_scale` times the
    normal size (presenter mode); returns the last selection."""
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
    _component(key=key, data={"payload": payload, "selected": start[1], "text_scale": float(text_scale)},
               on_selection_change=on_select or (lambda: None))
    return selection(key)


def forget_start() -> None:
    """The view was left: next time the viewer starts from the sliders again."""
    st.session_state.pop(_START, None)

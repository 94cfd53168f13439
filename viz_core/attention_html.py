"""One self-contained .html file with every layer and head of one text: the grid, the
head view and the lines, drawn by the same script as the app's "instant" view
(viz_core/web/attention.js). No network at all: script, style and data are inline,
so it opens from disk (file://) with no server.

The data sits in a ``<script type="application/json">`` block. Token text is user
text, so every ``<``, ``>`` and ``&`` in the JSON is written as a ``\\u003c``-style
escape: no token can close the script tag (``</script>``) or open a comment (``<!--``).
JSON.parse reads the escapes back as the original characters.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from pathlib import Path

WEB = Path(__file__).resolve().parent / "web"


def viewer_js() -> str:
    """The browser script (defines ``glassboxAttention(root, payload, callbacks)``)."""
    return (WEB / "attention.js").read_text(encoding="utf-8")


def live_js() -> str:
    """The live text box (defines ``glassboxLive(root, model, base, options)``): every change
    of the text is run through the model in the browser and drawn by the viewer."""
    return (WEB / "live.js").read_text(encoding="utf-8")


def model_js() -> str:
    """The forward pass in the browser (defines ``glassboxModel.load(bundle)`` and ``loadAsync``)."""
    return (WEB / "model.js").read_text(encoding="utf-8")


def viewer_css() -> str:
    return (WEB / "attention.css").read_text(encoding="utf-8")


def script_safe_json(obj: object) -> str:
    """JSON that is safe inside a <script> element: < > & and the JS line separators
    are escaped, so the text cannot end the element or start a comment."""
    return script_safe_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))


def script_safe_text(text: str) -> str:
    """JSON text already made (a model bundle) made safe inside a <script> element, as
    `script_safe_json` does."""
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


_BOOT = """
(function () {
  var payload = JSON.parse(document.getElementById("gb-data").textContent);
  glassboxAttention(document.getElementById("gb-root"), payload, {});
})();
"""


_BOOT_LIVE = """
(function () {
  var payload = JSON.parse(document.getElementById("gb-data").textContent);
  var live = JSON.parse(document.getElementById("gb-live").textContent);
  var view = glassboxLive(document.getElementById("gb-root"), null, payload,
                          {text: live.text, labels: live.labels, serverPayload: payload});
  // the int8 file's weights travel deflated: inflating them is asynchronous
  glassboxModel.loadAsync(JSON.parse(document.getElementById("gb-model").textContent)).then(
    function (model) { view.setModel(model); },
    function (err) { view.setModel(null, String(err && err.message || err)); });
})();
"""


def standalone_html(payload: Mapping, title: str = "Glassbox attention", note: str = "", *,
                    model_json: str | None = None, text: str = "", live_labels: Mapping[str, str] | None = None) -> str:
    """The export: a complete HTML document (str) for one packed payload
    (viz_core.attention_pack.pack_attention). With `model_json` (a browser bundle's JSON,
    models/weights/browser.py bundle_json) the file is live: a text box starting from `text`, and every
    change is run through the model inside the page (viz_core/web/live.js), still with no
    network; WebAssembly needs 'wasm-unsafe-eval' in the policy."""
    head = html.escape(title)
    live = model_json is not None
    scripts = viewer_js() + (model_js() + live_js() + _BOOT_LIVE if live else _BOOT)
    data = f"<script type=\"application/json\" id=\"gb-data\">{script_safe_json(dict(payload))}</script>\n"
    if live:
        data += (f"<script type=\"application/json\" id=\"gb-model\">{script_safe_text(model_json)}</script>\n"
                 f"<script type=\"application/json\" id=\"gb-live\">"
                 f"{script_safe_json({'text': text, 'labels': dict(live_labels or {})})}</script>\n")
    wasm = " 'wasm-unsafe-eval'" if live else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        # no network: everything is inline; the policy makes the browser refuse any fetch
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        f"script-src 'unsafe-inline'{wasm}; style-src 'unsafe-inline'; img-src data: blob:; connect-src data: blob:\">\n"
        f"<title>{head}</title>\n<style>\nbody {{ margin: 16px 24px; background: #fff; }}\n"
        f".gb-page-title {{ font: 600 1.3rem system-ui, sans-serif; margin: 0 0 4px 0; }}\n"
        f".gb-page-note {{ font: 0.85rem system-ui, sans-serif; color: #555; margin: 0 0 8px 0; }}\n"
        f"{viewer_css()}\n</style>\n</head>\n<body>\n"
        f"<h1 class=\"gb-page-title\">{head}</h1>\n<p class=\"gb-page-note\">{html.escape(note)}</p>\n"
        "<div id=\"gb-root\"></div>\n"
        f"{data}<script>\n{scripts}</script>\n</body>\n</html>\n"
    )

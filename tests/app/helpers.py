"""Shared helpers of the AppTest suites (`tests/app/test_*.py`): open the app, read charts
back, send chart clicks, collect what a page shows.

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
MINILM_LABEL = "MiniLM (BERT, 6×12)"          # catalogue labels, as the sidebar's picker and links show them
GPT_LABEL = "GPT-2-style decoder"
LLAMA_LABEL = "LLaMA-style decoder"
T5_LABEL = "T5-style encoder-decoder"
EMPTY_PROMPT = "Type a sentence in the sidebar to see how the model reads it."


# --------------------------------------------------------------------------- running the app


def new_app() -> AppTest:
    """app.py in an AppTest, not run yet."""
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)


def open_app(query: dict[str, str] | None = None, page: str | None = ATTENTION, *,
             direct: bool = False, errors_ok: bool = False) -> AppTest:
    """Run app.py with `query` as the URL's query params, then open `page`.

    ``direct``: open `page` in the very first run (like following a link to
    /attention?...); otherwise the home page runs first and the test switches.
    ``errors_ok``: only an exception fails the opening, an `st.error` message does not."""
    at = new_app()
    at.query_params.update(query or {})
    if direct and page:
        at.switch_page(page)
    at.run()
    if page and not direct:
        at.switch_page(page).run()
    if errors_ok:
        assert_no_exception(at)
    else:
        assert_ok(at)
    return at


def open_folded(at: AppTest, key: str) -> AppTest:
    """Open the folded section `key` (ui/widgets/folded.py) as a click on its title does:
    its content is only built while it is open. AppTest has no expander click; the open
    state is the expander's widget value, which session state sets before the run."""
    at.session_state[key] = True
    at.run()
    assert_no_exception(at)
    return at


def assert_no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def assert_ok(at: AppTest) -> None:
    """No exception and no `st.error` message on the page."""
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert_ok(at)
    return at


def set_text(at: AppTest, text: str) -> AppTest:
    at.text_area(key="text").input(text)
    return rerun(at)


# --------------------------------------------------------------------------- charts


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


def instant_data(at: AppTest, key: str = "instant_canvas") -> dict:
    """The data the instant view's component (ui/widgets/attention_canvas.py) sends to the
    browser, as JSON bytes: {"payload": viz_core.attention_pack's payload, "selected": [layer,
    head], ...}."""
    nodes = [n for n in at.get("bidi_component") if n.proto.id.endswith("-" + key)]
    assert len(nodes) == 1, f"component {key!r} not found; components: {[n.proto.id for n in at.get('bidi_component')]}"
    return json.loads(nodes[0].proto.bytes)


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


def select_instant(at: AppTest, layer: int, head: int, query: int | None = None,
                   key: str = "instant_canvas") -> AppTest:
    """Rerun as if the instant view's viewer had sent back a selection (a head switch or a
    pinned query), as its setStateValue("selection", ...) does."""
    nodes = [n for n in at.get("bidi_component") if n.proto.id.endswith("-" + key)]
    assert len(nodes) == 1, f"component {key!r} not found"
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=nodes[0].proto.id, json_value=json.dumps(
        {"selection": {"layer": layer, "head": head, "query": query}})))
    at._run(states)
    assert_ok(at)
    return at


def points(*customdata: list[int]) -> dict:
    pts = [{"curve_number": 1, "point_number": i, "point_index": i, "x": c[1], "y": c[0], "customdata": list(c)}
           for i, c in enumerate(customdata)]
    return {"selection": {"points": pts, "point_indices": list(range(len(pts))), "box": [], "lasso": []}}


# --------------------------------------------------------------------------- what the page shows


def texts(at: AppTest, kind: str) -> list[str]:
    """The values of every element of `kind` ("markdown", "caption", "info", ...) as strings."""
    return [str(e.value) for e in at.get(kind)]


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


def assert_escaped(rendered: str) -> None:
    """No tag of `EVIL` reached the page unescaped."""
    for raw in ("<script", "<style", "<b>", "</b>"):
        assert raw not in rendered, f"unescaped {raw!r} reached the page"

"""benchmarks/first_figure.py's split of one visit: the websocket frames (real ForwardMsg
protobufs) and the page's timing turned into assets / session / run / figure / draw, on
the page's clock. No browser, no server; nothing here times anything."""
from __future__ import annotations

import math

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks.first_figure import PAGES, Frames, split


def _frame(frames: Frames, t: float, msg: ForwardMsg) -> None:
    import base64

    frames.on_frame({"timestamp": t, "response": {"opcode": 2,
                                                  "payloadData": base64.b64encode(msg.SerializeToString()).decode()}})


def _visit(element_kind: str, element_id: str) -> Frames:
    f = Frames()
    f.on_request({"type": "Document", "timestamp": 100.0, "wallTime": 5000.0})    # 0.1 s after timeOrigin (below)
    f.on_request({"type": "Script", "timestamp": 100.2, "wallTime": 5000.2})       # not the document: ignored
    f.on_handshake({"timestamp": 101.0})
    hello = ForwardMsg()
    hello.new_session.name = "app"
    _frame(f, 101.2, hello)
    other = ForwardMsg()
    other.delta.new_element.markdown.body = "title"
    _frame(f, 101.5, other)
    fig = ForwardMsg()
    getattr(fig.delta.new_element, element_kind).id = element_id
    _frame(f, 102.0, fig)
    done = ForwardMsg()
    done.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    _frame(f, 102.5, done)
    f.on_frame({"timestamp": 102.6, "response": {"opcode": 1, "payloadData": "text frame"}})      # not a ForwardMsg
    return f


TIMING = {"origin": 5000.0 * 1000 - 100.0,            # timeOrigin 100 ms before the document request
          "resources": [[150.0, 900.0, 2048], [300.0, 1000.0, 1024], [2200.0, 2600.0, 4096]],
          "drawn": 2900.0}


def test_the_instant_viewer_visit_is_split_on_the_pages_clock():
    r = split(_visit("bidi_component", "$$ID-abc-instant_canvas"), TIMING, PAGES["attention"][2])
    # document request at 0.1 s on the page's clock: handshake 1.1, new_session 1.3, figure 2.1, finished 2.6
    assert math.isclose(r["assets"], 1.0) and math.isclose(r["assets_kb"], 3.0)    # the two early resources
    assert math.isclose(r["session"], 0.2)
    assert math.isclose(r["run"], 0.8)
    assert math.isclose(r["draw"], 0.8) and math.isclose(r["total"], 2.9)
    assert math.isclose(r["finished"], 2.6)
    assert math.isclose(r["lazy_kb"], 4.0) and math.isclose(r["lazy"], 0.4)          # loaded after the handshake
    assert r["kb"] > 0


def test_a_lesson_figure_is_found_by_its_key_and_a_missing_one_is_an_error():
    r = split(_visit("plotly_chart", "$$ID-abc-ls_fig_attention_1"), TIMING, PAGES["lesson step"][2])
    assert math.isclose(r["run"], 0.8)
    with pytest.raises(ValueError, match="instant_canvas"):
        split(_visit("plotly_chart", "$$ID-abc-ls_fig_attention_1"), TIMING, PAGES["attention"][2])


def test_each_summary_figure_names_the_floor_measured_beside_it():
    from benchmarks.first_figure import report

    def visit(total):
        return {"total": total, "assets": 0.8, "assets_kb": 2067, "session": 0.02, "run": 0.2, "kb": 19,
                "draw": 1.0, "lazy": 0.5, "lazy_kb": 494}
    rows = {("attention", "warm", 0): [visit(3.3), visit(3.1), visit(2.9)],
            ("bare: one line", "bare", 0): [visit(1.5), visit(1.4)],
            ("bare: one plotly chart", "bare", 0): [visit(3.0)]}
    md = report(rows, 3, True, "")
    lines = [line for line in md.splitlines() if line.startswith("<!-- summary:")]
    assert lines == ["<!-- summary: First figure, new visitor, warm server: /attention (median) | 3.10 s "
                     "(Streamlit's floor here: one line 1.45 s, one plotly chart 3.00 s) | <= 2.5 s | no -->"]
    del rows[("bare: one line", "bare", 0)], rows[("bare: one plotly chart", "bare", 0)]
    assert "3.10 s | <= 2.5 s | no" in report(rows, 3, True, "")          # --no-floor: no floor named
    rows[("attention", "settled", 0)] = [visit(2.4)]
    assert ("<!-- summary: First figure, new visitor, settled server (the warm-up's after-steps done too): "
            "/attention (median) | 2.40 s | <= 2.5 s | yes -->") in report(rows, 1, True, "")

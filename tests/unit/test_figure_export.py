"""The SVG/PDF renderer of ui/widgets/figure_export.py: kaleido + the system Chromium, offline.

Needs Chromium (as the browser tests do): without one these tests say so and skip; the
'no browser' sentence is tested either way.
"""
from __future__ import annotations

import html
import re
import threading

import numpy as np
import plotly.graph_objects as go
import pytest

from ui.widgets import figure_export

needs_browser = pytest.mark.skipif(figure_export.unavailable() is not None,
                                   reason="no Chromium/kaleido here: `apt-get install chromium`, pip install kaleido")


def heatmap(labels: list[str]) -> go.Figure:
    n = len(labels)
    z = np.linspace(0, 1, n * n, dtype=np.float32).reshape(n, n)
    safe = [html.escape(s) for s in labels]     # as every view does before plotly sees a token
    return go.Figure(go.Heatmap(z=z, x=safe, y=safe), layout={"title": {"text": "attention of head 0.3"},
                                                              "width": 500, "height": 400})


@needs_browser
def test_svg_and_pdf_bytes():
    files = figure_export.render_static(heatmap(["The", "cat", "sat"]))
    svg, pdf = files["svg"], files["pdf"]
    assert svg.lstrip().startswith((b"<svg", b"<?xml")), svg[:80]
    assert b"cat" in svg and b"attention of head 0.3" in svg
    assert b'width="500"' in svg and b'height="400"' in svg      # the figure's own size
    assert pdf.startswith(b"%PDF")
    assert b"cdn" not in svg.lower()


@needs_browser
def test_markup_in_token_labels_stays_text():
    svg = figure_export.render_static(heatmap(["<b>bold", "<i>x</i>", "ok"]), formats=("svg",))["svg"].decode()
    assert "<b>" not in svg and "<i>" not in svg
    # plotly writes the escaped label as the literal characters < b >, encoded for XML
    texts = [html.unescape(m) for m in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]
    assert "<b>bold" in texts and "<i>x</i>" in texts, texts
    assert 'font-weight:bold' not in svg.replace(" ", "")


def test_unknown_format_is_an_error():
    with pytest.raises(ValueError):
        figure_export.render_static(heatmap(["a"]), formats=("png ",))


def test_no_browser_is_a_reason(monkeypatch):
    monkeypatch.setenv("CHROMIUM_PATH", "/nonexistent/chromium")
    assert figure_export.browser_path() is None
    if figure_export.kaleido_available():
        assert figure_export.unavailable() == "no_browser"
        with pytest.raises(figure_export.ExportError) as e:
            figure_export.render_static(heatmap(["a"]))
        assert e.value.reason == "no_browser"


def test_busy_when_another_render_holds_the_lock(monkeypatch):
    if figure_export.unavailable():
        pytest.skip("no Chromium/kaleido here")
    assert figure_export._LOCK.acquire(timeout=5)
    try:
        with pytest.raises(figure_export.ExportError) as e:
            figure_export.render_static(heatmap(["a"]), busy_wait=0.1)
        assert e.value.reason == "busy"
    finally:
        figure_export._LOCK.release()


def test_a_hung_render_is_cut_off(monkeypatch):
    if figure_export.unavailable():
        pytest.skip("no Chromium/kaleido here")
    release = threading.Event()

    async def hang(*args, **kwargs):
        import asyncio
        while not release.is_set():
            await asyncio.sleep(0.05)

    monkeypatch.setattr(figure_export, "_draw", hang)
    try:
        with pytest.raises(figure_export.ExportError) as e:
            figure_export.render_static(heatmap(["a"]), timeout=0.3)
        assert e.value.reason == "timeout"
    finally:
        release.set()
    assert figure_export._LOCK.acquire(timeout=5)     # the worker released the lock when it was cancelled
    figure_export._LOCK.release()


def test_sentences_exist_in_both_languages():
    from ui.i18n import STRINGS
    for reason in ("no_kaleido", "no_browser", "busy", "timeout", "failed"):
        entry = STRINGS[f"fx_{reason}"]
        assert entry["en"] and entry["zh"]


def test_file_stem_is_safe():
    assert re.fullmatch(r"[A-Za-z0-9_-]+", figure_export.file_stem("pe_sim_rope/../x y"))


def test_print_copy_hides_the_click_layer_only():
    from viz_core.figure import CLICK_TRACE
    fig = heatmap(["a", "b"])
    fig.add_scatter(x=[0, 1], y=[0, 1], name=CLICK_TRACE)
    out = figure_export.for_print(fig)
    assert [tr.visible for tr in out.data] == [None, False]
    assert fig.data[1].visible is None       # the chart on screen keeps its clicks

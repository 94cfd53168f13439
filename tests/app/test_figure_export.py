"""The '⋮ Download' menu under every figure (ui/widgets/figure_export.py), through AppTest:
Prepare draws the figure (kaleido + the system Chromium) and offers SVG and PDF; without
a browser the menu says so in one sentence; the chart keeps its key and its clicks.
The heads view's charts (model_view, head_map) are the subject: each test opens
/attention?view=heads (the page's default, the instant view, draws in the browser and
has no plotly chart).
"""
from __future__ import annotations

import pytest

from tests.app.helpers import TEXT, chart_ids, open_app, rerun, spec
from ui.widgets import figure_export


def download_keys(at) -> set[str]:
    return {b.key for b in at.get("download_button") if b.key and b.key.startswith("fx_")}


def test_every_main_chart_has_the_menu_and_the_camera_saves_svg():
    at = open_app({"text": TEXT, "view": "heads"})
    keys = {b.key for b in at.button}
    for chart in ("model_view", "head_map"):
        assert chart in chart_ids(at)
        if figure_export.unavailable() is None:
            assert f"fx_{chart}_prepare" in keys, sorted(keys)
    config = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-head_map")][0].proto.config
    assert '"toImageButtonOptions"' in config and '"svg"' in config
    assert "glassbox-attention-head_map" in config
    assert not download_keys(at)     # nothing drawn until asked


@pytest.mark.skipif(figure_export.unavailable() is not None, reason="no Chromium/kaleido here")
def test_prepare_yields_svg_and_pdf_buttons():
    at = open_app({"text": TEXT, "view": "heads"})
    at.button(key="fx_head_map_prepare").click()
    rerun(at)
    buttons = {b.key: b for b in at.get("download_button") if b.key and b.key.startswith("fx_")}
    assert set(buttons) == {"fx_head_map_svg", "fx_head_map_pdf"}
    assert buttons["fx_head_map_svg"].proto.label == "SVG"
    assert not at.warning, [w.value for w in at.warning]
    # the files stay offered on the next run (cached), and the heatmap is unchanged
    before = spec(at, "head_map")
    rerun(at)
    assert download_keys(at) == {"fx_head_map_svg", "fx_head_map_pdf"}
    assert spec(at, "head_map") == before
    # another head is another figure: Prepare again
    at.slider(key="head").set_value(2)
    rerun(at)
    assert "fx_head_map_svg" not in download_keys(at)
    assert "fx_head_map_prepare" in {b.key for b in at.button}


def test_without_a_browser_the_menu_says_so(monkeypatch):
    monkeypatch.setenv("CHROMIUM_PATH", "/nonexistent/chromium")
    at = open_app({"text": TEXT, "view": "heads"})
    assert "fx_head_map_prepare" not in {b.key for b in at.button}
    sentence = "need Chromium or Chrome" if figure_export.kaleido_available() else "need the `kaleido` package"
    assert any(sentence in c.value for c in at.caption), [c.value for c in at.caption]


def test_without_a_browser_in_chinese(monkeypatch):
    monkeypatch.setenv("CHROMIUM_PATH", "/nonexistent/chromium")
    at = open_app({"text": TEXT, "lang": "中文", "view": "heads"})
    if figure_export.kaleido_available():
        assert any("需要服务器上装有 Chromium" in c.value for c in at.caption), [c.value for c in at.caption]


def test_a_failed_render_is_a_sentence_and_prepare_stays(monkeypatch):
    def fail(fig, *args, **kwargs):
        raise figure_export.ExportError("timeout")

    monkeypatch.setattr(figure_export, "render_static", fail)
    monkeypatch.setattr(figure_export, "unavailable", lambda: None)     # also where no browser is installed
    at = open_app({"text": "a figure that fails to draw", "view": "heads"})
    at.button(key="fx_head_map_prepare").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("took too long" in w.value for w in at.warning), [w.value for w in at.warning]
    assert "fx_head_map_prepare" in {b.key for b in at.button}
    assert not download_keys(at)

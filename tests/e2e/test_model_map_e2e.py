"""The model map on the overview page in a real browser: the maps of MiniLM, a GPT-2-,
a LLaMA- and a T5-style model (English and Chinese), a click on the attention box that
opens the attention explorer at that layer, the follow-one-token animation stepping in
the browser and with the page's buttons, and two models side by side.
Screenshots: test-artifacts/screenshots/e2e-map-*.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, click_plotly_point, open_app, wait_for_rerun
from tests.e2e.helpers import SCREENSHOT_DIR, assert_clean, screenshot

TIMEOUT = 90_000
MAP = '[data-testid="stMain"] ' + CHARTS

# the click point of one part: [x, y] of the first click marker whose customdata is [index, ...]
_PART_XY_JS = """
([chart, stack, part]) => {
  const gd = document.querySelectorAll('[data-testid="stPlotlyChart"]')[chart].querySelector(".js-plotly-plot");
  const boxes = gd.layout.meta.boxes;
  const index = boxes.findIndex(b => b[0] === stack && b[1] === part);
  const trace = gd._fullData.find(t => t.name === "click");
  for (let i = 0; i < trace.customdata.length; i++) {
    if (trace.customdata[i][0] === index) return [trace.x[i], trace.y[i]];
  }
  return null;
}
"""
_SVG_TEXT_JS = """
(chart) => document.querySelectorAll('[data-testid="stPlotlyChart"]')[chart].querySelector(".js-plotly-plot")
             .textContent
"""
_ACTIVE_STOP_JS = """
() => {
  const gd = document.querySelector('[data-testid="stMain"] [data-testid="stPlotlyChart"] .js-plotly-plot');
  return gd._fullLayout.sliders[0].active;
}
"""


def shot_map(page: Page, name: str, index: int = 0) -> None:
    """The page, and the map alone at full size (what a reader looks at)."""
    chart = page.locator(MAP).nth(index)
    screenshot(page, name)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1400, "height": 1900})       # the whole map below the app's header
    chart.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    chart.screenshot(path=str(SCREENSHOT_DIR / f"{name}-map.png"))
    page.set_viewport_size({"width": 1400, "height": 1000})


@pytest.mark.parametrize("label,name,blocks", [
    ("MiniLM (BERT, 6×12)", "minilm", "× 6 blocks"),
    ("GPT-2-style decoder", "gpt", "× 2 blocks"),
    ("LLaMA-style decoder", "llama", "× 2 blocks"),
    ("T5-style encoder-decoder", "t5", "× 2 blocks"),
])
def test_map_of_each_style(app_server: str, page: Page, label: str, name: str, blocks: str) -> None:
    open_app(page, app_server, "/", {"model": label}, timeout=TIMEOUT)
    expect(page.locator(MAP).first).to_be_visible(timeout=TIMEOUT)
    text = page.evaluate(_SVG_TEXT_JS, 0)
    assert blocks in text
    assert ("post-norm: after the addition" in text) == (name == "minilm")
    assert ("RoPE" in text) == (name == "llama")
    assert ("Cross-attention" in text) == (name == "t5")
    shot_map(page, f"e2e-map-{name}")
    assert_clean(page)


@pytest.mark.parametrize("label,name,mode", [("MiniLM (BERT, 6×12)", "minilm", "map"),
                                             ("LLaMA-style decoder", "llama", "map"),
                                             ("T5-style encoder-decoder", "t5-follow", "follow")])
def test_map_in_chinese(app_server: str, page: Page, label: str, name: str, mode: str) -> None:
    open_app(page, app_server, "/", {"model": label, "lang": "中文", "mview": mode, "mstep": "3"}, timeout=TIMEOUT)
    expect(page.locator(MAP).first).to_be_visible(timeout=TIMEOUT)
    text = page.evaluate(_SVG_TEXT_JS, 0)
    assert "词元嵌入" in text and "前馈网络" in text
    shot_map(page, f"e2e-map-{name}-zh")
    assert_clean(page)


def test_click_on_attention_opens_the_explorer_at_that_layer(app_server: str, page: Page) -> None:
    open_app(page, app_server, "/", {"mlayer": "3"}, timeout=TIMEOUT)
    expect(page.locator(MAP).first).to_be_visible(timeout=TIMEOUT)
    xy = page.evaluate(_PART_XY_JS, [0, "self", "attn"])
    assert xy is not None
    click_plotly_point(page, 0, xy[0], xy[1])
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.get_by_role("heading", name="Attention explorer")).to_be_visible(timeout=TIMEOUT)
    assert "/attention" in page.url and "layer=3" in page.url
    expect(page.locator(".st-key-layer")).to_contain_text("3")
    # the map's link names the plotly heads view (not the page's default, the instant view)
    expect(page.locator(".st-key-head_map .gtitle")).to_have_text("Layer 3, head 0", timeout=TIMEOUT)
    assert_clean(page)


def test_follow_one_token_steps(app_server: str, page: Page) -> None:
    open_app(page, app_server, "/", {"mview": "follow", "model": "LLaMA-style decoder"}, timeout=TIMEOUT)
    expect(page.locator(MAP).first).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Stop 1 of 15")).to_be_visible(timeout=TIMEOUT)
    shot_map(page, "e2e-map-follow-start")
    # the page's Step button moves one stop (a rerun)
    page.locator(".st-key-map_next button").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.get_by_text("Stop 2 of 15")).to_be_visible(timeout=TIMEOUT)
    assert page.evaluate(_ACTIVE_STOP_JS) == 1
    # plotly's Play button animates in the browser, without a rerun: the slider advances
    page.locator(MAP).first.get_by_text("Play").click()
    page.wait_for_function(f"() => ({_ACTIVE_STOP_JS})() >= 4", timeout=TIMEOUT)
    assert page.glassbox_js_errors == []
    page.locator(MAP).first.get_by_text("Pause").click()
    stopped = page.evaluate(_ACTIVE_STOP_JS)
    page.wait_for_timeout(1200)
    assert page.evaluate(_ACTIVE_STOP_JS) == stopped            # paused: it stays
    shot_map(page, "e2e-map-follow-paused")
    # plotly's own Pause interrupts the Play call, whose promise plotly.js rejects with
    # no reason and does not catch: exactly one "undefined" page error, nothing else
    assert page.glassbox_js_errors == ["undefined"], page.glassbox_js_errors
    page.glassbox_js_errors.clear()
    assert_clean(page)


def test_two_models_side_by_side(app_server: str, page: Page) -> None:
    open_app(page, app_server, "/", {"mview": "compare", "model": "MiniLM (BERT, 6×12)"}, timeout=TIMEOUT)
    expect(page.locator(MAP)).to_have_count(2, timeout=TIMEOUT)
    expect(page.get_by_text("What differs")).to_be_visible(timeout=TIMEOUT)
    shot_map(page, "e2e-map-compare")
    shot_map(page, "e2e-map-compare-b", 1)
    assert_clean(page)

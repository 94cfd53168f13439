"""Presenter mode in a real browser, at projector sizes (1280x720 and 1920x1080).

A presenter link (?present=1) opens with the sidebar folded away (and it still opens
with the arrow), body text >= 24 px and the title >= 40 px, read from the DOM's computed
styles, plotly's tick labels and titles larger than in the normal view, and no chart
wider than the page. The sidebar toggle turns it on and writes the link. Screenshots go
to test-artifacts/screenshots/presenter-*.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 180_000
SIZES = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
TEXT = "the cat sat on the mat"

# Computed sizes in px: the page title, body paragraphs of the main area, plotly's texts,
# where the sidebar is, and how wide the widest chart is against the main area.
_MEASURE_JS = """
() => {
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const main = document.querySelector('[data-testid="stMain"]');
  const h1 = main.querySelector('h1');
  const paras = [...main.querySelectorAll('[data-testid="stMarkdownContainer"] p')]
      .filter((p) => p.textContent.trim() && !p.closest('[data-testid="stCaptionContainer"], [data-testid="stWidgetLabel"], .stTooltipContent, [data-testid="stAlert"]'));
  const ticks = [...main.querySelectorAll('[data-testid="stPlotlyChart"] :is(.xtick, .ytick) text')]
      .map((t) => parseFloat(t.style.fontSize || getComputedStyle(t).fontSize));
  // the smallest tick label of each chart, by the chart's widget key (to name the one that fails)
  const tickByChart = Object.fromEntries([...main.querySelectorAll('[data-testid="stPlotlyChart"]')].map((c, i) => {
      const box = c.closest('[class*="st-key-"]');
      const name = box ? [...box.classList].find((k) => k.startsWith('st-key-')) : `chart ${i}`;
      const sizes = [...c.querySelectorAll(':is(.xtick, .ytick) text')].map((t) => parseFloat(t.style.fontSize || getComputedStyle(t).fontSize));
      return [name, sizes.length ? Math.min(...sizes) : null];
  }));
  const titles = [...main.querySelectorAll('[data-testid="stPlotlyChart"] :is(.gtitle, .xtitle, .ytitle)')]
      .map((t) => parseFloat(t.style.fontSize || getComputedStyle(t).fontSize));
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const box = sidebar ? sidebar.getBoundingClientRect() : null;
  const body = main.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
  const charts = [...main.querySelectorAll('[data-testid="stPlotlyChart"]')].map((c) => c.getBoundingClientRect());
  return {
    root: px(document.documentElement),
    h1: h1 ? px(h1) : null, h1Text: h1 ? h1.textContent : null,
    paragraphs: paras.map(px), ticks, tickByChart, titles,
    sidebarRight: box ? box.right : null,
    bodyLeft: body.left, bodyRight: body.right,
    chartsRight: charts.length ? Math.max(...charts.map((c) => c.right)) : null,
    widestChart: charts.length ? Math.max(...charts.map((c) => c.width)) : null,
  };
}
"""

# (screenshot name, path, extra query): the attention page on its default view (the instant
# viewer, drawn in the browser) and on the heads view (plotly heat maps and their tick labels)
PAGES = [("home", "/", {}), ("attention-instant", "/attention", {}), ("attention", "/attention", {"view": "heads"}),
         ("residual", "/residual", {}), ("positional", "/positional", {})]


def measure(page: Page) -> dict:
    """The sizes once the page has settled: the script idle and two readings 500 ms apart
    the same (plotly lays a chart out after its element arrives; a rerun replaces it)."""
    page.locator('[data-testid="stMain"] h1').first.wait_for(state="visible", timeout=TIMEOUT)
    charts = page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"] .main-svg')
    if charts.count():
        charts.first.wait_for(state="attached", timeout=TIMEOUT)
    if "/attention" in page.url and "view=" not in page.url:      # the instant view: its canvas drawn
        expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    last = None
    for _ in range(20):
        page.wait_for_timeout(500)
        wait_for_rerun(page, timeout=TIMEOUT, start_timeout=0)
        now = page.evaluate(_MEASURE_JS)
        if now == last:
            break
        last = now
    return now


def assert_readable(m: dict, width: int, where: str) -> None:
    assert m["h1"] is not None and m["h1"] >= 40, (where, m["h1"], m["h1Text"])
    assert m["paragraphs"], f"{where}: no body paragraph to measure"
    assert min(m["paragraphs"]) >= 24, (where, m["paragraphs"])
    assert m["sidebarRight"] is None or m["sidebarRight"] <= 1, (where, "sidebar is open", m["sidebarRight"])
    assert m["bodyLeft"] < 60, (where, "the main area does not start at the left edge", m["bodyLeft"])
    if m["ticks"]:
        assert min(m["ticks"]) >= 13, (where, "tick labels too small for a projector",
                                        sorted(set(m["ticks"])), m["tickByChart"])
    if m["titles"]:
        assert min(m["titles"]) >= 18, (where, sorted(set(m["titles"])))
    if m["chartsRight"] is not None:
        assert m["chartsRight"] <= width + 1, (where, "a chart runs past the window", m["chartsRight"])


@pytest.mark.parametrize("size", list(SIZES))
def test_presenter_links_are_readable_on_a_projector(page: Page, app_server: str, size: str) -> None:
    vp = SIZES[size]
    page.set_viewport_size(vp)
    for lang, suffix in (("English", ""), ("中文", "-zh")):
        for name, path, extra in PAGES:
            if lang == "中文" and not name.startswith(("home", "attention")):
                continue
            open_app(page, app_server, path, {"present": "1", "text": TEXT, "lang": lang, **extra}, timeout=TIMEOUT)
            m = measure(page)
            assert_readable(m, vp["width"], f"{name} {lang} {size}")
            expect(page.locator('[data-testid="stExpandSidebarButton"]')).to_be_visible()
            screenshot(page, f"presenter-{name}{suffix}-{size}", full_page=False)
            if name in ("home", "attention"):
                screenshot(page, f"presenter-{name}{suffix}-{size}-full")
    assert_clean(page)


def test_presenter_text_is_larger_than_the_normal_view(page: Page, app_server: str) -> None:
    page.set_viewport_size(SIZES["1080p"])
    open_app(page, app_server, "/attention", {"text": TEXT, "view": "heads"}, timeout=TIMEOUT)
    normal = measure(page)
    open_app(page, app_server, "/attention", {"text": TEXT, "view": "heads", "present": "1"}, timeout=TIMEOUT)
    big = measure(page)
    assert min(big["paragraphs"]) > max(normal["paragraphs"])
    assert min(big["ticks"]) > max(normal["ticks"])      # token labels of the heat maps
    assert min(big["titles"]) > min(normal["titles"])
    assert normal["sidebarRight"] > 100                  # the normal view keeps its sidebar
    assert_clean(page)


def test_the_sidebar_opens_and_the_toggle_turns_presenter_mode_off_and_on(page: Page, app_server: str) -> None:
    page.set_viewport_size(SIZES["720p"])
    open_app(page, app_server, "/", {"present": "1", "text": TEXT}, timeout=TIMEOUT)
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    toggle = page.locator('[data-testid="stSidebar"] .st-key-present__en')
    expect(toggle).to_be_visible(timeout=TIMEOUT)
    expect(toggle).to_contain_text("Presenter mode")
    expect(toggle.locator("input")).to_be_checked()
    screenshot(page, "presenter-sidebar-open-720p", full_page=False)
    # a rerun from the open sidebar (a palette choice) leaves it open
    combo = page.locator('[data-testid="stSidebar"] .st-key-palette__en').get_by_role("combobox")
    combo.click()
    combo.fill("cividis")
    page.get_by_role("option").filter(has_text="cividis").first.click()
    wait_for_rerun(page, timeout=TIMEOUT)
    assert "palette=cividis" in page.url
    assert measure(page)["sidebarRight"] > 100
    toggle.locator("label").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(toggle.locator("input")).not_to_be_checked()
    assert "present=" not in page.url
    m = measure(page)
    assert m["root"] == 16 and min(m["paragraphs"]) < 24     # the normal sizes are back
    toggle.locator("label").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    assert "present=1" in page.url
    m = measure(page)
    assert m["root"] == 24 and min(m["paragraphs"]) >= 24
    screenshot(page, "presenter-toggled-on-720p", full_page=False)
    assert_clean(page)


def test_palette_link_colours_the_heat_map(page: Page, app_server: str) -> None:
    page.set_viewport_size(SIZES["1080p"])
    open_app(page, app_server, "/attention", {"present": "1", "text": TEXT, "palette": "cividis", "view": "heads"},
             timeout=TIMEOUT)
    page.locator(".st-key-head_map .js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=TIMEOUT)
    first = page.evaluate("""() => {
      const gd = document.querySelector('.st-key-head_map .js-plotly-plot');
      return gd._fullData.find((t) => t.type === 'heatmap').colorscale[0][1];
    }""")
    assert first.replace(" ", "").lower() in ("#00224e", "rgb(0,34,78)")     # cividis' first stop
    screenshot(page, "presenter-attention-cividis-1080p")
    assert_clean(page)

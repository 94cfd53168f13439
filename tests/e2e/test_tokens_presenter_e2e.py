"""The "Tokens from anything" page on a projector: its four sections opened in
presenter mode (?present=1: 24 px text, the sidebar folded) at 1280×720, in English and
Chinese. On each, read from the DOM's boxes: nothing is wider than the page (no sideways
scrolling), every chart's tick labels and panel titles lie inside the chart and are drawn,
and no panel title of a chart runs into another title or a tick label (the attention grid's
tick numbers ran into the next row's titles at 24 px). Screenshots:
test-artifacts/screenshots/presenter-tokens-<section>-<lang>.png (the whole page)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 180_000
VIEWPORT = {"width": 1280, "height": 720}
SECTIONS = {"text": 0, "images": 7, "sound": 2, "pairing": 4}   # the plotly charts each draws (text: tables only)

# Per chart: tick labels and subplot titles hidden or outside the chart's own box, and pairs of
# subplot titles of one chart whose boxes overlap; the page's widths (px, 1 px of slack).
MEASURE_JS = """
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const bad = [];
  let labels = 0;
  main.querySelectorAll('[data-testid="stPlotlyChart"]').forEach((chart, c) => {
    const svg = chart.querySelector('.main-svg');
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    const inside = (r) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 &&
                          r.bottom <= box.bottom + 1;
    chart.querySelectorAll('g.xtick text, g.ytick text, g.x2tick text, g.y2tick text, g.annotation-text-g text')
      .forEach((t) => {
        const text = t.textContent.trim();
        if (!text) return;
        labels += 1;
        const style = getComputedStyle(t);
        if (style.display === 'none' || style.visibility === 'hidden' || t.closest('[display="none"]')) {
          bad.push(`chart ${c}: "${text}" hidden`);
        } else if (!inside(t.getBoundingClientRect())) {
          bad.push(`chart ${c}: "${text}" outside its chart`);
        }
      });
    const boxes = (sel) => [...chart.querySelectorAll(sel)].map((t) => [t.textContent.trim(), t.getBoundingClientRect()])
                                                          .filter(([text]) => text);
    const titles = boxes('g.annotation-text-g text');
    const ticks = boxes('g.xtick text, g.ytick text');
    const meet = (ra, rb) => ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 &&
                             rb.top < ra.bottom - 1;
    for (let i = 0; i < titles.length; i++) {
      for (let j = i + 1; j < titles.length; j++) {
        if (meet(titles[i][1], titles[j][1])) bad.push(`chart ${c}: titles "${titles[i][0]}" and "${titles[j][0]}" overlap`);
      }
      for (const [tick, rt] of ticks) {
        if (meet(titles[i][1], rt)) bad.push(`chart ${c}: title "${titles[i][0]}" runs into the tick label "${tick}"`);
      }
    }
  });
  return {bad, labels, wide: main.scrollWidth - main.clientWidth,
          charts: main.querySelectorAll('[data-testid="stPlotlyChart"]').length};
}
"""


@pytest.mark.parametrize("lang", ["English", "中文"])
@pytest.mark.parametrize("section", list(SECTIONS))
def test_tokens_sections_on_a_projector(page: Page, app_server: str, section: str, lang: str) -> None:
    page.set_viewport_size(VIEWPORT)
    open_app(page, app_server, "/tokens", {"present": "1", "lang": lang, "tk_view": section, "tim_i": "3"},
             timeout=TIMEOUT)
    n = SECTIONS[section]
    if n:
        expect(page.locator(CHARTS).nth(n - 1)).to_be_visible(timeout=TIMEOUT)
        page.locator(f"{CHARTS} .main-svg").nth(n - 1).wait_for(state="attached", timeout=TIMEOUT)
    else:
        expect(page.locator('[data-testid="stMain"] table').first).to_be_visible(timeout=TIMEOUT)
    page.wait_for_timeout(600)                   # plotly's first layout (tick labels turn, titles placed)
    m = page.evaluate(MEASURE_JS)
    code = "zh" if lang == "中文" else "en"
    screenshot(page, f"presenter-tokens-{section}-{code}")
    assert m["charts"] >= n and (m["labels"] or not n), m
    assert m["wide"] <= 1, f"the page scrolls sideways by {m['wide']} px"
    assert not m["bad"], m["bad"]
    assert_clean(page)

"""The walk-through's section 9, before attention, in a browser, in English and Chinese: the
four charts drawn (score functions, attention without weights, the model's head, GRU vs
Transformer), the three tables and the two notes; a screenshot of the section in each
language, one viewport at a time (test-artifacts/screenshots/e2e-before-attention-<lang>-<i>.png)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from support.browser import open_app
from tests.e2e.helpers import assert_clean, screenshot

TEXT = "the cat sat on the mat"
TIMEOUT = 120_000
CHARTS = ("ba_scores_chart", "ba_raw_chart", "ba_model_chart", "ba_gru_chart")
TITLES = {"English": "9. Before attention", "中文": "9. 注意力之前"}


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_before_attention_section(page: Page, app_server: str, lang: str) -> None:
    open_app(page, app_server, "/walkthrough", {"text": TEXT, "lang": lang}, timeout=TIMEOUT)
    section = page.locator(".st-key-ba_section")
    section.scroll_into_view_if_needed(timeout=TIMEOUT)
    expect(section.get_by_text(TITLES[lang], exact=False).first).to_be_visible(timeout=TIMEOUT)
    for key in CHARTS:
        chart = section.locator(f".st-key-{key} .js-plotly-plot .main-svg").first
        chart.scroll_into_view_if_needed(timeout=TIMEOUT)
        expect(chart).to_be_visible(timeout=TIMEOUT)
    expect(section.locator(".st-key-ba_scores_chart .heatmaplayer")).to_have_count(1)
    expect(section.locator(".st-key-ba_gru_chart .scatterlayer .trace")).to_have_count(2)
    expect(section.locator("table")).to_have_count(3)
    cost = section.locator("table").nth(2)
    expect(cost.locator("tbody tr")).to_have_count(4)
    for note in ("mis_additive", "mis_rnn"):
        expect(section.locator(f".st-key-{note}")).to_be_visible()
    tag = "zh" if lang == "中文" else "en"
    for i, top in enumerate(section_views(page)):
        page.evaluate(SCROLL_JS, top)
        page.wait_for_timeout(400)
        screenshot(page, f"e2e-before-attention-{tag}-{i + 1}", full_page=False)
    assert_clean(page)


# the section's top and bottom inside Streamlit's scrolling main area (its own scroll, not the document's)
BOUNDS_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const box = document.querySelector('.st-key-ba_section').getBoundingClientRect();
  const top = box.top - main.getBoundingClientRect().top + main.scrollTop;
  return [top, top + box.height, main.clientHeight];
}"""
SCROLL_JS = "(y) => { document.querySelector('[data-testid=\"stMain\"]').scrollTop = y; }"


def section_views(page: Page) -> list[float]:
    """Scroll positions that show the whole section one viewport at a time."""
    top, bottom, height = page.evaluate(BOUNDS_JS)
    step = max(200.0, height - 60)
    out, y = [], max(0.0, top - 80)
    while y < bottom:
        out.append(y)
        y += step
    return out

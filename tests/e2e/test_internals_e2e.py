"""The FFN and residual-stream pages in a real browser: a click on the activation map
opens that neuron's detail, and the A/B difference view (FFN, residual, attention)
draws A, B and A - B, or says why not. Screenshots: test-artifacts/screenshots/e2e-*.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, click_plotly_point, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TEXT = "the cat sat on the mat"
TEXT_B = "the dog sat on the mat"
TIMEOUT = 60_000

_CELL_JS = """
([index, x, y]) => {
  const gd = document.querySelectorAll('[data-testid="stPlotlyChart"]')[index].querySelector(".js-plotly-plot");
  for (const trace of gd._fullData) {
    if (trace.name !== "click") continue;
    for (let i = 0; i < trace.customdata.length; i++) {
      if (trace.x[i] === x && trace.y[i] === y) return trace.customdata[i];
    }
  }
  return null;
}
"""
_TITLES_JS = """
() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')]
        .map(gd => (gd.layout.title && gd.layout.title.text) || "")
"""


def _neuron_value(page: Page) -> int:
    return int(page.locator(".st-key-neuron input").input_value())


def test_ffn_click_opens_neuron_detail(app_server: str, page: Page) -> None:
    open_app(page, app_server, "/ffn", {"text": TEXT}, timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(3, timeout=TIMEOUT)   # map, neuron bars, vocab bars
    expect(page.locator(".st-key-neuron_detail")).to_contain_text("Layer 0, neuron 0")
    column, row = 3, 2
    cell = page.evaluate(_CELL_JS, [0, column, row])                 # [pos, neuron id] of that cell
    assert cell is not None and cell[0] == row
    neuron = int(cell[1])
    assert neuron != 0                                               # the click must change something
    click_plotly_point(page, 0, column, row)
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator(".st-key-neuron_detail")).to_contain_text(f"Layer 0, neuron {neuron}", timeout=TIMEOUT)
    assert _neuron_value(page) == neuron
    assert f"neuron={neuron}" in page.url                             # the link reproduces the view
    # the detail shows the tokens: one bar per token of the text
    bars = page.locator(".st-key-neuron_detail " + CHARTS).first
    expect(bars).to_contain_text("cat")
    screenshot(page, "e2e-ffn-neuron-detail")
    assert_clean(page)


@pytest.mark.parametrize("lang,name,total", [("English", "GPT-2 small", "124,439,808"),
                                              ("中文", "GPT-2 小型", "124,439,808")])
def test_size_calculator_counts_a_named_model(app_server: str, page: Page, lang: str, name: str, total: str) -> None:
    """The FFN page's size calculator: the loaded MiniLM checked against its own count, then
    GPT-2 small picked from the list, its total and the note on the notes' "768 characters"."""
    open_app(page, app_server, "/ffn", {"fview": "size", "lang": lang}, timeout=TIMEOUT)
    main = page.locator('[data-testid="stMain"]')
    expect(main).to_contain_text("22,565,376", timeout=TIMEOUT)            # MiniLM, formula = its own count
    combo = page.locator(".st-key-sz_preset").get_by_role("combobox")
    combo.click()
    combo.fill("GPT-2")
    page.get_by_role("option", name=name).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(main).to_contain_text(total, timeout=TIMEOUT)
    expect(page.locator(".st-key-mis_gpt2_width")).to_contain_text("768")
    expect(page.locator(".st-key-sz_d input")).to_have_value("768")
    screenshot(page, f"e2e-ffn-size-calculator-{'zh' if lang == '中文' else 'en'}")
    assert_clean(page)


@pytest.mark.parametrize("path,query,n_charts", [
    ("/ffn", {"fview": "compare"}, 3),
    ("/residual", {"rview": "compare"}, 1),
    ("/attention", {"view": "compare"}, 3),
])
def test_ab_difference_view(app_server: str, page: Page, path: str, query: dict, n_charts: int) -> None:
    open_app(page, app_server, path, {"text": TEXT, **query}, timeout=TIMEOUT)
    expect(page.get_by_text("Type text B above")).to_be_visible(timeout=TIMEOUT)
    box = page.locator(".st-key-text_b input")
    box.fill(TEXT_B)
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.get_by_text("1 position(s) differ")).to_be_visible(timeout=TIMEOUT)
    charts = page.locator('[data-testid="stMain"] ' + CHARTS)
    expect(charts).to_have_count(n_charts, timeout=TIMEOUT)
    titles = page.evaluate(_TITLES_JS)
    if n_charts == 3:
        assert sum("A − B" in title for title in titles) == 1, titles
    screenshot(page, f"e2e-ab{path.replace('/', '-')}")
    # a text B of another length is refused with a note, not a traceback
    box.fill("the dog sat on a big mat")
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.get_by_text("same number of tokens")).to_be_visible(timeout=TIMEOUT)
    assert_clean(page)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_residual_compression_view(app_server: str, page: Page, lang: str) -> None:
    """The CRATE view: the two curves drawn and every trained text model in the table."""
    open_app(page, app_server, "/residual", {"text": TEXT, "rview": "compression", "lang": lang}, timeout=TIMEOUT)
    view = page.locator(".st-key-cr_view")
    expect(view.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    expect(view.locator("table tbody tr").first).to_contain_text("MiniLM")
    assert view.locator("table tbody tr").count() >= 3
    screenshot(page, f"e2e-residual-compression-{'zh' if lang == '中文' else 'en'}")
    assert_clean(page)

"""The positional-encoding lab in a real browser (see conftest.py): switch schemes and
sections and see the charts change. Screenshots: test-artifacts/screenshots/e2e-pe-*.png.
"""
from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000  # ms; the machine may be busy, nothing here is a timing assertion


def chart_titles(page: Page) -> list[str]:
    """The non-empty titles of the page's plotly charts, in page order."""
    return [s.strip() for s in page.locator(f"{CHARTS} .gtitle").all_text_contents() if s.strip()]


def wait_for_titles(page: Page, expected: list[str]) -> None:
    """Plotly redraws after the rerun's message arrives: poll until the titles match."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while chart_titles(page) != expected:
        assert time.monotonic() < deadline, f"chart titles {chart_titles(page)} != {expected}"
        page.wait_for_timeout(200)


def open_lab(page: Page, base_url: str, query: str = "") -> None:
    open_app(page, base_url, "/positional", query, timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Positional-encoding lab", timeout=TIMEOUT)


def section(page: Page, label: str) -> None:
    page.locator('[class*="st-key-pe_view"]').get_by_text(label, exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)


def shows(page: Page, shot: str, *, section_label: str | None = None, text: str | None = None,
          charts: int | None = None, legend: int | None = None) -> None:
    """Open section `section_label` (None: the one on screen), wait until the page shows
    `text`, `charts` plotly charts and `legend` legend entries in the first one (each
    where given), then save the screenshot `shot`."""
    if section_label is not None:
        section(page, section_label)
    if text is not None:
        expect(page.get_by_text(text, exact=False)).to_be_visible(timeout=TIMEOUT)
    if charts is not None:
        expect(page.locator(CHARTS)).to_have_count(charts, timeout=TIMEOUT)
    if legend is not None:
        expect(page.locator(CHARTS).first.locator(".legendtext")).to_have_count(legend, timeout=TIMEOUT)
    screenshot(page, shot)


def test_switching_schemes_changes_the_charts(page: Page, app_server: str):
    open_lab(page, app_server)
    # default: sinusoidal, learned (MiniLM), RoPE -> a table and a similarity map each, plus the curves
    expect(page.locator(CHARTS)).to_have_count(7, timeout=TIMEOUT)
    wait_for_titles(page, ["sinusoidal", "learned", "RoPE"])
    legend = page.locator(CHARTS).nth(6).locator(".legendtext")
    expect(legend).to_have_text(["sinusoidal", "learned", "RoPE"], timeout=TIMEOUT)
    screenshot(page, "e2e-pe-01-tables")

    # take RoPE out (Backspace removes the last chip): its table, map and curve disappear
    box = page.locator(".st-key-pe_schemes input")
    box.click()
    box.press("Backspace")
    page.keyboard.press("Escape")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(5, timeout=TIMEOUT)
    wait_for_titles(page, ["sinusoidal", "learned"])
    expect(page.locator(CHARTS).nth(4).locator(".legendtext")).to_have_text(["sinusoidal", "learned"],
                                                                            timeout=TIMEOUT)
    # add ALiBi: no vectors, so a sentence instead of a table
    box.click()
    box.fill("ALiBi")
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    page.keyboard.press("Escape")
    expect(page.get_by_text("ALiBi has no position vectors", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(5, timeout=TIMEOUT)
    screenshot(page, "e2e-pe-02-schemes-switched")
    assert_clean(page)


def test_long_sequences_show_where_the_learned_table_ends(page: Page, app_server: str):
    open_lab(page, app_server, "pe_n=700")
    expect(page.get_by_text("has learned vectors for 512 positions only", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS).nth(1).get_by_text("table ends at 512")).to_have_count(1, timeout=TIMEOUT)
    screenshot(page, "e2e-pe-03-table-end")
    assert_clean(page)


def test_odd_dimension_is_explained(page: Page, app_server: str):
    open_lab(page, app_server, "pe_d=63")
    expect(page.get_by_text("needs an even dimension; 63 is odd", exact=False)).to_have_count(2, timeout=TIMEOUT)
    assert_clean(page)


def test_sections_draw(page: Page, app_server: str):
    open_lab(page, app_server)
    shows(page, "e2e-pe-04-shift", section_label="Sinusoidal shift", text="Largest |M_k · PE(pos) − PE(pos + k)|",
          charts=2)
    shows(page, "e2e-pe-05-rope", section_label="RoPE", text="The curves lie on top of each other")
    shows(page, "e2e-pe-06-bias", section_label="ALiBi & relative", charts=5)
    assert_clean(page)


def test_checkpoint_sections(page: Page, app_server: str):
    open_lab(page, app_server, "pe_view=attention")          # the default task: reverse
    # the knobs panel (folded) draws RoPE's wavelengths and T5's bucket map; the maps, the
    # entropy per head and the three permutation panels follow
    shows(page, "e2e-pe-07-attention", text="No positions: the attention permutes with the tokens", charts=7)
    section(page, "Length extrapolation")
    expect(page.locator(CHARTS)).to_have_count(3, timeout=TIMEOUT)
    expect(page.locator(CHARTS).last.locator(".legendtext")).to_have_count(6, timeout=TIMEOUT)
    screenshot(page, "e2e-pe-08-extrapolation")
    shows(page, "e2e-pe-09-shift-test", section_label="Shift test", charts=2)
    assert_clean(page)


def test_chinese(page: Page, app_server: str):
    open_app(page, app_server, "/positional", "lang=中文&pe_view=rope", timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("位置编码实验室", timeout=TIMEOUT)
    expect(page.get_by_text("这些曲线完全重合", exact=False)).to_be_visible(timeout=TIMEOUT)
    page.get_by_text("公式与计算示例").click()
    screenshot(page, "e2e-pe-10-zh-rope")
    assert_clean(page)


def test_geometry_section(page: Page, app_server: str):
    open_lab(page, app_server, "pe_view=geometry")
    expect(page.get_by_text("What to look for (no PE)", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(7, timeout=TIMEOUT)          # one head + six schemes
    expect(page.locator(CHARTS).first.get_by_text("PC1 · ", exact=False)).to_have_count(1, timeout=TIMEOUT)
    screenshot(page, "e2e-pe-11-geometry")
    assert_clean(page)
    open_app(page, app_server, "/positional", "lang=中文&pe_view=geometry&pe_gm=toy:verse-lm&pe_g_probes=2",
             timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("位置编码实验室", timeout=TIMEOUT)
    expect(page.get_by_text("观察要点（RoPE）", exact=False).first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(7, timeout=TIMEOUT)
    screenshot(page, "e2e-pe-12-zh-geometry")
    assert_clean(page)


def test_before_sinusoidal_section(page: Page, app_server: str):
    """The naive schemes beside sinusoidal: five distance panels drawn, the gap table and the
    notes' corrected example; in English by the section radio, in Chinese by a link."""
    open_lab(page, app_server)
    shows(page, "e2e-pe-11-naive", section_label="Before sinusoidal", charts=1,
          text="The same gap, measured")
    expect(page.locator(CHARTS).first.locator(".heatmaplayer")).to_have_count(5, timeout=TIMEOUT)
    expect(page.get_by_text("0, 0.2, 0.4, 0.6, 0.8, 1", exact=True)).to_be_visible()
    open_app(page, app_server, "/positional", "lang=中文&pe_view=naive", timeout=TIMEOUT)
    expect(page.get_by_text("同样的间隔，实际量一量")).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-pe-12-naive-zh")
    assert_clean(page)

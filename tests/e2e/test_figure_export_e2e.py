"""SVG/PDF downloads of a figure in a real browser: open the head map's '⋮ Download' menu,
press Prepare, download both files (playwright's `expect_download`) and read them back;
the chart's own camera button saves an SVG. English and Chinese; no request leaves the
machine. The head map is the heads view's (/attention?view=heads; the page opens on the
instant view, drawn in the browser, which has no plotly chart). Screenshots: test-artifacts/screenshots/figure-export-*.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot
from ui.widgets import figure_export

TIMEOUT = 180_000
TEXT = "the <b>cat</b> sat"

pytestmark = pytest.mark.skipif(figure_export.unavailable() is not None, reason="no Chromium/kaleido for the server")

LABELS = {"English": ("⋮ Download", "Prepare SVG / PDF"), "中文": ("⋮ 下载", "生成 SVG / PDF")}


def open_menu(page: Page, lang: str):
    menu_label, prepare_label = LABELS[lang]
    menu = page.locator(".st-key-fx_head_map")
    menu.get_by_role("button", name=menu_label).click()
    pop = page.locator('[data-testid="stPopoverBody"]').filter(has=page.get_by_role("button", name=prepare_label))
    expect(pop).to_be_visible(timeout=TIMEOUT)
    return pop


@pytest.mark.parametrize("lang", list(LABELS))
def test_prepare_and_download_svg_and_pdf(page: Page, app_server: str, tmp_path: Path, lang: str) -> None:
    open_app(page, app_server, "/attention", {"text": TEXT, "lang": lang, "view": "heads"}, timeout=TIMEOUT)
    suffix = "" if lang == "English" else "-zh"
    pop = open_menu(page, lang)
    screenshot(page, f"figure-export-menu{suffix}", full_page=False)
    pop.get_by_role("button", name=LABELS[lang][1]).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    svg_button = page.locator(".st-key-fx_head_map_svg").get_by_role("button")
    expect(svg_button).to_be_visible(timeout=TIMEOUT)
    screenshot(page, f"figure-export-ready{suffix}", full_page=False)

    with page.expect_download(timeout=TIMEOUT) as info:
        svg_button.click()
    download = info.value
    assert download.suggested_filename == "glassbox-attention-head_map.svg"
    svg = Path(download.path()).read_bytes()
    assert svg.lstrip().startswith((b"<svg", b"<?xml"))
    assert b"cat" in svg and b"<b>" not in svg          # the token '<b>' is text, not markup

    pdf_button = page.locator(".st-key-fx_head_map_pdf").get_by_role("button")
    if not pdf_button.is_visible():                      # a rerun may have closed the popover
        open_menu(page, lang)
    with page.expect_download(timeout=TIMEOUT) as info:
        pdf_button.click()
    assert info.value.suggested_filename == "glassbox-attention-head_map.pdf"
    assert Path(info.value.path()).read_bytes().startswith(b"%PDF")
    assert_clean(page)


def test_camera_button_saves_svg(page: Page, app_server: str) -> None:
    open_app(page, app_server, "/attention", {"text": "the cat sat", "view": "heads"}, timeout=TIMEOUT)
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(1)      # the head map
    chart.hover()
    camera = chart.locator('.modebar-btn[data-title*="Download plot"]')
    expect(camera).to_be_visible(timeout=TIMEOUT)
    with page.expect_download(timeout=TIMEOUT) as info:
        camera.click()
    assert info.value.suggested_filename == "glassbox-attention-head_map.svg"
    assert_clean(page)

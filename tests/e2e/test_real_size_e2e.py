"""Pages at real size (issue 32) in a real browser: a 24-layer, 14-head model with 2
key/value heads (tests/real_size.py: Qwen2.5-0.5B's shape, narrow and random) loaded
THROUGH THE "Load a model" PANEL, then every page opened from the sidebar's navigation in
the same session (the loaded model stays selected), in English; the attention page and
the overview again in Chinese. Screenshots: test-artifacts/screenshots/e2e-real-size-*.png."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests import real_size
from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000
LOAD_TIMEOUT = 180_000      # the parity badge imports transformers; nothing here is a timing assertion
TEXT = "The cat sat on the mat, and the dog ran."
# page path -> charts it draws at least (on its first view); lessons: one figure a step; the
# attention page opens on the instant view (no plotly chart: its viewer is checked below)
PAGES = {"lessons": 1, "attention": 0, "positional": 1, "masks": 4, "beyond": 2, "walkthrough": 6, "ffn": 3,
         "residual": 2, "attribution": 2, "generate": 3, "training": 0}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return real_size.save(tmp_path_factory.mktemp("e2e-real-size"))


def load_through_panel(page: Page, path: str) -> None:
    """Type the folder into "Load a model" and press Load (a second press only when the
    first left no outcome: see tests/e2e/test_model_loader_e2e.py)."""
    side = page.locator('[data-testid="stSidebar"]')
    box = side.locator(".st-key-_ml_source input")
    if not box.is_visible():
        side.locator('[data-testid="stExpander"] summary').filter(has_text="Load a model").click()
    box.fill(path)
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    joined = side.get_by_text("joined the model picker", exact=False).first
    for attempt in range(2):
        side.locator(".st-key-_ml_load button").click()
        wait_for_rerun(page, timeout=LOAD_TIMEOUT)
        try:
            expect(joined).to_be_visible(timeout=TIMEOUT if attempt else 15_000)
            return
        except AssertionError:
            if attempt:
                raise


def go(page: Page, path: str) -> None:
    """Open a page from the sidebar's navigation: the same session, so the loaded model stays."""
    page.locator(f'[data-testid="stSidebarNav"] a[href$="/{path}"]').first.click()
    wait_for_rerun(page, timeout=TIMEOUT)


def model_selected(page: Page) -> None:
    expect(page.locator('[data-testid="stSidebar"] .st-key-model input')).to_have_value(
        re.compile(f"^{real_size.NAME}"), timeout=TIMEOUT)


def page_ok(page: Page, charts: int) -> None:
    model_selected(page)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
    if charts:
        expect(page.locator(f'[data-testid="stMain"] {CHARTS}').nth(charts - 1)).to_be_attached(timeout=TIMEOUT)


def instant_view(page: Page, lang: str, label: str | None, heading: str, name: str) -> None:
    """The instant view (chosen by its `label`, or None where it is already shown: the
    page's default) holds all 336 heads in a grid about half a screen high, so the head map
    below it stays in view; a click on the last tile selects layer 23, head 13."""
    if label is not None:
        page.locator(f".st-key-view__{lang}").get_by_text(label, exact=True).click()
        wait_for_rerun(page, timeout=TIMEOUT)
    box = page.locator(".gb-att")
    expect(box).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    box.locator(".gb-grid").scroll_into_view_if_needed()
    grid = box.locator(".gb-grid").bounding_box()
    assert grid and grid["height"] <= 0.6 * page.viewport_size["height"], grid
    tile = box.evaluate(f"(el) => el.__gb.tileCenter({real_size.LAYERS - 1}, {real_size.HEADS - 1})")
    page.mouse.click(tile["x"], tile["y"])
    expect(page.locator(".gb-heading")).to_have_text(heading, timeout=TIMEOUT)
    wait_for_rerun(page, timeout=TIMEOUT)                  # the sliders follow the browser's selection
    box.locator(".gb-grid").scroll_into_view_if_needed()
    screenshot(page, name, full_page=False)


def test_every_page_on_the_24_layer_gqa_model(page: Page, app_server: str, folder) -> None:
    open_app(page, app_server, "/", query={"text": TEXT}, timeout=LOAD_TIMEOUT)
    load_through_panel(page, str(folder))
    page_ok(page, 1)
    map_text = page.locator(f'[data-testid="stMain"] {CHARTS}').first
    expect(map_text).to_contain_text("× 24 blocks", timeout=TIMEOUT)
    expect(map_text).to_contain_text("14 heads · 2 K/V heads")
    screenshot(page, "e2e-real-size-home")
    for path, charts in PAGES.items():
        go(page, path)
        page_ok(page, charts)
        if path == "attention":
            expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
        screenshot(page, f"e2e-real-size-{path}")
    go(page, "attention")
    instant_view(page, "en", None, "Layer 23, head 13", "e2e-real-size-attention-instant")
    assert_clean(page)

    # Chinese: the language switch keeps the session and its loaded model
    page.locator(".st-key-lang").get_by_text("中文", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    page_ok(page, 0)
    checked = page.locator(".st-key-view__zh label").filter(has=page.locator("input:checked"))
    expect(checked).to_have_text("即时（浏览器内）", timeout=TIMEOUT)                  # the view is kept
    instant_view(page, "zh", None, "第 23 层，第 13 个头", "e2e-real-size-attention-instant-zh")
    page.locator(".st-key-view__zh").get_by_text("注意力头", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    page_ok(page, 2)
    screenshot(page, "e2e-real-size-attention-zh")
    page.locator('[data-testid="stSidebarNav"] a').first.click()                  # the overview
    wait_for_rerun(page, timeout=TIMEOUT)
    page_ok(page, 1)
    expect(page.locator(f'[data-testid="stMain"] {CHARTS}').first).to_contain_text("× 24", timeout=TIMEOUT)
    screenshot(page, "e2e-real-size-home-zh")
    assert_clean(page)

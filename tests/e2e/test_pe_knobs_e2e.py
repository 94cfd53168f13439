"""The positional knobs and "train short, test long" in a real browser: a teacher's link
opens the knobs, turning one redraws the maps, the length curves and the distance profile
draw, in English and Chinese. Screenshots: test-artifacts/screenshots/e2e-pek-*.png."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 120_000  # ms; the machine may be busy, nothing here is a timing assertion


def open_lab(page: Page, base_url: str, query: str) -> None:
    open_app(page, base_url, "/positional", query, timeout=TIMEOUT)
    expect(page.locator("h1")).to_be_visible(timeout=TIMEOUT)


def test_a_link_opens_the_knobs_and_a_knob_redraws(page: Page, app_server: str):
    open_lab(page, app_server, "pe_view=attention&pe_task=copy&pe_k_theta=50.0&pe_k_temp=99")
    expect(page.get_by_text("Knobs in effect: RoPE θ = 50; T = 20.", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("was adjusted to", exact=False).first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator('[class*="st-key-pe_kfig_wave"]')).to_be_visible(timeout=TIMEOUT)
    expect(page.locator('[class*="st-key-pe_entropy"]')).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-pek-attention-link")
    assert_clean(page)
    box = page.locator('[class*="st-key-pe_k_temp"] input')
    box.fill("0.5")
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.get_by_text("T = 0.5", exact=False).first).to_be_visible(timeout=TIMEOUT)
    assert "pe_k_temp=0.5" in page.url
    assert_clean(page)


def test_train_short_test_long_curves_and_distance(page: Page, app_server: str):
    open_lab(page, app_server, "pe_view=length")
    expect(page.locator('[class*="st-key-pe_l_curve"]')).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Train Short, Test Long", exact=False).first).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-pek-length-curve")
    assert_clean(page)
    open_lab(page, app_server, "pe_view=length&pe_l_view=distance&pe_k_alibi=4.0&lang=中文")
    expect(page.locator('[class*="st-key-pe_l_distance"]')).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("当前生效的调整", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS).last.locator(".legendtext").first).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-pek-length-distance-zh")
    assert_clean(page)


def test_geometry_side_by_side_on_the_language_models(page: Page, app_server: str):
    open_lab(page, app_server, "pe_view=geometry&pe_gset=pe64&pe_gm=toy:pe64-rope")
    expect(page.locator('[class*="st-key-pe_g_side_relative"]')).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(7, timeout=TIMEOUT)          # one head + six schemes
    screenshot(page, "e2e-pek-geometry-pe64")
    assert_clean(page)


def test_presenter_mode_on_the_length_curves(page: Page, app_server: str):
    open_lab(page, app_server, "pe_view=length&present=1&lang=中文&pe_k_theta=500.0")
    expect(page.locator('[class*="st-key-pe_l_curve"]')).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("RoPE θ = 500", exact=False).first).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-pek-length-present-zh")
    assert_clean(page)

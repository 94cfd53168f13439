"""The training lab in a real browser: start a short run, watch it live, see the curves
and the step scrubber, replay it, and open the trained model in the attention explorer."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 60_000
TRAIN_TIMEOUT = 240_000     # a busy CI machine; nothing here is a timing assertion


def test_short_run_curves_scrubber_replay_and_inspect(page: Page, app_server: str):
    open_app(page, app_server, "/training", timeout=TIMEOUT)
    expect(page.locator("h1")).to_contain_text("Training lab")
    steps = page.locator(".st-key-tr_steps_reverse input")
    steps.fill("150")
    page.locator(".st-key-tr_every input").fill("25")
    page.get_by_role("button", name="Start training").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    # live: a progress bar and the Stop button while it trains
    expect(page.get_by_role("button", name="Stop")).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-train-01-live")

    expect(page.get_by_text("Training finished", exact=False)).to_be_visible(timeout=TRAIN_TIMEOUT)
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.get_by_text("Step 150/150", exact=False)).to_be_visible()
    # curves (loss, accuracy, learning rate) and the scrubber over the snapshots
    curves = page.locator(CHARTS).first
    expect(curves.locator(".gtitle, .annotation-text").filter(has_text="accuracy")).to_have_count(1)
    scrub = page.get_by_role("slider", name="Step to inspect")
    expect(scrub).to_have_attribute("aria-valuetext", "150")     # the last snapshot
    # replay: plotly's own play button and step slider under the maps
    replay = page.locator(CHARTS).last
    replay.scroll_into_view_if_needed()
    expect(replay.locator(".slider-container")).to_have_count(1)
    expect(replay.locator(".updatemenu-button").filter(has_text="Play")).to_have_count(1)
    screenshot(page, "e2e-train-02-done")

    # scrub back with the keyboard: the step metric follows
    scrub.focus()
    page.keyboard.press("Home")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("0")

    # the trained model is in the picker; the attention explorer opens it
    picker = page.locator('[data-testid="stSidebar"]').get_by_role("combobox", name="Model")
    expect(picker).to_have_value("Trained: Reverse · sinusoidal (#1)")
    page.get_by_role("link", name="Open in the attention explorer").click()
    page.wait_for_url("**/attention**", timeout=TIMEOUT)
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(picker).to_have_value("Trained: Reverse · sinusoidal (#1)")
    # the explorer opens on its default view: every head drawn in the browser
    expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    screenshot(page, "e2e-train-03-attention")
    assert_clean(page)

"""The tokens page's Pairing (CLIP-style) section in a real browser: the batch's ten pictures,
its similarity matrix (10 × 10, captions on the x axis), a held-out digit and its caption
probabilities drawn (four charts); an uploaded picture of a digit (dark ink on white)
classified; the section in Chinese by a link, with the Chinese captions.
Screenshots: test-artifacts/screenshots/e2e-tokens-pairing-*.png."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000  # ms; the machine may be busy, nothing here is a timing assertion


def test_pairing_section(page: Page, app_server: str, tmp_path: Path):
    open_app(page, app_server, "/tokens", "tk_view=pairing&tpr_seed=2&tpr_i=7", timeout=TIMEOUT)
    expect(page.get_by_text("One batch: the similarity matrix and the loss")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(4, timeout=TIMEOUT)
    sim = page.locator(CHARTS).nth(1)
    expect(sim.locator(".heatmaplayer")).to_have_count(1, timeout=TIMEOUT)
    expect(sim.locator(".xtick").filter(has_text="seven")).to_have_count(1)
    expect(page.get_by_text("The contrastive loss of this batch, by hand")).to_be_visible()
    screenshot(page, "e2e-tokens-pairing-01-batch")
    assert_clean(page)

    import numpy as np
    from PIL import Image

    from lab import pairing

    images, labels = pairing.held_out()
    i = int(np.flatnonzero(labels == 3)[0])
    photo = tmp_path / "three.png"
    Image.fromarray(((1.0 - np.kron(images[i], np.ones((16, 16)))) * 255).astype(np.uint8)).save(photo)
    page.locator('[class*="st-key-tpr_src"]').get_by_text("my own picture", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    upload = page.locator(".st-key-tpr_upload input[type=file]")
    expect(upload).to_have_count(1, timeout=TIMEOUT)
    upload.set_input_files(str(photo))
    expect(page.get_by_text("Dark strokes on a light background", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(4, timeout=TIMEOUT)
    expect(page.get_by_text("Nearest caption:", exact=False)).to_be_visible()
    page.locator(CHARTS).nth(3).scroll_into_view_if_needed()
    screenshot(page, "e2e-tokens-pairing-02-upload")
    assert_clean(page)

    open_app(page, app_server, "/tokens", "lang=中文&tk_view=pairing&tpr_seed=2&tpr_i=7", timeout=TIMEOUT)
    expect(page.get_by_text("一个批次：相似度矩阵和损失")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(4, timeout=TIMEOUT)
    expect(page.locator(CHARTS).nth(1).locator(".xtick").filter(has_text="七")).to_have_count(1)
    screenshot(page, "e2e-tokens-pairing-03-zh")
    assert_clean(page)

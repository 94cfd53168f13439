"""The tokens page's Images (ViT) section in a real browser: a held-out digit cut into patches,
the sequence, the small ViT's attention over the picture and the shuffle test drawn (four
charts), an uploaded PNG cut into patches, and the section in Chinese by a link.
Screenshots: test-artifacts/screenshots/e2e-tokens-images-*.png."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000  # ms; the machine may be busy, nothing here is a timing assertion


def test_images_section(page: Page, app_server: str, tmp_path: Path):
    open_app(page, app_server, "/tokens", "tk_view=images&tim_i=3", timeout=TIMEOUT)
    expect(page.get_by_text("A small ViT reading the digits")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(5, timeout=TIMEOUT)
    expect(page.locator(CHARTS).nth(3).locator(".heatmaplayer")).to_have_count(9, timeout=TIMEOUT)
    expect(page.get_by_text("The shuffle test", exact=True)).to_be_visible()
    screenshot(page, "e2e-tokens-images-01-digit")
    assert_clean(page)

    from PIL import Image

    photo = tmp_path / "gradient.png"
    Image.linear_gradient("L").resize((320, 200)).save(photo)
    page.locator('[class*="st-key-tim_src"]').get_by_text("my own picture", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    upload = page.locator(".st-key-tim_upload input[type=file]")
    expect(upload).to_have_count(1, timeout=TIMEOUT)
    upload.set_input_files(str(photo))
    expect(page.get_by_text("shown shrunk to 256×160", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-images-02-upload")
    assert_clean(page)

    open_app(page, app_server, "/tokens", "lang=中文&tk_view=images&tim_i=3", timeout=TIMEOUT)
    expect(page.get_by_text("一个读手写数字的小 ViT")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(5, timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-images-03-zh")
    assert_clean(page)

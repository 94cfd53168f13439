"""The tokens page's Images (ViT) section in a real browser: a held-out digit cut into patches,
the sequence, the two position tables (learned, 2-D sin-cos), the small ViT's attention
over the picture and the shuffle test drawn (seven charts), a ViT trained live in the
session (300 steps), an uploaded PNG cut into patches and looked at by a tiny random Hugging
Face ViT saved to a temporary folder, and the section in Chinese by a link.
Screenshots: test-artifacts/screenshots/e2e-tokens-images-*.png."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000  # ms; the machine may be busy, nothing here is a timing assertion



def look_with_hf_vit(page: Page, folder: Path, heading: str) -> None:
    """Name the Hugging Face ViT folder, ask for it, and wait for its labels' heading."""
    box = page.locator(".st-key-tim_hf_source input")
    box.fill(str(folder))
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    page.locator(".st-key-tim_hf_go button").click()
    expect(page.get_by_text(heading)).to_be_visible(timeout=TIMEOUT)

def test_images_section(page: Page, app_server: str, tmp_path: Path):
    open_app(page, app_server, "/tokens", "tk_view=images&tim_i=3", timeout=TIMEOUT)
    expect(page.get_by_text("A small ViT reading the digits")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(7, timeout=TIMEOUT)
    expect(page.locator(CHARTS).nth(4).locator(".heatmaplayer")).to_have_count(16, timeout=TIMEOUT)   # 2-D sin-cos
    expect(page.locator(CHARTS).nth(5).locator(".heatmaplayer")).to_have_count(9, timeout=TIMEOUT)
    expect(page.get_by_text("The shuffle test", exact=True)).to_be_visible()
    screenshot(page, "e2e-tokens-images-01-digit")
    assert_clean(page)

    # live training: 300 steps (the default) of the sin-cos ViT, then its accuracy replaces the shipped one in the table
    page.get_by_text("Train the small ViT yourself").click()
    page.locator('[class*="st-key-tim_live_pos"]').get_by_text("ViT, 2-D sinusoidal positions (fixed)").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    page.locator(".st-key-tim_live_go button").click()
    expect(page.get_by_text("trained in this session: 300 steps", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-images-04-live")
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

    # a tiny random Hugging Face ViT saved to a folder (nothing downloaded) looks at the photo
    import torch
    from transformers import ViTConfig, ViTForImageClassification, ViTImageProcessor

    cfg = ViTConfig(image_size=32, patch_size=8, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=37, num_labels=6, id2label={i: f"label{i}" for i in range(6)})
    torch.manual_seed(0)
    ViTForImageClassification(cfg).save_pretrained(tmp_path / "vit")
    ViTImageProcessor(size={"height": 32, "width": 32}).save_pretrained(tmp_path / "vit")
    look_with_hf_vit(page, tmp_path / "vit", "The five most likely labels")
    expect(page.locator(CHARTS)).to_have_count(4, timeout=TIMEOUT)      # picture, patches, photo + rollout, heads
    page.locator(".st-key-tim_hf_heads").scroll_into_view_if_needed()
    screenshot(page, "e2e-tokens-images-05-hf-vit")
    assert_clean(page)

    open_app(page, app_server, "/tokens", "lang=中文&tk_view=images&tim_i=3", timeout=TIMEOUT)
    expect(page.get_by_text("一个读手写数字的小 ViT")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(7, timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-images-03-zh")
    assert_clean(page)

    # the same photo and Hugging Face ViT in Chinese
    open_app(page, app_server, "/tokens", "lang=中文&tk_view=images&tim_src=upload", timeout=TIMEOUT)
    upload = page.locator(".st-key-tim_upload input[type=file]")
    expect(upload).to_have_count(1, timeout=TIMEOUT)
    upload.set_input_files(str(photo))
    expect(page.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    look_with_hf_vit(page, tmp_path / "vit", "可能性最大的五个标签")
    expect(page.locator(CHARTS)).to_have_count(4, timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-images-06-hf-vit-zh")
    assert_clean(page)

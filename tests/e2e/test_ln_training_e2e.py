"""The residual page's *Training: Pre-LN vs Post-LN* view in a real browser, in English and in
Chinese, with a decoder loaded (so the reader's-text chart is drawn too): the seven charts, the
two notes, no exception; a screenshot of each language (copied to /tmp/ln_training_<lang>.png
for a person to look at)."""
from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 180_000
HEADS = {"en": "The gradient on the residual path, computed now", "zh": "残差路径上的梯度（现在计算）"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ln_training_section_renders(page: Page, app_server: str, lang: str) -> None:
    query = {"rview": "training", "model": "GPT-2-style decoder", "text": "the cat sat on the mat",
             **({"lang": "中文"} if lang == "zh" else {})}
    open_app(page, app_server, "/residual", query, timeout=TIMEOUT)
    expect(page.get_by_role("heading", name=HEADS[lang])).to_be_visible(timeout=TIMEOUT)
    page.locator(".st-key-lnt_res_text .js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=TIMEOUT)
    expect(page.locator(".st-key-lnt_view " + CHARTS)).to_have_count(7, timeout=TIMEOUT)
    expect(page.locator(".st-key-mis_ln_warmup")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".st-key-mis_ln_plus_one")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Traceback")).to_have_count(0)
    assert_clean(page)
    path = screenshot(page, f"e2e-residual-ln-training-{lang}")
    shutil.copy(path, f"/tmp/ln_training_{lang}.png")

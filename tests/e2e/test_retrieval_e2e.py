"""The beyond page's retrieval section in a real browser, in English and in Chinese: the
neighbour tables and the chunked cross-attention figure are drawn, no exception, a screenshot
of each language (copied to /tmp/bx_retrieval_<lang>.png for a person to look at)."""
from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 180_000          # the first visit embeds the database (seconds on a busy CPU)
TITLES = {"en": "Retrieval: a small model that looks things up (RETRO)", "zh": "检索增强：会查资料的小模型（RETRO）"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_retrieval_section_renders(page: Page, app_server: str, lang: str) -> None:
    query = {"bx_view": "retrieval", **({"lang": "中文"} if lang == "zh" else {})}
    open_app(page, app_server, "/beyond", query, timeout=TIMEOUT)
    expect(page.get_by_role("heading", name=TITLES[lang])).to_be_visible(timeout=TIMEOUT)
    page.locator(".st-key-bx_rt_cca .js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=TIMEOUT)
    assert page.locator(CHARTS).count() >= 1
    expect(page.locator('[data-testid="stDataFrame"]')).to_have_count(2, timeout=TIMEOUT)
    expect(page.locator(".st-key-mis_bxrt_input")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".st-key-mis_bxrt_layers")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Traceback")).to_have_count(0)
    assert_clean(page)
    path = screenshot(page, f"e2e-beyond-retrieval-{lang}")
    shutil.copy(path, f"/tmp/bx_retrieval_{lang}.png")

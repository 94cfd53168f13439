"""The beyond-softmax page's memory, ternary and Mixer sections in a real browser, in
English and in Chinese: the charts are drawn, no exception, a screenshot of each
(copied to /tmp/bx_b_<section>_<lang>.png for a person to look at)."""
from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 120_000
SECTIONS = {"memory": ("bxm_memory_chart",), "ternary": ("bxm_ternary_hist",),
            "mixer": ("bxm_mix_attention", "bxm_mix_tokens")}
TITLES = {("memory", "en"): "Memory per generated token", ("memory", "zh"): "每生成一个词元的内存",
          ("ternary", "en"): "Ternary weights (BitNet b1.58)", ("ternary", "zh"): "三值权重（BitNet b1.58）",
          ("mixer", "en"): "MLP-Mixer vs attention", ("mixer", "zh"): "MLP-Mixer 与注意力"}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("section", list(SECTIONS))
def test_section_renders(page: Page, app_server: str, section: str, lang: str) -> None:
    query = {"bx_view": section, **({"lang": "中文"} if lang == "zh" else {})}
    if section == "mixer":
        query["bxm_shuffle"] = "true"
    open_app(page, app_server, "/beyond", query, timeout=TIMEOUT)
    expect(page.get_by_role("heading", name=TITLES[section, lang])).to_be_visible(timeout=TIMEOUT)
    for key in SECTIONS[section]:
        page.locator(f".st-key-{key} .js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=TIMEOUT)
    assert page.locator(CHARTS).count() >= len(SECTIONS[section])
    expect(page.get_by_text("Traceback")).to_have_count(0)
    assert_clean(page)
    path = screenshot(page, f"e2e-beyond-b-{section}-{lang}")
    shutil.copy(path, f"/tmp/bx_b_{section}_{lang}.png")

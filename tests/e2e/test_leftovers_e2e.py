"""The notes' last uncovered topics in a real browser (see conftest.py), each opened by a
link in English and in Chinese: the FFN split across devices and the mixture of experts
(/ffn), RoPE's cost (/positional), the task → architecture table (the overview) and the
block-sparse mask (/masks). Screenshots: test-artifacts/screenshots/e2e-left-*.png."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000  # ms; the machine may be busy, nothing here is a timing assertion
TEXT = "the students read the books in the quiet library"
LONG = TEXT + " while the rain fell on the old roof of the school and nobody spoke a word"


def test_ffn_split_across_devices(page: Page, app_server: str):
    """The parts' table (a whole row and one per device) and the note, in both languages."""
    open_app(page, app_server, "/ffn", {"fview": "sharding", "fs_k": "4", "text": TEXT}, timeout=TIMEOUT)
    expect(page.get_by_text("one device (no split)")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Sum of the parts vs the FFN (relative difference)")).to_be_visible()
    screenshot(page, "e2e-left-01-sharding")
    assert_clean(page)
    open_app(page, app_server, "/ffn", {"fview": "sharding", "fs_k": "4", "text": TEXT, "lang": "中文"},
             timeout=TIMEOUT)
    expect(page.get_by_text("单个设备（不拆）")).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-left-02-sharding-zh")
    assert_clean(page)


def test_ffn_mixture_of_experts(page: Page, app_server: str):
    """The load chart drawn, the routing table and the note, in both languages."""
    open_app(page, app_server, "/ffn", {"fview": "experts", "text": TEXT}, timeout=TIMEOUT)
    expect(page.locator(CHARTS).first.locator(".bars path").first).to_be_attached(timeout=TIMEOUT)
    expect(page.get_by_text("Routing of every token")).to_be_visible()
    screenshot(page, "e2e-left-03-experts")
    assert_clean(page)
    open_app(page, app_server, "/ffn", {"fview": "experts", "text": TEXT, "lang": "中文"}, timeout=TIMEOUT)
    expect(page.get_by_text("每个词元的路由")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS).first.locator(".bars path").first).to_be_attached(timeout=TIMEOUT)
    screenshot(page, "e2e-left-04-experts-zh")
    assert_clean(page)


def test_rope_cost(page: Page, app_server: str):
    """The three schemes' bars and the table with the forward pass, in both languages."""
    open_app(page, app_server, "/positional", {"pe_view": "cost", "text": TEXT}, timeout=TIMEOUT)
    expect(page.get_by_role("cell", name="the whole forward pass")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS).first.locator(".bars path").first).to_be_attached(timeout=TIMEOUT)
    screenshot(page, "e2e-left-05-rope-cost")
    assert_clean(page)
    open_app(page, app_server, "/positional", {"pe_view": "cost", "text": TEXT, "lang": "中文"}, timeout=TIMEOUT)
    expect(page.get_by_role("cell", name="完整的前向计算")).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-left-06-rope-cost-zh")
    assert_clean(page)


def test_task_architecture_table(page: Page, app_server: str):
    """The overview's expander opened: the task table and the models placed, in both languages."""
    for lang, title, cell, name in (("English", "Which architecture for which task", "✓ fits", "e2e-left-07-tasks"),
                                    ("中文", "哪种架构适合哪种任务", "✓ 适合", "e2e-left-08-tasks-zh")):
        open_app(page, app_server, "/", {"lang": lang}, timeout=TIMEOUT)
        box = page.locator('[data-testid="stExpander"]').filter(has_text=title)
        box.locator("summary").click()
        expect(box.get_by_role("cell", name=cell).first).to_be_visible(timeout=TIMEOUT)
        screenshot(page, name)
        assert_clean(page)


def test_block_sparse_mask(page: Page, app_server: str):
    """The block-sparse tab: the block layout and the token mask drawn, in both languages."""
    for lang, tab, name in (("English", "Block-sparse", "e2e-left-09-blocks"), ("中文", "块稀疏", "e2e-left-10-blocks-zh")):
        open_app(page, app_server, "/masks", {"lang": lang, "text": LONG, "bsp_b": "3", "bsp_random": "1"},
                 timeout=TIMEOUT)
        page.get_by_role("tab", name=tab).click()
        wait_for_rerun(page, timeout=TIMEOUT)                        # only the open tab runs
        for key in ("bsp_layout", "bsp_tokens"):
            page.locator(f".st-key-{key} .js-plotly-plot .heatmaplayer").first.wait_for(state="attached",
                                                                                          timeout=TIMEOUT)
        page.wait_for_timeout(500)
        screenshot(page, name)
        assert_clean(page)


def test_fused_kernels(page: Page, app_server: str):
    """The walk-through's fused-kernel section: the ratio chart and the timing table, in both languages."""
    for lang, cell, name in (("English", "unfused ÷ fused", "e2e-left-11-fused"),
                             ("中文", "未融合 ÷ 融合", "e2e-left-12-fused-zh")):
        open_app(page, app_server, "/walkthrough", {"lang": lang, "text": TEXT, "fu_runs": "5"}, timeout=TIMEOUT)
        section = page.locator(".st-key-fu_section")
        expect(section.get_by_role("columnheader", name=cell)).to_be_visible(timeout=TIMEOUT)
        section.locator(".js-plotly-plot .bars path").first.wait_for(state="attached", timeout=TIMEOUT)
        section.scroll_into_view_if_needed()
        screenshot(page, name, full_page=False)
        assert_clean(page)


def test_convolution_zoo(page: Page, app_server: str):
    """The Beyond page's convolution section: the zoo table and LSRA's table, in both languages."""
    for lang, cell, name in (("English", "depthwise-separable", "e2e-left-13-conv"),
                             ("中文", "深度可分离卷积", "e2e-left-14-conv-zh")):
        open_app(page, app_server, "/beyond", {"lang": lang, "text": TEXT, "bx_view": "conv"}, timeout=TIMEOUT)
        expect(page.get_by_role("cell", name=cell)).to_be_visible(timeout=TIMEOUT)
        expect(page.get_by_role("cell", name="LSRA", exact=False).first).to_be_visible()
        screenshot(page, name)
        assert_clean(page)


def test_resi_dual(page: Page, app_server: str):
    """The residual page's ResiDual view: both line charts drawn, in both languages."""
    for lang, name in (("English", "e2e-left-15-residual"), ("中文", "e2e-left-16-residual-zh")):
        open_app(page, app_server, "/residual", {"lang": lang, "text": TEXT, "rview": "dual"}, timeout=TIMEOUT)
        view = page.locator(".st-key-rd_view")
        for key in ("rd_grad", "rd_share"):
            view.locator(f".st-key-{key} .js-plotly-plot .scatterlayer path").first.wait_for(state="attached",
                                                                                              timeout=TIMEOUT)
        page.wait_for_timeout(500)
        screenshot(page, name)
        assert_clean(page)

"""The tokens page's Text section in a real browser: the four cuts, the UTF-8 layout, the merges
table and the notes' box drawn; the merge slider moved by a link; the section in Chinese.
Screenshots: test-artifacts/screenshots/e2e-tokens-text-*.png."""
from __future__ import annotations

from urllib.parse import quote

from playwright.sync_api import Page, expect

from support.browser import open_app
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000  # ms; the machine may be busy, nothing here is a timing assertion
MIXED = "The LORD is my shepherd; 天上有明月，水中也有明月。"
ZH = "床前明月光，疑是地上霜。学生们看着模型读他们的句子。"


def test_text_section(page: Page, app_server: str):
    open_app(page, app_server, "/tokens", f"text={quote(MIXED)}", timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Tokens from anything", timeout=TIMEOUT)
    expect(page.get_by_text("One text, four cuts", exact=True)).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("byte-level BPE, 500 merges", exact=True).first).to_be_visible()
    expect(page.locator("[data-testid=stDataFrame]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator(".st-key-mis_tk_costs")).to_be_visible()
    screenshot(page, "e2e-tokens-text-01-en")
    assert_clean(page)

    open_app(page, app_server, "/tokens", f"text={quote(MIXED)}&tk_merges=40", timeout=TIMEOUT)
    expect(page.get_by_text("byte-level BPE, 40 merges", exact=True).first).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-text-02-40-merges")
    assert_clean(page)

    open_app(page, app_server, "/tokens", f"lang=中文&tk_merges=2000&text={quote(ZH)}", timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("词元从哪里来", timeout=TIMEOUT)
    expect(page.get_by_text("同一段文本，四种切法", exact=True)).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("字节级 BPE，2000 次合并", exact=True).first).to_be_visible()
    # all 13 pages listed in the sidebar: no folded menu with Streamlit's English "View 3 more"
    nav = page.locator('[data-testid="stSidebarNav"]')
    expect(nav.locator("a")).to_have_count(13, timeout=TIMEOUT)
    expect(nav.get_by_text("View", exact=False)).to_have_count(0)
    screenshot(page, "e2e-tokens-text-03-zh")
    assert_clean(page)

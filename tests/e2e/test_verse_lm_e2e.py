"""The shipped character language model (verse-lm) in a real browser: the Generation page
switches to it from MiniLM and writes Chinese verse, in English and in Chinese.
Screenshots: test-artifacts/screenshots/e2e-verse-*.png."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 120_000
CJK = re.compile(r"[\u4e00-\u9fff]")


def _generated(page: Page, label: str) -> str:
    p = page.locator('[data-testid="stMain"] p', has_text=label).first
    expect(p).to_be_visible(timeout=TIMEOUT)
    return p.inner_text()


def test_verse_lm_writes_chinese_from_the_english_and_the_chinese_ui(page: Page, app_server: str):
    open_app(page, app_server, "/generate", "gen_n=24", timeout=TIMEOUT)
    main = page.locator('[data-testid="stMain"]')
    main.locator(".st-key-gen_switch button").click()           # MiniLM cannot generate: switch to verse-lm
    wait_for_rerun(page, timeout=TIMEOUT)
    main.locator(".st-key-gen_lm_prompt_zh button").click()      # one click for the Chinese prompt
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(main.get_by_text("Step 24: candidates for position", exact=False)).to_be_visible(timeout=TIMEOUT)
    out = _generated(page, "Generated:")
    assert len(CJK.findall(out)) >= 5, out                     # the first line of the poem
    assert_clean(page)
    screenshot(page, "e2e-verse-01-en")

    open_app(page, app_server, "/generate", {"lang": "中文", "gen_n": "24"}, timeout=TIMEOUT)
    main = page.locator('[data-testid="stMain"]')
    main.locator(".st-key-gen_switch button").click()           # the Chinese UI starts from the Chinese prompt
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(main.locator(".st-key-gen_lm_prompt_zh button")).to_be_disabled(timeout=TIMEOUT)
    expect(main.locator(".st-key-gen_step")).to_be_visible(timeout=TIMEOUT)
    sidebar_text = page.locator('[data-testid="stSidebar"] textarea').first.input_value()
    assert sidebar_text == "床前明月光，"
    assert_clean(page)
    screenshot(page, "e2e-verse-02-zh")


def test_sidebar_suggests_the_character_encoder(page: Page, app_server: str):
    open_app(page, app_server, "/", {"text": "床前明月光，疑是地上霜。"}, timeout=TIMEOUT)
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar.get_by_text("[UNK]", exact=False)).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-verse-03-note", full_page=False)
    sidebar.locator(".st-key-sb_char_encoder button").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(sidebar.locator(".st-key-sb_char_encoder")).to_have_count(0, timeout=TIMEOUT)
    assert_clean(page)
    screenshot(page, "e2e-verse-04-switched")

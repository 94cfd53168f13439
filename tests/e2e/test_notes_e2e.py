"""The course notes' errors named beside the evidence (issue 36, item 8) in a real browser:
three pages' "common explanation → what the model shows" notes, each drawn in English and
Chinese. Screenshots: test-artifacts/screenshots/e2e-notes-*.png (the note alone)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from support.browser import open_app
from tests.e2e.helpers import SCREENSHOT_DIR, assert_clean

TIMEOUT = 120_000  # ms; the machine may be busy, nothing here is a timing assertion

# (path, query, the note's key, a phrase of it in English, in Chinese)
NOTES = [
    ("/positional", "pe_view=shift", "pe_addition", "sin(a + b) = sin a·cos b", "平移把每一对转过"),
    ("/walkthrough", "text=the cat sat on the mat", "mean", "q·k is one number whatever d_k is",
     "都只是一个数"),
    ("/attention", "text=the cat sat on the mat&view=heads", "at_heads", "different representation subspaces",
     "不同的表示子空间"),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path, query, key, en, zh", NOTES, ids=[n[2] for n in NOTES])
def test_note_is_drawn(page: Page, app_server: str, path, query, key, en, zh, lang):
    open_app(page, app_server, path, query + ("&lang=中文" if lang == "zh" else ""), timeout=TIMEOUT)
    box = page.locator(f".st-key-mis_{key}")
    expect(box).to_have_count(1, timeout=TIMEOUT)
    box.scroll_into_view_if_needed(timeout=TIMEOUT)
    expect(box).to_contain_text(zh if lang == "zh" else en, timeout=TIMEOUT)
    expect(box).to_contain_text("常见说法" if lang == "zh" else "Common explanation", timeout=TIMEOUT)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    box.screenshot(path=str(SCREENSHOT_DIR / f"e2e-notes-{key}-{lang}.png"))
    assert_clean(page)

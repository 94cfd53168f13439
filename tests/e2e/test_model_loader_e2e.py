"""The "Load a model" panel in a real browser: a tiny random Hugging Face folder loads
through the sidebar, is selected in the picker and its card says it matches transformers;
a bad folder gets its sentence. English and Chinese (?lang=中文)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from models.weights import tiny_hf
from tests.e2e.helpers import assert_clean, open_app, screenshot, wait_for_rerun

FAMILY = "qwen2"            # a tiny random Qwen2 folder (QKV bias, tied embeddings)
TIMEOUT = 60_000
LOAD_TIMEOUT = 180_000      # the first comparison imports transformers; nothing here is a timing assertion
WORDS = {
    "English": {"expander": "Load a model", "ok": "matches transformers", "failed": "Nothing was loaded",
                "no_config": "has no config.json"},
    "中文": {"expander": "加载模型", "ok": "在这段文本上与 transformers", "failed": "未加载任何模型",
            "no_config": "中没有 config.json"},
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("e2e-hf")
    (root / "empty").mkdir()
    return tiny_hf.save(FAMILY, root / f"tiny-{FAMILY}"), root / "empty"


def load(page: Page, path: str) -> None:
    side = page.locator('[data-testid="stSidebar"]')
    box = side.locator(".st-key-_ml_source input")
    if not box.is_visible():
        side.locator('[data-testid="stExpander"] summary').filter(has_text=WORDS_NOW["expander"]).click()
    box.fill(path)
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    side.locator(".st-key-_ml_load button").click()
    wait_for_rerun(page, timeout=LOAD_TIMEOUT)


WORDS_NOW: dict[str, str] = {}


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_a_tiny_folder_loads_through_the_panel_with_a_parity_badge(page: Page, app_server: str, folder, lang):
    good, empty = folder
    WORDS_NOW.clear()
    WORDS_NOW.update(WORDS[lang])
    open_app(page, app_server, "/", query={"lang": lang}, timeout=LOAD_TIMEOUT)
    side = page.locator('[data-testid="stSidebar"]')

    load(page, str(empty))                                  # a bad folder first: one sentence, nothing lost
    expect(side.get_by_text(WORDS_NOW["failed"], exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(side.get_by_text(WORDS_NOW["no_config"], exact=False)).to_be_visible()
    screenshot(page, f"e2e-load-01-refused-{'zh' if lang == '中文' else 'en'}")

    load(page, str(good))
    expect(side.locator(".st-key-model input")).to_have_value(f"tiny-{FAMILY} (#1)", timeout=LOAD_TIMEOUT)
    main = page.locator('[data-testid="stMain"]')
    for where in (side, main):                              # the sidebar's caption and the home card's badge
        badge = where.locator('[data-testid="stCaptionContainer"]').filter(has_text=WORDS_NOW["ok"]).first
        expect(badge).to_be_visible(timeout=LOAD_TIMEOUT)
        text = badge.inner_text()
        assert text.lstrip().startswith("✓") and "✗" not in text and "|Δ| = " in text, text
    screenshot(page, f"e2e-load-02-loaded-{'zh' if lang == '中文' else 'en'}")
    assert_clean(page)

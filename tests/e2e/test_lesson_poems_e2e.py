"""Lesson 7 (attention on a poem) in a real browser: the lesson starts on its poem (in Chinese
here), offers it beside a text the reader typed (in English here: one click takes it), and
the couplet step draws every head's score on verse-lm, in English and in Chinese.
Screenshots: test-artifacts/screenshots/e2e-poems-*.png."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from models.weights import zoo
from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 120_000
LABEL = zoo.get("toy:verse-lm").label


def test_the_poem_lesson_offers_its_poem_and_scores_the_couplet_heads(page: Page, app_server: str):
    for lang, name, said, own in (("English", "en", "times what evenly spread attention", "the cat sat on the mat"),
                                  ("中文", "zh", "是均匀分配注意力", None)):
        query = {"lesson": "poems", "step": "4", "model": LABEL, "lang": lang, **({"text": own} if own else {})}
        open_app(page, app_server, "/lessons", query, timeout=TIMEOUT)
        main = page.locator('[data-testid="stMain"]')
        if own:                                          # the reader's own text stays; the poem is one click away
            main.locator(".st-key-ls_use_text button").click()
            wait_for_rerun(page, timeout=TIMEOUT)
        textarea = page.locator('[data-testid="stSidebar"] textarea').first
        expect(textarea).to_have_value("床前明月光，疑是地上霜。\n举头望明月，低头思故乡。", timeout=TIMEOUT)
        expect(main.locator(".st-key-ls_use_text")).to_have_count(0, timeout=TIMEOUT)
        expect(main.locator(".js-plotly-plot").first).to_be_visible(timeout=TIMEOUT)
        expect(main.get_by_text(said, exact=False).first).to_be_visible(timeout=TIMEOUT)
        assert_clean(page)
        screenshot(page, f"e2e-poems-{name}")

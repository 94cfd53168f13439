"""Lesson 8 ("Everything becomes tokens") in a real browser: the whole lesson followed with the
→ key in English and Chinese (it starts on its own Chinese sentence; each question answered by
clicking the first option, then revealed; every step draws its figure), and one step on the
projector. Screenshots: test-artifacts/screenshots/e2e-lesson-tokens-*.png."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

import lab.lessons
from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot
from ui.lessons import specs

TIMEOUT = 120_000
LESSON = lab.lessons.shipped(specs())[0]["tokens"]


def step_figure(page: Page) -> None:
    page.locator(CHARTS).first.locator(".main-svg").first.wait_for(state="attached", timeout=TIMEOUT)


@pytest.mark.parametrize("lang,code", [("English", "en"), ("中文", "zh")])
def test_follow_the_tokens_lesson(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/lessons", {"lesson": "tokens", "lang": lang}, timeout=TIMEOUT)
    expect(page.locator('[data-testid="stSidebar"] textarea').first).to_have_value(LESSON.text[code], timeout=TIMEOUT)
    n = len(LESSON.steps)
    for i, step in enumerate(LESSON.steps):
        expect(page.locator('.st-key-ls_step :is(h1, h2)').first).to_contain_text(step.title[code][:10],
                                                                                 timeout=TIMEOUT)
        assert re.search(rf"\b{i + 1}\D+{n}\b", page.locator(".st-key-ls_progress").first.inner_text())
        if step.ask:
            expect(page.locator(CHARTS)).to_have_count(0)
            page.locator('[data-testid="stMain"] [data-testid="stButtonGroup"] button').first.click()
            wait_for_rerun(page, timeout=TIMEOUT)
            page.locator(f".st-key-ls_reveal_tokens_{i} button").click()
            wait_for_rerun(page, timeout=TIMEOUT)
            expect(page.locator('[data-testid="stAlert"]').first).to_contain_text(
                "模型的答案" if code == "zh" else "answer", timeout=TIMEOUT)
        step_figure(page)
        expect(page.locator(CHARTS)).to_have_count(1)
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        screenshot(page, f"e2e-lesson-tokens-step{i + 1}-{code}")
        if i < n - 1:
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.keyboard.press("ArrowRight")
            wait_for_rerun(page, timeout=TIMEOUT)
    assert f"step={n}" in page.url
    assert_clean(page)


def test_where_cls_looks_on_the_projector(app_server: str, page: Page) -> None:
    """Presenter mode at 1280×720: the question, then the figure after the reveal, within the window."""
    page.set_viewport_size({"width": 1280, "height": 720})
    i = next(k for k, s in enumerate(LESSON.steps) if s.kind == "cls_patch")
    open_app(page, app_server, "/lessons", {"lesson": "tokens", "step": str(i + 1), "present": "1", "lang": "中文"},
             timeout=TIMEOUT)
    expect(page.locator('.st-key-ls_step :is(h1, h2)').first).to_contain_text(LESSON.steps[i].title["zh"][:6],
                                                                             timeout=TIMEOUT)
    page.locator(f".st-key-ls_reveal_tokens_{i} button").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    step_figure(page)
    chart = page.locator(CHARTS).first.bounding_box()
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= 1280
    screenshot(page, "e2e-lesson-tokens-present-1280x720", full_page=False)
    screenshot(page, "e2e-lesson-tokens-present-1280x720-full")
    assert_clean(page)

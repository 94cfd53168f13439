"""Lessons in a real browser: a whole lesson followed with the → key (each step's figure
drawn, questions answered by clicking a token and revealed), ← back, and a teacher's link
to a step. Screenshots: test-artifacts/screenshots/e2e-lessons-*.png."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

import lab.lessons
from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import SCREENSHOT_DIR, assert_clean
from ui.lessons import specs

TIMEOUT = 120_000
TEXT = "the cat sat on the mat because it was warm"
LESSON = lab.lessons.shipped(specs())[0]["attention"]


def progress(page: Page) -> str:
    return page.locator('.st-key-ls_progress').first.inner_text()


def step_figure(page: Page) -> None:
    page.locator(CHARTS).first.locator(".main-svg").first.wait_for(state="attached", timeout=TIMEOUT)


@pytest.mark.parametrize("lang,code", [("English", "en"), ("中文", "zh")])
def test_follow_a_whole_lesson_with_the_arrow_keys(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/lessons", {"lesson": "attention", "text": TEXT, "lang": lang}, timeout=TIMEOUT)
    n = len(LESSON.steps)
    for i, step in enumerate(LESSON.steps):
        expect(page.locator('.st-key-ls_step :is(h1, h2)').first).to_contain_text(step.title[code][:12],
                                                                                 timeout=TIMEOUT)
        assert re.search(rf"\b{i + 1}\D+{n}\b", progress(page)), progress(page)
        if step.ask:
            expect(page.locator(CHARTS)).to_have_count(0)
            pills = page.locator('[data-testid="stMain"] [data-testid="stButtonGroup"] button')
            pills.nth(1).click()                                     # a guess: the second token
            wait_for_rerun(page, timeout=TIMEOUT)
            page.locator(f".st-key-ls_reveal_attention_{i} button").click()
            wait_for_rerun(page, timeout=TIMEOUT)
            verdict = page.locator('[data-testid="stAlert"]').first
            expect(verdict).to_contain_text("模型的答案" if code == "zh" else "answer", timeout=TIMEOUT)
        step_figure(page)
        expect(page.locator(CHARTS)).to_have_count(1)
        if i in (0, 5, n - 1):
            SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOT_DIR / f"e2e-lessons-step{i + 1}-{code}.png"), full_page=True)
        if i < n - 1:
            page.evaluate("document.activeElement && document.activeElement.blur()")   # the page, not a widget
            page.keyboard.press("ArrowRight")
            wait_for_rerun(page, timeout=TIMEOUT)
    assert f"step={n}" in page.url
    page.keyboard.press("ArrowLeft")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator('.st-key-ls_step :is(h1, h2)').first).to_contain_text(LESSON.steps[n - 2].title[code][:12],
                                                                             timeout=TIMEOUT)
    assert_clean(page)


def test_a_teachers_link_opens_the_step(app_server: str, page: Page) -> None:
    open_app(page, app_server, "/lessons", {"lesson": "attention", "step": "7", "text": TEXT}, timeout=TIMEOUT)
    expect(page.locator('.st-key-ls_step :is(h1, h2)').first).to_contain_text(LESSON.steps[6].title["en"][:12])
    step_figure(page)
    link = page.get_by_role("link", name="Open this in the explorer")
    expect(link).to_be_visible()
    assert "walkthrough" in (link.get_attribute("href") or "")
    assert_clean(page)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_lesson_on_the_projector(app_server: str, page: Page, size: tuple[int, int]) -> None:
    """Presenter mode: the step's title and text are large, the sidebar and the lesson picker
    are gone, Next/Back remain; the figure fits the window's width."""
    w, h = size
    page.set_viewport_size({"width": w, "height": h})
    open_app(page, app_server, "/lessons", {"lesson": "attention", "step": "8", "text": TEXT, "present": "1",
                                            "lang": "中文"}, timeout=TIMEOUT)
    step_figure(page)
    title = page.locator(".st-key-ls_step :is(h1, h2)").first
    body = page.locator(".st-key-ls_step [data-testid=stMarkdownContainer] p").first
    assert float(title.evaluate("e => getComputedStyle(e).fontSize").rstrip("px")) >= 40
    assert float(body.evaluate("e => getComputedStyle(e).fontSize").rstrip("px")) >= 24
    expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
    expect(page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]')).to_have_count(0)
    expect(page.locator(".st-key-ls_next button")).to_be_visible()
    chart = page.locator(CHARTS).first.bounding_box()
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= w
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / f"e2e-lessons-present-{w}x{h}.png"))
    assert_clean(page)

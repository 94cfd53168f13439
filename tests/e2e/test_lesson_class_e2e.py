"""Class mode in a real browser: a teacher's page and two students' pages (each its own
browser context, as on three devices). The students answer; the teacher's tally updates by
itself (polled); the teacher reveals and moves on, and the students' pages follow by
themselves. Screenshots: test-artifacts/screenshots/e2e-class-*.png."""
from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from support.browser import CHARTS, VIEWPORT, open_app, wait_for_rerun
from tests.e2e.helpers import SCREENSHOT_DIR, assert_clean

TIMEOUT = 120_000
TEXT = "the cat sat on the mat because it was warm"


def student(browser: Browser, base: str, code: str) -> Page:
    context = browser.new_context(viewport=VIEWPORT, locale="zh-CN")
    pg = context.new_page()
    open_app(pg, base, "/lessons", {"class": code, "lang": "中文"}, timeout=TIMEOUT)
    expect(pg.locator(".st-key-ls_step :is(h1, h2)").first).to_contain_text("softmax", timeout=TIMEOUT)
    return pg


def test_teacher_and_two_students(app_server: str, page: Page, browser: Browser) -> None:
    open_app(page, app_server, "/lessons", {"lesson": "attention", "step": "6", "text": TEXT}, timeout=TIMEOUT)
    page.get_by_text("Class mode").click()
    page.locator(".st-key-cl_start button").click()
    # the class's code reaches the URL when the click's run is done; under a loaded machine that
    # run can start later than wait_for_rerun waits for a start (2 s), so wait for the URL itself
    page.wait_for_url(re.compile(r"[?&]class=[A-Z0-9]{6}"), timeout=TIMEOUT)
    wait_for_rerun(page, timeout=TIMEOUT)
    code = re.search(r"class=([A-Z0-9]{6})", page.url).group(1)
    expect(page.get_by_text(f"Class code: {code}")).to_be_visible()
    students = [student(browser, app_server, code) for _ in range(2)]
    expect(students[0].locator(".st-key-ls_step textarea, textarea").first).to_have_value(TEXT)
    for pg, pick in zip(students, (1, 3)):
        pg.locator('[data-testid="stMain"] [data-testid="stButtonGroup"] button').nth(pick).click()
        wait_for_rerun(pg, timeout=TIMEOUT)
        pg.locator(".st-key-cl_send button").click()
        wait_for_rerun(pg, timeout=TIMEOUT)
        expect(pg.get_by_text("已提交")).to_be_visible()
    # the teacher's tally is polled: no click on the teacher's page
    expect(page.get_by_text("Answers so far: 2")).to_be_visible(timeout=30_000)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / "e2e-class-teacher-tally.png"), full_page=True)
    page.locator(".st-key-ls_reveal_attention_5 button").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    for pg in students:                                      # they follow by themselves
        expect(pg.locator(CHARTS)).to_have_count(1, timeout=30_000)
        expect(pg.locator('.st-key-ls_step [data-testid="stAlert"]').first).to_contain_text("模型的答案", timeout=30_000)
    students[0].screenshot(path=str(SCREENSHOT_DIR / "e2e-class-student-reveal.png"), full_page=True)
    page.locator(".st-key-ls_next button").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    for pg in students:
        expect(pg.locator(".st-key-ls_step :is(h1, h2)").first).to_contain_text("加权和", timeout=30_000)
    assert_clean(page)

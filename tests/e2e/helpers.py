"""Browser (end-to-end) test helpers that only the tests use; the helpers the browser
benchmarks share (serve_app, open_app, wait_for_rerun, click_plotly_point, type_text, ...)
are in `support/browser.py`. The pytest fixtures (app_server, browser, page) are in
`tests/e2e/conftest.py`.

    app_script()            the script to serve ($GLASSBOX_E2E_APP or app.py)
    screenshot(page, name)  PNG under test-artifacts/screenshots/
    assert_clean(page)      no request left the machine, no JS error, no exception

Environment
    GLASSBOX_E2E_APP        script to serve (default: app.py at the repo root)
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import REPO_ROOT

ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"
SCREENSHOT_DIR = ARTIFACTS_DIR / "screenshots"
MAX_SCREENSHOT_HEIGHT = 8000  # px; a runaway page should not make a 100 MB PNG


def app_script() -> Path:
    script = Path(os.environ.get("GLASSBOX_E2E_APP", REPO_ROOT / "app.py")).resolve()
    if not script.is_file():
        pytest.fail(f"e2e: app script {script} does not exist (set GLASSBOX_E2E_APP)")
    return script


def screenshot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of the page as test-artifacts/screenshots/<name>.png; return its path.

    Streamlit scrolls inside <main data-testid="stMain">, not the document, so
    Playwright's own full_page option sees one viewport. With ``full_page`` the
    viewport is stretched to stMain's content height for the shot, then restored.
    """
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "screenshot"
    path = SCREENSHOT_DIR / f"{safe}.png"
    viewport = page.viewport_size
    content_height = 0
    if full_page and viewport is not None:
        content_height = page.evaluate(
            """() => {
              const main = document.querySelector('[data-testid="stMain"]');
              return main ? main.scrollHeight : 0;
            }"""
        )
    if viewport is not None and content_height > viewport["height"]:
        page.set_viewport_size(
            {"width": viewport["width"], "height": min(content_height, MAX_SCREENSHOT_HEIGHT)}
        )
        try:
            page.wait_for_timeout(300)  # let plotly/dataframes re-layout to the new size
            page.screenshot(path=str(path))
        finally:
            page.set_viewport_size(viewport)
    else:
        page.screenshot(path=str(path))
    return path


def assert_clean(page: Page) -> None:
    """No request left the machine, no uncaught JS error, no exception box on the page
    (the `page` fixture of conftest.py collects the first two)."""
    assert page.glassbox_external_requests == [], page.glassbox_external_requests
    assert page.glassbox_js_errors == [], page.glassbox_js_errors
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)


@contextlib.contextmanager
def offline_page(browser: Browser) -> Iterator[Page]:
    """A fresh page for files opened from file://: every other request is aborted, and on
    leaving, none may have been made and no uncaught script error may have happened."""
    context = browser.new_context()
    asked: list[str] = []

    def abort(route) -> None:  # noqa: ANN001
        asked.append(route.request.url)
        route.abort()

    context.route(lambda url: not url.startswith("file:"), abort)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        context.close()
    assert not asked, f"the page asked the network for {asked}"
    assert not errors, errors

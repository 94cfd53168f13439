"""Browser (end-to-end) test harness: a real `streamlit run` server and headless Chromium.

Fixtures
    app_server  (session)  starts the app, yields its base URL ("http://127.0.0.1:<port>")
    browser     (session)  Playwright Chromium (Debian `chromium`, never a download)
    page        (function) a fresh 1400x1000 page; a screenshot is saved if the test fails

The plain helpers are in `support/browser.py` (open_app, wait_for_rerun, click_plotly_point,
serve_app, ...: shared with the browser benchmarks) and `tests/e2e/helpers.py` (screenshot,
assert_clean, app_script: the tests' own): ``from support.browser import open_app`` (this
file puts the repo root on sys.path for that).

Environment
    GLASSBOX_E2E_APP        script to serve (default: app.py at the repo root)
    CHROMIUM_PATH           browser executable (default: /usr/bin/chromium)
    GLASSBOX_SKIP_BROWSER=1 skip e2e tests on purpose (otherwise a missing browser fails)

Every test in this directory gets the ``e2e`` marker: ``pytest -m "not e2e"`` skips them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, Route, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # lets test modules import support.browser and tests.e2e.helpers
    sys.path.insert(0, str(REPO_ROOT))

from support.browser import (  # noqa: E402  (needs the repo root on sys.path)
    CHROMIUM_ARGS,
    DEFAULT_CHROMIUM,
    RUN_COUNTER_JS,
    VIEWPORT,
    ServerError,
    is_local,
    serve_app,
)
from tests.e2e.helpers import ARTIFACTS_DIR, app_script, screenshot  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: end-to-end test in a real browser against `streamlit run` (slow)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    # Expose the call-phase report to fixtures, so `page` can screenshot failures.
    report = yield
    if report.when == "call":
        item.stash[_CALL_REPORT] = report
    return report


_CALL_REPORT = pytest.StashKey[pytest.TestReport]()


# --------------------------------------------------------------------------- server


def _skip_if_asked() -> None:
    if os.environ.get("GLASSBOX_SKIP_BROWSER") == "1":
        pytest.skip("GLASSBOX_SKIP_BROWSER=1: browser tests skipped on purpose")


@pytest.fixture(scope="session")
def app_server() -> Iterator[str]:
    """Serve the app with `streamlit run` on a free local port; yield its base URL."""
    _skip_if_asked()
    try:
        with serve_app(app_script(), ARTIFACTS_DIR / "streamlit-server.log") as base_url:
            yield base_url
    except ServerError as e:
        pytest.fail(str(e), pytrace=False)


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    """One Playwright driver for the whole session: a second `sync_playwright()` started while
    the first runs fails ("Sync API inside the asyncio loop"), so a module that needs a
    Chromium of its own (tests/e2e/test_tokens_sound_e2e.py: a fake microphone) launches it here."""
    _skip_if_asked()
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    """Headless Chromium from the system (Debian package `chromium`)."""
    _skip_if_asked()
    executable = os.environ.get("CHROMIUM_PATH", DEFAULT_CHROMIUM)
    if not Path(executable).is_file():
        pytest.fail(
            f"Chromium not found at {executable}. Install it with "
            "`sudo apt-get install chromium` (Debian/Ubuntu), or point CHROMIUM_PATH at a "
            "Chromium/Chrome binary. `playwright install` is not used by this project. "
            "To skip the browser tests on purpose, set GLASSBOX_SKIP_BROWSER=1.",
            pytrace=False,
        )
    chromium = playwright_driver.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page (own context: cookies, storage) at 1400x1000, light theme.

    Requests to any host other than the local server are aborted and listed in
    ``page.glassbox_external_requests`` (the app must work offline). Uncaught JS
    errors are listed in ``page.glassbox_js_errors``.
    """
    context = browser.new_context(
        viewport=VIEWPORT, color_scheme="light", locale="en-US", reduced_motion="reduce"
    )
    context.set_default_timeout(30_000)
    context.add_init_script(f"({RUN_COUNTER_JS})();")
    external: list[str] = []

    def _block(route: Route) -> None:
        external.append(route.request.url)
        route.abort()

    context.route(lambda url: not is_local(url), _block)
    pg = context.new_page()
    pg.glassbox_external_requests = external
    pg.glassbox_js_errors = []
    pg.on("pageerror", lambda exc: pg.glassbox_js_errors.append(str(exc)))
    try:
        yield pg
    finally:
        report = request.node.stash.get(_CALL_REPORT, None)
        if report is not None and report.failed:
            try:
                screenshot(pg, f"FAILED-{request.node.name}")
            except Exception:  # the page may be gone; the test failure is what matters
                pass
        context.close()

"""Memory in a real browser: the attention page states the bytes of its trace, and a
server with a small memory budget cuts a long text before the pass and says so, while the
maps stay drawn. Screenshots: test-artifacts/screenshots/e2e-scale-*.png."""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, ServerError, open_app, serve_app
from tests.e2e.helpers import ARTIFACTS_DIR, app_script, assert_clean, screenshot

TIMEOUT = 90_000
LONG = " ".join(f"token{i % 50}" if i % 5 == 0 else "the" for i in range(500))   # ~600 word pieces


@pytest.fixture(scope="module")
def small_budget_server() -> Iterator[str]:
    """A second server whose budget (3 MB a pass) holds ~100 MiniLM tokens."""
    old = os.environ.get("GLASSBOX_TRACE_BUDGET_MB")
    os.environ["GLASSBOX_TRACE_BUDGET_MB"] = "3"
    try:
        with serve_app(app_script(), ARTIFACTS_DIR / "streamlit-server-small-budget.log") as url:
            yield url
    except ServerError as e:
        pytest.fail(str(e), pytrace=False)
    finally:
        if old is None:
            os.environ.pop("GLASSBOX_TRACE_BUDGET_MB", None)
        else:
            os.environ["GLASSBOX_TRACE_BUDGET_MB"] = old


def test_attention_page_states_the_trace_memory(app_server: str, page: Page) -> None:
    open_app(page, app_server, "/attention", {"text": "the cat sat on the mat"}, timeout=TIMEOUT)
    caption = page.get_by_text("Memory of this trace")
    expect(caption).to_be_visible(timeout=TIMEOUT)
    expect(caption).to_contain_text("6 × 12 × 8² × 4 B")
    expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)   # the default view
    expect(page.locator(CHARTS)).to_have_count(0)
    caption.scroll_into_view_if_needed()
    screenshot(page, "e2e-scale-caption", full_page=False)
    assert_clean(page)


def test_small_budget_cuts_a_long_text_and_keeps_the_maps(small_budget_server: str, page: Page) -> None:
    open_app(page, small_budget_server, "/attention", {"text": LONG}, timeout=TIMEOUT)
    warning = page.get_by_text("more than this server's budget of 3 MB per pass")
    expect(warning).to_be_visible(timeout=TIMEOUT)
    # the maps are kept: the default instant view draws every head of the cut text
    expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    # the model's own limit (512 of ~600 tokens) and the budget's cut are told apart
    expect(page.get_by_text("this view shows the first 512 (the model's limit)")).to_be_visible()
    expect(page.get_by_text("Memory of this trace")).to_contain_text("budget per pass is 3 MB")
    screenshot(page, "e2e-scale-budget")
    assert_clean(page)

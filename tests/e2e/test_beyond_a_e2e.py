"""The beyond-softmax page's recurrent-family and long-memory sections in a real browser,
in English and Chinese: the charts are drawn, no exception; screenshots are kept
(test-artifacts/screenshots/beyond_a_*.png, and copies as /tmp/bx_a_*.png to look at)."""
from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app
from tests.e2e.helpers import assert_clean, screenshot

TEXT = "the cat sat on the mat"
TIMEOUT = 120_000

VIEWS = [
    ("recurrent", {}, 4),
    ("recurrent", {"bxr_form": "gated"}, 5),
    ("recurrent", {"bxr_form": "rwkv"}, 4),
    ("recurrent", {"bxr_form": "ssm", "bx_src": "random", "bx_n": "32", "bx_d": "16"}, 4),
    ("long", {}, 4),
    ("long", {"bxl_part": "infini"}, 4),
    ("long", {"bxl_part": "longnet", "bx_src": "random", "bx_n": "40", "bx_d": "16"}, 3),
]


def drawn(page: Page, at_least: int) -> None:
    """At least `at_least` plotly charts, each with its SVG drawn."""
    charts = page.locator(CHARTS)
    expect(charts.nth(at_least - 1)).to_be_attached(timeout=TIMEOUT)
    for i in range(charts.count()):
        charts.nth(i).locator(".js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=TIMEOUT)


@pytest.mark.parametrize("lang", ["English", "中文"])
@pytest.mark.parametrize("view, extra, charts", VIEWS)
def test_section_draws_its_charts(page: Page, app_server: str, view: str, extra: dict, charts: int, lang: str) -> None:
    query = {"bx_view": view, "text": TEXT, **extra}
    if lang != "English":
        query["lang"] = lang
    open_app(page, app_server, "/beyond", query, timeout=TIMEOUT)
    drawn(page, charts)
    assert_clean(page)
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "Traceback" not in body and "Error" not in body
    name = "_".join(["beyond_a", view, extra.get("bxr_form", extra.get("bxl_part", "default")),
                     "zh" if lang != "English" else "en"])
    path = screenshot(page, name)
    shutil.copy(path, f"/tmp/bx_a_{name[len('beyond_a_'):]}.png")

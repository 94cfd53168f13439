"""The app in a real browser: `streamlit run` + headless Chromium (see conftest.py).

What only a browser shows: the URL the frontend writes, plotly's SVG tick labels,
clicks on chart points, and that user text never runs as HTML/JS. Every test ends
with `assert_clean` (helpers.py): no request left the machine and no uncaught JS error.
Screenshots land in test-artifacts/screenshots/e2e-*.png.
"""
from __future__ import annotations

import re
import urllib.parse

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, click_plotly_point, open_app, type_text, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot
from viz_core.figure import DOT_COLUMN as DOTS  # the clickable dots left of a heatmap

TEXT = "the cat sat on the mat"
TEXT_TOKENS = ["[CLS]", "the", "cat", "sat", "on", "the", "mat", "[SEP]"]
DEFAULT_TOKENS = ["[CLS]", "the", "students", "watched", "the", "model", "read", "their", "sentence", ",",
                  "and", "every", "head", "chose", "where", "to", "look", ".", "[SEP]"]
EVIL = "<b>x</b><script>alert(1)</script><style>*{display:none}</style>"
TIMEOUT = 60_000  # ms; the machine may be busy, nothing here is a timing assertion

MODEL_VIEW, HEAD_MAP = 0, 1  # chart order on the attention page's heads view

# Viewport position data of the model-view marker whose customdata is [layer, head].
_TILE_JS = """
([index, layer, head]) => {
  const gd = document.querySelectorAll('[data-testid="stPlotlyChart"]')[index]
    .querySelector(".js-plotly-plot");
  for (const trace of gd._fullData) {
    const cd = trace.customdata;
    if (!cd) continue;
    for (let i = 0; i < cd.length; i++) {
      if (cd[i][0] === layer && cd[i][1] === head) return [trace.x[i], trace.y[i]];
    }
  }
  return null;
}
"""


# --------------------------------------------------------------------------- helpers


def tick_texts(page: Page, chart: int, axis: str = "x") -> list[str]:
    svg = page.locator(CHARTS).nth(chart).locator(f".{axis}tick text")
    return svg.all_text_contents()


def wait_for_ticks(page: Page, chart: int, expected: list[str], axis: str = "x") -> None:
    """Plotly redraws after the rerun's message arrives: poll the SVG until it matches."""
    locator = page.locator(CHARTS).nth(chart).locator(f".{axis}tick text")
    expect(locator).to_have_text(expected, timeout=TIMEOUT)


def slider_value(page: Page, key: str) -> int:
    return int(page.locator(f".st-key-{key} input[type=range]").get_attribute("value"))


def checked_option(page: Page, key: str) -> str:
    """The label of the checked option of radio widget `key`."""
    return page.locator(f".st-key-{key} input:checked").evaluate("e => e.closest('label').innerText").strip()


def open_attention(page: Page, base_url: str, query: str = "", view: str | None = "heads") -> None:
    """Open /attention on `view`: the heads view (its two plotly charts, which most tests
    here click), or with view=None the page's default, the instant view (every head drawn
    by the in-browser viewer, no plotly chart)."""
    query = "&".join(q for q in (query, f"view={view}" if view else "") if q)
    open_app(page, base_url, "/attention", query, timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Attention explorer", timeout=TIMEOUT)
    if view == "heads":
        expect(page.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    else:
        expect_instant_viewer(page)


def expect_instant_viewer(page: Page) -> None:
    """The default view is drawn: the viewer's canvas is ready and no plotly chart is on the page."""
    expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(0)


# --------------------------------------------------------------------------- tests


def test_home_shows_the_token_badges(page: Page, app_server: str):
    open_app(page, app_server, "/", timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Glassbox")
    badges = page.locator('[data-testid="stMain"] .stMarkdownBadge')
    expect(badges).to_have_text(DEFAULT_TOKENS, timeout=TIMEOUT)
    expect(page.get_by_text(f"{len(DEFAULT_TOKENS)} tokens.", exact=False)).to_be_visible()
    screenshot(page, "e2e-01-home")

    type_text(page, TEXT, TIMEOUT)
    expect(badges).to_have_text(TEXT_TOKENS, timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"[?&]text=the\+cat\+sat\+on\+the\+mat"), timeout=TIMEOUT)
    screenshot(page, "e2e-02-home-new-text")
    assert_clean(page)


def test_new_sentence_and_a_cell_click(page: Page, app_server: str):
    open_attention(page, app_server)
    wait_for_ticks(page, HEAD_MAP, DEFAULT_TOKENS)

    type_text(page, TEXT, TIMEOUT)
    wait_for_ticks(page, HEAD_MAP, TEXT_TOKENS)
    wait_for_ticks(page, HEAD_MAP, TEXT_TOKENS, axis="y")
    expect(page.locator(".st-key-detail_panel")).to_have_count(0)
    screenshot(page, "e2e-03-attention-new-text")

    click_plotly_point(page, HEAD_MAP, DOTS, "1·the")  # the dot beside query 1 ("the")
    wait_for_rerun(page, timeout=TIMEOUT)
    panel = page.locator(".st-key-detail_panel")
    expect(panel).to_be_visible(timeout=TIMEOUT)
    expect(panel).to_contain_text("Query 1: the")
    expect(panel).to_contain_text(f"Top {len(TEXT_TOKENS)} keys")
    expect(panel.locator(CHARTS)).to_have_count(1)
    expect(panel.locator('[data-testid="stDataFrame"]')).to_have_count(1)
    expect(panel).to_contain_text("The row sums to 1.000000")
    screenshot(page, "e2e-04-cell-detail")

    click_plotly_point(page, HEAD_MAP, DOTS, "5·the")  # another query: the panel follows
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(panel).to_contain_text("Query 5: the", timeout=TIMEOUT)
    assert_clean(page)


def test_model_view_tile_selects_layer_and_head(page: Page, app_server: str):
    open_attention(page, app_server, f"text={TEXT.replace(' ', '+')}")
    wait_for_ticks(page, HEAD_MAP, TEXT_TOKENS)
    assert (slider_value(page, "layer"), slider_value(page, "head")) == (0, 0)

    page.locator(CHARTS).nth(MODEL_VIEW).locator(".js-plotly-plot .main-svg").first.wait_for()
    x, y = page.evaluate(_TILE_JS, [MODEL_VIEW, 3, 5])
    click_plotly_point(page, MODEL_VIEW, x, y)
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator(".st-key-layer input[type=range]")).to_have_attribute("value", "3", timeout=TIMEOUT)
    expect(page.locator(".st-key-head input[type=range]")).to_have_attribute("value", "5", timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"[?&]layer=3(&|$)"), timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"[?&]head=5(&|$)"), timeout=TIMEOUT)
    expect(page.locator(CHARTS).nth(HEAD_MAP).locator(".gtitle")).to_have_text("Layer 3, head 5",
                                                                               timeout=TIMEOUT)
    screenshot(page, "e2e-05-tile-click")
    assert_clean(page)


def test_language_switch_keeps_the_view(page: Page, app_server: str):
    open_attention(page, app_server, f"text={TEXT.replace(' ', '+')}&layer=2", view=None)   # the default
    assert checked_option(page, "view__en") == "Instant (in browser)"
    assert "view=" not in page.url
    page.locator(".st-key-view__en").get_by_text("Head metrics", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator(".st-key-metrics_table")).to_have_count(1, timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"[?&]view=metrics(&|$)"), timeout=TIMEOUT)
    screenshot(page, "e2e-06-metrics-en")

    page.locator(".st-key-lang").get_by_text("中文", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("注意力探查器", timeout=TIMEOUT)
    assert checked_option(page, "view__zh") == "头指标"
    assert checked_option(page, "lang") == "中文"
    assert slider_value(page, "layer") == 2
    expect(page.locator(".st-key-layer")).to_contain_text("层")
    expect(page.locator('[data-testid="stSidebar"] .st-key-text')).to_contain_text("输入文本")
    expect(page.locator('[data-testid="stSidebarNav"]')).to_contain_text("注意力")
    page.wait_for_url(re.compile(r"[?&]lang=%E4%B8%AD%E6%96%87(&|$)"), timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"[?&]view=metrics(&|$)"), timeout=TIMEOUT)
    screenshot(page, "e2e-07-metrics-zh")
    assert_clean(page)


def test_language_switch_renames_the_model_and_keeps_it(page: Page, app_server: str):
    """The picker shows a model's name in the UI language and the link holds that name; the
    browser's old name must not lose the model on a switch, and an English link opens the
    same model in the Chinese UI (issue 35)."""
    picker = page.locator('[data-testid="stSidebar"] .st-key-model [role=combobox]')
    open_app(page, app_server, "/attention", {"model": "Toy: reverse · rope", "text": "abc=cba", "lang": "中文"},
             timeout=TIMEOUT)
    expect(picker).to_have_value("玩具模型：反转 · RoPE", timeout=TIMEOUT)
    for lang, name in (("English", "Toy: reverse · rope"), ("中文", "玩具模型：反转 · RoPE")):
        page.locator(".st-key-lang").get_by_text(lang, exact=True).click()
        wait_for_rerun(page, timeout=TIMEOUT)
        expect(picker).to_have_value(name, timeout=TIMEOUT)
        query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
        assert query.get("model") == [name], query
        assert page.locator('[data-testid="stAlertContentWarning"], [data-testid="stAlertContentInfo"]').filter(
            has_text="model=").count() == 0
    assert_clean(page)


def test_invalid_link_params_show_notices(page: Page, app_server: str):
    open_app(page, app_server, "/attention", "layer=999&head=-1&model=nope", timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Attention explorer", timeout=TIMEOUT)
    warnings = page.locator('[data-testid="stAlertContentWarning"]')
    for param in ("layer=999", "head=-1", "model=nope"):
        expect(warnings.filter(has_text=param)).to_have_count(1, timeout=TIMEOUT)
    assert (slider_value(page, "layer"), slider_value(page, "head")) == (0, 0)
    expect(page.locator('[data-testid="stSidebar"] .st-key-model [role=combobox]')).to_have_value(
        "MiniLM (BERT, 6×12)")
    for param in ("layer", "head", "model"):
        assert f"{param}=" not in page.url.split("?", 1)[-1], page.url
    expect_instant_viewer(page)                  # the default view, at layer 0, head 0
    expect(page.locator(".gb-heading")).to_have_text("Layer 0, head 0")
    screenshot(page, "e2e-08-invalid-link")
    assert_clean(page)


def test_html_in_the_text_stays_text(page: Page, app_server: str):
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    open_attention(page, app_server)
    type_text(page, EVIL, TIMEOUT)
    ticks_expected_len = 34  # [CLS] + 32 WordPiece tokens + [SEP]
    expect(page.locator(CHARTS).nth(HEAD_MAP).locator(".xtick text")).to_have_count(ticks_expected_len,
                                                                                    timeout=TIMEOUT)
    ticks = tick_texts(page, HEAD_MAP)
    assert ticks[9:12] == ["<", "script", ">"], ticks  # shown literally, as text
    assert "".join(ticks[1:-1]) == EVIL.replace(" ", "")

    click_plotly_point(page, HEAD_MAP, DOTS, "1·&lt;")  # query 1 is "<": its detail title shows it
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator(".st-key-detail_panel")).to_contain_text("Query 1: <", timeout=TIMEOUT)

    # nothing was hidden or injected: the title is visible, no element came from the text
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Attention explorer")
    expect(page.locator(CHARTS).nth(HEAD_MAP)).to_be_visible()
    for selector in ("script", "style", "b"):
        injected = page.locator(f'[data-testid="stMain"] {selector}, [data-testid="stSidebar"] {selector}')
        assert injected.count() == 0, f"a <{selector}> element reached the page"
    page.wait_for_timeout(500)  # an alert() would have fired by now
    assert dialogs == []
    screenshot(page, "e2e-09-html-text")

    # the same on the overview page (token badges)
    page.locator('[data-testid="stSidebarNav"] a').first.click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Glassbox", timeout=TIMEOUT)
    expect(page.locator('[data-testid="stMain"] .stMarkdownBadge').filter(has_text="<")).to_have_count(
        6, timeout=TIMEOUT)
    assert page.locator('[data-testid="stMain"] script, [data-testid="stMain"] b').count() == 0
    assert dialogs == []
    screenshot(page, "e2e-10-html-text-home")
    assert_clean(page)


def test_link_values_never_become_html(page: Page, app_server: str):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    query = urllib.parse.urlencode({"model": EVIL, "view": EVIL, "layer": EVIL, "lang": EVIL})
    open_app(page, app_server, "/attention", query, timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Attention explorer", timeout=TIMEOUT)
    expect(page.locator("h1")).to_be_visible()
    warnings = page.locator('[data-testid="stAlertContentWarning"]')
    for param in ("model", "view", "layer", "lang"):
        expect(warnings.filter(has_text=f"{param}=")).to_have_count(1, timeout=TIMEOUT)
    # the bad view= gives the default, the instant view: its component brings one <style> of its
    # own inside its shadow root (the viewer's CSS from the app, not the link's); nothing else
    expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    for selector in ("script", "b"):
        assert page.locator(f'[data-testid="stMain"] {selector}').count() == 0, selector
    light = page.evaluate("""() => document.querySelectorAll('[data-testid="stMain"] style').length""")
    assert light == 0                                              # the page's own DOM (no shadow roots)
    styles = page.locator('[data-testid="stMain"] style').all_text_contents()   # shadow roots too
    assert len(styles) == 1 and ".gb-att" in styles[0] and "*{display:none}" not in styles[0], styles
    page.wait_for_timeout(500)
    assert dialogs == []
    screenshot(page, "e2e-11-html-in-link")
    assert_clean(page)


@pytest.mark.parametrize("value", [EVIL, "x` **bold** [click me](http://example.com/phish) `y"],
                         ids=["html", "markdown"])
def test_link_values_in_notices_are_shown_as_typed(page: Page, app_server: str, value: str):
    open_app(page, app_server, "/", urllib.parse.urlencode({"model": value}), timeout=TIMEOUT)
    notice = page.locator('[data-testid="stAlertContentWarning"]').filter(has_text="model=")
    expect(notice).to_have_count(1, timeout=TIMEOUT)
    screenshot(page, f"e2e-12-notice-{'html' if value == EVIL else 'markdown'}")
    assert notice.locator("a, strong").count() == 0
    assert f"model={value}" in notice.inner_text()

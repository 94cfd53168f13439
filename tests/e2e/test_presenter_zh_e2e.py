"""The Chinese screens on a projector (issue 35): every step of every shipped lesson, opened
in Chinese presenter mode (?present=1&lang=中文) at 1280x720, as a teacher walks through it
with Next (a question revealed first).

On each step, read from the DOM's bounding boxes: the page's first line sits below the
header (Streamlit's header grew with presenter mode's 24 px root font and covered it), and
every tick label of every chart (token labels, turned or not) lies inside its chart and is
drawn (plotly hides a label that runs past the figure). A screenshot of what the projector
shows on arrival goes to test-artifacts/screenshots/presenter-zh-<lesson>-<step>.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page

import lab.lessons
from models.weights import zoo
from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot
from ui.lessons import specs
from ui.examples import EXAMPLE_TEXTS

TIMEOUT = 180_000
VIEWPORT = {"width": 1280, "height": 720}
SHIPPED = lab.lessons.shipped(specs())[0]

# The header's bottom, the first visible block of the page (its text), and per chart every tick
# label that is hidden or outside the chart's own box (px, 1 px of slack for anti-aliasing).
_CHECK_JS = """
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  main.scrollTo(0, 0);
  const header = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect();
  const blocks = [...main.querySelectorAll('[data-testid="stMainBlockContainer"] [data-testid="stElementContainer"]')]
      .filter((el) => { const r = el.getBoundingClientRect(); return r.height > 0 && el.innerText.trim(); });
  const first = blocks.length ? blocks[0] : null;
  const firstBox = first ? first.getBoundingClientRect() : null;
  const bad = [];
  let labels = 0;
  main.querySelectorAll('[data-testid="stPlotlyChart"]').forEach((chart, c) => {
    const svg = chart.querySelector('.main-svg');
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    chart.querySelectorAll('g.xtick text, g.ytick text, g.x2tick text, g.y2tick text').forEach((t) => {
      const text = t.textContent.trim();
      if (!text) return;
      labels += 1;
      const style = getComputedStyle(t);
      if (style.display === 'none' || style.visibility === 'hidden' || t.closest('[display="none"]')) {
        bad.push(`chart ${c}: "${text}" hidden`);
        return;
      }
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) {
        bad.push(`chart ${c}: "${text}" at [${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ` +
                 `${Math.round(r.bottom)}] outside [${Math.round(box.left)}, ${Math.round(box.top)}, ` +
                 `${Math.round(box.right)}, ${Math.round(box.bottom)}]`);
      }
    });
  });
  return {headerBottom: header.bottom, firstTop: firstBox ? firstBox.top : null,
          firstText: first ? first.innerText.trim().slice(0, 40) : null, bad, labels,
          charts: main.querySelectorAll('[data-testid="stPlotlyChart"]').length};
}
"""


def settle(page: Page, chart: bool) -> None:
    """Wait until the step's chart is drawn (plotly draws after the run has finished, once
    Streamlit has loaded the chart element), when the step shows one."""
    if chart:
        page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"] .main-svg').first.wait_for(
            state="attached", timeout=TIMEOUT)
        page.wait_for_timeout(400)                # plotly's first layout (axis labels turn)


def check(page: Page, where: str, chart: bool) -> dict:
    settle(page, chart)
    m = page.evaluate(_CHECK_JS)
    assert m["firstTop"] is not None, f"{where}: nothing on the page"
    assert m["firstTop"] >= m["headerBottom"] - 1, (where, "the first line sits under the header", m)
    assert not m["bad"], (where, "tick labels cut or hidden", m["bad"])
    return m


@pytest.mark.parametrize("lid", list(SHIPPED))
def test_every_lesson_step_reads_on_a_projector_in_chinese(page: Page, app_server: str, lid: str) -> None:
    lesson = SHIPPED[lid]
    page.set_viewport_size(VIEWPORT)
    query = {"present": "1", "lang": "中文", "lesson": lid}
    if lesson.model and not lesson.fits("encoder"):              # a decoder lesson: the model it was written for
        query["model"] = zoo.get(lesson.model).label
    open_app(page, app_server, "/lessons", query, timeout=TIMEOUT)
    text = page.locator('[data-testid="stSidebar"] textarea').first.input_value()
    assert text == (lesson.text["zh"] if lesson.text else EXAMPLE_TEXTS["zh"])     # a Chinese lesson reads Chinese
    labels = 0
    for i, step in enumerate(lesson.steps):
        where = f"{lid} step {i + 1}"
        check(page, where, chart=not step.ask)
        assert step.title["zh"] in page.locator('[data-testid="stMain"] h1').first.inner_text()
        screenshot(page, f"presenter-zh-{lid}-{i + 1:02d}", full_page=False)
        reveal = page.locator('[class*="st-key-ls_reveal_"] button')
        if reveal.count():
            reveal.first.click()
            wait_for_rerun(page, timeout=TIMEOUT)
        m = check(page, where + " (figure)", chart=True)
        assert m["charts"] == 1, (where, m)
        labels += m["labels"]
        if i < len(lesson.steps) - 1:
            page.locator(".st-key-ls_next button").click()
            wait_for_rerun(page, timeout=TIMEOUT)
    assert labels, f"{lid}: no tick label was measured"
    assert_clean(page)


# Every option of the training lab's four menus, as the menu would show it once chosen: it must fit
# its box (a quarter of the form's width cut "RoPE（旋转位置编码）" and "Pre-LN（前置层归一化）"). The
# width is measured in the browser with the box's own font.
_FITS_JS = """
([key, labels]) => {
  const input = document.querySelector(`.st-key-${key} input`);
  const style = getComputedStyle(input);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = style.font;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return labels.filter((label) => ctx.measureText(label).width > room)
               .map((label) => `${label}: ${Math.round(ctx.measureText(label).width)} px > ${Math.round(room)} px`);
}
"""


@pytest.mark.parametrize("code", ["zh", "en"])
def test_the_training_labs_menus_show_whole_names_on_a_projector(page: Page, app_server: str, code: str) -> None:
    from models.config import ACTIVATIONS, NORMS, POSITIONALS
    from ui.i18n import STRINGS

    page.set_viewport_size(VIEWPORT)
    open_app(page, app_server, "/training", {"present": "1", "lang": "中文" if code == "zh" else "English"},
             timeout=TIMEOUT)
    menus = {"tr_pe": [f"pos_{p}" for p in POSITIONALS], "tr_norm": [f"bn_axis_{n}" for n in NORMS],
             "tr_norm_pos": ["norm_pre", "norm_post"], "tr_act": [f"act_{a}" for a in ACTIVATIONS]}
    cut = {key: page.evaluate(_FITS_JS, [key, [STRINGS[k][code] for k in keys]]) for key, keys in menus.items()}
    assert not any(cut.values()), cut
    page.locator('[data-testid="stForm"]').first.scroll_into_view_if_needed()
    screenshot(page, f"presenter-{code}-training-menus", full_page=False)
    assert_clean(page)

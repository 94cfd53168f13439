"""The attribution page in a real browser, in English and Chinese: direct logit
attribution (a click on a head opens what it writes), activation patching of an A/B pair
(and a B of another length refused), head detectors (the induction heads found, one
opened in the attention explorer with its layer and head in the link), and an encoder
without an LM head told what applies. Screenshots: test-artifacts/screenshots/e2e-attribution-*.png.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from support.browser import CHARTS, click_plotly_point, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 120_000
INDUCTION = "Toy: induction (repeated sequence) · rope"
A, B = "abcdefghabcdefg", "abcdefgzabcdefg"
LANGS = {"en": "English", "zh": "中文"}
TITLES = {"en": "Attribution: what each part contributes", "zh": "归因：每个部分贡献了什么"}


def main_charts(page: Page):
    return page.locator('[data-testid="stMain"] ' + CHARTS)


def open_page(page: Page, base: str, lang: str, **query: str) -> None:
    open_app(page, base, "/attribution", {"model": INDUCTION, "text": A, "lang": LANGS[lang], **query},
             timeout=TIMEOUT)
    expect(page.locator("h1").first).to_have_text(TITLES[lang], timeout=TIMEOUT)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_dla_and_a_click_on_a_head(app_server: str, page: Page, lang: str) -> None:
    open_page(page, app_server, lang)
    expect(main_charts(page)).to_have_count(2, timeout=TIMEOUT)       # heads, MLPs + embeddings + biases
    expect(page.get_by_text(re.compile("norm.s. on the way to the output are frozen" if lang == "en" else "个归一化层都把除数固定"))).to_be_visible(
        timeout=TIMEOUT)
    screenshot(page, f"e2e-attribution-dla-{lang}")
    click_plotly_point(page, 0, 2, 1)                                  # head 2 of layer 1
    wait_for_rerun(page, timeout=TIMEOUT)
    heading = "Layer 1, head 2" if lang == "en" else "第 1 层第 2 个头"
    expect(page.get_by_text(heading)).to_be_visible(timeout=TIMEOUT)
    expect(main_charts(page)).to_have_count(2, timeout=TIMEOUT)       # what it writes, its OV circuit
    view = page.locator(f".st-key-aview__{lang} input[type=radio]")   # the radio on screen follows the click
    expect(view.nth(1)).to_be_checked(timeout=TIMEOUT)
    expect(view.nth(0)).not_to_be_checked()
    for param in ("layer=1", "head=2", "aview=head"):                  # the link reproduces the view
        page.wait_for_url(re.compile(rf"[?&]{param}(&|$)"), timeout=TIMEOUT)
    screenshot(page, f"e2e-attribution-head-{lang}")
    assert_clean(page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_patching_a_pair(app_server: str, page: Page, lang: str) -> None:
    open_page(page, app_server, lang, aview="patching", text_b=B)
    expect(main_charts(page)).to_have_count(1, timeout=TIMEOUT)
    expect(page.get_by_text("8: h → z")).to_be_visible(timeout=TIMEOUT)
    screenshot(page, f"e2e-attribution-patching-{lang}")
    box = page.locator(".st-key-text_b input")
    box.fill("abc")
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    says = "same number of tokens" if lang == "en" else "相同数量的词元"
    expect(page.get_by_text(says)).to_be_visible(timeout=TIMEOUT)
    expect(main_charts(page)).to_have_count(0, timeout=TIMEOUT)
    assert_clean(page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_detectors_open_a_head_in_the_attention_explorer(app_server: str, page: Page, lang: str) -> None:
    open_page(page, app_server, lang, aview="detectors")
    expect(main_charts(page)).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator('[data-testid="stDataFrame"]')).to_have_count(1, timeout=TIMEOUT)
    screenshot(page, f"e2e-attribution-detectors-{lang}")
    click_plotly_point(page, 0, 3, 1)                                  # head 3 of layer 1
    wait_for_rerun(page, timeout=TIMEOUT)
    button = page.locator(".st-key-det_open button")
    expect(button).to_contain_text("L1 H3", timeout=TIMEOUT)
    button.click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator("h1").first).to_contain_text("Attention" if lang == "en" else "注意力", timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"/attention\?(.*&)?layer=1(&|$)"), timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"[?&]head=3(&|$)"), timeout=TIMEOUT)
    expect(page.locator(".st-key-layer input[type=range]")).to_have_attribute("value", "1", timeout=TIMEOUT)
    expect(page.locator(".st-key-head input[type=range]")).to_have_attribute("value", "3", timeout=TIMEOUT)
    # the explorer's default view, the in-browser viewer, starts at that head
    expect(page.locator(".gb-heading")).to_have_text("Layer 1, head 3" if lang == "en" else "第 1 层，第 3 个头",
                                                     timeout=TIMEOUT)
    screenshot(page, f"e2e-attribution-opened-head-{lang}")
    assert_clean(page)


def test_an_encoder_is_told_what_applies(app_server: str, page: Page) -> None:
    open_app(page, app_server, "/attribution", {"text": "the cat sat on the mat", "aview": "dla"}, timeout=TIMEOUT)
    expect(page.get_by_text("no language-model head")).to_be_visible(timeout=TIMEOUT)
    expect(main_charts(page)).to_have_count(0, timeout=TIMEOUT)
    screenshot(page, "e2e-attribution-encoder")
    assert_clean(page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_training_lab_charts_the_detectors(app_server: str, page: Page, lang: str) -> None:
    open_app(page, app_server, "/training", {"lang": LANGS[lang]}, timeout=TIMEOUT)
    task = page.locator(".st-key-tr_task")
    task.click()
    page.get_by_role("option", name=re.compile("Induction|归纳")).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    page.locator(".st-key-tr_layers input").fill("2")                 # an induction head needs two layers
    page.locator(".st-key-tr_pe").click()
    page.get_by_role("option", name=re.compile(r"^RoPE")).click()           # "RoPE (rotary)" / "RoPE（旋转位置编码）"
    page.locator(".st-key-tr_steps_induction input").fill("150")
    page.locator(".st-key-tr_every input").fill("10")
    page.locator(".st-key-tr_start button").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    title = "Head detectors over training" if lang == "en" else "训练过程中的注意力头检测"
    expect(page.get_by_text(title)).to_be_visible(timeout=4 * TIMEOUT)
    wait_for_rerun(page, timeout=TIMEOUT)
    chart = page.locator(".st-key-tr_detectors, " + CHARTS).filter(has_text=re.compile("induction|归纳")).first
    chart.scroll_into_view_if_needed(timeout=TIMEOUT)
    expect(chart.locator(".legendtext").first).to_be_visible(timeout=TIMEOUT)
    screenshot(page, f"e2e-attribution-training-{lang}")
    induction = "induction" if lang == "en" else "归纳"
    expect(page.get_by_text(re.compile(rf"(best {induction} head is|最好的{induction}头是) L1"))).to_be_visible()
    assert_clean(page)

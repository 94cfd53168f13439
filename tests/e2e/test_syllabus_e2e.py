"""The views that follow the course notes, in a real browser, in English and Chinese: the
walk-through's √d_k and FlashAttention sections (the tile slider moved in the browser),
the residual page's input layer and LayerNorm vs BatchNorm, the generation page's
training vs generation, the positional page's calculator at d_model = 512, and the
notes beside the FFN's activation.
Screenshots: test-artifacts/screenshots/e2e-syllabus-*.png (one per view and language).
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import SCREENSHOT_DIR, assert_clean

TIMEOUT = 120_000
TEXT = "the cat sat on the mat"
LANGS = [("English", "en"), ("中文", "zh")]


def section(page: Page, key: str) -> Locator:
    box = page.locator(f".st-key-{key}")
    expect(box).to_be_visible(timeout=TIMEOUT)
    box.locator(".js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=TIMEOUT)
    return box


def shot(page: Page, box: Locator, name: str) -> None:
    """The element alone at full size: the viewport grows to hold it, then is restored."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    height = int(box.evaluate("el => el.getBoundingClientRect().height"))
    page.set_viewport_size({"width": 1400, "height": min(max(1000, height + 300), 7000)})
    box.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(600)                               # plotly re-lays out to the new size
    box.screenshot(path=str(SCREENSHOT_DIR / f"e2e-syllabus-{name}.png"))
    page.set_viewport_size({"width": 1400, "height": 1000})


@pytest.mark.parametrize("lang,code", LANGS)
def test_sqrt_dk_and_flash_attention(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/walkthrough", {"text": TEXT, "wt_layer": "2", "wt_head": "3", "lang": lang},
             timeout=TIMEOUT)
    box = section(page, "sc_section")
    expect(box).to_contain_text("√d_k")
    expect(box.locator(".st-key-mis_scale01")).to_be_visible()
    shot(page, box, f"sqrtdk-{code}")
    flash = section(page, "fa_section")
    done = "读完最后一块后" if code == "zh" else "After the last tile"
    expect(flash).to_contain_text(done)
    # step back one tile with the keyboard on the slider: only the first tile is read now
    thumb = flash.locator(".st-key-fa_step input[type=range]")
    thumb.focus()
    page.keyboard.press("ArrowLeft")
    wait_for_rerun(page, timeout=TIMEOUT)
    partial = "读入 2 块中的 1 块之后" if code == "zh" else "After 1 of 2 key tiles"
    expect(flash).to_contain_text(partial, timeout=TIMEOUT)
    shot(page, flash, f"flash-{code}")
    assert_clean(page)


@pytest.mark.parametrize("lang,code", LANGS)
def test_input_layer(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/residual", {"text": TEXT, "rview": "input", "lang": lang}, timeout=TIMEOUT)
    box = section(page, "in_view")
    expect(box).to_contain_text("√d_model")
    box.locator(".st-key-in_scaled label").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(box).to_contain_text("19.6")
    shot(page, box, f"input-{code}")
    assert_clean(page)


@pytest.mark.parametrize("lang,code", LANGS)
def test_layernorm_vs_batchnorm(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/residual", {"text": TEXT, "rview": "batchnorm", "lang": lang}, timeout=TIMEOUT)
    box = section(page, "bn_view")
    expect(box.locator(".st-key-mis_addnorm")).to_be_visible(timeout=TIMEOUT)
    expect(box.locator(".js-plotly-plot")).to_have_count(4, timeout=TIMEOUT)
    shot(page, box, f"batchnorm-{code}")
    assert_clean(page)


@pytest.mark.parametrize("lang,code", LANGS)
def test_training_vs_generation(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/generate", {"text": "jggifhic=", "model": "Toy: reverse · rope", "gen_n": "4",
                                             "lang": lang}, timeout=TIMEOUT)
    box = section(page, "tf_section")
    expect(box).to_contain_text("教师强制" if code == "zh" else "teacher forcing")
    expect(box.locator(".st-key-mis_parallel")).to_be_visible()
    shot(page, box, f"teacher-forcing-{code}")
    assert_clean(page)


@pytest.mark.parametrize("lang,code", LANGS)
def test_pe_calculator_at_512(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/positional", {"lang": lang}, timeout=TIMEOUT)
    page.get_by_text("公式与计算示例" if code == "zh" else "Formulas and worked numbers").click()
    calc = page.locator(".st-key-pe_calc")
    expect(calc).to_be_visible(timeout=TIMEOUT)
    box = calc.locator(".st-key-pe_ex_d input")
    box.fill("512")
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(calc).to_contain_text("10000^(0/512)")
    expect(calc).to_contain_text("-0.544021")
    shot(page, calc, f"pe-calculator-{code}")
    assert_clean(page)


@pytest.mark.parametrize("lang,code", LANGS)
def test_notes_beside_the_activation(app_server: str, page: Page, lang: str, code: str) -> None:
    open_app(page, app_server, "/ffn", {"text": TEXT, "fview": "function", "lang": lang}, timeout=TIMEOUT)
    note = page.locator(".st-key-mis_mixing")
    expect(note).to_be_visible(timeout=TIMEOUT)
    expect(note).to_contain_text("词元混合" if code == "zh" else "token-mixing")   # zh: the glossary's term
    shot(page, page.locator(".st-key-mis_activation"), f"note-activation-{code}")
    shot(page, note, f"note-mixing-{code}")
    assert_clean(page)

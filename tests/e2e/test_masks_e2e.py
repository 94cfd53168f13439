"""The masks lab and the walk-through in a real browser.

The BigBird test builds the mask through the page's own widgets (remove the default
pattern, add BigBird, set the window), then reads back what the browser drew: the
composed mask, the "−∞" cells of the masked scores, and the softmax of the model
computing with that mask (masked cells exactly where models.masks says, rows summing to 1).
"""
from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import Page, expect

import models.masks
from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TEXT = "the cat sat on the mat"
N_TOKENS = 8  # [CLS] the cat sat on the mat [SEP]
TIMEOUT = 120_000

# The z matrices of one chart's traces, as plain nested arrays (plotly decodes numpy to typed arrays).
_TRACES_JS = """
(key) => {
  const gd = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  if (!gd || !gd._fullData) return null;
  return gd._fullData.map((t) => ({
    name: t.name, type: t.type,
    z: t.z ? Array.from(t.z, (row) => Array.from(row, (v) => (v === null || Number.isNaN(v) ? null : v))) : null,
    text: t.text ? Array.from(t.text) : null,
  }));
}
"""


def traces(page: Page, key: str) -> list[dict]:
    page.locator(f".st-key-{key} .js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=TIMEOUT)
    data = page.evaluate(_TRACES_JS, key)
    assert data, f"chart {key} is not drawn"
    return data


def set_number(page: Page, key: str, value: int) -> None:
    box = page.locator(f".st-key-{key} input")
    box.fill(str(value))
    box.press("Enter")
    wait_for_rerun(page, timeout=TIMEOUT)


def test_bigbird_mask_applied_to_the_model(page: Page, app_server: str) -> None:
    open_app(page, app_server, "/masks", {"text": TEXT}, timeout=TIMEOUT)
    parts = page.locator(".st-key-mk_parts")
    parts.get_by_role("button", name="Remove Local window").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    combo = parts.get_by_role("combobox")
    combo.click()
    combo.fill("BigBird")
    page.get_by_role("option", name="BigBird (window + global + random)").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    page.keyboard.press("Escape")
    set_number(page, "mk_window", 1)
    set_number(page, "mk_random", 1)
    expected = models.masks.bigbird(N_TOKENS, window=1, global_tokens=(0,), n_random=1, seed=0).numpy()
    assert not expected.all()

    composed = np.array(traces(page, "mk_composed")[0]["z"])
    assert np.array_equal(composed == 1, expected), composed

    masked = traces(page, "mk_masked")
    minus_inf = [t for t in masked if t["name"] == "neg_inf"]
    assert minus_inf and len(minus_inf[0]["text"]) == int((~expected).sum())
    assert set(minus_inf[0]["text"]) == {"−∞"}

    softmax = traces(page, "mk_softmax")
    weights = np.array(softmax[0]["z"], dtype=float)                  # NaN where masked
    assert np.array_equal(np.isnan(weights), ~expected)
    assert np.allclose(np.nansum(weights, axis=1), 1.0, atol=1e-4)
    grey = np.array([[v is not None for v in row] for row in softmax[1]["z"]])  # the "masked" layer
    assert np.array_equal(grey, ~expected)

    expect(page.get_by_text("differs from the one the model was trained with")).to_be_visible()
    screenshot(page, "e2e-masks-bigbird")
    assert_clean(page)


def test_every_tab_of_the_masks_page_draws(page: Page, app_server: str) -> None:
    open_app(page, app_server, "/masks", {"text": TEXT}, timeout=TIMEOUT)
    for tab, chart in (("Gallery", "mk_gallery_bigbird"), ("Padding (a batch)", "mk_pad_pattern_1"),
                       ("Cost", "mk_cost"), ("Receptive field", "mk_coverage"), ("Without softmax", "mk_v_ret")):
        page.get_by_role("tab", name=tab).click()
        wait_for_rerun(page, timeout=TIMEOUT)                        # only the open tab runs
        page.locator(f".st-key-{chart} .js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=TIMEOUT)
        page.wait_for_timeout(500)
        screenshot(page, f"e2e-masks-{tab.split()[0].lower()}")
        if tab.startswith("Padding"):
            # "A shorter one." is 6 tokens + 2 [PAD]; its real queries never see the padding
            # (masked cells), while the padding queries keep an unpadded row (never empty)
            pad = np.array(traces(page, "mk_pad_pattern_1")[0]["z"], dtype=float)
            assert pad.shape == (N_TOKENS, N_TOKENS)
            assert np.all(np.isnan(pad[:6, 6:])) and not np.isnan(pad[:6, :6]).any()
            assert not np.isnan(pad[6:]).any()
    expect(page.locator(".st-key-mk_composed")).to_have_count(0)      # the first tab is not rebuilt
    assert_clean(page)


def test_walkthrough_checks_against_the_model(page: Page, app_server: str) -> None:
    open_app(page, app_server, "/walkthrough", {"text": TEXT, "wt_layer": "3", "wt_head": "5"}, timeout=TIMEOUT)
    expect(page.get_by_text("Checked: the vector computed here equals")).to_be_visible()
    expect(page.locator("[data-testid=stDataFrame]").first).to_be_visible()
    for key in ("wt_Q", "wt_K", "wt_V", "wt_neuron", "wt_kv_diagram"):
        traces(page, key)
    page.locator("[data-testid=stDataFrame] canvas").first.wait_for(state="visible", timeout=TIMEOUT)
    page.wait_for_timeout(500)
    screenshot(page, "e2e-walkthrough")
    assert_clean(page)


@pytest.mark.parametrize("lang,label,wrong", [("English", "the causal triangle the wrong way round", "Wrong:"),
                                              ("中文", "因果掩码的三角方向反了", "错误写法：")])
def test_walkthrough_code_mistakes_on_a_decoder(page: Page, app_server: str, lang: str, label: str, wrong: str) -> None:
    """Section 8 on a decoder: the table's first row (the right code) matches the model, and
    the inverted-mask expander shows its two lines of code and what it did to this layer."""
    open_app(page, app_server, "/walkthrough", {"text": TEXT, "model": "GPT-2-style decoder", "lang": lang},
             timeout=TIMEOUT)
    section = page.locator(".st-key-cm_section")
    section.scroll_into_view_if_needed()
    expect(section.locator("table")).to_be_visible(timeout=TIMEOUT)
    right = float(section.locator("table tbody tr").first.locator("td").nth(1).inner_text())
    assert right < 1e-5
    box = section.locator("[data-testid=stExpander]").filter(has_text=label)
    box.locator("summary").click()
    expect(box.get_by_text(wrong)).to_be_visible()
    expect(box.locator("code").filter(has_text="torch.triu")).to_be_visible()
    screenshot(page, f"e2e-walkthrough-code-mistakes-{'zh' if lang == '中文' else 'en'}")
    assert_clean(page)


@pytest.mark.parametrize("lang,tab,text", [("English", "MLM vs causal LM", "The students watched the model read."),
                                           ("中文", "掩码语言模型与因果语言模型", "床前明月光，疑是地上霜。")])
def test_masked_and_causal_objectives_tab(page: Page, app_server: str, lang: str, tab: str, text: str) -> None:
    """The objectives tab: both shipped character models' top five at the chosen character."""
    open_app(page, app_server, "/masks", {"text": text, "lang": lang, "ob_pos": "8"}, timeout=TIMEOUT)
    page.get_by_role("tab", name=tab).click()
    view = page.locator(".st-key-ob_view")
    expect(view.locator("table tbody tr")).to_have_count(5, timeout=TIMEOUT)
    expect(view.locator(".st-key-mis_ob_mismatch")).to_be_visible()
    screenshot(page, f"e2e-masks-objectives-{'zh' if lang == '中文' else 'en'}")
    assert_clean(page)

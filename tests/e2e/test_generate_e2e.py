"""The generation page in a real browser: generate tokens, step through them, beam search,
the KV cache and an encoder-only model. Screenshots: test-artifacts/screenshots/e2e-gen-*.png.
"""
from __future__ import annotations

import urllib.parse

from playwright.sync_api import Page, expect

from support.browser import CHARTS, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000
TOY = "Toy: reverse · rope"          # a shipped checkpoint (models/checkpoints/reverse-rope)
TOY_PROMPT = "jggifhic="             # the reverse task: <bos> x = reversed(x)
SPELL = "Toy: spell digits (encoder-decoder) · sinusoidal"
MODEL = "GPT-2-style decoder"        # random "build your own" preset
PROMPT = "the cat sat on the mat and the dog"


def open_generate(page: Page, base_url: str, **query: str) -> None:
    open_app(page, base_url, "/generate", urllib.parse.urlencode(query), timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Generation, one token at a time", timeout=TIMEOUT)


def wait_for_step(page: Page, condition: str) -> None:
    """Wait until the step slider's value v satisfies the JS expression `condition`."""
    page.wait_for_function("() => { const e = document.querySelector('.st-key-gen_step input[type=range]');"
                           f" if (!e) return false; const v = Number(e.value); return {condition}; }}",
                           timeout=TIMEOUT)


def step_slider(page: Page) -> int:
    return int(page.locator(".st-key-gen_step input[type=range]").get_attribute("value"))


def test_generate_ten_tokens_and_step_through(page: Page, app_server: str):
    open_generate(page, app_server, model=TOY, text=TOY_PROMPT, gen_n="10")
    main = page.locator('[data-testid="stMain"]')
    # the trained model reverses its input: the first 8 new characters are "cihfiggj"
    expect(main.locator("p", has_text="Generated:")).to_contain_text("cihfiggj", timeout=TIMEOUT)
    expect(main.get_by_text("Step 10: candidates for position", exact=False)).to_be_visible(timeout=TIMEOUT)
    # the candidate bars and the new attention row are drawn
    expect(page.locator(CHARTS).first.locator(".barlayer .point").first).to_be_visible(timeout=TIMEOUT)
    expect(main.get_by_text("Chosen:", exact=False)).to_be_visible()
    assert step_slider(page) == 10
    screenshot(page, "e2e-gen-01-step")

    page.locator(".st-key-gen_prev button:visible").first.click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(main.get_by_text("Step 9: candidates for position", exact=False)).to_be_visible(timeout=TIMEOUT)
    assert step_slider(page) == 9

    # play from the start: the step slider walks forward by itself and stops at the end
    page.locator(".st-key-gen_next button:visible").first.click()
    wait_for_rerun(page, timeout=TIMEOUT)
    page.locator(".st-key-gen_play button:visible").first.click()
    wait_for_step(page, "v > 1 && v < 10")
    wait_for_step(page, "v === 10")
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(main.get_by_text("Step 10: candidates for position", exact=False)).to_be_visible(timeout=TIMEOUT)

    page.get_by_role("tab", name="KV cache").click()
    expect(main.get_by_text("Paged view (PagedAttention)")).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-gen-02-cache")
    page.get_by_role("tab", name="Repetition").click()
    expect(main.get_by_text("of the generated tokens complete", exact=False)).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-gen-03-repetition")
    assert_clean(page)


def test_sampling_settings_and_beam_tree(page: Page, app_server: str):
    open_generate(page, app_server, model=MODEL, text=PROMPT, gen_n="8", strategy="sample", gen_t="1.5",
                  gen_k="5", gen_seed="3")
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text("survived the cut", exact=False)).to_be_visible(timeout=TIMEOUT)
    # top-k = 5 of 10 candidates: the cut ones say so on their bars
    expect(page.locator(CHARTS).first.get_by_text("(cut)", exact=False).first).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-gen-04-sampling")

    open_generate(page, app_server, model=MODEL, text=PROMPT, gen_n="5", strategy="beam", gen_width="3")
    expect(main.get_by_text("Returned sequence:", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS).first.locator(".scatterlayer .point").first).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-gen-05-beam")
    assert_clean(page)


def test_encoder_decoder_spells_and_shows_cross_attention(page: Page, app_server: str):
    open_generate(page, app_server, model=SPELL, text="96685", gen_n="30")
    main = page.locator('[data-testid="stMain"]')
    expect(main.locator("p", has_text="Generated:")).to_contain_text("nine six six eight five", timeout=TIMEOUT)
    page.get_by_role("tab", name="Cross-attention").click()
    expect(main.get_by_text("generated tokens over the source", exact=False)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS).locator(".heatmaplayer").first).to_be_attached(timeout=TIMEOUT)
    screenshot(page, "e2e-gen-07-cross")
    assert_clean(page)


def test_encoder_only_model_explains_and_offers_a_decoder(page: Page, app_server: str):
    open_generate(page, app_server, model="MiniLM (BERT, 6×12)")
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text("so it does not generate", exact=False)).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-gen-06-encoder")
    page.locator(".st-key-gen_switch button:visible").first.click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(main.get_by_text("candidates for position", exact=False)).to_be_visible(timeout=TIMEOUT)
    assert_clean(page)

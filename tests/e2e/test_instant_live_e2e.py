"""The live instant view (issue 38, part 3): on /attention?view=instant a model with a browser
form (models/weights/browser.py) comes with a text box, and every change of the text is run
through the model in the browser (viz_core/web/model.js, live.js). Typing sends nothing to
the server: the websocket's outgoing frames are counted. The weights drawn equal the PyTorch
model's within the payload's stated error (uint8 per head: scale / 510) plus the tooltip's
4-decimal rounding. Screenshots: test-artifacts/screenshots/e2e-live-*.png.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
import torch
from playwright.sync_api import Page, expect

from models.trace import record_names
from models.weights import zoo
from models.weights.browser import browser_model, bundle_json
from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, offline_page, screenshot
from tests.fuzz.test_typed_text import SPECIAL
from viz_core.attention_html import live_js, standalone_html
from viz_core.attention_pack import pack_attention
from viz_core.labels import visible_label

TIMEOUT = 90_000
VERSE = "Verse LM (characters, 中文 + English)"
TEXTS = {
    "english": "The moon over the river",
    "chinese": "床前明月光，疑是地上霜。",
    "mixed": "明月 and the <b>river</b> 🌙",
}


@lru_cache(maxsize=8)
def reference(text: str) -> tuple[np.ndarray, list[str]]:
    """[L, H, q, k] attention of verse-lm for `text`, computed here with PyTorch."""
    model, tok = zoo.load("toy:verse-lm")
    enc = tok.encode(text, max_len=model.cfg.max_len)
    with torch.no_grad():
        _, trace = model.run_with_cache(torch.tensor([enc.ids]), names=record_names(model.cfg, ["pattern"]))
    return trace.patterns().float().numpy(), enc.tokens


def count_sent_frames(page: Page) -> list[int]:
    """A list that grows by one for every frame the page sends on any websocket."""
    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(1)))
    return sent


def live_box(page: Page):
    wrap = page.locator(".gb-live")
    expect(wrap).to_have_attribute("data-model", "ready", timeout=TIMEOUT)
    return wrap


def type_text(page: Page, wrap, text: str, runs_before: int) -> None:
    area = wrap.locator("textarea")
    area.fill("")
    area.press_sequentially(text, delay=15)
    # the last pass ran on the whole text
    page.wait_for_function("(el) => el.__gbLive.state().shown === el.querySelector('textarea').value "
                           "&& !el.__gbLive.state().busy", arg=wrap.element_handle(), timeout=TIMEOUT)
    assert int(wrap.get_attribute("data-runs")) > runs_before


def drawn_weights(wrap) -> dict:
    """Every cell the live viewer holds, with its tokens: {weights: [L][H][q][k], tokens, errors}."""
    return wrap.evaluate("""(el) => {
      const st = el.__gbLive.state(); const api = el.__gbLive.viewer();
      return api.ready.then(() => {
        const p = api.payload();
        const out = [];
        for (let l = 0; l < p.n_layers; l++) { const layer = []; for (let h = 0; h < p.n_heads; h++) {
          const rows = []; for (let q = 0; q < p.n_q; q++) { const row = []; for (let k = 0; k < p.n_k; k++)
            row.push(api.weight(l, h, q, k)); rows.push(row); } layer.push(rows); } out.push(layer); }
        return {weights: out, tokens: p.q_tokens, errors: p.max_error, text: st.shown};
      });
    }""")


# how far a drawn weight may be from PyTorch's beyond the payload's own uint8 step: float rounding with the
# model's exact weights; with int8 weights, tests/e2e/test_browser_model_e2e.py's bound (measured at most 0.081
# for verse-lm there)
WEIGHTS_TOL = {"float16": 1e-4, "int8": 0.25}


def type_and_check(page: Page, wrap, weights: str = "float16") -> None:
    """Type each of TEXTS into the live box; each time every drawn weight must equal PyTorch's
    within the payload's stated error + WEIGHTS_TOL[weights], the mask must be causal and the
    token labels Python's."""
    runs = 0
    for name, text in TEXTS.items():
        type_text(page, wrap, text, runs)
        runs = int(wrap.get_attribute("data-runs"))
        drawn = drawn_weights(wrap)
        ref, tokens = reference(text)
        got = np.array(drawn["weights"], dtype=np.float64)
        assert got.shape == ref.shape, (name, got.shape, ref.shape)
        allowed = ~np.isnan(got)
        assert np.array_equal(allowed[0, 0], np.tril(np.ones(ref.shape[-2:], dtype=bool))), name   # causal
        tol = np.array(drawn["errors"]).reshape(ref.shape[:2])[:, :, None, None] + WEIGHTS_TOL[weights]
        assert (np.abs(got - ref)[allowed] <= np.broadcast_to(tol, ref.shape)[allowed]).all(), name
        assert drawn["tokens"] == [visible_label(t) for t in tokens], name


def test_typing_recomputes_in_the_browser_without_the_server(app_server, page):
    open_app(page, app_server, "/attention", {"view": "instant", "model": VERSE, "text": "Moon"}, timeout=TIMEOUT)
    wrap = live_box(page)
    assert_clean(page)
    sent = count_sent_frames(page)
    page.reload(wait_until="domcontentloaded")         # the listener sees the websocket from its start
    wrap = live_box(page)
    wait_for_rerun(page, timeout=TIMEOUT)
    page.wait_for_timeout(500)
    before = len(sent)
    type_and_check(page, wrap)
    assert len(sent) == before, f"typing sent {len(sent) - before} websocket frames to the server"
    # the token text is drawn, never run as HTML
    assert page.locator(".gb-live b").count() == 0
    screenshot(page, "e2e-live-1-typed")
    # "use this text on every page": one request, and the sidebar follows
    wrap.locator(".gb-live-use").click()
    wait_for_rerun(page, timeout=TIMEOUT)
    expect(page.locator('[data-testid="stSidebar"] textarea')).to_have_value(TEXTS["mixed"], timeout=TIMEOUT)
    assert_clean(page)


def test_live_box_in_chinese(app_server, page):
    open_app(page, app_server, "/attention",
             {"view": "instant", "model": VERSE, "text": "床前明月光", "lang": "中文"}, timeout=TIMEOUT)
    wrap = live_box(page)
    expect(wrap.locator(".gb-live-label")).to_contain_text("你的文本")
    type_text(page, wrap, "举头望明月，低头思故乡。", 0)
    expect(wrap.locator(".gb-live-status")).to_contain_text("本浏览器计算用时")
    assert_clean(page)
    screenshot(page, "e2e-live-2-zh")


def test_minilm_asks_before_downloading(app_server, page):
    """MiniLM's browser form is 60 MB: the view offers it with its size and sends nothing
    until the reader turns it on."""
    open_app(page, app_server, "/attention", {"view": "instant", "text": "The cat sat."}, timeout=TIMEOUT)
    expect(page.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    assert page.locator(".gb-live").count() == 0
    expect(page.get_by_text("Recompute in this browser as I type")).to_be_visible()
    assert_clean(page)


@pytest.mark.parametrize("weights", ["float16", "int8"])
def test_live_export_works_from_disk_with_no_network(browser, tmp_path, weights):
    """Part 4: the exported file embeds the model (verse-lm's exact float16 weights, or int8
    deflated as the app exports it: model.js inflates it with DecompressionStream);
    opened from file:// with every network route aborted, typing three sentences redraws every
    head, equal to PyTorch's within the format's bound."""
    start = "Moon"
    ref, tokens = reference(start)
    payload = pack_attention(ref, [visible_label(s) for s in tokens],
                             mask=np.tril(np.ones(ref.shape[-2:], dtype=bool)))
    model, tok = zoo.load("toy:verse-lm")
    page_html = standalone_html(payload, title="Glassbox · live", note="offline",
                                model_json=bundle_json(browser_model(model, tok, weights=weights,
                                                                     deflate=weights == "int8")), text=start)
    path = tmp_path / "live.html"
    path.write_text(page_html, encoding="utf-8")
    with offline_page(browser) as page:
        page.goto(path.as_uri())
        type_and_check(page, live_box(page), weights)
        screenshot(page, f"e2e-live-3-export-{weights}")


def test_token_labels_in_the_browser_equal_pythons(browser, tmp_path):
    """live.js's visibleLabel is viz_core.labels.visible_label written again in JavaScript (the
    browser names the tokens it made): the same label for every hostile token of the fuzz suite."""
    tokens = SPECIAL + ["", " ", "  ", "\u3000", "a\u0301", "x" * 40, "中" * 30, "🍕" * 30, "<unk>", "##ing",
                        "\x85", "\x1c", "\u00a0", "\u2007", "e\u200b"]
    page_file = tmp_path / "labels.html"
    page_file.write_text(f"<!doctype html><meta charset='utf-8'><script>{live_js()}</script>", encoding="utf-8")
    with offline_page(browser) as page:
        page.goto(page_file.as_uri())
        got = page.evaluate("tokens => tokens.map(glassboxLive.visibleLabel)", tokens)
    assert got == [visible_label(t) for t in tokens]

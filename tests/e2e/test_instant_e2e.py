"""The instant attention view (/attention?view=instant, ui/widgets/attention_canvas.py)
and its standalone HTML export, in Chromium.

The weights the browser shows are checked against the model run in this test process
(models.pretrained, the same trace the app records), within the error the payload
states (scale / 510) plus the 4-decimal rounding of the tooltip.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pytest
from playwright.sync_api import expect

from support.browser import open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 60_000
TEXT = "The cat sat on the mat because it was warm."
HOSTILE = "<b>x</b> <script>alert(1)</script>"
SHOWN = 5e-5            # the tooltip prints 4 decimals


@lru_cache(maxsize=4)
def trace_patterns(text: str) -> tuple[np.ndarray, list[str]]:
    """[L, H, q, k] attention of the bundled MiniLM for `text`, computed here."""
    from models.weights.pretrained import load
    from models.trace import record_names
    import torch

    model, tok = load("minilm")
    enc = tok.encode(text)
    with torch.no_grad():
        _, trace = model.run_with_cache(torch.tensor([enc.ids]), names=record_names(model.cfg, ["pattern"]))
    return trace.patterns().float().numpy(), enc.tokens


def viewer(page):
    box = page.locator(".gb-att")
    expect(box).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
    return box


def hover_cell(page, box, q: int, k: int) -> dict:
    box.locator(".gb-map").scroll_into_view_if_needed()
    pos = box.evaluate("(el, [q, k]) => el.__gb.cellCenter(q, k)", [q, k])
    page.mouse.move(pos["x"], pos["y"])
    tip = page.locator(".gb-tip")
    expect(tip).to_have_attribute("data-q", str(q), timeout=5_000)
    expect(tip).to_have_attribute("data-k", str(k), timeout=5_000)
    text = tip.inner_text()
    m = re.search(r"(-?\d+\.\d{4}) [±](\d[\d.e-]*)", text)
    assert m, text
    # the stated error, unrounded (the tooltip prints it to 2 significant digits)
    return {"text": text, "weight": float(m.group(1)), "error": float(tip.get_attribute("data-error")),
            "pos": pos}


def test_keys_switch_heads_and_the_url_follows(app_server, page):
    open_app(page, app_server, "/attention", {"view": "instant", "text": TEXT})
    box = viewer(page)
    heading = page.locator(".gb-heading")
    expect(heading).to_have_text("Layer 0, head 0")
    box.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(heading).to_have_text("Layer 1, head 2")       # drawn in the browser, no round trip
    page.keyboard.press("ArrowLeft")
    expect(heading).to_have_text("Layer 1, head 1")
    # the selection goes back to Python: the sliders and the link follow
    page.wait_for_url(re.compile(r"[?&]layer=1(&|$)"), timeout=TIMEOUT)
    page.wait_for_url(re.compile(r"[?&]head=1(&|$)"), timeout=TIMEOUT)
    wait_for_rerun(page)
    expect(heading).to_have_text("Layer 1, head 1")       # the rerun did not reset the viewer
    page.keyboard.press("ArrowUp")
    expect(heading).to_have_text("Layer 0, head 1")
    # hovering a tile previews its head; leaving goes back; a click selects it
    box.locator(".gb-grid").scroll_into_view_if_needed()
    tile = box.evaluate("(el) => el.__gb.tileCenter(3, 4)")
    page.mouse.move(tile["x"], tile["y"])
    expect(heading).to_have_text("Layer 3, head 4 (preview)")
    page.mouse.move(5, 5)
    expect(heading).to_have_text("Layer 0, head 1")
    page.mouse.move(tile["x"], tile["y"])
    page.mouse.click(tile["x"], tile["y"])
    expect(heading).to_have_text("Layer 3, head 4")
    page.wait_for_url(re.compile(r"[?&]layer=3(&|$)"), timeout=TIMEOUT)
    wait_for_rerun(page)
    screenshot(page, "instant_en", full_page=False)
    assert_clean(page)


def test_the_link_reopens_the_view_in_chinese(app_server, page):
    open_app(page, app_server, "/attention", {"view": "instant", "text": TEXT, "layer": "2", "head": "3",
                                               "lang": "中文"})
    viewer(page)
    expect(page.locator(".gb-heading")).to_have_text("第 2 层，第 3 个头")
    expect(page.locator(".gb-hint")).to_contain_text("切换头")
    page.locator(".gb-att").scroll_into_view_if_needed()
    screenshot(page, "instant_zh", full_page=False)
    assert_clean(page)


def test_hover_shows_the_trace_value_and_a_click_pins_it(app_server, page):
    patterns, tokens = trace_patterns(TEXT)
    open_app(page, app_server, "/attention", {"view": "instant", "text": TEXT})
    box = viewer(page)
    box.focus()
    page.keyboard.press("ArrowRight")                     # layer 0, head 1
    for q, k in [(0, 0), (3, 2), (5, 11), (len(tokens) - 1, 4)]:
        got = hover_cell(page, box, q, k)
        want = float(patterns[0, 1, q, k])
        assert got["error"] == pytest.approx(patterns[0, 1].max() / 510, rel=1e-5), got
        assert abs(got["weight"] - want) <= got["error"] + SHOWN, (q, k, got, want)
        assert tokens[q] in got["text"] and tokens[k] in got["text"]
    # click pins (3, 2): moving away keeps it, a second click unpins, Esc unpins
    pinned = hover_cell(page, box, 3, 2)
    page.mouse.click(pinned["pos"]["x"], pinned["pos"]["y"])
    expect(page.locator(".gb-status")).to_contain_text("pinned")
    box.locator(".gb-map").scroll_into_view_if_needed()
    other = box.evaluate("(el) => el.__gb.cellCenter(6, 7)")
    page.mouse.move(other["x"], other["y"])
    expect(page.locator(".gb-tip")).to_have_attribute("data-q", "3")
    page.mouse.click(other["x"], other["y"])               # click again: unpinned
    expect(page.locator(".gb-status")).to_have_text("")
    page.mouse.click(other["x"], other["y"])               # pin (6, 7), then Esc
    expect(page.locator(".gb-status")).to_contain_text("pinned")
    expect(page.locator(".gb-tip")).to_have_attribute("data-q", "6")
    page.keyboard.press("Escape")
    expect(page.locator(".gb-status")).to_have_text("")
    assert_clean(page)


def test_html_in_tokens_is_shown_as_text(app_server, page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    _, tokens = trace_patterns(HOSTILE)
    open_app(page, app_server, "/attention", {"view": "instant", "text": HOSTILE})
    box = viewer(page)
    q = tokens.index("script")
    got = hover_cell(page, box, q, 1)
    assert "script" in got["text"] and "<" in got["text"]         # "<" is a token of its own: shown as "<"
    expect(box.locator("b, script, i")).to_have_count(0)          # nothing in the viewer became markup
    assert dialogs == []
    assert_clean(page)


def test_export_opens_from_disk_with_no_network(app_server, page, browser, tmp_path):
    patterns, tokens = trace_patterns(HOSTILE)
    open_app(page, app_server, "/attention", {"text": HOSTILE})
    page.get_by_text("Export", exact=True).click()
    with page.expect_download(timeout=TIMEOUT) as dl:
        page.locator(".st-key-dl_html button").click()
    path = tmp_path / "all_heads.html"
    dl.value.save_as(path)
    html = path.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html
    assert "http://" not in html and "https://" not in html                # nothing to fetch

    ctx = browser.new_context(offline=True, viewport={"width": 1400, "height": 1000})
    requests = []
    ctx.route("**/*", lambda route: (requests.append(route.request.url), route.abort())
              if not route.request.url.startswith("file://") else route.continue_())
    offline = ctx.new_page()
    errors, dialogs = [], []
    offline.on("pageerror", lambda e: errors.append(str(e)))
    offline.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        offline.goto(path.as_uri())
        box = viewer(offline)
        expect(offline.locator(".gb-heading")).to_have_text("Layer 0, head 0")
        for layer, head in [(0, 0), (5, 11)]:
            box.evaluate("(el, [l, h]) => el.__gb.select(l, h)", [layer, head])
            for q, k in [(0, 0), (2, 1), (len(tokens) - 1, 3)]:
                got = hover_cell(offline, box, q, k)
                assert abs(got["weight"] - float(patterns[layer, head, q, k])) <= got["error"] + SHOWN
        box.focus()
        offline.keyboard.press("ArrowUp")
        expect(offline.locator(".gb-heading")).to_have_text("Layer 4, head 11")
        expect(box.locator("b, script")).to_have_count(0)
        screenshot(offline, "instant_export")
        assert requests == [] and errors == [] and dialogs == []
    finally:
        ctx.close()


@pytest.mark.parametrize("layers,heads,n", [(6, 12, 512), (1, 2, 2048)], ids=["minilm-512", "2048"])
def test_long_exports_open_and_zoom_without_a_server(tmp_path, browser, layers, heads, n):
    """A long input (MiniLM's 512 positions; 2,048, the longest the viewer draws) opens,
    hovers, brushes and resets with no server."""
    from viz_core.attention_html import standalone_html
    from viz_core.attention_pack import pack_attention

    rng = np.random.default_rng(0)
    s = rng.normal(size=(layers, heads, n, n)).astype(np.float32) * 3
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    path = tmp_path / "long.html"
    path.write_text(standalone_html(pack_attention(p, [f"w{i}" for i in range(n)])), encoding="utf-8")
    ctx = browser.new_context(offline=True, viewport={"width": 1400, "height": 1000})
    try:
        pg = ctx.new_page()
        pg.goto(path.as_uri())
        box = viewer(pg)
        box.evaluate("(el) => el.__gb.zoom(100, 140, 200, 240)")
        got = hover_cell(pg, box, 120, 230)
        assert abs(got["weight"] - float(p[0, 0, 120, 230])) <= got["error"] + SHOWN
        # brush: drag from cell (110, 205) to (119, 214) zooms to that block; 0 resets
        a = box.evaluate("(el) => el.__gb.cellCenter(110, 205)")
        b = box.evaluate("(el) => el.__gb.cellCenter(119, 214)")
        pg.mouse.move(a["x"], a["y"])
        pg.mouse.down()
        pg.mouse.move(b["x"], b["y"], steps=5)
        pg.mouse.up()
        expect(pg.locator(".gb-zoom")).to_have_text("queries 110–119, keys 205–214")
        got = hover_cell(pg, box, 115, 210)
        assert abs(got["weight"] - float(p[0, 0, 115, 210])) <= got["error"] + SHOWN
        box.focus()
        pg.keyboard.press("0")
        expect(pg.locator(".gb-zoom")).to_have_text(f"queries 0–{n - 1}, keys 0–{n - 1}")
        pg.keyboard.press("ArrowRight")
        expect(pg.locator(".gb-heading")).to_have_text("Layer 0, head 1")
        # at 2,048 tokens a cell is a fraction of a pixel: zoom to the corner, then hover
        box.evaluate("(el, n) => el.__gb.zoom(n - 20, n, n - 20, n)", n)
        got = hover_cell(pg, box, n - 1, n - 2)
        assert abs(got["weight"] - float(p[0, 1, n - 1, n - 2])) <= got["error"] + SHOWN
    finally:
        ctx.close()


def test_presenter_mode_enlarges_the_viewer(app_server, page):
    open_app(page, app_server, "/attention", {"view": "instant", "text": TEXT, "present": "1"})
    box = viewer(page)
    size = float(box.evaluate("(el) => parseFloat(el.style.fontSize)"))
    assert size > 16, size
    box.scroll_into_view_if_needed()
    screenshot(page, "instant_presenter", full_page=False)
    assert_clean(page)

"""A hostile file never costs another session anything: one browser session uploads a
checkpoint whose config asks for a model of 4e15 bytes while a second session is
generating; the upload is refused with a sentence (nothing allocated) and the generation
finishes normally. Screenshots: test-artifacts/screenshots/e2e-hostile-*.png."""
from __future__ import annotations

import io
import json
import struct
import urllib.parse
import zipfile
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from support.browser import RUN_COUNTER_JS, VIEWPORT, is_local, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 120_000
PROMPT = " ".join(["the students watched the model read their sentence"] * 12)


def oversized_zip(path: Path) -> Path:
    """A Glassbox checkpoint zip whose config asks for vocab 10^9 x d_model 10^6."""
    doc = {"format": "glassbox-checkpoint", "version": 1, "tokenizer": None, "meta": {},
           "config": {"vocab_size": 10**9, "d_model": 10**6, "n_heads": 4}}
    header = json.dumps({"embed.weight": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}).encode()
    weights = struct.pack("<Q", len(header)) + header + b"\0" * 4
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("huge.json", json.dumps(doc))
        z.writestr("huge.safetensors", weights)
    path.write_bytes(buf.getvalue())
    return path


def _catch_generating(page: Page, app_server: str, attempts: int = 5) -> None:
    """Open session A's 64-token generation and return while it is still streaming (the
    stop button shown). A fast machine can finish the 64 tokens between two of
    Playwright's polls; then press "Generate again" and look again."""
    query = urllib.parse.urlencode({"model": "GPT-2-style decoder", "text": PROMPT, "gen_n": "64"})
    page.goto(f"{app_server.rstrip('/')}/generate?{query}", wait_until="domcontentloaded", timeout=TIMEOUT)
    stop = page.locator(".st-key-gen_stop_btn button")
    again = page.locator(".st-key-gen_again button")
    for _ in range(attempts):
        # after "Generate again" the old run's button stays drawn below the new stop button until
        # the stream ends (which removes the stop button), so both can match: any one will do
        expect(stop.or_(again).first).to_be_visible(timeout=TIMEOUT)
        if stop.count():
            return
        again.click()
    raise AssertionError(f"session A's generation never seen in progress in {attempts} attempts")


def test_an_oversized_upload_is_refused_while_another_session_generates(page: Page, browser: Browser,
                                                                         app_server: str, tmp_path: Path):
    huge = oversized_zip(tmp_path / "huge.zip")
    # session B, in its own browser context, opened first so that its upload can start the
    # moment session A is seen generating
    other = browser.new_context(viewport=VIEWPORT, locale="en-US")
    other.add_init_script(f"({RUN_COUNTER_JS})();")
    b = other.new_page()
    b.glassbox_external_requests, b.glassbox_js_errors = [], []           # what assert_clean reads
    other.route(lambda url: not is_local(url), lambda route: (b.glassbox_external_requests.append(route.request.url),
                                                              route.abort()))
    b.on("pageerror", lambda exc: b.glassbox_js_errors.append(str(exc)))
    try:
        open_app(b, app_server, "/training", timeout=TIMEOUT)
        b.get_by_text("Upload a checkpoint").click()                          # open the expander
        upload = b.locator(".st-key-tr_upload input[type=file]")
        expect(upload).to_have_count(1, timeout=TIMEOUT)

        # session A: a 64-token generation, streamed token by token; B uploads mid-stream
        _catch_generating(page, app_server)
        upload.set_input_files(str(huge))
        refusal = b.locator('[data-testid="stAlertContentError"]').filter(has_text="more than this server's budget")
        expect(refusal).to_be_visible(timeout=TIMEOUT)
        text = refusal.inner_text()
        assert "4,032,004,688 MB" in text and "MB per model" in text, text   # both numbers (the budget: the machine's)
        assert "Traceback" not in b.content() and "/tmp" not in text
        refusal.scroll_into_view_if_needed()
        screenshot(b, "e2e-hostile-01-refused")
        assert_clean(b)

        # A finishes its 64 tokens as if nothing had happened
        expect(page.get_by_text("Step 64: candidates for position", exact=False)).to_be_visible(timeout=TIMEOUT)
        wait_for_rerun(page, timeout=TIMEOUT)
        expect(page.locator(".st-key-gen_stop_btn button")).to_have_count(0)
        assert not page.get_by_text("stopped", exact=False).count()
        screenshot(page, "e2e-hostile-02-generation-finished")
        assert_clean(page)
    finally:
        other.close()

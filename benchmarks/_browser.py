"""Shared plumbing of the browser benchmarks: a `streamlit run` server, headless
Chromium, and MiniLM texts of an exact token count.

The server and browser are context managers that always stop what they started (the
server by its PID, the browser through Playwright), also when the benchmark fails or
is interrupted (SIGTERM is turned into SystemExit so the `finally` blocks run).
The browser helpers are the e2e tests' own (`support/browser.py`), so the
benchmarks and the tests agree on what "the rerun is done" means.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Nothing may be fetched: not by the app, not by transformers/BertViz in this process.
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
os.environ.update(OFFLINE_ENV)

from support.browser import (  # noqa: E402  (needs the repo root on sys.path)
    CHROMIUM_ARGS,
    DEFAULT_CHROMIUM,
    RUN_COUNTER_JS,
    VIEWPORT,
    ServerError,
    click_plotly_point,
    health_ok,
    is_local,
    open_app,
    serve_app,
    wait_for_rerun,
)

__all__ = ["ROOT", "load_note", "app_server", "chromium", "new_page", "text_with_tokens", "open_app", "wait_for_rerun",
           "click_plotly_point", "sigterm_as_exit"]

SERVER_START_TIMEOUT_S = 120.0


def load_note(start: tuple[float, float, float]) -> str:
    """A sentence with the 1-minute load average at the start and now (others' work on
    the machine inflates browser timings; a quiet machine reads ~0)."""
    now = os.getloadavg()
    return (f"1-min load average {start[0]:.1f} at the start, {now[0]:.1f} at the end "
            f"({os.cpu_count()} CPUs).")


def sigterm_as_exit() -> None:
    """`kill PID` of a benchmark then unwinds like Ctrl+C: servers and browsers stop."""
    def _exit(signum, frame):  # noqa: ANN001
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _exit)


@contextlib.contextmanager
def app_server(port: int | None = None, url: str | None = None) -> Iterator[str]:
    """Yield the base URL of a Glassbox server.

    ``url``: use a server someone else started (nothing is started or stopped).
    Otherwise start ``streamlit run app.py`` on ``port`` (a free one if None) with the
    e2e harness's `serve_app`, which waits for /_stcore/health and stops it by its PID.
    """
    if url:
        if not health_ok(url.rstrip("/") + "/_stcore/health"):
            raise SystemExit(f"no Glassbox server answers at {url}")
        yield url.rstrip("/")
        return
    log = Path(tempfile.gettempdir()) / f"glassbox-bench-server-{os.getpid()}.log"
    try:
        with serve_app(ROOT / "app.py", log, port, SERVER_START_TIMEOUT_S) as base:
            yield base
    except ServerError as e:
        raise SystemExit(str(e)) from None
    finally:
        with contextlib.suppress(OSError):
            log.unlink()


@contextlib.contextmanager
def chromium():
    """Headless Debian Chromium through Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("CHROMIUM_PATH", DEFAULT_CHROMIUM)
    if not Path(executable).is_file():
        raise SystemExit(f"Chromium not found at {executable} (set CHROMIUM_PATH).")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def new_page(browser):
    """A fresh context and page (no Streamlit message cache, no cookies), 1400x1000.
    Requests to other hosts are aborted and listed in ``page.external_requests``."""
    context = browser.new_context(viewport=VIEWPORT, color_scheme="light", locale="en-US",
                                  reduced_motion="reduce")
    context.set_default_timeout(60_000)
    context.add_init_script(f"({RUN_COUNTER_JS})();")
    external: list[str] = []

    def _block(route):  # noqa: ANN001
        external.append(route.request.url)
        route.abort()

    context.route(lambda u: not is_local(u), _block)
    page = context.new_page()
    page.external_requests = external
    try:
        yield page
    finally:
        context.close()


def attention_query(text: str, **params: str | int) -> str:
    return urllib.parse.urlencode({"text": text, **{k: str(v) for k, v in params.items()}})


def text_with_tokens(n: int, prefix: str = "") -> str:
    """An English text that MiniLM's tokenizer splits into exactly ``n`` tokens,
    [CLS] and [SEP] included (``prefix`` first, then a sentence repeated)."""
    from models.tokenizer import minilm_tokenizer

    tok = minilm_tokenizer()
    sentence = "The students watched the model read their sentence, and every head chose where to look. "
    source = (prefix + " " if prefix else "") + sentence * (n // 8 + 4)
    text = tok.decode(tok.encode(source, max_len=n).ids)
    got = len(tok.encode(text).ids)
    if got != n:
        raise RuntimeError(f"text_with_tokens({n}): the text has {got} tokens")
    return text


# True once the instant viewer (ui/widgets/attention_canvas.py) has unpacked its payload and drawn
# a canvas: a JS expression for a per-frame watcher whose state object is `s` (it keeps the viewer
# it found in `s.box`). The viewer lives in the component's (open) shadow root.
INSTANT_DRAWN_JS = """(() => {
      if (!s.box) {
        for (const el of document.querySelectorAll('[data-testid="stMain"] *')) {
          const box = el.shadowRoot && el.shadowRoot.querySelector(".gb-att");
          if (box) { s.box = box; break; }
        }
      }
      if (!s.box || s.box.dataset.ready !== "1") return false;
      return [...s.box.querySelectorAll("canvas")].some((c) => c.width > 0 && c.height > 0);
    })()"""

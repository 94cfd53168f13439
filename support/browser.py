"""Browser helpers shared by the end-to-end tests (tests/e2e/) and the browser benchmarks
(`benchmarks/_browser.py`, `benchmarks/load.py`, `benchmarks/cold_start.py`,
`benchmarks/replicas.py`): plain functions, no pytest. The pytest fixtures that use them
(app_server, browser, page) are in `tests/e2e/conftest.py`; what only the tests need
(the app script to serve, screenshots, `assert_clean`) in `tests/e2e/helpers.py`.

Server
    serve_app(script, log_path, port=None, ...)  `streamlit run` on 127.0.0.1 until the `with` ends
    health_ok(url)                               whether /_stcore/health answers 200
    free_port()                                  a free TCP port on 127.0.0.1

Pages
    open_app(page, base_url, path="/", query="")   load a page and wait for its first run
    wait_for_rerun(page, timeout=60_000)           wait until the script (or fragment) rerun is done
    type_text(page, text)                          type into the sidebar's text area and commit it
    click_plotly_point(page, chart_index, x, y)    click data point (x, y) of the N-th plotly chart
    is_local(url)                                  whether the browser may load a URL (no request leaves)

Environment
    CHROMIUM_PATH           browser executable (default: /usr/bin/chromium; DEFAULT_CHROMIUM)

Nothing here asserts a timing; timeouts only bound how long a broken app can hang a run.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

REPO_ROOT = Path(__file__).resolve().parents[1]

DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
VIEWPORT = {"width": 1400, "height": 1000}
CHARTS = '[data-testid="stPlotlyChart"]'  # every plotly chart of a page, in page order

SERVER_START_TIMEOUT_S = 120.0
SERVER_STOP_TIMEOUT_S = 10.0

# Streamlit's frontend mirrors its script-run state on the root element:
#   <div data-testid="stApp" data-test-script-state="initial|running|rerunRequested|
#                                                    notRunning|stopRequested|compilationError">
# A run (full script or fragment) is finished when the state is "notRunning" and the
# "Running..." indicator (stStatusWidget) is gone. The init script below counts the
# runs that *start*, so that a helper called right after an action can tell "the rerun
# this action asked for has not started yet" from "it already finished".
RUN_COUNTER_JS = """
() => {
  if (window.__glassboxRuns) return;
  const runs = (window.__glassboxRuns = { started: 0, finished: 0, acked: 0 });
  const busy = (s) => s === "running" || s === "rerunRequested";
  new MutationObserver((records) => {
    // Records are batched: record i's new value is record i+1's oldValue.
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const next = records.slice(i + 1).find((n) => n.target === r.target);
      const value = next ? next.oldValue : r.target.getAttribute(r.attributeName);
      if (busy(value) && !busy(r.oldValue)) runs.started += 1;
      if (value === "notRunning" && r.oldValue !== "notRunning") runs.finished += 1;
    }
  }).observe(document, {
    subtree: true,
    attributes: true,
    attributeOldValue: true,
    attributeFilter: ["data-test-script-state"],
  });
}
"""
_NEW_RUN_JS = "() => window.__glassboxRuns.started > window.__glassboxRuns.acked"
# Idle = state notRunning, no "Running..." widget, and no stSkeleton: Streamlit loads
# element code lazily (React.lazy) and shows a stSkeleton placeholder until the chunk
# is in; on a fresh page an input can mount ~0.4 s and a plotly chart ~1.5 s after the
# run has finished. Checked and acknowledged in one JS turn, so a run starting in
# between cannot be swallowed.
_IDLE_JS = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const state = app && app.getAttribute("data-test-script-state");
  if (state === "compilationError") return state;
  if (
    state !== "notRunning" ||
    document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]')
  ) {
    return false;
  }
  window.__glassboxRuns.acked = window.__glassboxRuns.started;
  return state;
}
"""

# Pixel position (viewport coordinates) of data point (x, y) in the N-th plotly chart.
# Uses plotly's own axis transforms (d2p handles linear, log, date and category axes,
# and reversed ranges such as px.imshow's y axis), so no guessing from the DOM.
_PLOTLY_POINT_JS = """
([index, x, y, xaxis, yaxis]) => {
  const charts = document.querySelectorAll('[data-testid="stPlotlyChart"]');
  if (index >= charts.length) {
    return { error: `only ${charts.length} stPlotlyChart element(s) on the page` };
  }
  const gd = charts[index].querySelector(".js-plotly-plot");
  if (!gd || !gd._fullLayout) return { error: "plotly has not drawn this chart yet" };
  const xa = gd._fullLayout[xaxis];
  const ya = gd._fullLayout[yaxis];
  if (!xa || !ya) return { error: `no axes ${xaxis}/${yaxis} in this figure` };
  const px = xa.d2p(x);
  const py = ya.d2p(y);
  if (!Number.isFinite(px) || !Number.isFinite(py)) {
    return { error: `(${x}, ${y}) is not on the axes` };
  }
  const box = gd.getBoundingClientRect();
  const doubleClickMs = (gd._context && gd._context.doubleClickDelay) || 300;
  return { x: box.left + xa._offset + px, y: box.top + ya._offset + py, doubleClickMs };
}
"""


# --------------------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def health_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()  # SIGTERM to this PID only
    try:
        proc.wait(timeout=SERVER_STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=SERVER_STOP_TIMEOUT_S)


class ServerError(RuntimeError):
    """The app server exited or did not answer its health check in time."""


@contextlib.contextmanager
def serve_app(script: Path, log_path: Path, port: int | None = None,
              timeout: float = SERVER_START_TIMEOUT_S, *, module: str = "streamlit",
              env: Mapping[str, str] | None = None, poll: float = 0.25) -> Iterator[str]:
    """Run `python -m <module> run <script>` on 127.0.0.1 (a free port unless given),
    wait for /_stcore/health (asked every `poll` s), yield the base URL, and stop the
    server by its PID on exit. `module` is `streamlit`, or `ui.warmup` (the launcher
    `make run` uses: the same command line, with the warm-up); `env` replaces the
    process environment. Shared by the e2e fixture and the browser benchmarks."""
    port = port or free_port()
    cmd = [
        sys.executable, "-m", module, "run", str(script),
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.fileWatcherType", "none",  # tests write files; never rerun on save
    ]  # fmt: skip
    env = {**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"}
    log_path.parent.mkdir(parents=True, exist_ok=True)
    # A file, not a pipe: nobody reads a pipe while tests run, and a full pipe blocks
    # the server. The log is kept as a CI artifact.
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while not health_ok(f"{base_url}/_stcore/health"):
            if proc.poll() is not None:
                raise ServerError(f"streamlit exited with code {proc.returncode} before it was healthy.\n"
                                  f"command: {' '.join(cmd)}\n--- output ---\n"
                                  f"{log_path.read_text(errors='replace')}")
            if time.monotonic() > deadline:
                raise ServerError(f"streamlit did not answer {base_url}/_stcore/health within {timeout:.0f} s."
                                  f"\n--- output ---\n{log_path.read_text(errors='replace')}")
            time.sleep(poll)
        yield base_url
    finally:
        _stop(proc)


# --------------------------------------------------------------------------- pages


def is_local(url: str) -> bool:
    """Whether the browser may load `url`: the local server, or data/blob/about."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme in ("data", "blob", "about"):
        return True
    return parsed.hostname in ("127.0.0.1", "localhost")


def wait_for_rerun(
    page: Page, timeout: float = 60_000, start_timeout: float = 2_000, settle: float = 150
) -> None:
    """Wait until the rerun caused by the last action (full script or fragment) is done.

    Call it right after an action that may rerun the script (Enter in a text input, a
    click). All times are in ms.

    1. Wait up to ``start_timeout`` for a run this helper has not seen yet to start
       (the action's message may still be on its way to the server). If none starts,
       the action did not rerun the script; go on.
    2. Wait up to ``timeout`` for stApp's ``data-test-script-state="notRunning"`` with
       no stStatusWidget ("Running...") and no stSkeleton (element code still loading).
    3. If another run starts within ``settle`` (st.rerun, a page switch), wait for it.

    Raises AssertionError if the script failed to compile (a SyntaxError in the app).
    """
    _install_run_counter(page)
    deadline = time.monotonic() + timeout / 1000
    if start_timeout > 0:  # (playwright reads timeout=0 as "wait forever")
        try:
            page.wait_for_function(_NEW_RUN_JS, timeout=start_timeout)
        except PlaywrightTimeoutError:
            pass  # no new run started: the action did not rerun the script
    while True:
        remaining_ms = max(1.0, (deadline - time.monotonic()) * 1000)
        state = page.wait_for_function(_IDLE_JS, timeout=remaining_ms).json_value()
        if state == "compilationError":
            body = page.locator("body").inner_text()[:3000]
            raise AssertionError(f"the app script did not compile:\n{body}")
        if settle <= 0:
            return
        page.wait_for_timeout(settle)
        if not page.evaluate(_NEW_RUN_JS):
            return


def _install_run_counter(page: Page) -> None:
    # The page fixture (conftest.py) installs it before any script runs; this covers other pages.
    page.evaluate(RUN_COUNTER_JS)


def open_app(
    page: Page,
    base_url: str,
    path: str = "/",
    query: str | Mapping[str, str | list[str]] = "",
    timeout: float = 60_000,
) -> None:
    """Load ``base_url + path`` (with an optional query) and wait for the first run.

    ``query`` is a raw string ("text=hi&layer=1", leading "?" optional) or a mapping
    (list values repeat the key, as Streamlit reads multi-value params).
    """
    if not isinstance(query, str):
        query = urllib.parse.urlencode(query, doseq=True)
    query = query.lstrip("?")
    url = base_url.rstrip("/") + "/" + path.lstrip("/")
    if query:
        url += "?" + query
    page.goto(url, wait_until="domcontentloaded", timeout=timeout)
    # The state reads "initial" until the first run has an id, so waiting for it to
    # change first means wait_for_rerun cannot return before the first run.
    page.wait_for_function(
        """() => {
          const app = document.querySelector('[data-testid="stApp"]');
          const state = app && app.getAttribute("data-test-script-state");
          return Boolean(state) && state !== "initial";
        }""",
        timeout=timeout,
    )
    wait_for_rerun(page, timeout=timeout, start_timeout=0)


def click_plotly_point(
    page: Page,
    chart_index: int,
    x: Any,
    y: Any,
    *,
    xaxis: str = "xaxis",
    yaxis: str = "yaxis",
    timeout: float = 30_000,
) -> tuple[float, float]:
    """Click at data coordinates (x, y) of the ``chart_index``-th stPlotlyChart.

    x / y are in data units (numbers, dates as strings, or category names). Use
    ``xaxis="xaxis2"`` etc. for subplots. The mouse hovers first, because plotly picks
    the clicked point from its hover state. Returns the clicked viewport position.
    With ``on_select="rerun"`` follow with :func:`wait_for_rerun`.
    """
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(chart_index)
    chart.scroll_into_view_if_needed(timeout=timeout)
    chart.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=timeout)
    pos = page.evaluate(_PLOTLY_POINT_JS, [chart_index, x, y, xaxis, yaxis])
    if "error" in pos:
        raise AssertionError(f"click_plotly_point({chart_index}, {x!r}, {y!r}): {pos['error']}")
    # Two clicks closer than plotly's doubleClickDelay are a double-click, which
    # clears the selection; space clicks out (a fragment rerun can take < 300 ms).
    last = getattr(page, "_glassbox_last_plotly_click", None)
    gap_s = (pos["doubleClickMs"] + 100) / 1000
    if last is not None and time.monotonic() - last < gap_s:
        time.sleep(gap_s - (time.monotonic() - last))
    page.mouse.move(pos["x"], pos["y"])
    page.wait_for_timeout(150)  # let plotly's throttled hover handler see the point
    page.mouse.click(pos["x"], pos["y"])
    page._glassbox_last_plotly_click = time.monotonic()
    return pos["x"], pos["y"]


def type_text(page: Page, text: str, timeout: float = 60_000) -> None:
    """Type into the sidebar text area and commit it (Ctrl+Enter), then wait for the run."""
    area = page.locator('[data-testid="stSidebar"] .st-key-text textarea')
    area.fill(text)
    area.press("Control+Enter")
    wait_for_rerun(page, timeout=timeout)

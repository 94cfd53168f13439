"""A classroom at once: N browser sessions type their own text into one Glassbox server
and read back their own tokens (N = 1, 10, 30 by default).

One `streamlit run app.py` server (the e2e harness's `serve_app`, or `--url`) and ONE
headless Chromium with N pages, each in its own browser context (own cookies, own
Streamlit session); a fresh Chromium for each N, started once the machine's CPU is
quiet (`--quiet-timeout`), so one size's leftovers do not slow the next. The pages open one after another (`--open-stagger` seconds apart),
and once all are open, each session starts its rounds `--stagger` seconds after the
previous one. In each round a session fills the sidebar text area with a NEW text of
its own (`--tokens` MiniLM tokens, beginning "session <i> round <r> <word>"), commits it
with Control+Enter and waits for the overview page's token badges (`.stMarkdownBadge`)
to show exactly that text's tokens; then it waits `--think` seconds.

Clocks and what they measure:
  - latency (client, the page's own clock): from the Control+Enter keydown
    (`performance.now()` in a capturing listener) to the first DOM change after which
    the run is over (stApp `data-test-script-state=notRunning`, no stStatusWidget or
    stSkeleton) AND the badges are the expected tokens (a MutationObserver stamps the
    time, so no polling delay is counted). Submit -> rerun done, as a student sees it.
  - server script-run time (the server's clock): `/_stcore/metrics`. Streamlit 1.67's
    endpoint has no script-run metric (only cache_memory_bytes, session_events,
    session_duration_seconds, active_sessions), so app.py times each run and
    server/run_stats.py serves it there as the histogram `glassbox_script_run_seconds`.
    The benchmark reads the histogram before and after the typing phase; the
    difference holds exactly the phase's runs; p50/p95 are interpolated inside its
    buckets (Prometheus `histogram_quantile`).
  - CPU seconds in the typing phase of the server process and of the browser (every
    other process this benchmark started: Chromium's, and apart from them Playwright's
    driver), from /proc via psutil: on a 2-core machine both compete for the same cores, so this says
    how much of the latency is the browsers' own work.
  Client latency minus server run time is the websocket transfer, waiting for a free
  core (both sides), and the browser's parsing and drawing.
  - server memory (RSS, psutil): baseline after a warm-up session has loaded the model
    and closed, the peak while the sessions run (sampled every 0.1 s), and after all
    the sessions' tabs are closed (the server reports 0 active sessions, then
    `--settle` seconds). The "leak check" of issue 10: after-close back near baseline.

Checks: every page must show only its own texts: every distinct badge row a page ever
showed (recorded by the MutationObserver) must be the page's first text or one of its
own; a row from another session is counted as cross-talk. A round that times out,
shows an exception (stException), or ends on other tokens counts as an error.

    python -m benchmarks.load                          # N = 1, 10, 30; 3 rounds each
    python -m benchmarks.load --sessions 5 --rounds 2 --no-doc
    python -m benchmarks.load --url http://127.0.0.1:8501 --no-doc

Target (issue 10) on the 2-core reference machine, MiniLM at 64 tokens: 30 sessions,
p95 <= 3 s, zero errors. Nothing is asserted; results go to docs/benchmarks.md
(section "load") unless --no-doc.
"""
from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks._browser import app_server, sigterm_as_exit, text_with_tokens  # noqa: E402
from benchmarks._load_probes import (  # noqa: E402
    RssSampler,
    cpu_seconds,
    histogram_delta,
    metrics,
    rss,
    server_process,
    wait_no_sessions,
    wait_quiet,
)
from benchmarks._load_report import pct, report  # noqa: E402
from benchmarks._timing import publish  # noqa: E402
from server.run_stats import quantile  # noqa: E402
from support.browser import CHROMIUM_ARGS, DEFAULT_CHROMIUM, VIEWPORT, is_local  # noqa: E402

WORDS = ("apple river window garden doctor silver market winter castle forest engine island letter monkey "
         "orange pencil rabbit summer teacher tiger violin yellow bridge camera dragon farmer guitar hammer "
         "jacket kitchen lemon mirror ocean palace planet rocket shadow spider sugar tunnel wallet basket").split()
SEP = "\u241f"   # joins a badge row into one string (never inside a token label)

# Installed in every page before Streamlit's scripts.
_PAGE_JS = r"""
(() => {
  if (window.__gbLoad) return;
  const SEP = "\u241f";
  const s = (window.__gbLoad = { t0: null, expected: null, done: null, seen: new Set(), exceptions: [] });
  document.addEventListener("keydown", (e) => {
    if (s.expected !== null && s.t0 === null && e.key === "Enter" && (e.ctrlKey || e.metaKey)) s.t0 = performance.now();
  }, true);
  s.badges = () => [...document.querySelectorAll('[data-testid="stMain"] .stMarkdownBadge')]
    .map((b) => b.textContent.trim()).join(SEP);
  s.idle = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return Boolean(app) && app.getAttribute("data-test-script-state") === "notRunning" &&
      !document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]');
  };
  s.waiters = [];
  const flush = () => { const w = s.waiters; s.waiters = []; w.forEach((f) => f()); };
  const check = () => {
    const row = s.badges();
    if (row) s.seen.add(row);
    const exc = document.querySelector('[data-testid="stException"]');
    if (exc && !s.exceptions.includes(exc.innerText)) { s.exceptions.push(exc.innerText.slice(0, 500)); flush(); }
    if (s.t0 !== null && s.done === null && row === s.expected && s.idle()) { s.done = performance.now() - s.t0; flush(); }
  };
  s.arm = (expected) => { s.t0 = null; s.done = null; s.expected = expected; check(); };
  s.state = () => ({ done: s.done, idle: s.idle(), row: s.badges(), exceptions: s.exceptions });
  // Resolves when the armed round is done or an exception shows, else after `ms`: the
  // harness waits on this promise (one call) instead of polling the page over CDP.
  s.wait = (ms) => new Promise((resolve) => {
    if (s.done !== null || s.exceptions.length) { resolve(s.state()); return; }
    const timer = setTimeout(() => resolve(s.state()), ms);
    s.waiters.push(() => { clearTimeout(timer); resolve(s.state()); });
  });
  const start = () => new MutationObserver(check).observe(document.documentElement,
    { subtree: true, childList: true, attributes: true, characterData: true });
  if (document.documentElement) start(); else document.addEventListener("DOMContentLoaded", start);
})();
"""


# ----------------------------------------------------------------------------- sessions
# (the server-side figures are read by benchmarks/_load_probes.py, the report is
# written by benchmarks/_load_report.py)

class Session:
    def __init__(self, index: int, texts: list[str], expected: list[str]) -> None:
        self.index, self.texts, self.expected = index, texts, expected
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.first_row = ""
        self.seen: list[str] = []
        self.context = self.page = None


async def open_session(browser, base: str, s: Session, timeout_s: float, extra_js: str = "") -> None:
    """Open session `s`'s page (its own browser context) and wait for its first run.
    `extra_js`: one more init script (benchmarks/replicas.py records the replica marker)."""
    context = await browser.new_context(viewport=VIEWPORT, color_scheme="light", locale="en-US",
                                        reduced_motion="reduce")
    context.set_default_timeout(timeout_s * 1000)
    await context.route(lambda u: not is_local(u), lambda route: route.abort())
    await context.add_init_script(_PAGE_JS)
    if extra_js:
        await context.add_init_script(extra_js)
    s.context = context
    s.page = await context.new_page()
    await s.page.goto(f"{base}/", wait_until="domcontentloaded")
    deadline = time.monotonic() + timeout_s
    while True:
        st = await s.page.evaluate("() => window.__gbLoad.state()")
        if st["idle"] and st["row"]:
            s.first_row = st["row"]
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"session {s.index}: the page did not finish its first run in {timeout_s:.0f} s")
        await asyncio.sleep(0.25)


async def run_rounds(s: Session, delay: float, think: float, timeout_s: float) -> None:
    await asyncio.sleep(delay)
    area = s.page.locator('[data-testid="stSidebar"] .st-key-text textarea')
    for r, (text, expected) in enumerate(zip(s.texts, s.expected)):
        try:
            await area.fill(text)
            await s.page.evaluate("(e) => window.__gbLoad.arm(e)", expected)
            await area.press("Control+Enter")
            st = await s.page.evaluate("(ms) => window.__gbLoad.wait(ms)", timeout_s * 1000)
            if st["done"] is not None:
                s.latencies.append(st["done"] / 1000)
            elif st["exceptions"]:
                s.errors.append(f"round {r}: exception shown: {st['exceptions'][0][:200]}")
            else:
                s.errors.append(f"round {r}: not done after {timeout_s:.0f} s "
                                f"(idle={st['idle']}, {len(st['row'].split(SEP)) if st['row'] else 0} badges)")
        except Exception as e:  # noqa: BLE001  (a crashed page is an error of this round, not the run)
            s.errors.append(f"round {r}: {type(e).__name__}: {str(e)[:200]}")
        await asyncio.sleep(think)
    s.seen = await s.page.evaluate("() => [...window.__gbLoad.seen]")


async def one_load(browser, base: str, server, n: int, args, tag: str) -> dict:
    """N sessions: open, type `args.rounds` texts each, close. Returns the figures."""
    from models.tokenizer import minilm_tokenizer
    from viz_core.labels import visible_label

    tok = minilm_tokenizer()
    sessions = []
    for i in range(n):
        texts = [text_with_tokens(args.tokens, prefix=f"session {i} round {r} {WORDS[(i + r * 7) % len(WORDS)]} {tag}")
                 for r in range(args.rounds)]
        expected = [SEP.join(visible_label(t, 40) for t in tok.encode(x).tokens[:512]) for x in texts]
        sessions.append(Session(i, texts, expected))

    out: dict = {"n": n}
    with RssSampler(server) as sampler:
        # Open the pages one after another (each first run loads the page's code).
        t_open = time.perf_counter()
        opened = await asyncio.gather(*(_delayed(open_session(browser, base, s, args.timeout), i * args.open_stagger)
                                        for i, s in enumerate(sessions)), return_exceptions=True)
        out["open_s"] = time.perf_counter() - t_open
        open_errors = [f"session {s.index}: {type(e).__name__}: {e}" for s, e in zip(sessions, opened) if e is not None]
        live = [s for s, e in zip(sessions, opened) if e is None]

        hist0, _ = await asyncio.to_thread(metrics, base)
        cpu0 = cpu_seconds(server)
        t0 = time.perf_counter()
        await asyncio.gather(*(run_rounds(s, k * args.stagger, args.think, args.timeout) for k, s in enumerate(live)))
        out["phase_s"] = time.perf_counter() - t0
        cpu1 = cpu_seconds(server)
        hist1, active = await asyncio.to_thread(metrics, base)
        out["active_during"] = active

        for s in sessions:
            if s.context is not None:
                await s.context.close()
        out["active_after"] = await wait_no_sessions(base)
        await asyncio.sleep(args.settle)
        out["rss_after"] = rss(server)
        out["rss_peak"] = sampler.peak

    lat = sorted(x for s in sessions for x in s.latencies)
    out["submits"] = n * args.rounds
    out["done"] = len(lat)
    out["errors"] = open_errors + [f"session {s.index}: {e}" for s in sessions for e in s.errors]
    own = {i: set(s.expected) | {s.first_row} for i, s in enumerate(sessions)}
    everyone = {row: i for i, s in enumerate(sessions) for row in s.expected}
    out["cross_talk"] = [f"session {s.index} showed session {everyone[row]}'s text" for s in sessions for row in s.seen
                         if row not in own[s.index] and row in everyone]
    out["foreign_rows"] = [f"session {s.index} showed a row of {len(row.split(SEP))} badges not of its own"
                           for s in sessions for row in s.seen if row not in own[s.index] and row not in everyone]
    out["lat"] = lat
    out["p50"] = statistics.median(lat) if lat else math.nan
    out["p95"] = pct(lat, 0.95)
    out["max"] = lat[-1] if lat else math.nan
    delta = histogram_delta(hist0, hist1)
    out["server_runs"] = delta[-1][1] if delta else 0
    out["server_sum"] = hist1["sum"] - hist0["sum"]
    out["server_interrupted"] = hist1["interrupted"] - hist0["interrupted"]
    out["server_p50"] = quantile(delta, 0.5)
    out["server_p95"] = quantile(delta, 0.95)
    out["server_cpu"] = cpu1[0] - cpu0[0]
    spent = {pid: (chrome, v - cpu0[1].get(pid, (chrome, 0.0))[1]) for pid, (chrome, v) in cpu1[1].items()}
    out["browser_cpu"] = sum(v for chrome, v in spent.values() if chrome)
    out["driver_cpu"] = sum(v for chrome, v in spent.values() if not chrome)
    return out


async def _delayed(coro, delay: float):
    await asyncio.sleep(delay)
    return await coro


async def run_all(args, base: str) -> tuple[list[dict], dict]:
    from playwright.async_api import async_playwright

    server = server_process()
    executable = os.environ.get("CHROMIUM_PATH", DEFAULT_CHROMIUM)
    if not Path(executable).is_file():
        raise SystemExit(f"Chromium not found at {executable} (set CHROMIUM_PATH).")
    results, memory = [], {}
    async with async_playwright() as pw:
        async def launch():
            return await pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)

        # Warm-up: one session loads torch, MiniLM and the page code; then the baseline.
        browser = await launch()
        try:
            warm = await one_load(browser, base, server, 1, argparse.Namespace(**{**vars(args), "rounds": 1}), "warmup")
        finally:
            await browser.close()
        memory["warm_errors"] = warm["errors"]
        memory["baseline"] = rss(server)
        print(f"baseline RSS {memory['baseline'] / 2**20:.0f} MiB", flush=True)
        for n, trial in ((n, k) for n in args.sessions for k in range(1, args.trials + 1)):
            # Each classroom size gets a fresh browser on a quiet machine: the previous
            # run's closed pages and the CPU they kept busy would otherwise count here.
            busy = await asyncio.to_thread(wait_quiet, args.quiet_timeout)
            browser = await launch()
            try:
                r = await one_load(browser, base, server, n, args, f"n{n}t{trial}")
            finally:
                await browser.close()
            r["busy_before"], r["trial"] = busy, trial
            results.append(r)
            print(f"N={n} trial {trial}: p50 {r['p50']:.2f} s, p95 {r['p95']:.2f} s, {len(r['errors'])} errors, "
                  f"{len(r['cross_talk'])} cross-talk, server p50 {r['server_p50']:.3f} s, "
                  f"RSS peak {r['rss_peak'] / 2**20:.0f} MiB, after {r['rss_after'] / 2**20:.0f} MiB "
                  f"(CPU busy before: {busy:.0%})", flush=True)
            for e in r["errors"][:5] + r["cross_talk"][:5] + r["foreign_rows"][:5]:
                print("   ", e, flush=True)
    return results, memory


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 10, 30])
    ap.add_argument("--rounds", type=int, default=3, help="texts each session submits")
    ap.add_argument("--trials", type=int, default=3,
                    help="runs of each N (fresh browser each); the verdict pools their submits")
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--open-stagger", type=float, default=0.5, help="s between opening two pages")
    ap.add_argument("--stagger", type=float, default=0.2, help="s between two sessions' first submits")
    ap.add_argument("--think", type=float, default=1.0, help="s a session waits between its submits")
    ap.add_argument("--timeout", type=float, default=180.0, help="s a page may take for one run")
    ap.add_argument("--settle", type=float, default=5.0, help="s after the last session closed before RSS is read")
    ap.add_argument("--quiet-timeout", type=float, default=90.0,
                    help="s to wait for the machine's CPU to go quiet before each N (0: do not wait)")
    ap.add_argument("--url", help="use a running server (no RSS/CPU figures then)")
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args(argv)
    if min(args.sessions) < 1 or args.rounds < 1 or args.trials < 1 or not 2 <= args.tokens <= 512:
        ap.error("sessions, rounds and trials must be >= 1, tokens between 2 and 512")
    sigterm_as_exit()
    load0 = os.getloadavg()
    with app_server(url=args.url) as base:
        results, memory = asyncio.run(run_all(args, base))
    publish("load", report(results, memory, args, load0), write_doc=not args.no_doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

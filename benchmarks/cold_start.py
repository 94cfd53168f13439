"""Cold start: the first visitor of a server that has just started, on the attention page.

Each round starts a FRESH server (`python -m ui.warmup run app.py`, what `make run` and
`python -m cli.serve` start), waits for /_stcore/health, then (after `--delay` seconds:
0 = the visitor is already waiting; N = "the teacher starts the server, the students
arrive later") opens /attention in a new headless Chromium context (empty browser
cache). Clock: the page's own clock (`performance.now()`, 0 = navigation start) at the
first animation frame in which the page's first figure is drawn and the run is over. The
first figure is the default view's (`--view instant`, /attention as a new visitor opens
it): the in-browser viewer (ui/widgets/attention_canvas.py) has unpacked the payload and
drawn its canvases (`.gb-att[data-ready="1"]` in the component's shadow root, a canvas of
non-zero size). `--view heads` opens /attention?view=heads and waits for the selected
head's plotly heatmap (`.st-key-head_map`) to hold its image instead: the figure the
numbers recorded before the instant view became the default measured. A second visitor
then opens the same page in another fresh context: the floor the machine and browser set
once everything is warm.
Meanwhile every frame is checked for the app's own progress (a progress bar, an
st.status or a spinner; not Streamlit's "Running…"), and when and what it first showed.

Two server settings, alternated round by round, each server fresh:
  warm-up  - the default (GLASSBOX_WARMUP unset): PyTorch, the default model and its
             first pass are warmed in the background from the server's start;
  off      - GLASSBOX_WARMUP=0: what every server did before (the first visit imports
             and loads everything while the visitor waits).
Reported: medians per (delay, setting), the ratio warm-up / off, the server's own
warm-up timings (from its log) and the target: <= 3 s from opening the page to the
first figure on a server that has just started (delay 0, warm-up). Nothing asserted.

    python -m benchmarks.cold_start                      # 3 rounds, delays 0 and 10 s
    python -m benchmarks.cold_start --rounds 5 --delays 0 --no-doc
    python -m benchmarks.cold_start --view heads --no-doc  # the plotly heatmap, as measured before
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks._browser import INSTANT_DRAWN_JS  # noqa: E402

TARGET_S = 3.0
SETTINGS = {"warm-up": {}, "off": {"GLASSBOX_WARMUP": "0"}}

# view -> (the query /attention is opened with, the figure waited for, a JS expression true once it is drawn)
_HEATMAP_JS = "document.querySelector('.st-key-head_map [data-testid=\"stPlotlyChart\"] image')"
VIEWS = {"instant": ("", "first figure (instant viewer)", INSTANT_DRAWN_JS),
         "heads": ("view=heads", "first heatmap", _HEATMAP_JS)}


def watch_js(view: str) -> str:
    """Sampled every animation frame from navigation start until `view`'s figure is drawn."""
    return _WATCH_JS.replace("__DRAWN__", VIEWS[view][2])


_WATCH_JS = """
() => {
  if (window.__gbCold) return;
  const s = (window.__gbCold = { progressAt: null, progressText: "", drawnAt: null, box: null });
  const tick = () => {
    // the app's own progress (a progress bar, st.status, a spinner), not Streamlit's "Running…"
    const main = document.querySelector('[data-testid="stMain"], [data-testid="stAppViewContainer"]');
    const p = main && main.querySelector('[data-testid="stProgress"], [data-testid="stSpinner"], '
      + '[data-testid="stExpanderIconSpinner"]');
    if (p && s.progressAt === null) {
      s.progressAt = performance.now();
      const box = p.closest('[data-testid="stExpander"]') || p.parentElement || p;
      s.progressText = (box.textContent || p.getAttribute("data-testid") || "").trim().slice(0, 80);
    }
    const drawn = __DRAWN__;
    const app = document.querySelector('[data-testid="stApp"]');
    const idle = app && app.getAttribute("data-test-script-state") === "notRunning";
    if (drawn && idle && s.drawnAt === null) { s.drawnAt = performance.now(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
"""


def one_round(browser, setting: str, delay: float, log_dir: Path, view: str = "instant") -> dict:  # noqa: ANN001
    """Start a fresh server with `setting`, visit /attention (on `view`), stop the server."""
    from benchmarks._browser import new_page
    from support.browser import free_port, serve_app

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "GLASSBOX_WARMUP"}
    env.update(SETTINGS[setting])
    log_path = log_dir / f"cold-{setting}-{port}.log"
    t0 = time.monotonic()
    with serve_app(ROOT / "app.py", log_path, port, 120, module="ui.warmup", env=env, poll=0.05) as base:
        healthy = time.monotonic() - t0
        time.sleep(delay)
        visits = []
        for _ in range(2):    # the first visitor, then a second one on the now warm server (the floor)
            with new_page(browser) as page:
                page.context.add_init_script(f"({watch_js(view)})();")
                query = VIEWS[view][0]
                page.goto(f"{base}/attention" + (f"?{query}" if query else ""), wait_until="commit")
                page.wait_for_function("() => window.__gbCold && window.__gbCold.drawnAt !== null",
                                       timeout=180_000)
                visits.append(page.evaluate("() => window.__gbCold"))
    got = visits[0]
    warm = re.search(r"warm-up done in ([\d.]+) s: (.*)", log_path.read_text(errors="replace"))
    return {"healthy": healthy, "drawn": got["drawnAt"] / 1000, "second": visits[1]["drawnAt"] / 1000,
            "progress": None if got["progressAt"] is None else got["progressAt"] / 1000,
            "progress_text": got["progressText"], "warmup": warm.group(0) if warm else ""}


def report(rows: dict[tuple[float, str], list[dict]], delays: list[float], rounds: int, note: str,
           view: str = "instant") -> str:
    from benchmarks._timing import machine
    from benchmarks.summary import summary_line

    query, figure, _ = VIEWS[view]
    page = "/attention" + (f"?{query}" if query else "")
    what = ("the default view's figure: the instant viewer's canvases drawn in the browser "
            "(`.gb-att[data-ready=\"1\"]`)" if view == "instant" else "the heads view's head heatmap drawn")
    floor = "the viewer's unpacking and first draw" if view == "instant" else "plotly's first draw"
    med = {k: statistics.median(r["drawn"] for r in v) for k, v in rows.items()}
    lines = [f"## Cold start: first visit of {page} on a fresh server", "",
             f"`{shlex.join(['python', '-m', 'benchmarks.cold_start', *sys.argv[1:]])}`. Machine: {machine()}. "
             f"{rounds} rounds per row, settings alternated, a fresh server (`python -m ui.warmup run app.py`) "
             "and a fresh browser context per round. Clock: the page's (0 = navigation start) until the first "
             f"frame with {what} and the run over; \"progress\": when a progress bar, st.status "
             "or spinner of the app first showed (not Streamlit's own \"Running…\"); \"second visitor\": the same "
             "page opened again in another fresh browser context right after, on the now warm server: the floor "
             f"this machine and browser set (page load, the run, {floor}). The visitor opens the page "
             "`delay` s after /_stcore/health answered. "
             + note, "",
             f"| delay after health | server | {figure} s (median) | min | max | progress first shown s | "
             "health s | / off | second visitor s (floor) |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for d in delays:
        for setting in SETTINGS:
            rs = rows[(d, setting)]
            prog = [r["progress"] for r in rs if r["progress"] is not None]
            lines.append(f"| {d:g} s | {setting} | {med[(d, setting)]:.2f} | {min(r['drawn'] for r in rs):.2f} "
                         f"| {max(r['drawn'] for r in rs):.2f} "
                         f"| {f'{statistics.median(prog):.2f}' if prog else 'none'} "
                         f"| {statistics.median(r['healthy'] for r in rs):.2f} "
                         f"| {med[(d, setting)] / med[(d, 'off')]:.2f} "
                         f"| {statistics.median(r['second'] for r in rs):.2f} |")
    warm_logs = [r["warmup"] for (d, s), rs in rows.items() if s == "warm-up" for r in rs if r["warmup"]]
    if warm_logs:
        lines += ["", "The servers' own log (warm-up), first round: `" + warm_logs[0] + "`."]
    d0 = delays[0]
    value = med[(d0, "warm-up")]
    lines += ["", f"Target: <= {TARGET_S:.0f} s to the {figure}, delay {d0:g} s, warm-up: {value:.2f} s, "
              f"{'met' if value <= TARGET_S else 'MISSED'} (off: {med[(d0, 'off')]:.2f} s).",
              summary_line(f"Cold start: fresh server, {page} opened {d0:g} s after health -> {figure} "
                           "(median)", f"{value:.2f} s (off: {med[(d0, 'off')]:.2f} s)", f"<= {TARGET_S:.0f} s",
                           value <= TARGET_S)]
    for d in delays[1:]:
        lines.append(summary_line(f"Cold start: {page} opened {d:g} s after health -> {figure} (median)",
                                  f"{med[(d, 'warm-up')]:.2f} s (off: {med[(d, 'off')]:.2f} s)",
                                  f"<= {TARGET_S:.0f} s", med[(d, "warm-up")] <= TARGET_S))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--delays", type=float, nargs="+", default=[0.0, 10.0],
                    help="seconds between health and the visit (default: 0 10)")
    ap.add_argument("--view", choices=list(VIEWS), default="instant",
                    help="instant (default: the page as a new visitor opens it, the in-browser viewer) or heads "
                         "(?view=heads: the plotly head heatmap, the figure measured before)")
    ap.add_argument("--note", default="")
    ap.add_argument("--no-doc", action="store_true", help="do not write docs/benchmarks.md")
    args = ap.parse_args()

    from benchmarks._browser import chromium, load_note, sigterm_as_exit
    from benchmarks._timing import publish

    sigterm_as_exit()
    load = os.getloadavg()
    rows: dict[tuple[float, str], list[dict]] = {(d, s): [] for d in args.delays for s in SETTINGS}
    with tempfile.TemporaryDirectory(prefix="glassbox-cold-") as tmp, chromium() as browser:
        for i in range(args.rounds):
            for d in args.delays:
                order = list(SETTINGS) if i % 2 == 0 else list(reversed(SETTINGS))
                for setting in order:
                    r = one_round(browser, setting, d, Path(tmp), args.view)
                    rows[(d, setting)].append(r)
                    print(f"[round {i + 1}, delay {d:g} s, {setting}] {args.view} figure {r['drawn']:.2f} s "
                          f"(second visitor {r['second']:.2f} s), progress "
                          f"{r['progress'] if r['progress'] is None else round(r['progress'], 2)} "
                          f"({r['progress_text']!r}), health {r['healthy']:.2f} s {r['warmup']}", file=sys.stderr)
    md = report(rows, args.delays, args.rounds, " ".join(filter(None, [args.note, load_note(load)])), args.view)
    publish("cold_start", md, write_doc=not args.no_doc, say_where=True)


if __name__ == "__main__":
    main()

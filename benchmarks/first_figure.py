"""A new visitor's first figure, and where its time goes (issue 37, deliverable 2).

    python -m benchmarks.first_figure [--rounds 3] [--no-doc]

Two pages a class opens: /attention as a new visitor gets it (the default view, the
instant viewer drawn in the browser) and a lesson step link (/lessons?lesson=attention&
step=2, a plotly figure). Three server states, each a fresh server started as `make run`
starts it (`python -m ui.warmup run app.py`):

- **warm**: the warm-up has finished (its log says "warm-up done") before the visitor
  comes; the page's first visitor, then a second one;
- **fresh**: the visitor opens the page as soon as /_stcore/health answers;
- **settled**: the warm-up's after-steps are over too (the parity badge, which imports
  transformers for ~3.5 s after "warm-up done", and the heap freeze; ui/warmup.py): a
  server started a while before its class, as a teacher's usually is. The warm row's
  visitor comes while those run, and shares the server's core with them.

Beside them, Streamlit's floor: a bare app of one file (benchmarks/_floor_app.py) that draws
one line of text, one small plotly chart or the same chart in altair, served and visited
the same way ("bare"; --no-floor leaves it out). No page of ours can draw its first figure
sooner than that.

The server is pinned to CPU 0 and the browser (with this script) to CPU 1
(`os.sched_setaffinity`, inherited by each process and its threads), so the two do not
share a core; with fewer than two CPUs nothing is pinned and the report says so.

Every visitor is a fresh browser context (no cache). Times are the page's own clock
(0 = navigation start), split with the browser's Resource Timing and the DevTools
protocol's websocket frames (each `ForwardMsg` decoded with Streamlit's protobufs):

- **assets**: the page's own scripts and stylesheets loaded (those asked for before the
  websocket opened), and their compressed size;
- **session**: from the websocket's handshake to the server's `new_session` message;
- **run**: `new_session` to the message that carries the figure (the server's script run
  up to that element: sidebar, model, pass, the figure built and serialised);
- **figure KB**: that message's size on the wire (the transfer, localhost);
- **draw**: that message received to the figure drawn in a frame (the viewer's canvases,
  or plotly's SVG) with the run over; it includes the chunks an element loads when it
  first appears (plotly's, shown beside it as "lazy").

Targets (issue 37): first figure <= 2.5 s on a warm (and a settled) server, <= 4 s on a fresh one.
Nothing is asserted (tests/unit/test_bench_first_figure.py checks the parsing).
"""
from __future__ import annotations

import argparse
import base64
import os
import shlex
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks._browser import INSTANT_DRAWN_JS  # noqa: E402

TARGETS = {"warm": 2.5, "fresh": 4.0, "settled": 2.5}
# what the server's log says when each state is reached ("fresh": health answers, nothing more)
READY_LINE = {"warm": "warm-up done", "settled": "frozen out of the garbage collector"}
# how the summary names each state's server, and the order of the report's rows
SERVER_WORDS = {"warm": "warm server", "settled": "settled server (the warm-up's after-steps done too)",
                "fresh": "fresh server", "bare": "bare app"}
SERVER_CPU, BROWSER_CPU = 0, 1

_PLOTLY_JS = """!!document.querySelector('[class*="st-key-ls_fig_"] .js-plotly-plot .main-svg .cartesianlayer')"""

# page -> (path, JS true once the figure is drawn, how the figure's element is recognised)
PAGES = {
    "attention": ("/attention", INSTANT_DRAWN_JS, ("bidi_component", "instant_canvas")),
    "lesson step": ("/lessons?lesson=attention&step=2", _PLOTLY_JS, ("plotly_chart", "ls_fig_")),
}
# Streamlit's floor: a bare app (benchmarks/_floor_app.py) drawing one element, served the same
# way on the same core; no page of ours can be drawn sooner than these
FLOOR_APP = ROOT / "benchmarks" / "_floor_app.py"
FLOOR = {
    "bare: one line": ("/?figure=text", """!!document.querySelector('[data-testid="stMarkdown"]')""",
                       ("markdown", "")),
    "bare: one plotly chart": ("/?figure=plotly", _PLOTLY_JS, ("plotly_chart", "ls_fig_")),
    "bare: one altair chart": ("/?figure=altair", """!!document.querySelector(
        '[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg .mark-rect')""",
                               ("vega_lite_chart", "")),
}
ALL_PAGES = {**PAGES, **FLOOR}

_WATCH_JS = """
() => {
  if (window.__gbFirst) return;
  const s = (window.__gbFirst = { drawnAt: null, box: null });
  const tick = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const idle = app && app.getAttribute("data-test-script-state") === "notRunning";
    if (__DRAWN__ && idle) { s.drawnAt = performance.now(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
"""

_TIMING_JS = """() => ({
  origin: performance.timeOrigin,
  resources: performance.getEntriesByType("resource").filter((e) => /\\.(js|css)(\\?|$)/.test(e.name))
      .map((e) => [e.startTime, e.responseEnd, e.encodedBodySize || 0]),
  drawn: window.__gbFirst.drawnAt,
})"""


@dataclass
class Frames:
    """What the DevTools protocol saw of one page load (monotonic seconds, as CDP gives)."""

    doc: tuple[float, float] | None = None          # the document request: (monotonic, wall) seconds
    handshake: float | None = None
    received: list[tuple[float, bytes]] = field(default_factory=list)

    def on_request(self, e: dict) -> None:
        if e.get("type") == "Document" and self.doc is None:
            self.doc = (e["timestamp"], e["wallTime"])

    def on_handshake(self, e: dict) -> None:
        if self.handshake is None:
            self.handshake = e["timestamp"]

    def on_frame(self, e: dict) -> None:
        r = e["response"]
        if r.get("opcode") == 2:                                  # binary: a ForwardMsg
            self.received.append((e["timestamp"], base64.b64decode(r["payloadData"])))


def split(frames: Frames, timing: dict, element: tuple[str, str]) -> dict:
    """The breakdown of one visit (seconds from navigation start), from its frames and the
    page's timing; `element` = (element type, text its id contains) of the figure."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if frames.doc is None:
        raise ValueError("the document request was not seen")
    mono0, wall0 = frames.doc
    shift = wall0 * 1000 - timing["origin"]                      # ms: the document request after timeOrigin

    def at(mono: float) -> float:                                # CDP monotonic s -> s from navigation start
        return ((mono - mono0) * 1000 + shift) / 1000

    session = figure = finished = None
    size = 0
    kind, marker = element
    for t, data in frames.received:
        msg = ForwardMsg.FromString(data)
        which = msg.WhichOneof("type")
        if which == "new_session" and session is None:
            session = at(t)
        elif which == "delta" and figure is None and msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element
            if el.WhichOneof("type") == kind and marker in getattr(getattr(el, kind), "id", ""):
                figure, size = at(t), len(data)
        elif which == "script_finished" and figure is not None and finished is None:
            finished = at(t)
    if session is None or figure is None:
        raise ValueError(f"no {'new_session' if session is None else kind + ' ' + marker} message among "
                         f"{len(frames.received)} frames")
    drawn = timing["drawn"] / 1000
    res = [(start / 1000, end / 1000, n) for start, end, n in timing["resources"]]
    handshake = at(frames.handshake) if frames.handshake is not None else max((e for _, e, _ in res), default=0.0)
    # the page's own bundle (loaded before the websocket opens) and the chunks its elements
    # load when they first appear (plotly's, a component's), which fall inside "draw"
    early = [r for r in res if r[0] < handshake]
    late = [r for r in res if r[0] >= handshake]
    return {"assets": max((e for _, e, _ in early), default=0.0), "assets_kb": sum(n for *_, n in early) / 1024,
            "session": session - handshake, "run": figure - session, "kb": size / 1024,
            "draw": drawn - figure, "lazy_kb": sum(n for *_, n in late) / 1024,
            "lazy": max((e - s for s, e, _ in late), default=0.0), "total": drawn, "finished": finished}


def visit(browser, base: str, page_name: str) -> dict:  # noqa: ANN001
    """One new visitor (a fresh context) opening `page_name`: the breakdown."""
    from benchmarks._browser import new_page

    path, drawn_js, element = ALL_PAGES[page_name]
    with new_page(browser) as page:
        frames = Frames()
        cdp = page.context.new_cdp_session(page)
        cdp.on("Network.requestWillBeSent", frames.on_request)
        cdp.on("Network.webSocketWillSendHandshakeRequest", frames.on_handshake)
        cdp.on("Network.webSocketFrameReceived", frames.on_frame)
        cdp.send("Network.enable")
        page.context.add_init_script(f"({_WATCH_JS.replace('__DRAWN__', drawn_js)})();")
        page.goto(base + path, wait_until="commit")
        page.wait_for_function("() => window.__gbFirst && window.__gbFirst.drawnAt !== null", timeout=180_000)
        timing = page.evaluate(_TIMING_JS)
        page.wait_for_timeout(50)                 # the frames' events are delivered after the page's
        return split(frames, timing, element)


def pinned() -> bool:
    """Whether this machine has the two CPUs the pinning names."""
    return hasattr(os, "sched_setaffinity") and {SERVER_CPU, BROWSER_CPU} <= os.sched_getaffinity(0)


def one_round(browser, state: str, log_dir: Path, pin: bool) -> dict[str, list[dict]]:  # noqa: ANN001
    """A fresh server; `state` warm (wait for the warm-up) or fresh (visit at health);
    each page visited by a first and a second new visitor. `state` "bare": the floor app
    (FLOOR), its pages."""
    from support.browser import free_port, serve_app

    log = log_dir / f"server-{state}-{time.monotonic_ns()}.log"
    if pin:
        os.sched_setaffinity(0, {SERVER_CPU})          # the server (a child) inherits this
    try:
        if state == "bare":
            server = serve_app(FLOOR_APP, log, free_port())
        else:
            server = serve_app(ROOT / "app.py", log, free_port(), module="ui.warmup")
        base = server.__enter__()
    finally:
        if pin:
            os.sched_setaffinity(0, {BROWSER_CPU})
    try:
        if state in READY_LINE:
            deadline = time.monotonic() + 300
            while READY_LINE[state] not in log.read_text(errors="replace") and time.monotonic() < deadline:
                time.sleep(0.2)
        out: dict[str, list[dict]] = {}
        for name in FLOOR if state == "bare" else PAGES:
            out[name] = [visit(browser, base, name) for _ in range(2)]     # the page's first visitor, a second
        return out
    finally:
        server.__exit__(None, None, None)


def floor_words(floors: dict[str, float]) -> str:
    """The floor beside each summary figure, " (Streamlit's floor here: one line 1.43 s, …)":
    machines of the same kind differ by up to ~1.8x in the browser, and a first figure
    read without its floor compares machines, not code."""
    if not floors:
        return ""
    return " (Streamlit's floor here: " + ", ".join(
        f"{page.removeprefix('bare: ')} {total:.2f} s" for page, total in floors.items()) + ")"


def report(rows: dict[tuple[str, str, int], list[dict]], rounds: int, pin: bool, note: str) -> str:
    from benchmarks._timing import machine
    from benchmarks.summary import summary_line

    med = lambda rs, k: statistics.median(r[k] for r in rs)  # noqa: E731
    lines = ["## First figure for a new visitor, split (issue 37)", "",
             f"`{shlex.join(['python', '-m', 'benchmarks.first_figure', *sys.argv[1:]])}`. Machine: {machine()}. "
             + ("Server pinned to CPU 0, the browser to CPU 1. " if pin else "Not pinned (fewer than 2 CPUs). ")
             + f"{rounds} round(s), a fresh server per round (`python -m ui.warmup run app.py`); each visitor a "
             "fresh browser context. Seconds from navigation start (medians): assets = the page's last script or "
             "stylesheet loaded (compressed KB); session = websocket handshake to Streamlit's new_session message; run = "
             "new_session to the message carrying the figure (the script run up to it); figure KB = that "
             "message's size (the transfer, on localhost); draw = that message to the figure drawn with the run "
             "over, including the chunks an element loads when it first appears (lazy: the longest one's "
             "load and their size). " + note, "",
             "| page | server | visitor | first figure (s) | assets (KB) | session | run | figure KB | draw | "
             "lazy chunks (KB) | target |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    summary = []
    floor = floor_words({page: med(rs, "total") for (page, state, v), rs in rows.items()
                         if state == "bare" and v == 0})
    for (page, state, v), rs in rows.items():
        total = med(rs, "total")
        target = TARGETS.get(state)
        ok = target is None or total <= target
        aim = "(Streamlit's floor)" if target is None else f"<= {target} s: {'met' if ok else 'MISSED'}"
        lines.append(f"| {page} | {state} | {'first' if v == 0 else 'second'} | **{total:.2f}** | "
                     f"{med(rs, 'assets'):.2f} ({med(rs, 'assets_kb'):,.0f}) | {med(rs, 'session'):.2f} | "
                     f"{med(rs, 'run'):.2f} | {med(rs, 'kb'):,.0f} | {med(rs, 'draw'):.2f} | "
                     f"{med(rs, 'lazy'):.2f} ({med(rs, 'lazy_kb'):,.0f}) | {aim} |")
        if v == 0 and target is not None:
            summary.append(summary_line(f"First figure, new visitor, {SERVER_WORDS[state]}: {PAGES[page][0]} (median)",
                                        f"{total:.2f} s{floor}", f"<= {target} s", ok))
    return "\n".join(lines + [""] + summary)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--note", default="")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the server and the browser to CPUs")
    ap.add_argument("--no-doc", action="store_true", help="do not write docs/benchmarks.md")
    ap.add_argument("--no-floor", action="store_true", help="do not measure the bare Streamlit app (FLOOR)")
    args = ap.parse_args()

    from benchmarks._browser import chromium, load_note, sigterm_as_exit
    from benchmarks._timing import publish

    sigterm_as_exit()
    pin = pinned() and not args.no_pin
    load = os.getloadavg()
    if pin:
        os.sched_setaffinity(0, {BROWSER_CPU})           # the browser and its driver, launched next, inherit it
    rows: dict[tuple[str, str, int], list[dict]] = {}
    with tempfile.TemporaryDirectory(prefix="glassbox-first-") as tmp, chromium() as browser:
        for i in range(args.rounds):
            states = ("warm", "fresh") if i % 2 == 0 else ("fresh", "warm")
            for state in states + ("settled",) + (() if args.no_floor else ("bare",)):
                got = one_round(browser, state, Path(tmp), pin)
                for page, visits in got.items():
                    for v, r in enumerate(visits):
                        rows.setdefault((page, state, v), []).append(r)
                    print(f"[round {i + 1}, {state}] {page}: " + ", ".join(
                        f"{r['total']:.2f} s (assets {r['assets']:.2f}, session {r['session']:.2f}, run "
                        f"{r['run']:.2f}, {r['kb']:.0f} KB, draw {r['draw']:.2f}, lazy {r['lazy']:.2f} s "
                        f"{r['lazy_kb']:.0f} KB)" for r in visits), file=sys.stderr)
    order = {(p, s, v): (list(ALL_PAGES).index(p), list(SERVER_WORDS).index(s), v) for p, s, v in rows}
    rows = dict(sorted(rows.items(), key=lambda kv: order[kv[0]]))
    md = report(rows, args.rounds, pin, " ".join(filter(None, [args.note, load_note(load)])))
    publish("first_figure", md, write_doc=not args.no_doc, say_where=True)


if __name__ == "__main__":
    main()

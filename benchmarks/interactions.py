"""What a student feels once the app is open (issue 37, deliverable 3): a new text, and a
page change, in a real browser, MiniLM, 64 tokens.

    python -m benchmarks.interactions [--rounds 8] [--no-doc]

A `streamlit run` server (started here, warm: the page opened once before the clock
starts) and headless Chromium. Each round, on pages as a new visitor gets them:

- **new text, /attention** (the default instant view): a 64-token text never used
  before is typed into the sidebar and committed with Control+Enter. Clock (the page's
  own, from the keydown in a capturing listener) until the frame in which the run is
  over and the viewer shows the new text: a new viewer (`.gb-att`) has unpacked its
  payload and drawn its canvases;
- **new text, overview** (the home page): the same, until the run is over and the token
  badges hold the new text's word and the model map has been redrawn;
- **page change**: a click on the navigation's "Residual stream" link, until that page's
  first chart is drawn and the run is over; then back to "Attention" (the viewer drawn).

Server and browser share the machine's cores (as on a student's laptop running both, or
a classroom server's own check). Medians over the rounds after `--warmup` rounds; targets
(issue 37): <= 0.5 s each. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import random
import shlex
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_S = 0.5
WORDS = ("apple river window garden doctor silver market winter castle forest engine island letter monkey "
         "orange pencil rabbit summer teacher tiger violin yellow bridge camera dragon farmer guitar hammer "
         "jacket kitchen lemon mirror ocean palace planet rocket shadow spider sugar tunnel wallet basket").split()

_SETUP_JS = """
() => {
  if (window.__gbInt) return;
  const s = (window.__gbInt = { t0: null, armed: false, before: null });
  const stamp = () => { if (s.armed && s.t0 === null) s.t0 = performance.now(); };
  document.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) stamp(); }, true);
  document.addEventListener("mousedown", stamp, true);
  s.idle = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return Boolean(app) && app.getAttribute("data-test-script-state") === "notRunning" &&
      !document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]');
  };
  s.viewer = () => {
    for (const el of document.querySelectorAll('[data-testid="stMain"] *')) {
      const box = el.shadowRoot && el.shadowRoot.querySelector(".gb-att");
      if (box) return box;
    }
    return null;
  };
  s.drawnViewer = () => {
    const box = s.viewer();
    return box && box.dataset.ready === "1" && [...box.querySelectorAll("canvas")].some((c) => c.width > 0) ? box : null;
  };
  s.svg = (key) => {
    const c = document.querySelector(`.st-key-${key} .js-plotly-plot .main-svg`);
    return c ? c.outerHTML : null;
  };
  s.arm = () => { s.t0 = null; s.armed = true; s.before = { viewer: s.viewer(), map: s.svg("model_map") }; };
  s.done = (ok) => (ok && s.idle() && s.t0 !== null ? performance.now() - s.t0 : false);
}
"""
# each: a JS expression (with `s` the state and `word` the new word) true once the action is drawn
_ATTENTION_TEXT = "(() => { const b = s.drawnViewer(); return !!b && b !== s.before.viewer; })()"
_HOME_TEXT = ("(() => { const m = s.svg('model_map'); const t = document.querySelector('[data-testid=\"stMain\"]'); "
              "return !!m && m !== s.before.map && !!t && t.textContent.includes(word); })()")
_RESIDUAL_DRAWN = "!!document.querySelector('.st-key-res_norm .js-plotly-plot .main-svg .cartesianlayer')"
_VIEWER_DRAWN = "!!s.drawnViewer()"


def _wait(page, drawn_js: str, word: str = "") -> float:  # noqa: ANN001
    ms = page.wait_for_function(f"(word) => {{ const s = window.__gbInt; return s.done({drawn_js}); }}", arg=word,
                                polling="raf", timeout=120_000).json_value()
    page.wait_for_timeout(300)
    return ms / 1000


def _new_text(page, rng: random.Random, used: set[str], drawn_js: str) -> float:  # noqa: ANN001
    word = next(w for w in rng.sample(WORDS, len(WORDS)) if w not in used)
    used.add(word)
    text = " ".join([word, str(rng.randrange(10**6))] + [rng.choice(WORDS) for _ in range(60)])
    area = page.locator('[data-testid="stTextArea"] textarea')
    area.fill(text)
    page.evaluate("() => window.__gbInt.arm()")
    area.press("Control+Enter")
    return _wait(page, drawn_js, word)


def _nav(page, label: str, drawn_js: str) -> float:  # noqa: ANN001
    link = page.locator('[data-testid="stSidebarNav"] a', has_text=label).first
    page.evaluate("() => window.__gbInt.arm()")
    link.click()
    return _wait(page, drawn_js)


def measure(base: str, rounds: int, warmup: int, seed: int) -> dict[str, list[float]]:
    from benchmarks._browser import chromium, new_page

    rng = random.Random(seed)
    used: set[str] = set()
    out: dict[str, list[float]] = {"new text, /attention": [], "new text, overview": [],
                                   "page change, attention -> residual": [], "page change, residual -> attention": []}
    with chromium() as browser, new_page(browser) as page:
        page.context.add_init_script(f"({_SETUP_JS})();")
        page.goto(f"{base}/attention", wait_until="commit")
        page.wait_for_function("() => window.__gbInt && window.__gbInt.idle() && !!window.__gbInt.drawnViewer()",
                               polling="raf", timeout=180_000)
        for i in range(warmup + rounds):
            got = {"new text, /attention": _new_text(page, rng, used, _ATTENTION_TEXT),
                   "page change, attention -> residual": _nav(page, "Residual", _RESIDUAL_DRAWN),
                   "page change, residual -> attention": _nav(page, "Attention", _VIEWER_DRAWN)}
            _nav(page, "Overview", "!!s.svg('model_map')")
            got["new text, overview"] = _new_text(page, rng, used, _HOME_TEXT)
            _nav(page, "Attention", _VIEWER_DRAWN)
            print(f"[round {i + 1}{' (warm-up)' if i < warmup else ''}] "
                  + ", ".join(f"{k}: {v:.2f} s" for k, v in got.items()), file=sys.stderr)
            if i >= warmup:
                for k, v in got.items():
                    out[k].append(v)
    return out


def report(out: dict[str, list[float]], rounds: int, note: str) -> str:
    from benchmarks._timing import machine
    from benchmarks.summary import summary_line

    lines = ["## A student's interactions: new text and page change (issue 37)", "",
             f"`{shlex.join(['python', '-m', 'benchmarks.interactions', *sys.argv[1:]])}`. Machine: {machine()}; "
             "server and Chromium on the same cores. MiniLM, a new 62-word text (64 tokens) each time; one browser "
             "page on a warm server. Clock: the page's, from the Control+Enter keydown or the navigation click to "
             "the first frame with the run over and the result drawn (the instant viewer's canvases for the new "
             "text's payload; the overview's token badges with the new word and its model map redrawn; the "
             f"residual page's first chart). Medians of {rounds} rounds. " + note, "",
             "| interaction | median (s) | min | max | target |", "| --- | ---: | ---: | ---: | --- |"]
    summary = []
    for k, v in out.items():
        m = statistics.median(v)
        lines.append(f"| {k} | **{m:.2f}** | {min(v):.2f} | {max(v):.2f} | <= {TARGET_S} s: "
                     f"{'met' if m <= TARGET_S else 'MISSED'} |")
        summary.append(summary_line(f"Interaction, {k} (median)", f"{m:.2f} s", f"<= {TARGET_S} s", m <= TARGET_S))
    return "\n".join(lines + [""] + summary)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--url", help="a running server instead of one started here")
    ap.add_argument("--note", default="")
    ap.add_argument("--no-doc", action="store_true", help="do not write docs/benchmarks.md")
    args = ap.parse_args()

    from benchmarks._browser import app_server, load_note, sigterm_as_exit
    from benchmarks._timing import publish

    sigterm_as_exit()
    load = os.getloadavg()
    with app_server(url=args.url) as base:
        out = measure(base, args.rounds, args.warmup, args.seed if args.seed is not None else random.randrange(10**6))
    md = report(out, args.rounds, " ".join(filter(None, [args.note, load_note(load)])))
    publish("interactions", md, write_doc=not args.no_doc, say_where=True)


if __name__ == "__main__":
    main()

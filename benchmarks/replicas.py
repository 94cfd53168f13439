"""Past one machine: 20 browser sessions through the proxy (two replicas behind nginx, the
compose file's configuration from deploy/nginx.conf.template) against 20 sessions direct to
one replica, in the same run with the same harness (benchmarks/load.py's sessions: each
types its own texts and waits for its own tokens), then a replica killed mid-run.

The topology is support/replicas.py's (the loopback test's): `python -m cli.serve` replicas r1
and r2 (GLASSBOX_REPLICA names them; the sidebar shows the name), nginx in front, class mode
on a throw-away PostgreSQL (support/pgserver.py). Phases, in this order, on a quiet machine:

  direct   N sessions on r1's own port (no proxy)
  proxy    N sessions through nginx (cookie affinity: each browser gets its replica)
  (direct and proxy alternate for --trials rounds: same machine state for both)
  fault    N sessions through nginx; after every session's first round the replica holding
           the most sessions is killed (SIGKILL); each session goes on with its rounds

Checks, per session (an init script records the marker's text on every change, and
whether the "reconnected to another one" sentence appeared): the replica never changes
except for the sessions of the killed replica, which move exactly once, to the other, and
see the sentence; the others never see it. nginx's log (one line per request, with the
replica it reached and the affinity cookie) gives every session's websockets: one upgrade
(101) per page, two for a moved one. Errors: a round that times out or shows an
exception (load.py's rules).

Proxy overhead per request: --pings interleaved GETs of /_stcore/health, direct and
through nginx, median difference.

    python -m benchmarks.replicas                       # 20 sessions, 2 trials, 3 rounds
    python -m benchmarks.replicas --sessions 6 --trials 1 --rounds 2 --no-doc
"""
from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import load  # noqa: E402
from benchmarks._browser import sigterm_as_exit, text_with_tokens  # noqa: E402
from benchmarks._load_probes import wait_quiet  # noqa: E402
from benchmarks._load_report import pct  # noqa: E402
from benchmarks._timing import load_average, machine, publish  # noqa: E402
from benchmarks.summary import summary_line  # noqa: E402
from support import pgserver, replicas  # noqa: E402
from support.browser import CHROMIUM_ARGS, DEFAULT_CHROMIUM  # noqa: E402

MOVED = "reconnected to another one"
_MARKER_JS = r"""
(() => {
  if (window.__gbReplica) return;
  const s = (window.__gbReplica = { names: [], times: [], moved: false });
  const check = () => {
    const m = document.querySelector('.st-key-gb_replica');
    const n = m && m.textContent.split(':').pop().trim();
    if (n && s.names[s.names.length - 1] !== n) { s.names.push(n); s.times.push(Date.now()); }
    if (!s.moved) for (const a of document.querySelectorAll('[data-testid="stAlert"]'))
      if (a.textContent.includes(%r)) s.moved = true;
  };
  const start = () => new MutationObserver(check).observe(document.documentElement,
    { subtree: true, childList: true, characterData: true });
  if (document.documentElement) start(); else document.addEventListener("DOMContentLoaded", start);
})();
""" % MOVED


def sessions_for(n: int, rounds: int, tokens: int, tag: str) -> list[load.Session]:
    from models.tokenizer import minilm_tokenizer
    from viz_core.labels import visible_label

    tok = minilm_tokenizer()
    out = []
    for i in range(n):
        texts = [text_with_tokens(tokens, prefix=f"session {i} round {r} {load.WORDS[(i + r * 7) % len(load.WORDS)]} {tag}")
                 for r in range(rounds)]
        out.append(load.Session(i, texts, [load.SEP.join(visible_label(t, 40) for t in tok.encode(x).tokens[:512])
                                        for x in texts]))
    return out


async def phase(browser, base: str, n: int, args, tag: str, top: replicas.Topology | None = None,
                kill: bool = False) -> dict:
    """N sessions open `base`, type their rounds, close. With `kill`, the replica holding
    the most sessions is killed once every session has finished its first round."""
    sessions = sessions_for(n, args.rounds, args.tokens, tag)
    base = base.rstrip("/")                                  # load.open_session adds the "/"
    opened = await asyncio.gather(*(load._delayed(load.open_session(browser, base, s, args.timeout, _MARKER_JS),
                                               i * args.open_stagger) for i, s in enumerate(sessions)),
                                  return_exceptions=True)
    errors = [f"session {s.index}: open: {type(e).__name__}: {e}" for s, e in zip(sessions, opened) if e is not None]
    live = [s for s, e in zip(sessions, opened) if e is None]
    cookies = {}
    for s in live:
        got = [c["value"] for c in await s.context.cookies() if c["name"] == "glassbox_replica"]
        cookies[s.index] = got[0] if got else None
    first = {s.index: (await s.page.evaluate("() => window.__gbReplica.names"))[:1] for s in live}
    victim = None
    if kill:
        counts = {}
        for names in first.values():
            if names:
                counts[names[0]] = counts.get(names[0], 0) + 1
        victim = max(sorted(counts), key=counts.get)
        # the rounds run; the kill comes once every session has typed its first text
        full_rounds = args.rounds
        await asyncio.gather(*(_rounds(s, 0, args, k * args.stagger, 1) for k, s in enumerate(live)))
        kill_ms = time.time() * 1000
        top.stop(victim)                                     # SIGKILL, mid-session
        t_kill = time.perf_counter()
        await asyncio.gather(*(_rounds(s, 1, args, k * args.stagger, full_rounds) for k, s in enumerate(live)))
        recovered = time.perf_counter() - t_kill
    else:
        t0 = time.perf_counter()
        await asyncio.gather(*(_rounds(s, 0, args, k * args.stagger) for k, s in enumerate(live)))
        recovered = time.perf_counter() - t0
    states = {s.index: await s.page.evaluate("() => window.__gbReplica") for s in live}
    for s in sessions:
        if s.context is not None:
            await s.context.close()
    lat = sorted(x for s in sessions for x in s.latencies)
    moves = sorted((st["times"][1] - kill_ms) / 1000 for st in states.values()
                   if kill and len(st["times"]) > 1) if kill else []
    out = {"n": n, "tag": tag, "moves": moves, "via": "proxy" if top is not None else "direct", "victim": victim,
           "lat": lat, "p50": statistics.median(lat) if lat else float("nan"), "p95": pct(lat, 0.95),
           "done": len(lat), "asked": n * args.rounds, "phase_s": recovered,
           "errors": errors + [f"session {s.index}: {e}" for s in sessions for e in s.errors],
           "states": states, "cookies": cookies}
    return out


async def _rounds(s: load.Session, start: int, args, delay: float, stop: int | None = None) -> None:
    """Rounds start..stop of session `s` (load.run_rounds on a slice of its texts)."""
    texts, expected = s.texts, s.expected
    part = load.Session(s.index, texts[start:stop], expected[start:stop])
    part.page, part.context = s.page, s.context
    await load.run_rounds(part, delay, args.think, args.timeout)
    s.latencies += part.latencies
    s.errors += [e.replace("round ", f"round {start}+") for e in part.errors]


def check(r: dict, top: replicas.Topology, log_before: int) -> dict:
    """Stickiness, the move of the killed replica's sessions, websockets per page."""
    log = top.upstream_log()[log_before:]
    streams: dict[str, list[str]] = {}
    for status, _, uri, name, cookie in log:
        if uri.endswith("_stcore/stream") and status == 101:
            streams.setdefault(cookie, []).append(name)
    problems, per_replica, moved = [], {}, 0
    other = {"r1": "r2", "r2": "r1"}
    for i, st in r["states"].items():
        names, cookie = st["names"], r["cookies"].get(i)
        if not names:
            problems.append(f"session {i}: no replica marker seen")
            continue
        per_replica[names[0]] = per_replica.get(names[0], 0) + 1
        ws = streams.get(cookie, []) if r["via"] == "proxy" else None
        if r["victim"] and names[0] == r["victim"]:
            moved += 1
            if names != [r["victim"], other[r["victim"]]]:
                problems.append(f"session {i}: replicas {names}, expected a move {r['victim']} -> {other[r['victim']]}")
            if not st["moved"]:
                problems.append(f"session {i}: moved without the sentence")
            if ws is not None and ws != [r["victim"], other[r["victim"]]]:
                problems.append(f"session {i}: websockets {ws}")
        else:
            if len(names) != 1:
                problems.append(f"session {i}: changed replica {names}")
            if st["moved"]:
                problems.append(f"session {i}: saw the moved sentence without moving")
            if ws is not None and ws != names[:1]:
                problems.append(f"session {i}: websockets {ws}")
    return {"problems": problems, "per_replica": per_replica, "moved": moved,
            "upgrades": sum(len(v) for v in streams.values())}


def pings(top: replicas.Topology, n: int) -> tuple[float, float]:
    """Median GET /_stcore/health time (ms): direct to r1, through nginx (cookie for r1)."""
    cookie = top.cookie_for("r1")
    direct, proxied = [], []
    for _ in range(n):
        for url, c, out in ((top.replicas["r1"].url, None, direct), (top.url, cookie, proxied)):
            t0 = time.perf_counter()
            replicas.http_get(f"{url}_stcore/health", cookie=c)
            out.append((time.perf_counter() - t0) * 1000)
    return statistics.median(direct), statistics.median(proxied)


async def run_all(args, top: replicas.Topology) -> tuple[list[dict], tuple[float, float]]:
    from playwright.async_api import async_playwright

    executable = os.environ.get("CHROMIUM_PATH", DEFAULT_CHROMIUM)
    results = []
    async with async_playwright() as pw:
        async def fresh():
            await asyncio.to_thread(wait_quiet, args.quiet_timeout)
            return await pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)

        b = await fresh()                                   # warm-up: both replicas load torch and MiniLM
        try:
            for base in (top.replicas["r1"].url, top.replicas["r2"].url):
                await phase(b, base, 1, argparse.Namespace(**{**vars(args), "rounds": 1}), "warm")
        finally:
            await b.close()
        ping = await asyncio.to_thread(pings, top, args.pings)   # before the fault phase kills a replica
        for trial in range(1, args.trials + 1):
            for via in ("direct", "proxy"):
                b = await fresh()
                try:
                    before = len(top.upstream_log())
                    base = top.replicas["r1"].url if via == "direct" else top.url
                    r = await phase(b, base, args.sessions, args, f"{via}{trial}", top if via == "proxy" else None)
                finally:
                    await b.close()
                r.update(check(r, top, before), trial=trial)
                results.append(r)
                print(f"{via} trial {trial}: p50 {r['p50']:.2f} s p95 {r['p95']:.2f} s, {len(r['errors'])} errors, "
                      f"replicas {r['per_replica']}, problems {r['problems'][:3]}", flush=True)
        b = await fresh()
        try:
            before = len(top.upstream_log())
            r = await phase(b, top.url, args.sessions, args, "fault", top, kill=True)
        finally:
            await b.close()
        r.update(check(r, top, before), trial=1)
        results.append(r)
        print(f"fault: killed {r['victim']}, moved {r['moved']}, p95 {r['p95']:.2f} s, {len(r['errors'])} errors, "
              f"problems {r['problems'][:3]}", flush=True)
    return results, ping


def report(results: list[dict], ping: tuple[float, float], args, load0: str) -> str:
    def pooled(via: str) -> tuple[list[float], int, int, int]:
        rs = [r for r in results if r["via"] == via and r["tag"] != "fault"]
        lat = sorted(x for r in rs for x in r["lat"])
        return lat, sum(len(r["errors"]) for r in rs), sum(r["done"] for r in rs), sum(r["asked"] for r in rs)

    lines = [f"## Replicas: {args.sessions} sessions through nginx (2 replicas) vs direct to one replica",
             "", f"`python -m benchmarks.replicas` ({args.sessions} sessions, {args.trials} trial(s) of each, "
             f"alternating; {args.rounds} texts per session of {args.tokens} tokens, 1 s apart). Machine: {machine()}. "
             f"{load0} Everything on this machine: two `python -m cli.serve` replicas (r1, r2), nginx "
             f"{_nginx_version()} with the template the compose file uses (deploy/nginx.conf.template), PostgreSQL "
             "for class mode, and one headless Chromium per phase (one browser context = one Streamlit session). "
             "Direct = every session on r1's port; proxy = through nginx, each browser on the replica its affinity "
             "cookie hashes to. Both replicas share the same 2 cores, so the proxy's two replicas add no capacity "
             "here: the comparison measures what the proxy costs, not what a second machine gives.", "",
             "| phase | trial | submits done / asked | errors | **p50** (s) | **p95** (s) | sessions per replica | "
             "websocket upgrades via nginx | stickiness problems |", "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for r in results:
        per = ", ".join(f"{k}: {v}" for k, v in sorted(r["per_replica"].items()))
        name = "fault (replica killed)" if r["tag"] == "fault" else r["via"]
        lines.append(f"| {name} | {r['trial']} | {r['done']} / {r['asked']} | {len(r['errors'])} | {r['p50']:.2f} | "
                     f"{r['p95']:.2f} | {per} | {r['upgrades'] if r['via'] == 'proxy' else '–'} | {len(r['problems'])} |")
    d_lat, d_err, d_done, d_ask = pooled("direct")
    p_lat, p_err, p_done, p_ask = pooled("proxy")
    dp95, pp95 = pct(d_lat, 0.95), pct(p_lat, 0.95)
    fault = next(r for r in results if r["tag"] == "fault")
    lines += ["", f"Pooled: direct p95 {dp95:.2f} s ({d_err} errors, {d_done}/{d_ask} submits), proxy p95 {pp95:.2f} s "
              f"({p_err} errors, {p_done}/{p_ask}); proxy / direct p95 = {pp95 / dp95:.2f}, p50 "
              f"{statistics.median(p_lat) / statistics.median(d_lat):.2f}.",
              f"Proxy overhead per request: GET /_stcore/health median {ping[0]:.2f} ms direct, {ping[1]:.2f} ms through "
              f"nginx ({args.pings} interleaved pairs): +{ping[1] - ping[0]:.2f} ms. A submit is one websocket message "
              "each way over an already-open connection, which nginx relays without parsing.",
              "", f"Fault phase: {fault['victim']} was killed (SIGKILL) after every session's first text; "
              f"{fault['moved']} sessions were on it. Expected: each of them moves to the other replica exactly once "
              f"and shows the \"moved\" sentence, and the other {args.sessions - fault['moved']} sessions keep their "
              f"one websocket and see nothing. Found: {len(fault['problems'])} problems"
              + (f" ({'; '.join(fault['problems'][:3])})" if fault["problems"] else "")
              + f". Errors: {len(fault['errors'])}"
              + (f" ({'; '.join(e[:120] for e in fault['errors'][:3])})" if fault["errors"] else "")
              + f". From the kill to the other replica's name on a moved page: "
              + (f"median {statistics.median(fault['moves']):.1f} s, max {fault['moves'][-1]:.1f} s"
                 if fault["moves"] else "not seen")
              + f" (Streamlit's frontend notices the closed websocket, pings the server until it answers, "
              f"reconnects and asks for a run). Submits of the phase: p50 {fault['p50']:.2f} s, p95 {fault['p95']:.2f} s "
              f"(a text typed while its page was reconnecting waits for the reconnection).", ""]
    ok = p_err == 0 and all(not r["problems"] for r in results)
    lines.append(summary_line(f"Replicas: {args.sessions} sessions via nginx (2 replicas), p95 / direct p95",
                              f"{pp95:.2f} s / {dp95:.2f} s, {p_err} errors", "0 errors, every session sticky", ok))
    lines.append(summary_line("Replicas: a replica killed mid-run", f"{fault['moved']} sessions moved, "
                              f"{len(fault['errors'])} errors, {len(fault['problems'])} problems",
                              "sessions move with a sentence, others untouched",
                              not fault["problems"] and not fault["errors"]))
    return "\n".join(lines)


def _nginx_version() -> str:
    import subprocess

    out = subprocess.run([replicas.nginx_binary() or "nginx", "-v"], capture_output=True, text=True).stderr
    return out.strip().split("/")[-1] if out else "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--trials", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--open-stagger", type=float, default=0.5)
    ap.add_argument("--stagger", type=float, default=0.2)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--pings", type=int, default=300)
    ap.add_argument("--quiet-timeout", type=float, default=60.0)
    ap.add_argument("--no-doc", action="store_true")
    args = ap.parse_args(argv)
    if args.sessions < 2 or args.rounds < 2 or args.trials < 1:
        ap.error("at least 2 sessions, 2 rounds (the fault comes after the first) and 1 trial")
    sigterm_as_exit()
    load0 = load_average()
    with pgserver.running() as pg:
        env = {"GLASSBOX_CLASS_DB": pg.new_database()}
        with replicas.topology(2, env=env, log_dir=ROOT / "test-artifacts" / "bench-replicas") as top:
            results, ping = asyncio.run(run_all(args, top))
    publish("replicas", report(results, ping, args, load0), write_doc=not args.no_doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

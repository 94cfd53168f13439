"""The figures and the docs/benchmarks.md section of `benchmarks/protocol_load.py`: latency
percentiles per workload and size, server CPU per interaction, RSS per session, and the
capacity they imply (interactions per CPU-second, students per core at a 1 s p95)."""
from __future__ import annotations

import math
import statistics

from benchmarks._load_report import pct
from benchmarks._timing import machine
from benchmarks.summary import summary_line

TARGET_N, TARGET_P95_S, TARGET_CPU_S = 30, 1.0, 0.05
LABEL = {"explorers": "explorers (/attention, own texts)", "students": "students (class mode, one lesson)"}


def figures(tally, n: int, probe: dict) -> dict:
    """One (workload, N) row: `tally` from the workload, `probe` the server-side readings."""
    done = [r for _, r in tally.runs if r.ok and r.latency is not None]
    lat = sorted(r.latency for r in done)
    kinds: dict[str, list[float]] = {}
    for r in done:
        kinds.setdefault(r.kind, []).append(r.latency)
    cpu = probe["cpu1"] - probe["cpu0"]
    per = cpu / len(done) if done else math.nan
    return {
        "n": n, "planned": tally.planned, "done": len(done), "errors": list(tally.errors),
        "p50": statistics.median(lat) if lat else math.nan, "p95": pct(lat, 0.95), "p99": pct(lat, 0.99),
        "max": lat[-1] if lat else math.nan,
        "kinds": {k: (len(v), statistics.median(v), pct(sorted(v), 0.95)) for k, v in sorted(kinds.items())},
        "polls": len(tally.polls), "refs": sum(r.refs for _, r in tally.runs),
        "mib_in": sum(r.bytes for _, r in tally.runs) / 2**20,
        "shown_p95": pct(sorted(tally.shown_after_step), 0.95),
        "cpu": cpu, "cpu_per": per, "per_cpu_s": 1 / per if per and per > 0 else math.nan,
        "rss0": probe["rss0"], "rss1": probe["rss1"], "rss_closed": probe.get("rss_closed", 0),
        "rss_per": (probe["rss1"] - probe["rss0"]) / n if n else math.nan,
        "wall": probe["wall"], "client_cpu": probe["client_cpu"],
        "server_runs": probe.get("server_runs", 0), "server_p50": probe.get("server_p50", math.nan),
        "notes": list(tally.notes),
        "kind_cpu": {k: statistics.median(v) for k, v in tally.kind_cpu.items() if v},
    }


def capacity(rows: list[dict], cores: int) -> dict:
    """Students per core at a 1 s p95, two ways. Measured: the largest N whose p95 was
    <= 1 s, per core. Burst model (a class acting at once: every student's run queued
    together behind the others'): the p95 run ends after ~0.95 N c / cores seconds, c the
    CPU seconds per interaction, so N <= cores / (0.95 c), i.e. 1 / (0.95 c) per core
    (c from the largest N measured)."""
    met = [r["n"] for r in rows if r["p95"] <= TARGET_P95_S and not r["errors"] and r["done"] == r["planned"]]
    missed = [r["n"] for r in rows if r["n"] not in met]
    big = max(rows, key=lambda r: r["n"])
    c = big["cpu_per"]
    return {"measured": max(met) / cores if met else None, "met_n": max(met) if met else None,
            "missed_n": min((n for n in missed if not met or n > max(met)), default=None),
            "burst": 1 / (0.95 * c) if c and c > 0 else math.nan,
            "per_cpu_s": big["per_cpu_s"], "cpu_per": c, "n": big["n"]}


def _f(x, d: int = 2) -> str:
    return "n/a" if x is None or (isinstance(x, float) and not math.isfinite(x)) else f"{x:.{d}f}"


def _mib(b: float) -> str:
    return f"{b / 2**20:,.0f} MiB" if b else "n/a"


def report(results: dict[str, list[dict]], args, meta: dict) -> str:
    cores, k = meta["cores"], meta.get("replicas", 0)
    threads = meta.get("threads")
    via = (f" via nginx, {k} replicas" if k else "") + (f", {threads} torch thread(s) each" if threads else "")
    head = ("| workload | clients | interactions done / planned | errors | **p50** (s) | **p95** (s) | **p99** (s) | "
            "max (s) | server CPU (s) | server cores busy | **CPU s / interaction** | interactions / CPU-s | "
            "RSS before | "
            "RSS with N open | **RSS / session** | polls | server full-run p50 (s) | wall (s) | load-gen CPU (s) |")
    rows = [head, "|" + " --- |" * 2 + " ---: |" * 17]
    kinds = ["| workload | clients | interaction | count | p50 (s) | p95 (s) | server CPU, median (s) |",
             "| --- | ---: | --- | ---: | ---: | ---: | ---: |"]
    marks, caps, errs = [], [], []
    for w, rs in results.items():
        for r in rs:
            rows.append(f"| {w} | {r['n']} | {r['done']} / {r['planned']} | {len(r['errors'])} | {_f(r['p50'])} | "
                        f"{_f(r['p95'])} | {_f(r['p99'])} | {_f(r['max'])} | {_f(r['cpu'], 1)} | "
                        f"{_f(r['cpu'] / r['wall'])} | "
                        f"{_f(r['cpu_per'], 3)} | {_f(r['per_cpu_s'], 1)} | {_mib(r['rss0'])} | {_mib(r['rss1'])} | "
                        f"{_f(r['rss_per'] / 2**20, 1)} MiB | {r['polls']} | {_f(r['server_p50'], 3)} | "
                        f"{_f(r['wall'], 1)} | {_f(r['client_cpu'], 1)} |")
            kinds += [f"| {w} | {r['n']} | {k} | {c} | {_f(p50)} | {_f(p95)} | "
                      f"{_f(r.get('kind_cpu', {}).get(k), 3) if k in r.get('kind_cpu', {}) else ''} |"
                      for k, (c, p50, p95) in r["kinds"].items()]
            errs += [f"{w} N={r['n']}: {e}" for e in r["errors"][:4]]
            clean = not r["errors"] and r["done"] == r["planned"]
            at_target = r["n"] == TARGET_N
            marks.append(summary_line(
                f"Protocol load{via}: {r['n']} {LABEL.get(w, w)}, p95 rerun -> script_finished; server CPU per interaction",
                f"{_f(r['p95'])} s; {_f(r['cpu_per'], 3)} s CPU; {len(r['errors'])} errors",
                f"<= {TARGET_P95_S:.0f} s, <= {TARGET_CPU_S} s CPU, 0 errors" if at_target
                else f"(targets at N = {TARGET_N})",
                (r["p95"] <= TARGET_P95_S and r["cpu_per"] <= TARGET_CPU_S and clean) if at_target else None))
        cap = capacity(rs, cores)
        if cap["measured"] is None:
            measured = f"none of N = {', '.join(str(r['n']) for r in rs)} met it"
        else:
            measured = f"N = {cap['met_n']} met it ({cap['measured']:.1f} per core)"
            if cap["missed_n"] is not None:
                measured += f", N = {cap['missed_n']} did not: between the two"
        caps.append(f"- **{w}**: {_f(cap['per_cpu_s'], 1)} interactions per server CPU-second "
                    f"({_f(cap['cpu_per'], 3)} s each, at N = {cap['n']}); students per core at a 1 s p95: "
                    f"measured {measured}; burst model {_f(cap['burst'], 1)} (a whole class acting at once).")
    notes = [f"{w} N={r['n']}: {x}" for w, rs in results.items() for r in rs for x in r["notes"]]
    shown = [f"{r['n']}: {_f(r['shown_p95'])} s" for r in results.get("students", []) if math.isfinite(r["shown_p95"])]
    return "\n".join([
        f"## Capacity without browsers: N protocol clients through nginx to {k} replicas" if k else
        "## Capacity without browsers: N protocol clients on one server", "",
        f"`python -m benchmarks.protocol_load` (clients {', '.join(map(str, meta['sizes']))}; workloads "
        f"{', '.join(results)}; {args.rounds} round(s); {args.think} s between a client's interactions, clients "
        f"started {args.stagger} s apart; message cache {'off' if args.no_cache else 'on'}). Machine: {machine()}; "
        f"server {meta['server']} on {cores} core(s), the load generator on the same machine. {meta['load']}", "",
        "Each client is a `support/streamlit_client.py` session speaking Streamlit's own websocket protocol "
        "(`BackMsg.rerun_script` with the query string, page, widget states, fragment id and cached message "
        "hashes; `ForwardMsg` deltas, `ref_hash`, `auto_rerun`, `script_finished`), as the frontend does, with no "
        "browser: what is measured is the server. **Latency**: from sending the rerun to its final "
        "`script_finished` (a run that calls `st.rerun()` includes the run after it). **Explorers** open "
        "`/attention?text=<own 48-word text>`, then per round: a new text, another head (the slider, a fragment "
        "rerun), another page (/residual or the overview, which draws its model map only while at most "
        "GLASSBOX_MAP_SESSIONS (5) sessions are open, so at N = 1 and not at N = 30) and back. **Students** follow "
        "a teacher in class mode: "
        f"the teacher opens lesson `{args.lesson}` on the class's text and starts a class; students open "
        "`/lessons?class=CODE`; per round they answer the step's question (pick, send), the teacher reveals and "
        "moves on, each student follows through its own 2 s poll of the class (the page's `run_every` fragment; "
        "*follow* = the poll request to the full run it starts), then types its own text. Polls that found "
        "nothing new are counted apart (*polls*); their CPU is in the phase's. **Server CPU**: utime + stime of "
        f"the server process{' of every replica, summed,' if k else ''} and its children from /proc, before and after the phase (the teacher's runs and "
        "the polls included), divided by the interactions done; *server cores busy* = that CPU / the phase's wall "
        "time. **RSS / session**: server RSS with the N "
        "sessions open minus before they connected, / N (each workload on a server of its own, sizes from the "
        f"smallest up; the server keeps a closed session {args.session_ttl:.0f} s instead of Streamlit's 120 s, "
        "and each phase waits for the server's CPU and RSS to settle; Python frees some memory only at its next "
        "garbage collection, so at N = 1 the figure is within that noise). *Server full-run p50*: the app's own run "
        "timer "
        "(`glassbox_script_run_seconds`, full runs only) over the phase.", "",
        "\n".join(rows), "",
        "Per interaction (server CPU: read from /proc before and after each interaction of the one-client "
        "run, where nothing else runs but the page's own polls; a student's *follow* starts in its poll, so it "
        "has none):", "", "\n".join(kinds), "",
        f"Capacity (server CPU, {f'{k} processes' if k else 'one process'}):", "", *caps,
        *([f"- teacher's click -> every student's step drawn (poll wait included), p95 per N: {'; '.join(shown)}."]
          if shown else []),
        "", "Students per core, burst model: when a class moves together, N runs of c CPU-seconds queue on the "
        "server's cores, so the p95 run ends after about 0.95 N c / cores; p95 <= 1 s needs N <= cores / (0.95 c). "
        "The server is one Python process: its script threads share the GIL, so a second core helps only where "
        "torch and the websocket compression run outside it (*server cores busy* says how much of the machine it "
        "used); more cores need replicas (docs/deploy.md). The burst model is therefore an upper bound where that "
        "figure stays under the core count."
        + (f" Here {k} replicas, {k} processes with a GIL each, share the machine's {cores} core(s)." if k else ""),
        *(["", "First errors: " + "; ".join(errs[:10])] if errs else []),
        *(["", "Notes: " + "; ".join(notes)] if notes else []),
        "", *marks,
    ])

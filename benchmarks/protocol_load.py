"""Capacity without browsers: N clients speaking Streamlit's own websocket protocol against one
Glassbox server, so that what is measured is the server, not 30 browsers sharing its cores
(issue 37, deliverable 1).

Each client is a `support.streamlit_client.StreamlitClient`: a browser session without the
browser (the `BackMsg` / `ForwardMsg` protobufs of the `streamlit` package over
`ws://HOST:PORT/_stcore/stream`; see that module for what it does as the frontend does). Two
workloads (`benchmarks/_protocol_workloads.py`):

  explorers   open /attention with an own 48-word text; per round a new text, another head
              (a fragment rerun), another page (/residual or the overview) and back;
  students    class mode: a teacher starts a class on a lesson; N students join by its link,
              answer the step's question, follow the teacher's reveal and next step (through
              the page's own 2 s poll), and type their own text.

Per workload, for one client alone (the baseline) and each N of `--clients`: p50 / p95 / p99
of the time from sending a rerun to its final `script_finished`, errors (exceptions drawn,
pages not drawn, disconnects, timeouts), the server's CPU seconds per interaction (utime +
stime of the server process and its children from /proc, before and after the phase), its RSS
per session (RSS with the N sessions open minus before, / N); from these, interactions per
CPU-second and students per core at a 1 s p95 (`benchmarks/_protocol_report.py`).

    python -m benchmarks.protocol_load                            # N = 1 and 30, both workloads
    python -m benchmarks.protocol_load --clients 30,100,300       # more sizes (the session limit is raised)
    python -m benchmarks.protocol_load --workloads students --clients 10 --no-doc
    python -m benchmarks.protocol_load --url http://127.0.0.1:8501 --pid 12345   # a running server

Without --url the benchmark starts `python -m streamlit run app.py` (`--launcher warmup`: the
`make run` launcher) with its own class database in a temporary folder and
GLASSBOX_MAX_SESSIONS raised above the largest N, warms it with one client of each workload,
and stops it at the end. Nothing is asserted; the results go to docs/benchmarks.md (section
"protocol_load") unless --no-doc. Targets (issue 37): at N = 30, p95 <= 1 s and <= 0.05 s of
server CPU per interaction.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks._browser import OFFLINE_ENV, load_note, sigterm_as_exit  # noqa: E402
from benchmarks._load_probes import histogram_delta, metrics, wait_no_sessions  # noqa: E402
from benchmarks._protocol_report import figures, report  # noqa: E402
from benchmarks._protocol_workloads import Tally, classroom, explorers  # noqa: E402
from benchmarks._timing import publish  # noqa: E402
from server.run_stats import quantile  # noqa: E402
from support.browser import health_ok, serve_app  # noqa: E402
from support.streamlit_client import StreamlitClient  # noqa: E402

WORKLOADS = {"explorers": explorers, "students": classroom}
# ---- the server process (psutil, as benchmarks/_load_probes.py reads it) --------------------------
def process_tree(pid: int) -> list[psutil.Process]:
    """`pid` and every live process below it (none once it is gone)."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def cpu_seconds(pid: int | None) -> float:
    """utime + stime of `pid` and its live descendants, plus what its reaped children used."""
    if pid is None:
        return math.nan
    total = 0.0
    for i, p in enumerate(process_tree(pid)):
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system + (t.children_user + t.children_system if i == 0 else 0.0)
    return total


def rss_bytes(pid: int | None) -> int:
    if pid is None:
        return 0
    total = 0
    for p in process_tree(pid):
        with contextlib.suppress(psutil.Error):
            total += p.memory_info().rss
    return total


def server_pid() -> int | None:
    """The `streamlit run` (or `ui.warmup run`) this process started."""
    for p in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            cmd = " ".join(p.cmdline())
            if " run " in cmd and ("streamlit" in cmd or "ui.warmup" in cmd):
                return p.pid
    return None


@contextlib.contextmanager
def glassbox(args, sizes: list[int]):
    """(base URL, server PID): the one given (--url, --pid), or a server started here."""
    if args.url:
        if not health_ok(args.url.rstrip("/") + "/_stcore/health"):
            raise SystemExit(f"no Glassbox server answers at {args.url}")
        yield args.url.rstrip("/"), args.pid
        return
    with tempfile.TemporaryDirectory(prefix="glassbox-protocol-") as tmp:
        env = {**os.environ, **OFFLINE_ENV, "GLASSBOX_CLASS_DB": str(Path(tmp) / "classes.sqlite")}
        env.setdefault("GLASSBOX_MAX_SESSIONS", str(max(100, max(sizes) + 20)))
        # closed sessions are kept for reconnection this long (Streamlit: 120 s), then freed
        env.setdefault("STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL", str(max(1, round(args.session_ttl))))
        module = "ui.warmup" if args.launcher == "warmup" else "streamlit"
        with serve_app(ROOT / "app.py", Path(tmp) / "server.log", module=module, env=env) as base:
            yield base, server_pid()


async def server_quiet(pid: int | None, timeout: float = 60.0, busy: float = 0.05,
                       drift: int = 2**20) -> float:
    """Wait (at most `timeout` s) until, over one second, the server uses under `busy` of a
    core and its RSS moves by less than `drift` bytes (the warm-up thread, the previous
    phase's closed sessions being freed); return that second's CPU share."""
    if pid is None:
        return math.nan
    deadline, share = time.monotonic() + timeout, math.nan
    while time.monotonic() < deadline:
        c0, r0 = cpu_seconds(pid), rss_bytes(pid)
        await asyncio.sleep(1.0)
        share = cpu_seconds(pid) - c0
        if share < busy and abs(rss_bytes(pid) - r0) < drift:
            break
    return share


# ---- one phase: one workload at one size ---------------------------------------------------------
async def _hist(base: str):
    with contextlib.suppress(OSError, ValueError):
        return (await asyncio.to_thread(metrics, base))[0]
    return None


async def phase(base: str, pid: int | None, workload: str, n: int, args) -> tuple[Tally, dict]:
    tally, clients = Tally(), []
    if n == 1 and pid is not None:          # one client: each interaction's server CPU on its own
        tally.cpu = lambda: cpu_seconds(pid)
    quiet = await server_quiet(pid, args.quiet_timeout) if args.quiet_timeout > 0 else math.nan
    if quiet >= 0.05:
        tally.notes.append(f"the server was still using {quiet:.0%} of a core when the phase started")
    hist0 = await _hist(base)
    probe = {"rss0": rss_bytes(pid), "cpu0": cpu_seconds(pid)}
    own0, t0 = os.times(), time.perf_counter()
    try:
        await WORKLOADS[workload](base, n, args, tally, clients)
    except Exception as e:  # noqa: BLE001  (a workload that breaks off is reported, not a crash)
        tally.errors.append(f"workload stopped: {type(e).__name__}: {e}")
    probe["wall"] = time.perf_counter() - t0
    probe["cpu1"], probe["rss1"] = cpu_seconds(pid), rss_bytes(pid)
    own1 = os.times()
    probe["client_cpu"] = (own1.user + own1.system) - (own0.user + own0.system)
    hist1 = await _hist(base)
    if hist0 and hist1:
        delta = histogram_delta(hist0, hist1)
        probe["server_runs"] = delta[-1][1] if delta else 0
        probe["server_p50"] = quantile(delta, 0.5) if probe["server_runs"] else math.nan
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    with contextlib.suppress(OSError, ValueError):
        await wait_no_sessions(base, timeout=60.0)
    await sweep(base, args.session_ttl)
    await asyncio.sleep(args.settle)
    probe["rss_closed"] = rss_bytes(pid)
    return tally, probe


async def sweep(base: str, ttl: float) -> None:
    """Let the closed sessions go: Streamlit keeps a closed session for reconnection for
    server.disconnectedSessionTTL seconds and drops the expired ones when it stores the next
    closed session; so wait the TTL, then connect and close one client (no run)."""
    await asyncio.sleep(ttl + 0.5)
    with contextlib.suppress(Exception):
        c = StreamlitClient(base, timeout=30.0)
        await c.connect()
        await c.close()


async def run_workload(args, base: str, pid: int | None, sizes: list[int], workload: str, run_id: str) -> list[dict]:
    """One workload: an unmeasured warm-up client, then each size from the smallest up."""
    if not args.no_warmup:
        warm = argparse.Namespace(**{**vars(args), "rounds": 1, "think": 0.0, "tag": f"warm{run_id}"})
        tally, _ = await phase(base, pid, workload, 1, warm)
        print(f"warm-up {workload}: {len(tally.runs)} runs, {len(tally.errors)} errors"
              + (f" ({tally.errors[0]})" if tally.errors else ""), flush=True)
    rows = []
    for n in sizes:
        tagged = argparse.Namespace(**{**vars(args), "tag": f"{workload[0]}{n}x{run_id}"})
        tally, probe = await phase(base, pid, workload, n, tagged)
        row = figures(tally, n, probe)
        rows.append(row)
        print(f"{workload} N={n}: {row['done']}/{row['planned']} done, {len(row['errors'])} errors, "
              f"p50 {row['p50']:.2f} s, p95 {row['p95']:.2f} s, CPU {row['cpu_per']:.3f} s/interaction, "
              f"RSS/session {row['rss_per'] / 2**20:.1f} MiB", flush=True)
        for e in row["errors"][:3]:
            print("   ", e, flush=True)
    return rows


def measure(args) -> tuple[dict[str, list[dict]], dict]:
    """Run every workload at every size, each workload on a server of its own (started here,
    so that one workload's freed sessions do not show in the next one's memory; with --url
    the one given); (results, meta)."""
    sizes = sorted(set(args.clients) | ({1} if not args.no_baseline else set()))
    load0 = os.getloadavg()
    run_id = secrets.token_hex(2)          # texts new to the server, also to one a previous run warmed
    results: dict[str, list[dict]] = {}
    cores = os.cpu_count() or 1
    groups = [args.workloads] if args.shared_server else [[w] for w in args.workloads]
    for group in groups:
        with glassbox(args, sizes) as (base, pid):
            cores = len(os.sched_getaffinity(pid)) if pid else cores
            for workload in group:
                results[workload] = asyncio.run(run_workload(args, base, pid, sizes, workload, run_id))
    launcher = "python -m ui.warmup" if args.launcher == "warmup" else "streamlit"
    server = (f"`{args.url}` (PID {args.pid})" if args.url else
              f"started here, {'one for all' if args.shared_server else 'one per'} workload, "
              f"with `{launcher} run app.py`")
    return results, {"sizes": sizes, "cores": cores, "server": server, "load": load_note(load0)}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", default="30", help="sizes, comma-separated (one client alone is added)")
    ap.add_argument("--workloads", default="explorers,students", help="explorers, students or both")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of interactions per client after the first page")
    ap.add_argument("--think", type=float, default=1.0, help="s a client waits between two of its interactions")
    ap.add_argument("--stagger", type=float, default=0.1, help="s between two clients' starts")
    ap.add_argument("--timeout", type=float, default=180.0, help="s a run may take before it counts as an error")
    ap.add_argument("--settle", type=float, default=3.0, help="s after the clients closed before RSS is read")
    ap.add_argument("--quiet-timeout", type=float, default=60.0,
                    help="s to wait before each phase for the server to go idle (0: do not wait)")
    ap.add_argument("--session-ttl", type=float, default=1.0,
                    help="s the server keeps a closed session (set on the server started here; with --url give "
                         "that server's server.disconnectedSessionTTL, Streamlit's default is 120)")
    ap.add_argument("--lesson", default="attention", help="the shipped lesson the class follows")
    ap.add_argument("--no-cache", action="store_true", help="clients hold no ForwardMsg cache (every message in full)")
    ap.add_argument("--no-baseline", action="store_true", help="do not add the one-client run")
    ap.add_argument("--no-warmup", action="store_true", help="no unmeasured warm-up client first")
    ap.add_argument("--shared-server", action="store_true",
                    help="one server for all workloads (default: a fresh one each, so memory figures stay apart)")
    ap.add_argument("--launcher", choices=("streamlit", "warmup"), default="streamlit")
    ap.add_argument("--url", help="a running server (then --pid for its CPU and RSS)")
    ap.add_argument("--pid", type=int, help="the PID of the --url server")
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args(argv)
    try:
        args.clients = [int(x) for x in str(args.clients).split(",") if x.strip()]
    except ValueError:
        ap.error("--clients: comma-separated numbers")
    args.workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    if not args.clients or min(args.clients) < 1 or args.rounds < 1 or set(args.workloads) - set(WORKLOADS):
        ap.error(f"clients >= 1, rounds >= 1, workloads among {', '.join(WORKLOADS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sigterm_as_exit()
    results, meta = measure(args)
    publish("protocol_load", report(results, args, meta), write_doc=not args.no_doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

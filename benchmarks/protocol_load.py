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
    python -m benchmarks.protocol_load --replicas 2 --clients 30,60,100   # through nginx to 2 replicas

Without --url the benchmark starts `python -m streamlit run app.py` (`--launcher warmup`: the
`make run` launcher) with its own class database in a temporary folder and
GLASSBOX_MAX_SESSIONS raised above the largest N, warms it with one client of each workload,
and stops it at the end. With --replicas K it starts K replicas behind nginx instead, as
deploy/ runs them (their CPU and RSS summed; section "protocol_load_replicas"). Nothing is
asserted; the results go to docs/benchmarks.md (section "protocol_load") unless --no-doc.
Targets (issue 37): at N = 30, p95 <= 1 s and <= 0.05 s of server CPU per interaction.
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
from collections.abc import Sequence
from dataclasses import dataclass
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


def _listed(pids: int | Sequence[int] | None) -> list[int]:
    return [] if pids is None else [pids] if isinstance(pids, int) else [p for p in pids if p is not None]


def cpu_seconds(pids: int | Sequence[int] | None) -> float:
    """utime + stime of each server process (`pids`: one, or every replica) and its live
    descendants, plus what its reaped children used; summed. NaN when there is none."""
    if not _listed(pids):
        return math.nan
    total = 0.0
    for pid in _listed(pids):
        for i, p in enumerate(process_tree(pid)):
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system + (t.children_user + t.children_system if i == 0 else 0.0)
    return total


def rss_bytes(pids: int | Sequence[int] | None) -> int:
    """Resident memory of each server process and its descendants, summed."""
    total = 0
    for pid in _listed(pids):
        for p in process_tree(pid):
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
    return total


@dataclass
class Servers:
    """What the clients connect to (`base`: a server, or the proxy in front of replicas), the
    server processes whose CPU and RSS are read (`pids`), and each server's own URL (`direct`:
    its metrics endpoint, and where its closed sessions are swept)."""

    base: str
    pids: list[int]
    direct: list[str]


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
    """The servers measured (`Servers`): the one given (--url, --pid), a server started here,
    or (--replicas K) K replicas behind nginx, as deploy/ runs them, started here."""
    if args.url:
        if not health_ok(args.url.rstrip("/") + "/_stcore/health"):
            raise SystemExit(f"no Glassbox server answers at {args.url}")
        yield Servers(args.url.rstrip("/"), _listed(args.pid), [args.url.rstrip("/")])
        return
    with tempfile.TemporaryDirectory(prefix="glassbox-protocol-") as tmp:
        env = {**OFFLINE_ENV, "GLASSBOX_CLASS_DB": str(Path(tmp) / "classes.sqlite")}
        env["GLASSBOX_MAX_SESSIONS"] = os.environ.get("GLASSBOX_MAX_SESSIONS", str(max(100, max(sizes) + 20)))
        # closed sessions are kept for reconnection this long (Streamlit: 120 s), then freed
        env["STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL"] = os.environ.get(
            "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL", str(max(1, round(args.session_ttl))))
        if args.replicas:
            with replicated(args.replicas, env, Path(tmp)) as servers:
                yield servers
            return
        module = "ui.warmup" if args.launcher == "warmup" else "streamlit"
        with serve_app(ROOT / "app.py", Path(tmp) / "server.log", module=module, env={**os.environ, **env}) as base:
            yield Servers(base, _listed(server_pid()), [base])


@contextlib.contextmanager
def replicated(k: int, env: dict[str, str], logs: Path):
    """K replicas (`python -m cli.serve`, the `make run` launcher) behind nginx, configured
    from deploy/nginx.conf.template, with a throw-away PostgreSQL as their shared class
    store (support/replicas.py and support/pgserver.py, as benchmarks/replicas.py runs them).
    A client sends no affinity cookie, so the proxy hashes each request's id: a client's
    websocket stays on the replica it reached, and the clients spread over the replicas."""
    from support import pgserver, replicas

    with pgserver.running() as pg:
        env = {**env, "GLASSBOX_CLASS_DB": pg.new_database()}
        with replicas.topology(k, env=env, log_dir=logs) as top:     # returns once the proxy reaches each
            rs = list(top.replicas.values())
            yield Servers(top.url.rstrip("/"), [r.proc.pid for r in rs], [r.url.rstrip("/") for r in rs])


async def server_quiet(pids: int | Sequence[int] | None, timeout: float = 60.0, busy: float = 0.05,
                       drift: int = 2**20) -> float:
    """Wait (at most `timeout` s) until, over one second, the server (every replica, summed)
    uses under `busy` of a core and its RSS moves by less than `drift` bytes (the warm-up
    thread, the previous phase's closed sessions being freed); return that second's CPU share."""
    if not _listed(pids):
        return math.nan
    deadline, share = time.monotonic() + timeout, math.nan
    while time.monotonic() < deadline:
        c0, r0 = cpu_seconds(pids), rss_bytes(pids)
        await asyncio.sleep(1.0)
        share = cpu_seconds(pids) - c0
        if share < busy and abs(rss_bytes(pids) - r0) < drift:
            break
    return share


# ---- one phase: one workload at one size ---------------------------------------------------------
async def _hist(direct: list[str]):
    """The app's run-time histogram, summed over the servers (None if one does not answer)."""
    hists = []
    for base in direct:
        with contextlib.suppress(OSError, ValueError):
            hists.append((await asyncio.to_thread(metrics, base))[0])
    if not hists or len(hists) < len(direct) or len({tuple(le for le, _ in h["buckets"]) for h in hists}) > 1:
        return None
    return {"buckets": [(le, sum(h["buckets"][i][1] for h in hists)) for i, (le, _) in enumerate(hists[0]["buckets"])]}


async def phase(srv: Servers, workload: str, n: int, args) -> tuple[Tally, dict]:
    tally, clients, base, pids = Tally(), [], srv.base, srv.pids
    if n == 1 and pids:                     # one client: each interaction's server CPU on its own
        tally.cpu = lambda: cpu_seconds(pids)
    quiet = await server_quiet(pids, args.quiet_timeout) if args.quiet_timeout > 0 else math.nan
    if quiet >= 0.05:
        tally.notes.append(f"the server was still using {quiet:.0%} of a core when the phase started")
    hist0 = await _hist(srv.direct)
    probe = {"rss0": rss_bytes(pids), "cpu0": cpu_seconds(pids)}
    own0, t0 = os.times(), time.perf_counter()
    try:
        await WORKLOADS[workload](base, n, args, tally, clients)
    except Exception as e:  # noqa: BLE001  (a workload that breaks off is reported, not a crash)
        tally.errors.append(f"workload stopped: {type(e).__name__}: {e}")
    probe["wall"] = time.perf_counter() - t0
    probe["cpu1"], probe["rss1"] = cpu_seconds(pids), rss_bytes(pids)
    own1 = os.times()
    probe["client_cpu"] = (own1.user + own1.system) - (own0.user + own0.system)
    hist1 = await _hist(srv.direct)
    if hist0 and hist1:
        delta = histogram_delta(hist0, hist1)
        probe["server_runs"] = delta[-1][1] if delta else 0
        probe["server_p50"] = quantile(delta, 0.5) if probe["server_runs"] else math.nan
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    for server in srv.direct:
        with contextlib.suppress(OSError, ValueError):
            await wait_no_sessions(server, timeout=60.0)
    await asyncio.gather(*(sweep(server, args.session_ttl) for server in srv.direct))
    await asyncio.sleep(args.settle)
    probe["rss_closed"] = rss_bytes(pids)
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


async def run_workload(args, srv: Servers, sizes: list[int], workload: str, run_id: str) -> list[dict]:
    """One workload: an unmeasured warm-up client, then each size from the smallest up."""
    if not args.no_warmup:
        warm = argparse.Namespace(**{**vars(args), "rounds": 1, "think": 0.0, "tag": f"warm{run_id}"})
        tally, _ = await phase(srv, workload, 1, warm)
        print(f"warm-up {workload}: {len(tally.runs)} runs, {len(tally.errors)} errors"
              + (f" ({tally.errors[0]})" if tally.errors else ""), flush=True)
    rows = []
    for n in sizes:
        tagged = argparse.Namespace(**{**vars(args), "tag": f"{workload[0]}{n}x{run_id}"})
        tally, probe = await phase(srv, workload, n, tagged)
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
        with glassbox(args, sizes) as srv:
            cores = len(os.sched_getaffinity(srv.pids[0])) if srv.pids else cores
            for workload in group:
                results[workload] = asyncio.run(run_workload(args, srv, sizes, workload, run_id))
    launcher = "python -m ui.warmup" if args.launcher == "warmup" else "streamlit"
    server = (f"`{args.url}` (PID {args.pid})" if args.url else
              f"{args.replicas} replicas (`python -m cli.serve`, the `make run` launcher) behind nginx "
              "(deploy/nginx.conf.template; the clients send no affinity cookie, so each websocket stays on the "
              "replica its request id hashed to), their class store a throw-away PostgreSQL, started here, "
              f"{'one topology for all' if args.shared_server else 'one per'} workload" if args.replicas else
              f"started here, {'one for all' if args.shared_server else 'one per'} workload, "
              f"with `{launcher} run app.py`")
    threads = None if args.url else os.environ.get("GLASSBOX_TORCH_THREADS") or None   # set for the servers started here
    if threads:
        server += f" (GLASSBOX_TORCH_THREADS={threads}: torch threads per server)"
    return results, {"sizes": sizes, "cores": cores, "server": server, "load": load_note(load0),
                     "replicas": args.replicas, "threads": threads}


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
    ap.add_argument("--replicas", type=int, default=0,
                    help="K replicas behind nginx, started here (needs nginx and PostgreSQL); "
                         "the results go to section protocol_load_replicas")
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
    if args.replicas < 0 or (args.replicas and args.url):
        ap.error("--replicas: a number >= 1 of replicas started here (not with --url)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sigterm_as_exit()
    results, meta = measure(args)
    publish("protocol_load_replicas" if args.replicas else "protocol_load", report(results, args, meta),
            write_doc=not args.no_doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

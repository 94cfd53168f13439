"""benchmarks/protocol_load.py: its protocol clients against a real server (2 clients, one round
of each workload: every interaction ends in its script_finished, no error, the server's CPU
and RSS are read), and the capacity figures its report derives. Nothing here asserts a time."""
from __future__ import annotations

import argparse
import math
from concurrent.futures import ThreadPoolExecutor

from benchmarks import protocol_load
from benchmarks._protocol_report import capacity, report
from benchmarks.summary import rows_of


def test_two_clients_one_round_of_each_workload_against_a_real_server():
    args = protocol_load.parse_args(["--clients", "2", "--rounds", "1", "--think", "0", "--stagger", "0",
                                     "--settle", "0.2", "--quiet-timeout", "0", "--timeout", "120",
                                     "--no-baseline", "--no-warmup", "--shared-server",
                                     "--no-doc", "--launcher", "warmup"])
    # in a thread of its own: asyncio.run() refuses a thread whose loop is running, and playwright's
    # sync API (the browser tests, earlier in the same pytest process) leaves one in the main thread
    with ThreadPoolExecutor(1) as pool:
        results, meta = pool.submit(protocol_load.measure, args).result()
    assert meta["cores"] >= 1
    for workload, kinds in (("explorers", {"open", "text", "head", "page"}),
                            ("students", {"teacher open", "teacher start", "join", "answer", "send", "teacher reveal",
                                          "follow", "teacher next", "text"})):
        (row,) = results[workload]
        assert row["errors"] == [], (workload, row["errors"])
        assert row["done"] == row["planned"] > 0, workload          # every interaction got its script_finished
        assert set(row["kinds"]) == kinds, workload
        assert row["cpu"] > 0 and row["cpu_per"] > 0, workload         # the server's CPU, from /proc
        assert row["rss0"] > 0 and row["rss1"] > 0 and math.isfinite(row["rss_per"]), workload
    # a student's "follow" is its class page's run_every poll finding the teacher's move: two clients follow a reveal
    # and a next. (Polls that find nothing are not asserted: with no think time a student is rarely idle the 2 s a
    # poll waits before the teacher moves, so their count is timing, and it was 0 in a CI run.)
    assert results["students"][0]["kinds"]["follow"][0] >= 2


def _row(n, p95, cpu_per, errors=()):
    return {"n": n, "planned": 10 * n, "done": 10 * n, "errors": list(errors), "p50": p95 / 2, "p95": p95, "p99": p95,
            "max": p95, "kinds": {"open": (n, p95 / 2, p95)}, "polls": 0, "refs": 0, "mib_in": 1.0,
            "shown_p95": math.nan, "cpu": cpu_per * 10 * n, "cpu_per": cpu_per, "per_cpu_s": 1 / cpu_per,
            "rss0": 2**29, "rss1": 2**29 + n * 2**20, "rss_closed": 2**29, "rss_per": 2**20, "wall": 10.0,
            "client_cpu": 1.0, "server_runs": 10 * n, "server_p50": 0.05, "notes": []}


def test_capacity_measured_and_burst_model():
    rows = [_row(1, 0.3, 0.1), _row(30, 4.0, 0.2)]
    cap = capacity(rows, cores=2)
    assert cap["measured"] == 0.5                           # only N = 1 met 1 s: 1 client on 2 cores
    assert abs(cap["burst"] - 1 / (0.95 * 0.2)) < 1e-9      # c from the largest N
    assert capacity([_row(1, 0.3, 0.1, errors=["x"])], cores=2)["measured"] is None


def test_report_writes_summary_lines_with_the_target_at_30():
    args = argparse.Namespace(rounds=2, think=1.0, stagger=0.1, no_cache=False, lesson="attention", session_ttl=1.0)
    meta = {"sizes": [1, 30], "cores": 2, "server": "started here", "load": ""}
    md = report({"explorers": [_row(1, 0.3, 0.04), _row(30, 0.9, 0.04)]}, args, meta)
    rows = rows_of("protocol_load", md)
    assert [r[3] for r in rows] == ["n/a", "yes"]
    slow = report({"explorers": [_row(30, 0.9, 0.27)]}, args, meta)
    assert rows_of("protocol_load", slow)[0][3] == "no"


def test_through_nginx_to_two_replicas_every_interaction_finishes_and_both_replicas_are_read():
    """--replicas: the deployment's topology (nginx, two `cli.serve` replicas, PostgreSQL), the
    clients through the proxy; each replica's CPU and RSS are summed (skipped without nginx or
    PostgreSQL, which .ci/run installs)."""
    args = protocol_load.parse_args(["--replicas", "2", "--clients", "2", "--rounds", "1", "--think", "0",
                                     "--stagger", "0", "--settle", "0.2", "--quiet-timeout", "0", "--timeout", "120",
                                     "--no-baseline", "--no-warmup", "--shared-server", "--no-doc"])
    with ThreadPoolExecutor(1) as pool:
        results, meta = pool.submit(protocol_load.measure, args).result()
    assert meta["replicas"] == 2 and "behind nginx" in meta["server"]
    for workload in ("explorers", "students"):
        (row,) = results[workload]
        assert row["errors"] == [], (workload, row["errors"])
        assert row["done"] == row["planned"] > 0, workload
        assert row["cpu"] > 0 and row["rss1"] > row["rss_per"] > 0, workload
    # a class spread over two replicas still follows its teacher (the class store is shared)
    assert results["students"][0]["kinds"]["follow"][0] >= 2
    md = report(results, args, meta)
    assert md.startswith("## Capacity without browsers: N protocol clients through nginx to 2 replicas")
    assert all(r[0].startswith("Protocol load via nginx, 2 replicas: ") for r in rows_of("protocol_load_replicas", md))


def test_the_servers_cpu_and_memory_are_summed_over_the_replicas():
    import os

    me = os.getpid()
    assert protocol_load.cpu_seconds([me, me]) >= 2 * protocol_load.cpu_seconds(me) * 0.99 > 0
    one = protocol_load.rss_bytes(me)
    assert one > 0 and abs(protocol_load.rss_bytes([me, me]) - 2 * one) < 0.05 * one   # allocations in between
    assert math.isnan(protocol_load.cpu_seconds([])) and protocol_load.rss_bytes(None) == 0

"""benchmarks/replicas.py's checks: stickiness and the move of a killed replica's sessions
are judged from the markers each page saw and nginx's websocket log, and the report says
what it found."""
from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks import replicas
from support.replicas import Topology


class FakeTop(Topology):
    def __init__(self, rows):
        super().__init__(0, "", Path("."))
        self.rows = rows

    def upstream_log(self):
        return self.rows


def result(states, cookies, victim=None, via="proxy"):
    return {"states": states, "cookies": cookies, "victim": victim, "via": via}


def st(names, moved=False):
    return {"names": names, "times": list(range(len(names))), "moved": moved}


def test_sticky_sessions_pass_and_a_change_is_a_problem() -> None:
    rows = [(101, "GET", "/_stcore/stream", "r1", "a"), (101, "GET", "/_stcore/stream", "r2", "b")]
    ok = replicas.check(result({0: st(["r1"]), 1: st(["r2"])}, {0: "a", 1: "b"}), FakeTop(rows), 0)
    assert ok["problems"] == [] and ok["per_replica"] == {"r1": 1, "r2": 1} and ok["upgrades"] == 2
    bad = replicas.check(result({0: st(["r1", "r2"]), 1: st(["r2"], moved=True)}, {0: "a", 1: "b"}), FakeTop(rows), 0)
    assert any("changed replica" in p for p in bad["problems"])
    assert any("moved sentence without moving" in p for p in bad["problems"])


def test_a_killed_replica_s_sessions_must_move_once_with_the_sentence() -> None:
    rows = [(101, "GET", "/_stcore/stream", "r1", "a"), (101, "GET", "/_stcore/stream", "r2", "a"),
            (101, "GET", "/_stcore/stream", "r2", "b"), (101, "GET", "/_stcore/stream", "r1", "c")]
    states = {0: st(["r1", "r2"], moved=True), 1: st(["r2"]), 2: st(["r1", "r2"])}
    out = replicas.check(result(states, {0: "a", 1: "b", 2: "c"}, victim="r1"), FakeTop(rows), 0)
    assert out["moved"] == 2
    assert [p for p in out["problems"] if p.startswith("session 0")] == []
    assert "session 2: moved without the sentence" in out["problems"]
    assert any(p.startswith("session 2: websockets") for p in out["problems"])


def test_the_report_states_the_verdict() -> None:
    args = argparse.Namespace(sessions=2, trials=1, rounds=2, tokens=8, pings=10)
    common = {"errors": [], "problems": [], "upgrades": 2, "trial": 1, "done": 4, "asked": 4, "moves": [2.0, 3.0]}
    results = [{**common, "via": "direct", "tag": "direct1", "lat": [1.0, 2.0], "p50": 1.5, "p95": 2.0,
                "per_replica": {"r1": 2}, "victim": None},
               {**common, "via": "proxy", "tag": "proxy1", "lat": [1.0, 3.0], "p50": 2.0, "p95": 3.0,
                "per_replica": {"r1": 1, "r2": 1}, "victim": None},
               {**common, "via": "proxy", "tag": "fault", "lat": [1.0], "p50": 1.0, "p95": 1.0, "phase_s": 5.0,
                "per_replica": {"r1": 1, "r2": 1}, "victim": "r1", "moved": 1}]
    text = replicas.report(results, (1.0, 1.3), args, "0.1, 0.1, 0.1")
    assert "proxy / direct p95 = 1.50" in text and "+0.30 ms" in text
    assert "<!-- summary: Replicas: 2 sessions via nginx (2 replicas), p95 / direct p95 | 3.00 s / 2.00 s, 0 errors" in text
    assert "median 2.5 s, max 3.0 s" in text

"""server/guard.py (the process-wide guard around big passes), server/run_stats.py (script-run
times on /_stcore/metrics) and models/runtime.py's thread settings."""
from __future__ import annotations

import math
import threading
import time

import pytest

from server import guard as guard_mod
from server.guard import PassGuard, ServerBusy
from server.run_stats import RunStats, parse_metrics, quantile


def test_guard_lets_at_most_slots_big_passes_run_at_once():
    g = PassGuard(slots=2, wait_s=10, small_tokens=100)
    running, peak, lock = [0], [0], threading.Lock()

    def work():
        with g.forward_pass(500):
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            time.sleep(0.05)
            with lock:
                running[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 2
    assert g.stats()["passes"] == 6 and g.stats()["running"] == 0 and g.stats()["waiting"] == 0


def test_small_passes_skip_the_guard():
    g = PassGuard(slots=1, wait_s=0.05, small_tokens=100)
    with g.forward_pass(1000):
        with g.forward_pass(10):      # would time out if it queued behind the big pass
            pass
    assert g.stats()["passes"] == 1


def test_a_full_guard_refuses_with_a_message_instead_of_hanging():
    g = PassGuard(slots=1, wait_s=0.1, small_tokens=1)
    held, release = threading.Event(), threading.Event()

    def hold():
        with g.forward_pass(10):
            held.set()
            release.wait(5)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(5)
    with pytest.raises(ServerBusy, match="busy"), g.forward_pass(10):
        pass
    release.set()
    t.join()
    assert isinstance(ServerBusy("x"), ValueError)
    assert g.stats()["refused"] == 1
    with g.forward_pass(10):          # the slot came back
        pass


def test_slot_is_released_when_the_pass_fails():
    g = PassGuard(slots=1, wait_s=0.1, small_tokens=1)
    with pytest.raises(RuntimeError), g.forward_pass(10):
        raise RuntimeError("boom")
    with g.forward_pass(10):
        pass


def test_guard_settings_from_the_environment(monkeypatch):
    monkeypatch.setattr(guard_mod, "_guard", None)
    monkeypatch.setenv("GLASSBOX_MAX_PASSES", "3")
    monkeypatch.setenv("GLASSBOX_PASS_WAIT_S", "7")
    g = guard_mod.guard()
    assert (g.slots, g.wait_s) == (3, 7.0)
    assert guard_mod.guard() is g
    monkeypatch.setattr(guard_mod, "_guard", None)
    monkeypatch.setenv("GLASSBOX_MAX_PASSES", "many")
    with pytest.raises(ValueError, match="GLASSBOX_MAX_PASSES"):
        guard_mod.guard()
    monkeypatch.setattr(guard_mod, "_guard", None)
    with pytest.raises(ValueError):
        PassGuard(slots=0, wait_s=1)


def _text(stats: RunStats) -> str:
    return "\n".join(s.to_metric_str() for fam in stats.get_stats().values() for s in fam)


def test_run_stats_histogram_round_trips_through_the_metrics_text():
    r = RunStats(buckets=(0.01, 0.1, 1.0))
    for x in (0.005, 0.05, 0.05, 0.5, 5.0):
        r.observe(x)
    r.interrupted()
    text = _text(r)
    assert 'glassbox_script_run_seconds_bucket{le="0.1"} 3' in text
    assert 'glassbox_script_run_seconds_bucket{le="+Inf"} 5' in text
    m = parse_metrics(text)
    assert m["count"] == 5 and m["interrupted"] == 1
    assert m["sum"] == pytest.approx(5.605)
    assert m["buckets"] == [(0.01, 1), (0.1, 3), (1.0, 4), (float("inf"), 5)]
    # median: rank 2.5 of 5 lies in (0.01, 0.1], 1.5 of its 2 runs in
    assert quantile(m["buckets"], 0.5) == pytest.approx(0.01 + 0.09 * 0.75)
    assert math.isnan(quantile([(1.0, 0), (float("inf"), 0)], 0.5))   # no runs: no quantile


def test_run_stats_protobuf_form():
    from streamlit.proto.openmetrics_data_model_pb2 import Metric

    r = RunStats(buckets=(0.1,))
    r.observe(0.05)
    r.observe(0.2)
    metric = Metric()
    r.get_stats()["glassbox_script_run_seconds"][0].marshall_metric_proto(metric)
    h = metric.metric_points[0].histogram_value
    assert h.count == 2 and h.double_value == pytest.approx(0.25)
    assert [(b.upper_bound, b.count) for b in h.buckets] == [(0.1, 1), (float("inf"), 2)]


def test_timed_run_counts_completed_and_interrupted_runs(monkeypatch):
    from streamlit.runtime.scriptrunner_utils.exceptions import RerunException

    from server import run_stats

    fresh = RunStats()
    monkeypatch.setattr(run_stats, "_stats", fresh)
    with run_stats.timed_run():
        pass
    with pytest.raises(RerunException), run_stats.timed_run():
        raise RerunException(None)
    with pytest.raises(KeyError), run_stats.timed_run():
        raise KeyError("x")
    snap = fresh.snapshot()
    assert sum(snap["counts"]) == 2 and snap["interrupted"] == 1


def test_usable_cpus_reads_the_cgroup_quota(tmp_path, monkeypatch):
    import os

    from models import runtime

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    v2 = tmp_path / "v2"
    v2.mkdir()
    assert runtime.usable_cpus(str(v2)) == 4                       # no cgroup files: the affinity
    for text, n in (("max 100000\n", 4), ("100000 100000\n", 1), ("150000 100000\n", 2),
                    ("800000 100000\n", 4), ("50000 100000\n", 1), ("junk\n", 4)):
        (v2 / "cpu.max").write_text(text)
        assert runtime.usable_cpus(str(v2)) == n, text
    v1 = tmp_path / "v1"
    (v1 / "cpu").mkdir(parents=True)
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("200000\n")
    (v1 / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert runtime.usable_cpus(str(v1)) == 2
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")           # v1's "no quota"
    assert runtime.usable_cpus(str(v1)) == 4
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})   # taskset -c 0
    assert runtime.usable_cpus(str(v1)) == 1


def test_tune_threads(monkeypatch):
    import torch

    from models import runtime

    before = torch.get_num_threads()
    monkeypatch.setattr(runtime, "_threads_tuned", None)
    monkeypatch.setenv("GLASSBOX_TORCH_THREADS", "1")
    try:
        intra, interop = runtime.tune_threads()
        assert intra == 1 == torch.get_num_threads()
        assert interop == torch.get_num_interop_threads()
        assert runtime.tune_threads() == (intra, interop)   # once per process
        monkeypatch.setattr(runtime, "_threads_tuned", None)
        monkeypatch.setenv("GLASSBOX_TORCH_THREADS", "two")
        with pytest.raises(ValueError, match="GLASSBOX_TORCH_THREADS"):
            runtime.tune_threads()
        with pytest.raises(ValueError):
            runtime.tune_threads(intra=0)
    finally:
        torch.set_num_threads(before)
        monkeypatch.setattr(runtime, "_threads_tuned", None)

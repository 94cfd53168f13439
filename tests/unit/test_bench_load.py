"""benchmarks/load.py: the figures it reports from its trials (benchmarks/_load_report.py; no browser here)."""
import argparse
import math

from benchmarks._load_report import pct, pool, report


def _trial(n, trial, lat, errors=(), cross=()):
    return {"n": n, "trial": trial, "lat": sorted(lat), "done": len(lat), "submits": 3 * n,
            "errors": list(errors), "cross_talk": list(cross), "foreign_rows": [], "p50": lat[0], "p95": max(lat),
            "max": max(lat), "server_runs": len(lat), "server_p50": 0.02, "server_p95": 0.1, "server_cpu": 1.0,
            "browser_cpu": 10.0, "driver_cpu": 0.5, "phase_s": 9.0, "rss_peak": 2**29, "rss_after": 2**29,
            "busy_before": 0.01}


def test_pct_is_nearest_rank():
    assert pct(list(range(1, 21)), 0.95) == 19
    assert pct([4.0], 0.95) == 4.0
    assert math.isnan(pct([], 0.95))


def test_pool_takes_the_p95_of_all_submits_not_a_mean_of_trials():
    a = _trial(30, 1, [1.0] * 89 + [9.0])
    b = _trial(30, 2, [1.0] * 80 + [4.0] * 10, errors=["round 2: timeout"])
    pooled = pool([a, b])[30]
    assert pooled["done"] == 180 and pooled["submits"] == 180
    assert pooled["p95"] == 4.0 and pooled["max"] == 9.0     # 11 slow of 180: the 171st value is slow
    assert pool([a])[30]["p95"] == 1.0                          # 1 slow of 90: the 86th is not
    assert pooled["errors"] == ["round 2: timeout"]


def test_report_verdict_uses_the_pooled_figures():
    args = argparse.Namespace(sessions=[30], trials=2, rounds=3, tokens=64, open_stagger=0.5, stagger=0.2, think=1.0,
                              quiet_timeout=90.0, settle=5.0)
    fast = [_trial(30, 1, [1.0] * 90), _trial(30, 2, [1.0] * 82 + [3.5] * 8)]   # one trial's p95 is 3.5 s
    md = report(fast, {"baseline": 2**29}, args, (0.1, 0.1, 0.1))
    assert "**met**" in md and "| **30** | **all 2** |" in md
    slow = [_trial(30, 1, [1.0] * 90), _trial(30, 2, [1.0] * 70 + [3.5] * 20)]
    assert "**not met**" in report(slow, {"baseline": 2**29}, args, (0.1, 0.1, 0.1))
    cross = [_trial(30, 1, [1.0] * 90, cross=["session 3 showed session 4's text"]), _trial(30, 2, [1.0] * 90)]
    assert "**not met**" in report(cross, {"baseline": 2**29}, args, (0.1, 0.1, 0.1))

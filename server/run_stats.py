"""The server's own script-run times on `/_stcore/metrics`.

Streamlit 1.67's metrics endpoint has only `cache_memory_bytes`, `session_events`,
`session_duration_seconds` and `active_sessions`: no script-run duration. This module
adds one, as a Prometheus-style histogram registered with Streamlit's own StatsManager,
so the same endpoint serves it (OpenMetrics text)::

    glassbox_script_run_seconds_bucket{le="0.05"} 12      cumulative counts
    glassbox_script_run_seconds_count 30                    completed runs
    glassbox_script_run_seconds_sum 4.2                     seconds in all
    glassbox_script_runs_interrupted_total 3                runs stopped by a newer rerun

A run is timed in app.py from the first line after the imports to the end of the page
(in the script thread, on the server's clock): the tokenizer, the model, the charts, and
the time spent waiting for locks and the GIL; not the websocket transfer nor the
browser's drawing. A run that a newer rerun interrupts (RerunException/StopException)
is counted apart, since its time is not a whole run's.

Server machinery, but it imports Streamlit (inside `get_stats`, `register` and `timed_run`):
the histogram is served by the Streamlit server's own metrics endpoint and the interrupted
runs are Streamlit's rerun exceptions. The rest (RunStats' counting, `parse_metrics`,
`quantile`) is plain Python, which the load benchmark reads too.
"""
from __future__ import annotations

import bisect
import contextlib
import threading
import time
from collections.abc import Iterator, Mapping, Sequence

FAMILY = "glassbox_script_run_seconds"
INTERRUPTED_FAMILY = "glassbox_script_runs_interrupted"
BUCKETS = (0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)


class RunStats:
    """Thread-safe histogram of script-run durations, a StatsProvider for Streamlit."""

    def __init__(self, buckets: Sequence[float] = BUCKETS) -> None:
        self.buckets = tuple(sorted(buckets))
        self._lock = threading.Lock()
        self._counts = [0] * (len(self.buckets) + 1)       # last: above the largest bucket
        self._sum = 0.0
        self._interrupted = 0

    @property
    def stats_families(self) -> Sequence[str]:
        return (FAMILY, INTERRUPTED_FAMILY)

    def observe(self, seconds: float) -> None:
        with self._lock:
            self._counts[bisect.bisect_left(self.buckets, seconds)] += 1
            self._sum += seconds

    def interrupted(self) -> None:
        with self._lock:
            self._interrupted += 1

    def snapshot(self) -> dict[str, object]:
        with self._lock:
            return {"counts": list(self._counts), "sum": self._sum, "interrupted": self._interrupted}

    def get_stats(self, family_names: Sequence[str] | None = None) -> Mapping[str, Sequence[object]]:
        from streamlit.runtime.stats import CounterStat

        snap = self.snapshot()
        out: dict[str, list[object]] = {}
        if family_names is None or FAMILY in family_names:
            out[FAMILY] = [_Histogram(self.buckets, snap["counts"], snap["sum"])]
        if family_names is None or INTERRUPTED_FAMILY in family_names:
            out[INTERRUPTED_FAMILY] = [CounterStat(family_name=INTERRUPTED_FAMILY, value=snap["interrupted"],
                                                   help="Glassbox script runs stopped by a newer rerun.")]
        return out


class _Histogram:
    """The histogram as one Stat (Streamlit's protocol): its text form is the bucket,
    count and sum lines; its protobuf form one histogram_value."""

    family_name = FAMILY
    type = "histogram"
    unit = "seconds"
    help = "Glassbox script runs completed on the server, by duration."

    def __init__(self, buckets: Sequence[float], counts: Sequence[int], total: float) -> None:
        self.bounds = (*buckets, float("inf"))
        self.cumulative = [sum(counts[: i + 1]) for i in range(len(counts))]
        self.total = total

    def to_metric_str(self) -> str:
        lines = [f'{FAMILY}_bucket{{le="{"+Inf" if le == float("inf") else repr(le)}"}} {n}'
                 for le, n in zip(self.bounds, self.cumulative)]
        lines += [f"{FAMILY}_count {self.cumulative[-1]}", f"{FAMILY}_sum {self.total:.6f}"]
        return "\n".join(lines)

    def marshall_metric_proto(self, metric) -> None:  # noqa: ANN001  (MetricProto)
        value = metric.metric_points.add().histogram_value
        value.double_value = self.total
        value.count = self.cumulative[-1]
        for le, n in zip(self.bounds, self.cumulative):
            bucket = value.buckets.add()
            bucket.upper_bound, bucket.count = le, n


_stats = RunStats()
_registered = False
_register_lock = threading.Lock()


def run_stats() -> RunStats:
    return _stats


def register() -> bool:
    """Add the provider to the running Streamlit server's metrics (once per process).
    False where there is no server runtime (AppTest, bare mode)."""
    global _registered
    with _register_lock:
        if _registered:
            return True
        try:
            from streamlit.runtime import Runtime

            if not Runtime.exists():
                return False
            Runtime.instance().stats_mgr.register_provider(_stats)
        except Exception:  # noqa: BLE001  (metrics must never break the app)
            return False
        _registered = True
        return True


@contextlib.contextmanager
def timed_run() -> Iterator[None]:
    """Time one script run (see the module doc for what counts)."""
    from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException

    register()
    t0 = time.perf_counter()
    try:
        yield
    except (RerunException, StopException):
        _stats.interrupted()
        raise
    except BaseException:
        _stats.observe(time.perf_counter() - t0)
        raise
    else:
        _stats.observe(time.perf_counter() - t0)


def parse_metrics(text: str) -> dict[str, object]:
    """Read this module's families back from the endpoint's text (for the benchmark):
    {"buckets": [(le, cumulative count)], "count", "sum", "interrupted"}."""
    buckets: list[tuple[float, int]] = []
    out: dict[str, object] = {"buckets": buckets, "count": 0, "sum": 0.0, "interrupted": 0}
    for line in text.splitlines():
        if line.startswith(f"{FAMILY}_bucket"):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            buckets.append((float("inf") if le == "+Inf" else float(le), int(float(line.rsplit(" ", 1)[1]))))
        elif line.startswith(f"{FAMILY}_count"):
            out["count"] = int(float(line.rsplit(" ", 1)[1]))
        elif line.startswith(f"{FAMILY}_sum"):
            out["sum"] = float(line.rsplit(" ", 1)[1])
        elif line.startswith(f"{INTERRUPTED_FAMILY}_total"):
            out["interrupted"] = int(float(line.rsplit(" ", 1)[1]))
    return out


def quantile(buckets: Sequence[tuple[float, int]], q: float) -> float:
    """Prometheus-style quantile estimate from cumulative buckets (linear inside a bucket)."""
    if not buckets or buckets[-1][1] == 0:
        return float("nan")
    total = buckets[-1][1]
    rank = q * total
    prev_le, prev_n = 0.0, 0
    for le, n in buckets:
        if n >= rank:
            if le == float("inf"):
                return prev_le
            return prev_le + (le - prev_le) * ((rank - prev_n) / (n - prev_n) if n > prev_n else 0.0)
        prev_le, prev_n = le, n
    return prev_le

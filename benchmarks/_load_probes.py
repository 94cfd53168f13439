"""What the load benchmark (`benchmarks/load.py`) reads beside the pages: the server's
script-run histogram and active sessions (/_stcore/metrics), the server's memory (RSS,
sampled in a thread) and the CPU seconds of every process the benchmark started
(psutil), and whether the machine is quiet enough to start the next classroom size."""
from __future__ import annotations

import asyncio
import threading
import time
import urllib.request

from server.run_stats import parse_metrics

QUIET_BUSY = 0.15   # machine-wide CPU use (all processes) under which a run may start


def server_process():
    """The `streamlit run` child of this process (psutil.Process) or None (--url)."""
    import psutil

    for child in psutil.Process().children(recursive=True):
        try:
            if "streamlit" in " ".join(child.cmdline()):
                return child
        except psutil.Error:
            continue
    return None


def metrics(base: str) -> tuple[dict, int]:
    """(this app's script-run histogram, active sessions) from /_stcore/metrics."""
    with urllib.request.urlopen(f"{base}/_stcore/metrics", timeout=30) as r:
        text = r.read().decode()
    active = next((int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines()
                   if line.startswith("active_sessions ")), -1)
    return parse_metrics(text), active


def histogram_delta(before: dict, after: dict) -> list[tuple[float, int]]:
    return [(le, n - m) for (le, n), (_, m) in zip(after["buckets"], before["buckets"])]


class RssSampler:
    """Peak RSS of one process, sampled every `period` s in a thread."""

    def __init__(self, proc, period: float = 0.1) -> None:
        self.proc, self.period, self.peak = proc, period, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, self.proc.memory_info().rss)
            except Exception:  # noqa: BLE001  (the server may be gone)
                return
            self._stop.wait(self.period)

    def __enter__(self) -> "RssSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def cpu_seconds(server) -> tuple[float, dict[int, tuple[bool, float]]]:
    """(server CPU s, {pid: (is Chromium, CPU s)} of every other process this benchmark
    started: Chromium's, and Playwright's driver that relays the harness's commands)."""
    import psutil

    others: dict[int, tuple[bool, float]] = {}
    for p in psutil.Process().children(recursive=True):
        if server is not None and (p.pid == server.pid):
            continue
        try:
            t = p.cpu_times()
            others[p.pid] = ("chrom" in p.name().lower(), t.user + t.system)
        except psutil.Error:
            continue
    srv = 0.0
    if server is not None:
        t = server.cpu_times()
        srv = t.user + t.system
    return srv, others


def rss(proc) -> int:
    return proc.memory_info().rss if proc is not None else 0


async def wait_no_sessions(base: str, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    while True:
        _, active = await asyncio.to_thread(metrics, base)
        if active == 0 or time.monotonic() > deadline:
            return active
        await asyncio.sleep(0.5)


def wait_quiet(timeout: float) -> float:
    """Wait (at most `timeout` s) until the whole machine's CPU use over one second is
    below QUIET_BUSY; return the last second's use (0..1), which the report shows. A
    shared machine may never get there: the run then starts anyway and says so."""
    import psutil

    deadline = time.monotonic() + timeout
    while True:
        busy = psutil.cpu_percent(interval=1.0) / 100
        if busy < QUIET_BUSY or time.monotonic() > deadline:
            return busy

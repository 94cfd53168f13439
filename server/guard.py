"""A process-wide guard around big forward passes: at most `slots` of them run at once.

Every Streamlit session runs its script in its own thread, and the per-model locks in
ui/serving/gate.py only queue passes over the *same* model. Thirty students on two cores
who pick different models (or the 512-token view) would otherwise start thirty passes
at once: each holds its activations while it waits for a core, so memory grows with the
class size and every pass finishes late. The guard queues big passes across all models;
small ones (cost below `SMALL_TOKENS`) skip it, since they finish in milliseconds.

Waiting is bounded: a pass that cannot start within `wait_s` raises `ServerBusy` (a
ValueError with a sentence for the UI), never a hang.

Use (ui/serving/gate.py, around the model lock)::

    with guard.forward_pass(len(enc.ids)), _lock(model):
        _, trace = model.run_with_cache(...)

Settings (models/limits.py, read once): GLASSBOX_MAX_PASSES (slots, default 1 per 2
CPUs the process may use, `models.runtime.usable_cpus`, at least 1), GLASSBOX_PASS_WAIT_S (default 60).
"""
from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

from models import limits
from models.runtime import usable_cpus
from models.errors import Refused

SMALL_TOKENS = 128          # passes over fewer tokens than this do not queue


class ServerBusy(Refused):
    """Too many big passes are queued; the message says to try again."""

    def __init__(self, message: str, wait: str = "") -> None:
        super().__init__("server_busy", message, wait=wait)


class PassGuard:
    """A bounded semaphore with counters (for tests and the load benchmark)."""

    def __init__(self, slots: int, wait_s: float, small_tokens: int = SMALL_TOKENS) -> None:
        if slots < 1:
            raise ValueError(f"slots must be >= 1, not {slots}.")
        self.slots, self.wait_s, self.small_tokens = slots, float(wait_s), small_tokens
        self._sem = threading.BoundedSemaphore(slots)
        self._stats_lock = threading.Lock()
        self.running = self.waiting = self.passes = self.refused = 0
        self.waited_s = 0.0

    @contextlib.contextmanager
    def forward_pass(self, n_tokens: int) -> Iterator[None]:
        """Hold a slot for a pass over `n_tokens` tokens (none for a small pass)."""
        if n_tokens < self.small_tokens:
            yield
            return
        with self._stats_lock:
            self.waiting += 1
        t0 = time.perf_counter()
        got = self._sem.acquire(timeout=self.wait_s)
        with self._stats_lock:
            self.waiting -= 1
            self.waited_s += time.perf_counter() - t0
            if not got:
                self.refused += 1
            else:
                self.running += 1
                self.passes += 1
        if not got:
            raise ServerBusy(f"The server is busy with other long texts (waited {self.wait_s:.0f} s). "
                             "Please try again in a moment, or use a shorter text.", wait=f"{self.wait_s:.0f}")
        try:
            yield
        finally:
            with self._stats_lock:
                self.running -= 1
            self._sem.release()

    def stats(self) -> dict[str, float]:
        with self._stats_lock:
            return {"slots": self.slots, "running": self.running, "waiting": self.waiting,
                    "passes": self.passes, "refused": self.refused, "waited_s": round(self.waited_s, 3)}


_guard: PassGuard | None = None
_guard_lock = threading.Lock()


def guard() -> PassGuard:
    """The process's guard (created on first use from the environment)."""
    global _guard
    with _guard_lock:
        if _guard is None:
            slots = int(limits.value("passes")) or max(1, usable_cpus() // 2)   # 0: by the CPUs it may use
            _guard = PassGuard(slots, limits.value("pass_wait_s"))
        return _guard


def forward_pass(n_tokens: int):
    """`with forward_pass(n):` around one recorded pass over n tokens (see module doc)."""
    return guard().forward_pass(n_tokens)

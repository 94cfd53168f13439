"""Warm-up machinery: run a few named steps once per process in a background thread, so
the first visitor of a fresh server does not wait for them; say where they are.

`start(steps, after)` starts, once per process, a daemon thread that runs each
`(stage, step)` in turn (`step(state)`), timing each; then, when all went well,
`after(state)` (not a stage: nothing waits for it). The app's steps (import PyTorch and
the serving layer, load the default model, record its first pass into the caches the
attention page reads) are in ui/warmup.py, which also has the launcher
`python -m ui.warmup run app.py`.

A page that asks for the same cache entry while a step is still computing it waits for
that computation (Streamlit holds one lock per cache key) instead of starting a second.
GLASSBOX_WARMUP=0 turns it off. A step that fails is logged (logger "glassbox.warmup",
the server's stderr) and the state says "failed"; it changes nothing else.

This module imports only the standard library, so app.py can read the progress
(`state()`, `wait_for`) before torch is imported.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

ENV = "GLASSBOX_WARMUP"
_OFF = {"0", "false", "no", "off"}
log = logging.getLogger("glassbox.warmup")
if not log.handlers:                                  # the server's log (stderr) shows how it went
    _h = logging.StreamHandler()
    _h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(_h)
    log.setLevel(logging.INFO)


@dataclass
class State:
    """Where the warm-up is: stage in `stages` (or "off", "failed"), and timings (s)."""

    stage: str = "off"
    started: float | None = None                       # time.monotonic()
    seconds: dict[str, float] = field(default_factory=dict)   # stage -> seconds it took
    error: str | None = None
    model_key: str | None = None                       # the model the steps warmed (a step sets them)
    device: str | None = None
    stages: tuple[str, ...] = ()                       # the steps' stages in order, then "done"

    @property
    def busy(self) -> bool:
        return self.stage in self.stages[:-1]


Step = Callable[[State], None]

_state = State()
_lock = threading.Lock()
_thread: threading.Thread | None = None
_done = threading.Event()


def enabled(env: dict[str, str] | None = None) -> bool:
    return (os.environ if env is None else env).get(ENV, "").strip().lower() not in _OFF


def state() -> State:
    return _state


def start(steps: Sequence[tuple[str, Step]], after: Step | None = None, late: bool = False) -> bool:
    """Start the warm-up thread unless it runs already, ran, or GLASSBOX_WARMUP=0.
    `late`: the caller is a visitor's first run, not the server's start (a plain
    `streamlit run`), which the log then says. Returns whether a warm-up is (or was) under
    way in this process."""
    global _thread
    if not enabled():
        return False
    with _lock:
        if _thread is None:
            if late:
                log.warning("warm-up started by the first visitor (plain `streamlit run app.py`): that visitor "
                            "waits for PyTorch, the model and the first pass (seconds); `make run` or "
                            "`python -m ui.warmup run app.py` start them with the server")
            _state.stages = (*(stage for stage, _ in steps), "done")
            _state.stage, _state.started = steps[0][0], time.monotonic()
            _thread = threading.Thread(target=_run, args=(tuple(steps), after), name="glassbox-warmup",
                                       daemon=True)
            _thread.start()
    return True


def wait_for(stage: str, timeout: float | None = None, poll: float = 0.1, on_wait=None) -> bool:  # noqa: ANN001
    """Block until the warm-up has passed `stage` (or ended, failed, or is off); call
    `on_wait(state)` every `poll` s meanwhile. Returns False on timeout."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while _state.busy and _state.stages.index(_state.stage) <= _state.stages.index(stage):
        if deadline is not None and time.monotonic() > deadline:
            return False
        if on_wait is not None:
            on_wait(_state)
        _done.wait(poll)
    return True


def join(timeout: float | None = None) -> State:
    """Wait for the warm-up thread to end (if one was started); the final state."""
    if _thread is not None:
        _thread.join(timeout)
    return _state


def reset() -> None:
    """Forget this process's warm-up so `start()` starts another (tests only)."""
    global _thread, _state
    join()
    _thread, _state = None, State()
    _done.clear()


def _run(steps: tuple[tuple[str, Step], ...], after: Step | None) -> None:
    t0 = time.monotonic()
    stage = steps[0][0]
    try:
        for stage, step in steps:
            _state.stage = stage
            step(_state)
            t0 = _mark(stage, t0)
        _state.stage = "done"
        log.info("warm-up done in %.1f s: %s", sum(_state.seconds.values()),
                 ", ".join(f"{k} {v:.1f} s" for k, v in _state.seconds.items()))
    except Exception as e:     # noqa: BLE001 (a failed warm-up must never break the app: the pages load as usual)
        _state.error, _state.stage = f"{stage}: {type(e).__name__}: {e}", "failed"
        log.warning("warm-up failed at %s (the pages will load on demand): %s", stage, e, exc_info=True)
    finally:
        _done.set()
    if _state.stage == "done" and after is not None:
        after(_state)


def _mark(stage: str, t0: float) -> float:
    now = time.monotonic()
    _state.seconds[stage] = now - t0
    return now

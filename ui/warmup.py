"""Warm-up: the first visitor of a fresh server should not wait for PyTorch to import.

`start()` starts, once per process, a background thread that does what the first visit
of the attention page would otherwise do while the visitor waits:

1. imports: torch, the serving layer (models, lab), plotly and the attention view;
2. model: loads the default model (the first catalogue entry, on the default device)
   through `ui.serving.gate.load_model`, i.e. into the same `st.cache_resource` entry
   the pages read;
3. first run: records the attention pass of the sidebar's default text through
   `ui.serving.cache.attention_data`, the `st.cache_data` entry the attention page reads
   when it is opened without ?text=, and builds that page's cached all-heads figure.

Then, not a stage, the default model's parity badge on the default text
(ui/serving/parity.py), which imports transformers.

A page that asks for the same entry while the thread is still computing it waits for
that computation (Streamlit holds one lock per cache key) instead of starting a second.

Started at server start by the launcher

    python -m ui.warmup run app.py [streamlit options]   # = streamlit run, warm-up first

(`make run` and `python -m cli.serve` use it), and, for a plain `streamlit run app.py`,
by app.py at the first session's first run. GLASSBOX_WARMUP=0 turns it off. A warm-up
that fails (the default model missing, say) is logged and changes nothing: the pages
load and report as they always do.

This module imports only the standard library at the top, so app.py can read the
progress (`state()`) before torch is imported.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field

ENV = "GLASSBOX_WARMUP"
_OFF = {"0", "false", "no", "off"}
STAGES = ("imports", "model", "first_run", "done")
log = logging.getLogger("glassbox.warmup")
if not log.handlers:                                  # the server's log (stderr) shows how it went
    _h = logging.StreamHandler()
    _h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(_h)
    log.setLevel(logging.INFO)


@dataclass
class State:
    """Where the warm-up is: stage in STAGES (or "off", "failed"), and timings (s)."""

    stage: str = "off"
    started: float | None = None                       # time.monotonic()
    seconds: dict[str, float] = field(default_factory=dict)   # stage -> seconds it took
    error: str | None = None
    model_key: str | None = None
    device: str | None = None

    @property
    def busy(self) -> bool:
        return self.stage in ("imports", "model", "first_run")


_state = State()
_lock = threading.Lock()
_thread: threading.Thread | None = None
_done = threading.Event()


def enabled(env: dict[str, str] | None = None) -> bool:
    return (os.environ if env is None else env).get(ENV, "").strip().lower() not in _OFF


def state() -> State:
    return _state


def start() -> bool:
    """Start the warm-up thread unless it runs already, ran, or GLASSBOX_WARMUP=0.
    Returns whether a warm-up is (or was) under way in this process."""
    global _thread
    if not enabled():
        return False
    with _lock:
        if _thread is None:
            _state.stage, _state.started = "imports", time.monotonic()
            _thread = threading.Thread(target=_run, name="glassbox-warmup", daemon=True)
            _thread.start()
    return True


def wait_for(stage: str, timeout: float | None = None, poll: float = 0.1, on_wait=None) -> bool:  # noqa: ANN001
    """Block until the warm-up has passed `stage` (or ended, failed, or is off); call
    `on_wait(state)` every `poll` s meanwhile. Returns False on timeout."""
    deadline = None if timeout is None else time.monotonic() + timeout
    target = STAGES.index(stage)
    while _state.busy and STAGES.index(_state.stage) <= target:
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


def _run() -> None:
    t0 = time.monotonic()
    step = "imports"
    try:
        import plotly.graph_objects  # noqa: F401
        import torch  # noqa: F401

        from models.device import available_devices
        from models.weights import zoo

        from .examples import EXAMPLE_TEXT
        from .i18n import STRINGS
        from .serving import RunKey, cache, gate
        from .serving.attention import model_view_figure
        from viz_core import colors
        from viz_core.figure import text_scale

        from .views import attention  # noqa: F401  (the page's own imports: viz_core, widgets)

        t0 = _mark(step, t0)
        step = _state.stage = "model"
        entry = zoo.catalogue()[0]                    # the sidebar's default model
        device = available_devices()[0]               # and device
        _state.model_key, _state.device = entry.key, device
        if not entry.available:
            raise RuntimeError(f"the default model {entry.key!r} is not available: {entry.reason}")
        gate.load_model(entry.key, device)
        t0 = _mark(step, t0)
        step = _state.stage = "first_run"
        data = cache.attention_data(RunKey(entry.key, device, EXAMPLE_TEXT))
        # the heads view's all-heads figure (st.cache_data too), for the default palette and
        # text scale (outside a session: the defaults a first visitor gets)
        model_view_figure(RunKey(entry.key, device, EXAMPLE_TEXT), next(iter(data.patterns)),
                          colors.palette(), text_scale(), STRINGS["term_tile"]["en"])   # English: the default
        _mark(step, t0)
        _state.stage = "done"
        log.info("warm-up done in %.1f s: %s", sum(_state.seconds.values()),
                 ", ".join(f"{k} {v:.1f} s" for k, v in _state.seconds.items()))
    except Exception as e:     # noqa: BLE001 (a failed warm-up must never break the app: the pages load as usual)
        _state.error, _state.stage = f"{step}: {type(e).__name__}: {e}", "failed"
        log.warning("warm-up failed at %s (the pages will load on demand): %s", step, e, exc_info=True)
    finally:
        _done.set()
    if _state.stage == "done":
        _parity(_state.model_key, _state.device, EXAMPLE_TEXT)


def _parity(key: str, device: str, text: str) -> None:
    """After the warm-up: the default model's parity badge on the default text
    (ui/serving/parity.py; importing transformers takes seconds), so the home page's
    first visitor finds it computed. Not a stage: nothing waits for it."""
    try:
        from .serving import parity

        t0 = time.monotonic()
        if parity.source_of(key) is not None:
            parity.check(key, text, "", device)
            log.info("parity badge of %s computed in %.1f s", key, time.monotonic() - t0)
    except Exception as e:     # noqa: BLE001 (the home page computes it then)
        log.warning("parity badge of %s not computed: %s", key, e)


def _mark(stage: str, t0: float) -> float:
    now = time.monotonic()
    _state.seconds[stage] = now - t0
    return now


def main(argv: list[str] | None = None) -> int:
    """`python -m ui.warmup run app.py ...`: start the warm-up, then Streamlit's own
    command line with these arguments, in this process."""
    import sys

    from streamlit.web import cli as stcli

    import ui.warmup as me   # the module's one copy (this file may run as __main__)

    me.start()
    args = sys.argv[1:] if argv is None else argv
    return stcli.main(args=args, prog_name="streamlit", standalone_mode=True)


if __name__ == "__main__":
    raise SystemExit(main())

"""Warm-up: the first visitor of a fresh server should not wait for PyTorch to import.

`start()` starts, once per process, a background thread (server/warmup.py: the thread,
its stages, timings and progress) that does what the first visit of the attention page
would otherwise do while the visitor waits:

1. imports: our modules' missing bytecode written first (server/bytecode.py), then torch,
   the serving layer (models, lab), plotly, the attention and lessons views (the lessons'
   step kinds), app.py's own modules and Streamlit's emoji table (its page icon is checked
   against it);
2. model: loads the default model (the first catalogue entry, on the default device)
   through `ui.serving.gate.load_model`, i.e. into the same `st.cache_resource` entry
   the pages read;
3. first run: records the attention pass of the sidebar's default text through
   `ui.serving.cache.attention_data`, the shared results the attention page reads when it
   is opened without ?text=, and builds what that page's first screen sends: the instant
   view's payload (the default view), the live box's plan and the export's int8 size
   (ui/serving/browser.py: for MiniLM, the WordPiece character classes asked of
   `tokenizers` in batches, and the int8 weights deflated), and the heads view's all-heads figure.

Then, not stages, the default model's parity badge on the default text
(ui/serving/parity.py), which imports transformers, and the warmed heap frozen out of the
garbage collector's full passes (server/heap.py).

These steps stay in ui/ because they fill ui's own caches (ui/serving, a view's imports).

Started at server start by the launcher

    python -m ui.warmup run app.py [streamlit options]   # = streamlit run, warm-up first

(`make run` and `python -m cli.serve` use it), and, for a plain `streamlit run app.py`,
by app.py at the first session's first run. GLASSBOX_WARMUP=0 turns it off. A warm-up
that fails (the default model missing, say) is logged and changes nothing: the pages
load and report as they always do.

This module imports only the standard library at the top (and server/warmup.py, which
does too), so app.py can start it before torch is imported.
"""
from __future__ import annotations

import time

from server import threads, warmup
from server.warmup import State

threads.quiet_idle_threads()      # before torch is loaded: idle OpenMP workers sleep (server/threads.py)


def _imports(state: State) -> None:
    from server import bytecode

    bytecode.compile_app()     # our modules' missing .pyc first, whatever PYTHONDONTWRITEBYTECODE says
    import plotly.graph_objects  # noqa: F401
    # Streamlit's emoji and icon tables: app.py's page icon is checked against the first (0.18 s
    # to import here) at the top of a visitor's first run, before anything is drawn
    import streamlit.emojis  # noqa: F401
    import streamlit.material_icon_names  # noqa: F401
    import torch  # noqa: F401

    import server.run_stats  # noqa: F401

    import models.device  # noqa: F401
    import models.weights.zoo  # noqa: F401
    import viz_core.colors  # noqa: F401
    import viz_core.figure  # noqa: F401

    from . import examples, i18n, presenter, replica, sidebar  # noqa: F401  (app.py's own imports)
    from .serving import attention, cache, gate  # noqa: F401
    from .views import attention as attention_view  # noqa: F401  (the page's own imports: viz_core, widgets)
    # the Lessons page: every step kind (ui/lessons) and the lesson files' checker, 0.12 s here,
    # which a lesson link's first visitor waited for before its step was computed
    from .views import lessons as lessons_view  # noqa: F401


def _model(state: State) -> None:
    from models.device import available_devices
    from models.weights import zoo

    from .serving import gate

    entry = zoo.catalogue()[0]                    # the sidebar's default model
    device = available_devices()[0]               # and device
    state.model_key, state.device = entry.key, device
    if not entry.available:
        raise RuntimeError(f"the default model {entry.key!r} is not available: {entry.reason}")
    gate.load_model(entry.key, device)


def _first_run(state: State) -> None:
    from viz_core import colors
    from viz_core.figure import text_scale

    from .examples import EXAMPLE_TEXT
    from .i18n import STRINGS
    from .serving import RunKey, cache
    from .serving.attention import instant_payload, model_view_figure
    from .views.attention import instant_labels

    key = RunKey(state.model_key, state.device, EXAMPLE_TEXT)
    stack = next(iter(cache.attention_data(key).patterns))
    # cached for the default palette, text scale and language (English), in the order a first
    # visitor's run reads them: the instant view's payload (the page's default view), the live
    # box's plan above it and the export's int8 size below it, then the heads view's all-heads
    # figure (one click away)
    instant_payload(key, stack, colors.palette(), instant_labels("en"))
    _live_plan(state)
    model_view_figure(key, stack, colors.palette(), text_scale(), STRINGS["term_tile"]["en"])


STEPS = (("imports", _imports), ("model", _model), ("first_run", _first_run))


def _live_plan(state: State) -> None:
    """The default model's browser-form plan, so the attention page's first visitor does not
    compute the WordPiece character classes before the first figure (0.7 s for MiniLM here), and
    the size of its int8 export (0.4 s), which the same run shows below the figure.
    Part of the first_run stage: run after the warm-up (behind the parity badge's 4 s), it
    came too late for a visitor who opened the page when the warm-up said done."""
    try:
        from .serving import browser

        t0 = time.monotonic()
        browser.plan(state.model_key, state.device)
        browser.int8_size(state.model_key, state.device)
        warmup.log.info("live-form plan and int8 size of %s computed in %.1f s", state.model_key, time.monotonic() - t0)
    except Exception as e:     # noqa: BLE001 (the attention page computes it then)
        warmup.log.warning("live-form plan and int8 size of %s not computed: %s", state.model_key, e)


def _parity(state: State) -> None:
    """After the warm-up: the default model's parity badge on the default text
    (ui/serving/parity.py; importing transformers takes seconds), so the home page's
    first visitor finds it computed. Not a stage: nothing waits for it."""
    from .examples import EXAMPLE_TEXT

    key = state.model_key
    try:
        from .serving import parity

        t0 = time.monotonic()
        if parity.source_of(key) is not None:
            parity.check(key, EXAMPLE_TEXT, "", state.device)
            warmup.log.info("parity badge of %s computed in %.1f s", key, time.monotonic() - t0)
    except Exception as e:     # noqa: BLE001 (the home page computes it then)
        warmup.log.warning("parity badge of %s not computed: %s", key, e)


def _after_warmup(state: State) -> None:
    """After the stages (nothing waits for these): the parity badge, then the warmed heap
    frozen out of the garbage collector's full passes (server/heap.py)."""
    _parity(state)
    from server.heap import freeze_warm_heap

    t0 = time.monotonic()
    frozen = freeze_warm_heap()
    warmup.log.info("%d objects frozen out of the garbage collector in %.2f s", frozen, time.monotonic() - t0)


def start(late: bool = False) -> bool:
    """Start the app's warm-up unless it runs already, ran, or GLASSBOX_WARMUP=0
    (server/warmup.py); whether one is (or was) under way in this process. `late`: called
    from a visitor's first run (app.py), not at the server's start (the launcher)."""
    return warmup.start(STEPS, after=_after_warmup, late=late)   # after the stages: nothing waits for it


def main(argv: list[str] | None = None) -> int:
    """`python -m ui.warmup run app.py ...`: start the warm-up, then Streamlit's own
    command line with these arguments, in this process."""
    import sys

    from streamlit.web import cli as stcli

    import ui.warmup   # the module's one copy (this file may run as __main__)

    ui.warmup.start()
    args = sys.argv[1:] if argv is None else argv
    return stcli.main(args=args, prog_name="streamlit", standalone_mode=True)


if __name__ == "__main__":
    raise SystemExit(main())

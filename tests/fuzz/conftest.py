"""The fuzz suite's settings: two Hypothesis profiles, a small model budget, a watch on
every file the code opens for writing, and the count and peak memory of every door.

Profiles (HYPOTHESIS_PROFILE, default ``ci``):
- ``ci``: derandomized (the same examples every run), no example database, no deadline,
  and a few examples per door (EXAMPLES["ci"]): `make test` runs it in about a minute.
- ``long``: EXAMPLES["long"] examples per door, random (a new seed every run: run it
  again to search further); `make fuzz`.

While the suite runs (package scope: the rest of `make test` is unaffected):
- GLASSBOX_MODEL_BUDGET_MB is 64 (128 for the doors that open the app, whose default
  model, MiniLM, needs 91 MB) and GLASSBOX_TRACE_BUDGET_MB is 64, so that "nothing above
  the budget" is a sharp property: a door may accept only a model with
  `safety.model_bytes(cfg) <= budget`, and the process's peak resident memory over a
  door's examples may grow at most budget + SLACK_MB above what it was before them
  (the peak is reset per door through /proc/self/clear_refs, so one door's peak is not
  another's);
- an audit hook records every `open` for writing (and every mkdir, rename) outside the
  temporary directory: `props.run_door` fails the example that did it.

At the end of the session the examples each door ran (and its peak memory growth) are
written to test-artifacts/fuzz-counts.json under the profile's name.
"""
from __future__ import annotations

import json
import logging
import os
import tempfile
import time

import pytest

from tests.fuzz.fuzzing import (APP_BUDGET_MB, BIGGEST, BUDGET_MB, COUNTS, COUNTS_FILE, HIGH, PEAK_BUDGETS, PEAKS,
                                PROCESS, PROFILE, SLACK_MB, TRACE_BUDGET_MB, WRITES, peak_mb, reset_peak, rss_mb,
                                settle, watch)


# ---- fixtures --------------------------------------------------------------------------------
# ui.refusals.say() is called outside a Streamlit run (the language is then English): quiet its warning
logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(logging.ERROR)


@pytest.fixture(scope="package", autouse=True)
def fuzz_environment():
    """Small budgets, everything imported and warmed once (so that a door's memory is its
    own), and the write watch on, for the fuzz suite only."""
    saved = {k: os.environ.get(k) for k in ("GLASSBOX_MODEL_BUDGET_MB", "GLASSBOX_TRACE_BUDGET_MB")}
    os.environ["GLASSBOX_MODEL_BUDGET_MB"] = str(BUDGET_MB)
    os.environ["GLASSBOX_TRACE_BUDGET_MB"] = str(TRACE_BUDGET_MB)
    from tests.fuzz import artefacts

    artefacts.warm()
    os.environ["GLASSBOX_MODEL_BUDGET_MB"] = str(APP_BUDGET_MB)
    artefacts.warm_app()                                 # the app's baseline: imported, MiniLM loaded, one page run
    os.environ["GLASSBOX_MODEL_BUDGET_MB"] = str(BUDGET_MB)
    settle()
    PROCESS["baseline_mb"] = round(rss_mb(), 1)
    start = time.monotonic()
    watch(True)
    try:
        yield
    finally:
        watch(False)
        settle()
        PROCESS["end_mb"] = round(rss_mb(), 1)
        COUNTS["_seconds"] = round(time.monotonic() - start, 1)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def warm():
    """What a door module needs loaded before its memory is measured (modules override it)."""
    return None


@pytest.fixture(scope="module")
def budget_mb(request):
    """The model budget of a door module, in force from here on (before `warm`): BUDGET_MB,
    or the module's DOOR_BUDGET_MB (the app doors: APP_BUDGET_MB). `door_memory` puts the
    suite's budget back after the module."""
    mb = getattr(request.module, "DOOR_BUDGET_MB", BUDGET_MB)
    os.environ["GLASSBOX_MODEL_BUDGET_MB"] = str(mb)
    return mb


@pytest.fixture(scope="module", autouse=True)
def door_memory(request, budget_mb, warm):
    """The peak resident memory of a door module's examples stays within the model
    budget plus SLACK_MB above the memory before them."""
    settle()
    exact = reset_peak()
    base = rss_mb() if exact else peak_mb()
    HIGH["mb"] = 0.0
    try:
        yield
    finally:
        os.environ["GLASSBOX_MODEL_BUDGET_MB"] = str(BUDGET_MB)
        peak = max(peak_mb(), HIGH["mb"])
        PROCESS["peak_mb"] = round(max(PROCESS["peak_mb"], peak), 1)
        growth = peak - base
        name = request.module.__name__.rsplit(".", 1)[-1]
        PEAKS[name] = round(growth, 1)
        PEAK_BUDGETS[name] = budget_mb
        assert growth <= budget_mb + SLACK_MB, \
            f"{name}: peak memory grew {growth:.0f} MB, more than the budget {budget_mb} MB + {SLACK_MB} MB"


@pytest.fixture(autouse=True)
def no_stray_writes():
    """No test of the suite writes outside the temporary directory (run_door checks each
    example; this catches what happens between examples)."""
    WRITES.clear()
    yield
    assert not WRITES, f"written outside {tempfile.gettempdir()}: {WRITES[:5]}"


def pytest_sessionfinish(session, exitstatus):
    if not COUNTS:
        return
    try:
        doc = json.loads(COUNTS_FILE.read_text()) if COUNTS_FILE.exists() else {}
    except (OSError, ValueError):
        doc = {}
    doc[PROFILE] = {"examples": dict(sorted((k, v) for k, v in COUNTS.items() if not k.startswith("_"))),
                    "total": sum(v for k, v in COUNTS.items() if not k.startswith("_")),
                    "seconds": COUNTS.get("_seconds"), "peak_growth_mb": dict(sorted(PEAKS.items())),
                    "module_budget_mb": dict(sorted(PEAK_BUDGETS.items())),
                    "largest_example_mb": {k: v[0] for k, v in sorted(BIGGEST.items())},
                    "largest_example": {k: v[1] for k, v in sorted(BIGGEST.items())},
                    "baseline_mb": PROCESS["baseline_mb"], "peak_mb": PROCESS["peak_mb"],
                    "end_mb": PROCESS.get("end_mb"),
                    "budget_mb": BUDGET_MB, "app_budget_mb": APP_BUDGET_MB, "trace_budget_mb": TRACE_BUDGET_MB,
                    "slack_mb": SLACK_MB,
                    "exit": int(exitstatus)}
    COUNTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    COUNTS_FILE.write_text(json.dumps(doc, indent=1) + "\n")

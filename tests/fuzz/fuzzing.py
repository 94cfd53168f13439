"""The fuzz suite's shared state: profiles and example counts per door, the budgets,
the write watch and the memory readings (tests/fuzz/conftest.py explains them)."""
from __future__ import annotations

import os
import resource
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[2]
COUNTS_FILE = ROOT / "test-artifacts" / "fuzz-counts.json"
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "long"):
    raise ValueError(f"HYPOTHESIS_PROFILE must be ci or long, not {PROFILE!r}")

BUDGET_MB = 64          # GLASSBOX_MODEL_BUDGET_MB during the file doors
APP_BUDGET_MB = 128     # during the doors that open the app (MiniLM: 91 MB)
TRACE_BUDGET_MB = 64    # GLASSBOX_TRACE_BUDGET_MB: one recorded pass
SLACK_MB = 192          # what a door's examples may add beyond the model budget: Python objects, torch's
                        # allocator caches, the zip and JSON being read, a recorded pass (AppTest doors)

# examples per door (a door = one parser or one way in; see docs/hostile-files.md)
EXAMPLES = {
    "ci": {"checkpoint_zip": 60, "checkpoint_json": 60, "zip_bytes": 40, "safetensors_header": 150,
           "config_json": 120, "config_dict": 120, "folder_bert": 20, "folder_gpt2": 20, "folder_llama": 20,
           "folder_mistral": 20, "folder_files": 20, "cli": 6, "charlm_upload": 40, "charlm_text": 25,
           "url_params": 2, "typed_text": 150, "typed_text_app": 3, "zip_upload_app": 4, "charlm_app": 2,
           "lesson_file": 150, "live_text_app": 4, "image_bytes": 150, "image_upload_app": 3, "vit_folder": 20, "vit_photo": 60,
           "audio_bytes": 150, "audio_upload_app": 3},
    "long": {"checkpoint_zip": 1500, "checkpoint_json": 1500, "zip_bytes": 1000, "safetensors_header": 4000,
             "config_json": 3000, "config_dict": 3000, "folder_bert": 300, "folder_gpt2": 300, "folder_llama": 300,
             "folder_mistral": 300, "folder_files": 300, "cli": 60, "charlm_upload": 600, "charlm_text": 300,
             "url_params": 12, "typed_text": 3000, "typed_text_app": 20, "zip_upload_app": 40, "charlm_app": 15,
             "lesson_file": 3000, "live_text_app": 30, "image_bytes": 3000, "image_upload_app": 20, "vit_folder": 300, "vit_photo": 1000,
             "audio_bytes": 3000, "audio_upload_app": 20},
}

_common = dict(database=None, deadline=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.function_scoped_fixture, HealthCheck.large_base_example,
                                      HealthCheck.filter_too_much])
# Hypothesis keeps the inputs of its last 10,000 examples in memory (its engine's CACHE_SIZE,
# an internal): here megabytes of mutated weights each, growing the process by ~170 KB an
# example (600 MB over the long profile's safetensors door), which the memory readings
# would count as the doors'. A cache of 100 keeps the process's peak that of the doors.
try:
    from hypothesis.internal.conjecture import engine as _engine

    _engine.CACHE_SIZE = min(getattr(_engine, "CACHE_SIZE", 100), 100)
except ImportError:                      # a later Hypothesis without it: the per-example check still holds
    pass

settings.register_profile("ci", derandomize=True, max_examples=50, **_common)
settings.register_profile("long", derandomize=False, max_examples=500, **_common)
settings.load_profile(PROFILE)


def examples(door: str) -> settings:
    """The settings of one door's test: its number of examples in this profile."""
    return settings(max_examples=EXAMPLES[PROFILE][door])


# ---- what happened: examples, writes, memory ---------------------------------------------------------
COUNTS: dict[str, int] = {}
PEAKS: dict[str, float] = {}            # MB of peak growth per test module (door file)
PEAK_BUDGETS: dict[str, int] = {}       # the model budget (MB) each module ran under
HIGH = {"mb": 0.0}                      # the highest peak (absolute MB) seen since a module began
PROCESS = {"baseline_mb": 0.0, "peak_mb": 0.0}   # resident memory after warming up, and its peak over the suite
BIGGEST: dict[str, tuple[float, str]] = {}   # per door: the largest growth of one example (MB) and what it was
WRITES: list[str] = []                  # paths opened for writing outside the temporary directory
_watch = {"on": False}


def watch(on: bool) -> None:
    """Switch the write watch on (during the fuzz suite) or off."""
    _watch["on"] = on


def count(door: str) -> None:
    """One more example ran through `door`."""
    COUNTS[door] = COUNTS.get(door, 0) + 1


def _temp_roots() -> tuple[str, ...]:
    return tuple({os.path.realpath(tempfile.gettempdir()), tempfile.gettempdir()})


_TEMP = _temp_roots()
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _outside_temp(path: object) -> str | None:
    if isinstance(path, int) or path is None:
        return None
    try:
        p = os.path.abspath(os.fsdecode(path))
    except (TypeError, ValueError):
        return repr(path)
    if p.startswith(tuple(r + os.sep for r in _TEMP)) or p in _TEMP or p in (os.devnull, "/proc/self/clear_refs"):
        return None
    return p


def _audit(event: str, args: tuple) -> None:
    if not _watch["on"]:
        return
    if event == "open":
        path, mode, flags = args
        writes = (mode is not None and any(c in str(mode) for c in "wax+")) or \
                 (mode is None and isinstance(flags, int) and flags & _WRITE_FLAGS)
        if writes and (p := _outside_temp(path)) is not None:
            WRITES.append(f"open {p} {mode or flags}")
    elif event in ("os.mkdir", "os.rename", "os.symlink", "os.link"):
        target = args[1] if event in ("os.rename", "os.symlink", "os.link") else args[0]
        if (p := _outside_temp(target)) is not None:
            WRITES.append(f"{event} {p}")


sys.addaudithook(_audit)              # installed once (hooks cannot be removed); off outside the fuzz suite


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def settle() -> None:
    """Free what can be freed (Python's garbage, the C heap's free pages) so that the
    resident memory is what is really held."""
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def reset_peak() -> bool:
    """Reset the process's peak resident memory (Linux >= 4.0); False where it cannot."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_mb() -> float:
    """The peak resident memory since the last reset: VmHWM, else ru_maxrss."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024



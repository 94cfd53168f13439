"""Limits that are said, not discovered: every limit Glassbox enforces, in one place.

A shared classroom server must survive one student's bad file or huge text, so each
resource a user can ask for has a bound. Each `Limit` names its environment variable
(read when the value is asked for, so a test or a server start can change it), its
default and unit, what it bounds and why the default, and the key of the message a
user sees when they reach it (`ui/strings/`). The README's "Limits" table is this
table; `tests/unit/test_limits.py` checks that they agree.

Defaults are sized for one server with 2-16 cores and 24 GB of memory shared by a class
of ~30: a few cached models and thirty 256 MB passes still leave room. The model budget is
the one default read from the machine (`machine_model_budget_mb`): half of the memory
still available, less a reserve for the server itself; 2,000 MB where that cannot be read.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

RESERVE_MB = 1024         # the server itself: Python, PyTorch, Streamlit, MiniLM, the passes in flight
MIN_MODEL_MB = 256        # a nearly full machine still takes the toy and trained models
MEMINFO = Path("/proc/meminfo")
CGROUP_FILES = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),           # cgroup v2
                ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"))


def _read_int(path: str | Path) -> int | None:
    try:
        raw = Path(path).read_text().strip()
    except OSError:
        return None
    return int(raw) if raw.isdigit() else None             # cgroup v2 writes "max" when unlimited


def available_memory_bytes() -> int | None:
    """Memory this process could still take, in bytes: /proc/meminfo's MemAvailable (Linux),
    bounded by its container's room (cgroup limit less usage: a container sees the host's
    /proc/meminfo); psutil's `available` where there is no /proc (macOS, Windows) and psutil
    is installed; None when neither can be read."""
    avail = None
    try:
        for line in MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                avail = int(line.split()[1]) * 1024            # "MemAvailable:  24252476 kB"
                break
    except (OSError, ValueError, IndexError):
        avail = None
    if avail is None:
        try:
            import psutil
        except ImportError:
            return None
        avail = int(psutil.virtual_memory().available)
    for limit_file, usage_file in CGROUP_FILES:
        limit, usage = _read_int(limit_file), _read_int(usage_file)
        if limit is not None and usage is not None and limit < 1 << 60:    # v1 writes ~2^63 when unlimited
            avail = min(avail, max(0, limit - usage))
            break
    return avail


def machine_model_budget_mb() -> float | None:
    """The model budget this machine affords now, in MB: half of (available memory − RESERVE_MB),
    at least MIN_MODEL_MB; None when the available memory cannot be read. Half, because a
    load can hold part of the file's tensors beside the model it builds (a float32 file
    loaded as bfloat16 is twice the model), and the parity badge builds transformers' copy
    beside ours."""
    avail = available_memory_bytes()
    if avail is None:
        return None
    return max(MIN_MODEL_MB, (avail / 1e6 - RESERVE_MB) / 2)


@dataclass(frozen=True)
class Limit:
    env: str              # the environment variable that overrides the default
    default: float
    unit: str
    what: str             # what it bounds, and why the default
    message: str          # the string key of what a user sees at the limit
    strict: bool = False  # an unreadable value stops the server (True) or falls back to the default
    machine: Callable[[], float | None] | None = None   # a default read from the machine (None: `default`)

    def value(self) -> float:
        """The limit in force: the environment's value, else the default."""
        return self.value_in(os.environ)

    def fallback(self) -> float:
        """The value when the environment sets none: the machine's, else `default`."""
        got = self.machine() if self.machine is not None else None
        return self.default if got is None else got

    def is_set(self, env: Mapping[str, str] | None = None) -> bool:
        """Whether the environment (an operator) sets this limit to a value it keeps."""
        env = os.environ if env is None else env
        raw = env.get(self.env, "").strip()
        try:
            v = float(raw)
        except ValueError:
            return False
        return v == v and v > 0

    def value_in(self, env: Mapping[str, str]) -> float:
        """The limit `env` (an environment) sets: its value, else the default."""
        raw = env.get(self.env, "").strip()
        if not raw:
            return self.fallback()
        try:
            v = float(raw)
        except ValueError:
            if self.strict:
                raise ValueError(f"{self.env} must be a number, not {raw!r}.") from None
            return self.fallback()
        if v != v or v <= 0:                          # NaN, zero or negative: not a limit
            if self.strict:
                raise ValueError(f"{self.env} must be a positive number, not {raw!r}.")
            return self.fallback()
        return v


LIMITS: dict[str, Limit] = {
    "model_mb": Limit(
        "GLASSBOX_MODEL_BUDGET_MB", 2000, "MB",
        "parameters and buffers of one model built from a file (checkpoint zip, model folder, hub download) or "
        "trained in a session, in the dtype it is loaded in (float32: 4 bytes a value, bfloat16 and float16: 2), "
        "checked from the config and the weights' header before anything is allocated. Unset, it comes from the "
        "machine at each check: half of (available memory, or the container's room, less 1,024 MB), at least "
        "256 MB; the 2,000 MB default where the memory cannot be read",
        "refused_model_too_big", machine=machine_model_budget_mb),
    "layers": Limit(
        "GLASSBOX_MAX_LAYERS", 256, "layers",
        "blocks per stack of a model built from a file (the largest public models have ~100; a config asking "
        "for millions of tiny layers would exhaust the server building them)", "refused_too_many_layers"),
    "trace_mb": Limit(
        "GLASSBOX_TRACE_BUDGET_MB", 256, "MB",
        "memory of one recorded pass (the trace and one layer's working memory), estimated before it runs; a "
        "longer text is cut to the tokens that fit (MiniLM at 512 tokens needs ~130 MB)", "mem_budget_cut"),
    "text_chars": Limit(
        "GLASSBOX_TEXT_CHARS", 20_000, "characters",
        "a text the pages read: longer texts are cut before tokenizing (a model keeps at most its max_len "
        "tokens anyway)", "truncated"),
    "upload_mb": Limit(
        "GLASSBOX_UPLOAD_MB", 20, "MB",
        "a checkpoint zip (its contents may unpack to 4x that; Streamlit's own maxUploadSize, 25 MB in "
        ".streamlit/config.toml, is set just above)", "refused_too_big"),
    "text_kb": Limit(
        "GLASSBOX_TEXT_UPLOAD_KB", 200, "KB",
        "a character-level training text (.txt upload or pasted)", "refused_text_too_big"),
    "session_models": Limit(
        "GLASSBOX_SESSION_MODELS", 8, "models",
        "models one browser session has trained or uploaded (each stays in memory for the session)",
        "refused_session_models"),
    "loaded_mb": Limit(
        "GLASSBOX_LOADED_BUDGET_MB", 6000, "MB",
        "models loaded from a folder or the hub, all sessions together: sessions loading the same folder in the "
        "same dtype on the same device share one copy, and copies no session holds are dropped first. Unset, it "
        "comes from the machine at each load: what the loaded copies take plus three quarters of (available "
        "memory, or the container's room, less 1,024 MB); the 6,000 MB default where the memory cannot be read",
        "refused_loaded_budget",
        machine=lambda: None if (avail := available_memory_bytes()) is None else avail / 1e6 - RESERVE_MB),
    "training_runs": Limit(
        "GLASSBOX_TRAINING_RUNS", 2, "runs",
        "training runs at once in the whole server; further runs wait for a free slot", "tr_waiting", strict=True),
    "sessions": Limit(
        "GLASSBOX_MAX_SESSIONS", 100, "sessions",
        "browser sessions one server process serves at once; a further visitor is asked to come back",
        "refused_sessions", strict=True),
    "map_sessions": Limit(
        "GLASSBOX_MAP_SESSIONS", 5, "sessions",
        "sessions at once up to which the overview draws its model map and checks its parity badge for every "
        "text; above, a reader asks for each with a button (the map is a recorded pass and a large chart on every "
        "new text: on a 2-core server, 10 sessions typing at once took p95 from 0.6 s to 12 s; the badge is "
        "transformers' pass and ours)", "map_on_request"),
    "class_hours": Limit(
        "GLASSBOX_CLASS_HOURS", 24, "hours",
        "how long a class (class mode) and its students' anonymous answers are kept after the teacher starts it; "
        "then both are deleted and the code is refused", "refused_class_not_found"),
    "passes": Limit(
        "GLASSBOX_MAX_PASSES", 0, "passes",
        "big forward passes (>= 128 tokens) running at once across all models; 0 = one per two logical CPUs",
        "refused_server_busy", strict=True),
    "pass_wait_s": Limit(
        "GLASSBOX_PASS_WAIT_S", 60, "s",
        "how long a big pass waits for a slot before the page says the server is busy", "refused_server_busy",
        strict=True),
}


def value(name: str) -> float:
    """The value in force of one limit (see LIMITS)."""
    return LIMITS[name].value()


def megabytes(name: str) -> int:
    """A limit given in MB (10^6 bytes) as bytes."""
    return int(value(name) * 1e6)

"""Limits that are said, not discovered: every limit Glassbox enforces, in one place.

A shared classroom server must survive one student's bad file or huge text, so each
resource a user can ask for has a bound. Each `Limit` names its environment variable
(read when the value is asked for, so a test or a server start can change it), its
default and unit, what it bounds and why the default, and the key of the message a
user sees when they reach it (`ui/strings/`). The README's "Limits" table is this
table; `tests/unit/test_limits.py` checks that they agree.

Defaults are sized for one server with 2-16 cores and 24 GB of memory shared by a class
of ~30: six cached models of at most 2,000 MB and thirty 256 MB passes still leave room.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    env: str              # the environment variable that overrides the default
    default: float
    unit: str
    what: str             # what it bounds, and why the default
    message: str          # the string key of what a user sees at the limit
    strict: bool = False  # an unreadable value stops the server (True) or falls back to the default

    def value(self) -> float:
        """The limit in force: the environment's value, else the default."""
        return self.value_in(os.environ)

    def value_in(self, env: Mapping[str, str]) -> float:
        """The limit `env` (an environment) sets: its value, else the default."""
        raw = env.get(self.env, "").strip()
        if not raw:
            return self.default
        try:
            v = float(raw)
        except ValueError:
            if self.strict:
                raise ValueError(f"{self.env} must be a number, not {raw!r}.") from None
            return self.default
        if v != v or v <= 0:                          # NaN, zero or negative: not a limit
            if self.strict:
                raise ValueError(f"{self.env} must be a positive number, not {raw!r}.")
            return self.default
        return v


LIMITS: dict[str, Limit] = {
    "model_mb": Limit(
        "GLASSBOX_MODEL_BUDGET_MB", 2000, "MB",
        "parameters and buffers of one model built from a file (checkpoint zip, model folder, hub download) or "
        "trained in a session, checked from the config and the weights' header before anything is allocated",
        "refused_model_too_big"),
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
    "training_runs": Limit(
        "GLASSBOX_TRAINING_RUNS", 2, "runs",
        "training runs at once in the whole server; further runs wait for a free slot", "tr_waiting", strict=True),
    "sessions": Limit(
        "GLASSBOX_MAX_SESSIONS", 100, "sessions",
        "browser sessions one server process serves at once; a further visitor is asked to come back",
        "refused_sessions", strict=True),
    "map_sessions": Limit(
        "GLASSBOX_MAP_SESSIONS", 5, "sessions",
        "sessions at once up to which the overview draws its model map for every text; above, a reader asks for "
        "it with a button (the map is a recorded pass and a large chart on every new text: on a 2-core server, "
        "10 sessions typing at once took p95 from 0.6 s to 12 s)", "map_on_request"),
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

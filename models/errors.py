"""Refusals a user can read in their own language.

`models/` cannot translate (it imports no UI), and a bad file or setting must never reach
the user as a traceback, a temporary path or a Python type name. So a refusal carries a
`reason` (a short id such as "model_too_big"), the `values` its sentence names, and an
English sentence as its message (for logs, notebooks and tests). An app shows
`strings["refused_" + reason].format(**values)` in the user's language.
"""
from __future__ import annotations

import math
from typing import Any


class Refused(ValueError):
    """Something the user gave (a file, a config, a request) that cannot be used."""

    def __init__(self, reason: str, message: str, **values: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.values = values


class ConfigError(Refused):
    """A TransformerConfig that cannot describe a model."""


class ModelTooBig(Refused):
    """A model larger than the server's budget, known before anything is allocated."""

    def __init__(self, need: int, budget: int, what: str = "This model") -> None:
        need_mb, budget_mb = megabytes(need), megabytes(budget)
        super().__init__("model_too_big", f"{what} needs about {need_mb} MB for its parameters, more than this "
                         f"server's budget of {budget_mb} MB per model (GLASSBOX_MODEL_BUDGET_MB).",
                         need=need_mb, budget=budget_mb)
        self.need, self.budget = need, budget


class LoadedBudgetFull(Refused):
    """A model that would take the models loaded on this server, all sessions together, over
    their budget even after the copies no session holds were dropped (ui/serving/loaded.py)."""

    def __init__(self, need: int, used: int, budget: int) -> None:
        need_mb, used_mb, budget_mb = megabytes(need), megabytes(used), megabytes(budget)
        super().__init__("loaded_budget", f"This model needs about {need_mb} MB; with the {used_mb} MB of loaded "
                         "models that open sessions are using, that is over this server's budget of "
                         f"{budget_mb} MB for loaded models (GLASSBOX_LOADED_BUDGET_MB).",
                         need=need_mb, used=used_mb, budget=budget_mb)
        self.need, self.used, self.budget = need, used, budget


def megabytes(n: int) -> str:
    """n bytes in MB as a sentence shows them ("1,234"); a count too large for a float
    (a hostile config's product of 300-digit numbers) as a power of ten ("10^312")."""
    try:
        return f"{n / 1e6:,.0f}"
    except OverflowError:
        return f"10^{int(n.bit_length() * math.log10(2)) - 6}"

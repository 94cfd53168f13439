"""`RunKey`: which pass a page asks for, the first argument of every cached per-text
serving function (`attention_data(key, ...)`, `walk(key, ...)`, ...).

A frozen dataclass of plain strings: `st.cache_data` hashes a dataclass by value
(`dataclasses.asdict`), so two equal keys hit the same cache entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RunKey:
    """(model, device, text, decoder input) of one recorded pass; `target` is "" where the
    decoder reads the text itself (and for every model that has no decoder input)."""

    model_key: str
    device: str
    text: str
    target: str = ""

    @classmethod
    def of(cls, sel: Any) -> RunKey:
        """The key of the sidebar's `Selection` (anything with those four fields)."""
        return cls(sel.model_key, sel.device, sel.text, sel.target)

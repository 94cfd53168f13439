"""Beyond softmax: section 'memory' (TO BE WRITTEN by the helper that owns it)."""
from __future__ import annotations

from ..shell import Selection


def render(sel: Selection, cfg) -> None:
    raise NotImplementedError("section memory")

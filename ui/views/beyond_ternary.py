"""Beyond softmax: section 'ternary' (TO BE WRITTEN by the helper that owns it)."""
from __future__ import annotations

from ..shell import Selection


def render(sel: Selection) -> None:
    raise NotImplementedError("section ternary")

"""A/B comparison of two inputs, position by position: the difference of two arrays
and the positions whose tokens differ (numpy only; the A/B panels draw the result
with the ffn and residual figures).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A - B for two arrays of the same shape (the same layer for text A and text B)."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.shape != b.shape:
        raise ValueError(f"A and B must have the same shape to be subtracted; got {a.shape} and {b.shape}. "
                         "Texts of different lengths have different numbers of positions.")
    return a - b


def differing_positions(tokens_a: Sequence[str], tokens_b: Sequence[str]) -> list[int]:
    """Positions whose tokens differ between two tokenisations of the same length."""
    if len(tokens_a) != len(tokens_b):
        raise ValueError(f"Text A has {len(tokens_a)} tokens and text B has {len(tokens_b)}: the difference "
                         "view compares position by position, so both need the same number of tokens.")
    return [i for i, (x, y) in enumerate(zip(tokens_a, tokens_b)) if x != y]

"""Numbers of the "positions" lesson: which positional scheme still works at a longer
input, whether shuffled inputs give the same scores reordered, and a similarity curve
read at a distance.

Plain numbers and ids in and out (the rows are `lab.checkpoints.extrapolation`'s, the
permutation result is `lab.checkpoints.permutation_test`'s); no Streamlit, no translated text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

WORKS = 0.5              # a scheme "extrapolates" when at least half the longer answers are exactly right
SAME = 1e-5              # relative size of a difference that is float rounding, not a change


@dataclass(frozen=True)
class Extrapolation:
    """Each scheme's exact-match accuracy at the training length and at `factor` times it."""

    factor: float
    train: dict[str, float | None]        # scheme -> accuracy at 1x (None: not measurable)
    longer: dict[str, float | None]       # scheme -> accuracy at factor x
    best: str                             # the scheme with the highest accuracy at factor x
    best_accuracy: float
    winner: str                           # best, or "nothing" when even it stays under WORKS


def extrapolation_at(rows: Mapping[str, Sequence[Mapping]], factor: float = 2.0, works: float = WORKS) -> Extrapolation:
    """rows: scheme -> `lab.checkpoints.extrapolation` rows (with factors 1 and `factor`)."""
    def at(rs, f):
        return next((r["accuracy"] for r in rs if math.isclose(r["factor"], f)), None)

    train = {s: at(rs, 1.0) for s, rs in rows.items()}
    longer = {s: at(rs, factor) for s, rs in rows.items()}
    measured = {s: a for s, a in longer.items() if a is not None}
    if not measured:
        raise ValueError(f"no scheme could be measured at {factor:g}x its training length")
    best = max(measured, key=lambda s: (measured[s], -list(rows).index(s)))
    return Extrapolation(factor, train, longer, best, measured[best], best if measured[best] >= works else "nothing")


def permuted_exactly(error: float, scores: np.ndarray) -> bool:
    """Whether a permutation test's largest difference is rounding only (relative to the scores' size)."""
    return error <= SAME * max(1.0, float(np.nanmax(np.abs(scores))))


def at_distance(curve: np.ndarray, distance: int) -> float:
    """A by-distance curve read at `distance` (NaN when the curve is shorter or unmeasured there)."""
    return float(curve[distance]) if 0 <= distance < len(curve) else float("nan")

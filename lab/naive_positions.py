"""The position schemes tried before sinusoidal vectors ([0, 1]-normalised index, integer
index, binary, one-hot) beside sinusoidal ones: their vectors, the distance between every two
positions, one gap measured in texts of two lengths, and the course notes' worked examples
(the positional lab's *Before sinusoidal* section). Sinusoidal vectors are the model's own
(`models.positional.sinusoidal`). No model runs.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

import models.positional
from models.config import STOCK_BASE

NAIVE = ("normalised", "integer", "binary", "onehot")
NOTES_TEXTS = ("我喜欢吃洋葱", "我真的不喜欢吃洋葱")     # the notes' two worked examples: 6 and 9 characters


def naive_table(scheme: str, n: int, trained: int | None = None) -> np.ndarray:
    """Position vectors [n, d'] float64 of a naive scheme for a text of n tokens:
    normalised p / (n − 1) (one number, 0 for the first token and 1 for the last), integer
    p + 1 (one number, 1..n as the notes count), binary (the bits of p, as many as
    `trained` positions need; a position that needs one more has no vector: NaN), one-hot
    (a `trained`-wide indicator; a position at or past `trained` has no vector: NaN).
    `trained` defaults to n."""
    if n < 1:
        raise ValueError(f"A text has at least one position (got {n}).")
    trained = n if trained is None else trained
    if trained < 1:
        raise ValueError(f"The trained length must be at least 1 (got {trained}).")
    p = np.arange(n, dtype=np.float64)
    if scheme == "normalised":
        return (p / max(1, n - 1))[:, None]
    if scheme == "integer":
        return (p + 1)[:, None]
    if scheme == "binary":
        bits = max(1, math.ceil(math.log2(trained)))
        out = ((np.arange(n)[:, None] >> np.arange(bits)[::-1]) & 1).astype(np.float64)
        out[2 ** bits:] = np.nan                 # needs a bit the trained vectors never had
        return out
    if scheme == "onehot":
        out = np.full((n, trained), np.nan)
        seen = min(n, trained)
        out[:seen] = np.eye(trained)[:seen]
        return out
    raise ValueError(f"Unknown naive scheme {scheme!r}; known: {', '.join(NAIVE)}.")


def position_vectors(scheme: str, n: int, trained: int | None = None, d: int = 64,
                     base: float = STOCK_BASE) -> np.ndarray:
    """A naive scheme's vectors, or sinusoidal ones of width d (float64)."""
    if scheme == "sinusoidal":
        return models.positional.sinusoidal(n, d, base).double().numpy()
    return naive_table(scheme, n, trained)


def distances(table: np.ndarray) -> np.ndarray:
    """[n, n] Euclidean distance between every two positions' vectors (NaN where a
    position has no vector)."""
    diff = table[:, None, :] - table[None, :, :]
    return np.sqrt((diff ** 2).sum(-1))


GAPS = ((6, 0, 3), (9, 0, 3), (9, 5, 8), (9, 0, 1), (9, 0, 8))    # (text length, position a, position b)


def gap_table(schemes: Sequence[str], d: int = 64, base: float = STOCK_BASE) -> dict[str, list[float]]:
    """scheme -> the distance between positions a and b of a text of length n, for each
    (n, a, b) of GAPS: the same 3-apart pair in a 6- and a 9-token text, another 3-apart
    pair, and a near and a far pair."""
    return {s: [float(distances(position_vectors(s, n, d=d, base=base))[a, b]) for n, a, b in GAPS] for s in schemes}

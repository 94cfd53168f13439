"""The numbers of the lesson "Everything becomes tokens" (lessons/08-tokens.toml) and the right
answers of its questions, computed from the cuts (lab/text.py) and the shipped ViTs
(lab/patches.py), never typed into the lesson file.

- `longest`: which way of cutting a text gives the most pieces;
- `bpe_bucket`: byte-level BPE's length against the text's characters and bytes;
- `unknown_bucket`: how much of a cut is the unknown token;
- `sequence_length` / `length_option`: how many vectors a picture cut into P×P patches
  becomes, and the question's option that holds that number;
- `quadrant`: the quarter of the picture that holds the patch a query looks at most;
- `conv_answer` / `shuffle_answer`: whether two outputs are the same map / which models
  change when the patches are shuffled, with a tolerance for float32 rounding.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

SCHEMES = ("chars", "bytes", "wordpiece", "bpe")        # the text cuts, in the order the lesson shows them
LENGTHS = (4, 16, 17, 64)                                # the patch question's options (8×8 digit, 2×2 patches)
QUADRANTS = ("tl", "tr", "bl", "br")
TOL = 1e-4                                               # float32: the same map gives differences near 1e-7


def longest(lengths: Mapping[str, int]) -> str:
    """The scheme with the most pieces; on a tie the first in SCHEMES order."""
    order = [s for s in SCHEMES if s in lengths] + [s for s in lengths if s not in SCHEMES]
    return max(order, key=lambda s: (lengths[s], -order.index(s)))


def bpe_bucket(n_bpe: int, n_chars: int, n_bytes: int) -> str:
    """"bytes": nothing merged (one piece per byte); "fewer" / "same" / "more": fewer pieces
    than characters, as many, more (but fewer than bytes)."""
    if n_bpe == n_bytes:
        return "bytes"
    if n_bpe < n_chars:
        return "fewer"
    return "same" if n_bpe == n_chars else "more"


def unknown_bucket(unknown: int, n: int) -> str:
    """"none" (no unknown piece), "some" (under half), "most" (half or more)."""
    if unknown == 0 or n == 0:
        return "none"
    return "most" if 2 * unknown >= n else "some"


def sequence_length(height: int, width: int, p: int, cls: bool = True) -> int:
    """Vectors a picture becomes: one per whole P×P patch (the remainders cropped), plus [CLS]."""
    if p < 1 or p > min(height, width):
        raise ValueError(f"A {p}×{p} patch does not fit a {width}×{height} picture.")
    return (height // p) * (width // p) + int(cls)


def length_option(n: int) -> str | None:
    """The patch question's option for length n (None when no option holds it)."""
    return f"len_{n}" if n in LENGTHS else None


def quadrant(weights: np.ndarray) -> tuple[str, int, int]:
    """(quarter, row, column) of the largest weight of a [rows, cols] grid; the quarter is
    "tl", "tr", "bl" or "br" (a middle row or column of an odd grid counts as top / left)."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or not w.size:
        raise ValueError("quadrant needs a non-empty [rows, cols] grid.")
    r, c = np.unravel_index(int(np.argmax(w)), w.shape)
    top = r < (w.shape[0] + 1) // 2
    left = c < (w.shape[1] + 1) // 2
    return ("t" if top else "b") + ("l" if left else "r"), int(r), int(c)


def conv_answer(diff: float, tol: float = TOL) -> str:
    return "same" if diff <= tol else "differs"


def shuffle_answer(diff_learned: float, diff_none: float, tol: float = TOL) -> str:
    """Which ViT's output changes when the patches are shuffled: "learned" (only the one with
    positions), "none" (only the one without), "both" or "neither"."""
    a, b = diff_learned > tol, diff_none > tol
    return "both" if a and b else "learned" if a else "none" if b else "neither"


# ---- sound ------------------------------------------------------------------------------------------
SOUND_TOKENS = (16_000, 100, 50, 25)      # the sound question's options: samples, frames, tokens, a distractor


def clip(wave: np.ndarray, seconds: float, rate: int) -> np.ndarray:
    """The first `seconds` of a waveform, zero-padded when it is shorter."""
    n = int(round(seconds * rate))
    x = np.zeros(n, dtype=np.float32)
    w = np.asarray(wave, dtype=np.float32).reshape(-1)[:n]
    x[:len(w)] = w
    return x


def chirp(seconds: float, rate: int) -> np.ndarray:
    """A tone gliding from 200 Hz to 2 kHz (the sound used when no speech can be made)."""
    t = np.arange(int(round(seconds * rate))) / rate
    f0, f1 = 200.0, 2000.0
    phase = 2 * np.pi * (f0 * t + (f1 - f0) * t * t / (2 * seconds))
    return (0.5 * np.sin(phase)).astype(np.float32)


def sound_option(n: int) -> str | None:
    return f"snd_{n}" if n in SOUND_TOKENS else None

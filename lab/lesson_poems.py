"""What attention does on a poem: where a line sits, and which heads line up the two lines
of a couplet or the rhyme positions (the lesson "attention on a poem", lessons/07-poems.toml).

A poem's lines are the runs of characters between line-ending punctuation (，。？！；：、
and their ASCII forms) or line breaks; each character gets (line, place in its line).
- couplet score of a head: over every character at place j of line i (i >= 1, the line
  before has a place j), the weight it puts on the character at place j of line i - 1
  (the same slot of the line it answers), averaged: in 床前明月光，疑是地上霜, 霜 sits in
  光's slot, 地 in 明's. A high score: the head lines the two lines up slot by slot.
- rhyme score: over the last character of every line after the first, the weight it puts
  on the last characters of all earlier lines (where a rhyme would be), averaged.
Chance for each: what a query would put there if its weight were spread evenly over the
keys it may see. Pure numpy; works on any causal or full pattern [layer, head, q, k].
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BREAKS = set("，。？！；：、,.?!;:\n")


@dataclass(frozen=True)
class Slot:
    line: int           # which line (0 = first)
    place: int          # place in its line (0 = first character)
    last: bool          # the line's last character (a rhyme position)


def slots(tokens: list[str]) -> list[Slot | None]:
    """Each token's line and place; None for punctuation, line breaks and spaces."""
    out: list[Slot | None] = []
    line, place, open_line = 0, 0, False
    for tok in tokens:
        ch = tok.strip()
        if not ch or ch in BREAKS:
            if open_line:
                line, place, open_line = line + 1, 0, False
            out.append(None)
            continue
        out.append(Slot(line, place, False))
        place, open_line = place + 1, True
    for i, s in enumerate(out):               # mark each line's last character
        if s is not None and (i + 1 == len(out) or out[i + 1] is None or out[i + 1].line != s.line):
            out[i] = Slot(s.line, s.place, True)
    return out


def pairs(tokens: list[str]) -> tuple[list[tuple[int, int]], list[tuple[int, list[int]]]]:
    """(couplet pairs (query, key): same place, previous line; rhyme rows (query, keys):
    a line's last character and the last characters of every earlier line)."""
    s = slots(tokens)
    where = {(x.line, x.place): i for i, x in enumerate(s) if x is not None}
    couplet = [(i, where[(x.line - 1, x.place)]) for i, x in enumerate(s)
               if x is not None and x.line >= 1 and (x.line - 1, x.place) in where]
    ends = [i for i, x in enumerate(s) if x is not None and x.last]
    rhyme = [(q, ends[:n]) for n, q in enumerate(ends) if n >= 1]
    return couplet, rhyme


def n_lines(tokens: list[str]) -> int:
    return len({x.line for x in slots(tokens) if x is not None})


def _visible(patterns: np.ndarray, q: int) -> int:
    """Keys query q may see (non-zero after the mask in any head: causal rows see q + 1)."""
    row = np.nan_to_num(patterns[..., q, :]).max(axis=tuple(range(patterns.ndim - 2)))
    return max(1, int(np.count_nonzero(row > 0)))


def scores(patterns: np.ndarray, tokens: list[str], measure: str) -> tuple[np.ndarray, float]:
    """([layer, head] mean weight on the measure's keys, chance of that weight). NaN
    scores when the text has no such pairs (a single line)."""
    patterns = np.nan_to_num(np.asarray(patterns, dtype=np.float64))
    n_layers, n_heads = patterns.shape[:2]
    couplet, rhyme = pairs(tokens)
    if measure == "couplet":
        rows = [(q, [k]) for q, k in couplet]
    elif measure == "rhyme":
        rows = rhyme
    else:
        raise ValueError(f"Unknown poem measure {measure!r}: couplet or rhyme.")
    if not rows:
        return np.full((n_layers, n_heads), np.nan), float("nan")
    got = np.mean([patterns[:, :, q, keys].sum(-1) for q, keys in rows], axis=0)
    chance = float(np.mean([len(keys) / _visible(patterns, q) for q, keys in rows]))
    return got, chance


def best(score: np.ndarray) -> tuple[int, int, float]:
    """(layer, head, score) of the highest score (NaN-safe)."""
    z = np.nan_to_num(score, nan=-np.inf)
    layer, head = np.unravel_index(int(np.argmax(z)), z.shape)
    return int(layer), int(head), float(score[layer, head])

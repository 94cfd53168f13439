"""Numbers the lessons' "what to notice" sentences name, computed from a pass.

numpy in, plain numbers out; no Streamlit, no translated text. Each is small on purpose:
a sentence such as "head 2.5 puts 61 % of its weight on the previous token" reads the
number from here, and the same number is on the figure beside it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from . import detectors


@dataclass(frozen=True)
class RowFacts:
    """One query's row of a head: where its largest value is and how spread it is."""

    top: int                 # key position of the largest finite value
    top_value: float
    low: float               # smallest finite value
    high: float
    n_keys: int              # keys it may see (finite entries)
    n_masked: int
    entropy: float           # of the row as weights (nan when the row is not a distribution)


def row_facts(row: np.ndarray) -> RowFacts:
    """[k] one query's values (scores or weights; -inf or NaN = masked)."""
    r = np.asarray(row, dtype=np.float64)
    ok = np.isfinite(r)
    if not ok.any():
        raise ValueError("row_facts: the row has no finite value (every key masked)")
    top = int(np.flatnonzero(ok)[np.argmax(r[ok])])
    w = r[ok]
    ent = float(-(w[w > 0] * np.log(w[w > 0])).sum()) if (w >= 0).all() and abs(w.sum() - 1) < 1e-3 else float("nan")
    return RowFacts(top, float(r[top]), float(w.min()), float(w.max()), int(ok.sum()), int((~ok).sum()), ent)


def pattern_shares(pattern: np.ndarray, tokens) -> dict[str, float]:
    """[q, k] one head's weights -> its mean weight on the previous token, the first token
    (queries from 1 on) and the query's own position, as detectors score them."""
    p = np.nan_to_num(np.asarray(pattern, dtype=np.float64))[None, None]     # [1, 1, q, k]
    scores = detectors.detect(p, list(tokens), None, detectors=("previous_token", "first_token")).scores
    return {"previous": float(scores["previous_token"][0, 0]), "first": float(scores["first_token"][0, 0]),
            "self": float(np.mean(np.diagonal(p[0, 0])))}


def strongest_head(patterns: np.ndarray, tokens, detector: str) -> tuple[int, int, float]:
    """(layer, head, score) of the head scoring highest on `detector` ([L, H, q, k])."""
    H = patterns.shape[1]
    scores = detectors.detect(np.nan_to_num(patterns), list(tokens), None, detectors=(detector,)).scores[detector]
    i = int(np.argmax(scores))
    return i // H, i % H, float(scores.flat[i])


def broadest_head(entropy: np.ndarray) -> tuple[int, int, float]:
    """(layer, head, entropy) of the head with the largest mean entropy ([L, H])."""
    i = int(np.nanargmax(entropy))
    return i // entropy.shape[1], i % entropy.shape[1], float(entropy.flat[i])


def last_word(tokens) -> int:
    """The position of the last token that is part of a word (letters or digits, not a
    special marker such as [SEP] or <eos>): the query a lesson follows by default."""
    for i in range(len(tokens) - 1, -1, -1):
        tok = str(tokens[i])
        special = (tok.startswith("[") and tok.endswith("]")) or (tok.startswith("<") and tok.endswith(">"))
        if not special and any(ch.isalnum() for ch in tok):
            return i
    return len(tokens) - 1


# Han characters (CJK unified ideographs, extension A, compatibility ideographs)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def word_counts(text: str) -> tuple[int, int]:
    """(words, Han characters) of `text` for a lesson's sentence: words are runs between spaces
    (and Han characters) that hold a letter or digit; every Han character counts on its own
    (Chinese has no spaces: 床前明月光 is five characters, not one word)."""
    words = han = 0
    for run in text.split():
        han += len(_HAN.findall(run))
        words += sum(1 for piece in _HAN.split(run) if any(ch.isalnum() for ch in piece))
    return words, han


def word_count(text: str) -> int:
    """Words and Han characters of `text` together (`word_counts`)."""
    return sum(word_counts(text))

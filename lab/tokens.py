"""The "Tokens from anything" page's common ground: whatever the input (text, an image, sound),
a model reads a sequence of pieces. `Cut` is one such sequence with where each piece came
from; for text, `units` finds the words and Chinese characters a reader counts and
`per_unit` says how many pieces each of them cost. The text section's cutters are
lab/text.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# CJK unified ideographs (the basic block, extension A, the compatibility block, extensions B-F)
HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef]")
# a word: a run of letters or digits that are not Chinese characters ("don't" is two words)
WORD = re.compile("(?:(?![\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef])[^\\W_])+")


@dataclass(frozen=True)
class Cut:
    """One way of cutting a text into pieces.

    `pieces`: each piece as text a reader can read (a byte as two hex digits, a part of a
    character as its bytes), not escaped; `spans`: the characters of the text each piece
    covers (start, end), a piece inside one character covering that character;
    `vocab_size`: how many different pieces the scheme has; `unknown`: how many pieces are
    the scheme's unknown token (what it could not spell)."""

    scheme: str
    pieces: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    vocab_size: int
    unknown: int = 0

    def __len__(self) -> int:
        return len(self.pieces)

    @property
    def unknown_share(self) -> float:
        return self.unknown / len(self.pieces) if self.pieces else 0.0


@dataclass(frozen=True)
class Units:
    words: tuple[tuple[int, int], ...]        # spans of the words (letters and digits, not Chinese)
    han: tuple[int, ...]                      # index of each Chinese character


def units(text: str) -> Units:
    return Units(tuple(m.span() for m in WORD.finditer(text)), tuple(m.start() for m in HAN.finditer(text)))


def pieces_per_char(cut: Cut, n_chars: int) -> list[int]:
    """For each character of the text, how many pieces of `cut` touch it."""
    out = [0] * n_chars
    for a, b in cut.spans:
        for i in range(a, min(b, n_chars)):
            out[i] += 1
    return out


def per_unit(cut: Cut, text: str) -> tuple[float | None, float | None]:
    """(pieces per word, pieces per Chinese character) of `cut` on `text`: the pieces that
    touch a word (a Chinese character) over the number of words (Chinese characters); a
    piece spanning two of them counts once. None where the text has none."""
    u = units(text)

    def touching(marked: list[int]) -> int:
        flags = [0] * (len(text) + 1)
        for i in marked:
            flags[i] = 1
        before = [0]                  # prefix sums: marked characters before each index
        for f in flags:
            before.append(before[-1] + f)
        return sum(1 for a, b in cut.spans if before[min(b, len(text))] - before[min(a, len(text))] > 0)

    words = touching([i for s, e in u.words for i in range(s, e)]) / len(u.words) if u.words else None
    han = touching(list(u.han)) / len(u.han) if u.han else None
    return words, han


def han_costs(cut: Cut, text: str) -> dict[str, int]:
    """How the Chinese characters of `text` fare in `cut`: how many are one piece of their
    own ("1"), cut into two, three or more pieces ("2", "3", "4+"), or share a piece with a
    neighbouring character ("shared")."""
    per_char = pieces_per_char(cut, len(text))
    shared = [False] * len(text)
    for a, b in cut.spans:
        if b - a > 1:
            for i in range(a, min(b, len(text))):
                shared[i] = True
    out = {"1": 0, "2": 0, "3": 0, "4+": 0, "shared": 0}
    for i in units(text).han:
        if shared[i]:
            out["shared"] += 1
        else:
            out[str(per_char[i]) if per_char[i] <= 3 else "4+"] += 1
    return out

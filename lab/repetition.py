"""Repetition in generated text: the n-grams a decoder repeats (GPT-2's loop under
greedy decoding) and how sampling settings change that (Holtzman et al. 2020, "The
Curious Case of Neural Text Degeneration")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from models.transformer import Transformer

from .generate import Gate, Settings, generate


def repeated_ngrams(ids: Sequence[int], n: int = 3, start: int = 0) -> np.ndarray:
    """[len(ids)] bool: token i ends an n-gram that already occurred earlier in `ids`
    (the GPT-2 loop: greedy decoding falls into repeating a phrase). Only positions >= start
    are marked (e.g. the generated part)."""
    if n < 1:
        raise ValueError(f"n must be at least 1 (got {n}).")
    ids = list(ids)
    seen: set[tuple[int, ...]] = set()
    out = np.zeros(len(ids), dtype=bool)
    for i in range(n - 1, len(ids)):
        gram = tuple(ids[i - n + 1: i + 1])
        if gram in seen and i >= start:
            out[i] = True
        seen.add(gram)
    return out


def repetition_rate(ids: Sequence[int], n: int = 3, start: int = 0) -> float:
    """Share of the tokens from `start` on that repeat an earlier n-gram (0 = none)."""
    marks = repeated_ngrams(ids, n, start)[start:]
    return float(marks.mean()) if marks.size else 0.0


@dataclass(frozen=True)
class RepetitionRow:
    """One setting of `compare_repetition`."""

    setting: str                # its notation, e.g. "T=0.7, k=40"
    rate: float                 # repetition_rate of the generated tokens
    new_ids: list[int]          # what it generated


COMPARE = (("greedy", Settings()), ("T=0.7, k=40", Settings("sample", temperature=0.7, top_k=40)),
           ("T=1.0", Settings("sample", temperature=1.0)), ("T=1.5", Settings("sample", temperature=1.5)))


def direct(model: Transformer, attempt: Callable[[Transformer], Any], n_tokens: int) -> Any:
    """The trivial gate: run `attempt(model)` as it is (a notebook, a test)."""
    return attempt(model)


def compare_repetition(model: Transformer, prompt: Sequence[int], n_new: int, n: int, *,
                       source: Sequence[int] | None = None, eos: int | None = None,
                       gate: Gate = direct) -> list[RepetitionRow]:
    """The same prompt under greedy decoding and a few sampling settings (`COMPARE`, seed
    0), `n_new` tokens each: how often each repeats an earlier n-gram. Each generation
    runs as gate(model, attempt, n_tokens)."""
    prompt = [int(i) for i in prompt]
    rows = []
    for name, base in COMPARE:
        settings = Settings(base.strategy, n_new, base.temperature, base.top_k, base.top_p, 0)
        res = gate(model, lambda m: generate(m, prompt, settings, source=list(source) if source else None, eos=eos,
                                             names=[]), len(prompt) + n_new)
        rows.append(RepetitionRow(name, repetition_rate(res.ids, n, start=len(prompt)), res.new_ids))
    return rows

"""Press et al.'s (2022) non-overlapping evaluation of a decoder LM at any length, in
bits per character: the numbers behind "train short, test long" (recipes/pe_lm.py
writes the report; lab/length_curve.py offers the same functions to the app with the
held-out text and the attention-by-distance profile).

The text is cut into consecutive windows of `length` characters that do not overlap; each
window is read on its own (its first character has no history, its last length - 1) and
the cross-entropy of every predicted character is averaged, in bits. Longer windows give
more history on average, so a scheme that extrapolates gets better (lower) with length;
one that does not blows up past its training length. Only the public model API is used
(forward, cfg), so any decoder works, including copies with changed positional settings.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F

LN2 = math.log(2)
FACTORS = (1, 1.5, 2, 3, 4, 6, 8)
BUDGET = 12_288            # predicted characters per length: 1536 * 8, and 1536 = 64 * 24 is divisible by every 64 * factor
BATCH_TOKENS = 8_192       # characters per forward pass (memory)


def max_length(model) -> int | None:
    """The longest input the model can read: a learned table's rows; None = no limit."""
    cfg = model.cfg
    return cfg.max_len if cfg.positional == "learned" else None


def check_length(model, length: int) -> None:
    """ValueError (a sentence) when the model cannot read `length` positions."""
    limit = max_length(model)
    if length < 1:
        raise ValueError(f"The evaluation length must be at least 1 character (got {length}).")
    if limit is not None and length > limit:
        raise ValueError(f"This model has learned positions for only {limit} characters, so it cannot be "
                         f"evaluated on windows of {length}.")
    if model.cfg.arch != "decoder" or model.cfg.output != "logits":
        raise ValueError("Bits per character need a decoder with a language-model head.")


def windows(ids, length: int, max_windows: int | None = None) -> torch.Tensor:
    """[n, length + 1] ids: window i reads ids[i*length : (i+1)*length] and predicts the
    characters one further, so the predicted characters of different windows never
    overlap and none is skipped."""
    ids = torch.as_tensor(ids, dtype=torch.long).reshape(-1)
    n = (len(ids) - 1) // length
    if max_windows is not None:
        n = min(n, int(max_windows))
    if n < 1:
        raise ValueError(f"The text has {len(ids)} characters: not one whole window of {length} "
                         f"(it needs {length + 1}).")
    starts = torch.arange(n) * length
    return ids[starts[:, None] + torch.arange(length + 1)]


@torch.no_grad()
def bits_per_char(model, ids, length: int, max_windows: int | None = None) -> float:
    """Mean cross-entropy, in bits, of every character predicted by consecutive
    non-overlapping windows of `length` (at most `max_windows` of them, from the start)."""
    length = int(length)
    check_length(model, length)
    w = windows(ids, length, max_windows)
    per_batch = max(1, BATCH_TOKENS // length)
    total, count = 0.0, 0
    for i in range(0, len(w), per_batch):
        chunk = w[i:i + per_batch].to(model.device)
        logits = model(chunk[:, :-1]).float()                       # [b, length, vocab]
        total += float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), chunk[:, 1:].reshape(-1),
                                       reduction="sum"))
        count += chunk[:, 1:].numel()
    return total / count / LN2


def budget_for(n_ids: int, lengths, budget: int = BUDGET) -> int:
    """Predicted characters per length: at most `budget`, at most what the text holds at
    the longest length, and a multiple of every length (so each length reads the same
    characters)."""
    lengths = [int(x) for x in lengths]
    step = math.lcm(*lengths)
    longest = max(lengths)
    fit = (n_ids - 1) // longest * longest
    return min(budget, fit) // step * step


def curve(model, ids, train_len: int, factors=FACTORS, max_windows: int | None = None,
          budget: int = BUDGET) -> list[tuple[float, int, float | None]]:
    """[(factor, length, bits per character or None)]: None where the model cannot read
    the length (a learned table past its end). Every length predicts the same first
    characters of `ids` (see `budget_for`; max_windows caps the windows of each length)."""
    lengths = [int(round(f * train_len)) for f in factors]
    n = budget_for(len(ids), lengths, budget)
    if n < 1:
        n = (len(ids) - 1) // max(lengths) * max(lengths)
    if n < 1:
        raise ValueError(f"The text has {len(ids)} characters: not one whole window of {max(lengths)}.")
    limit = max_length(model)
    out = []
    for f, length in zip(factors, lengths):
        if limit is not None and length > limit:
            out.append((f, length, None))
            continue
        cap = n // length if max_windows is None else min(n // length, int(max_windows))
        out.append((f, length, bits_per_char(model, ids, length, cap)))
    return out



"""Train short, test long (Press et al. 2022, Figure 1): a language model's bits per
character on held-out text as the evaluation length grows past the training length.

- `heldout_ids`: the corpus's held-out documents (models/training/corpus.py), encoded.
- `bits_per_char`: Press et al.'s non-overlapping evaluation: the text is cut into
  consecutive windows of `length` characters that do not overlap; each window is read on
  its own (the first character of a window has no history, the last one length - 1
  characters), and the cross-entropy of every predicted character is averaged, in bits.
  Longer windows give more history on average, so a scheme that extrapolates gets BETTER
  (lower) with length; one that does not blows up past its training length.
- `curve`: bits per character at multiples of the training length, the SAME characters
  predicted at every length (a fixed budget that every length divides), None where the
  model cannot read that many positions (a learned table past its end).
- `distance_profile`: how much attention a query puts on the key d positions back, per
  layer and head (where a scheme looks, and whether that changes past training length).

The numbers (windows, bits_per_char, budget_for, curve) live in
models/training/length_eval.py, which the training script's report uses too (models
does not import lab); this module adds the corpus and the attention profile.

Only the public model API is used (forward, run_with_cache, cfg), so any decoder works,
including copies whose positional settings were changed (another RoPE base, say).
"""
from __future__ import annotations

import numpy as np
import torch

from models.trace import act_name
from models.training import corpus
from models.training.length_eval import (BATCH_TOKENS, BUDGET, FACTORS, bits_per_char, budget_for, check_length,
                                         curve, max_length, windows)

__all__ = ["FACTORS", "BUDGET", "heldout_ids", "bits_per_char", "curve", "distance_profile", "budget_for",
           "check_length", "max_length", "windows"]


def heldout_ids(tokenizer, lang: str | None = None) -> list[int]:
    """The held-out text of the models' corpus, encoded without special tokens: one language
    (zh: modern Chinese and the poems, en), one part (zh-modern, zh-verse), or all when None."""
    text = corpus.split_text(corpus.load_corpus(), True, lang)
    return list(tokenizer.encode(text, add_special_tokens=False).ids)


@torch.no_grad()
def distance_profile(model, ids, length: int, n_windows: int) -> tuple[np.ndarray, np.ndarray]:
    """(distances [D], weights [layers, heads, D]) with D = length: weights[l, h, d] is the
    mean attention probability that a query at position q puts on the key at q - d,
    averaged over the queries that have such a key (q >= d: length - d of them per window)
    and over the first `n_windows` non-overlapping windows. A causal query's row sums to 1
    over its q + 1 keys, so sum_d weights[l, h, d] * (length - d) = length (one per query);
    the weights themselves do not sum to 1 (a long distance is averaged over fewer queries)."""
    length = int(length)
    check_length(model, length)
    w = windows(ids, length, n_windows)[:, :-1].to(model.device)
    cfg = model.cfg
    names = [act_name("pattern", layer) for layer in range(cfg.n_layers)]
    q = torch.arange(length)
    dist = q[:, None] - q[None, :]                                   # [q, k]: d = q - k
    causal = dist >= 0
    d_index = dist[causal]                                           # [entries]
    counts = torch.bincount(d_index, minlength=length).double()      # queries per distance, per window
    sums = torch.zeros(cfg.n_layers, cfg.n_heads, length, dtype=torch.float64)
    per_batch = max(1, BATCH_TOKENS // length)
    for i in range(0, len(w), per_batch):
        _, trace = model.run_with_cache(w[i:i + per_batch], names=names)
        for layer, name in enumerate(names):
            p = trace[name].double().sum(0).cpu()                   # [heads, q, k], summed over windows
            sums[layer].index_add_(1, d_index, p[:, causal])
    weights = sums / (counts * len(w))
    return np.arange(length), weights.float().numpy()

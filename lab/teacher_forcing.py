"""Training sees every position at once; generation sees one at a time.

A decoder is trained with teacher forcing: the sequence x_0 … x_{n−1} is fed whole, and
position i is asked for x_{i+1} (the targets are the inputs shifted by one), so one
sequence of n tokens is n − 1 training examples, all scored by ONE forward pass under
the causal mask (position i cannot see x_{i+1}, the answer it is asked for). Generation
runs the same model one token at a time with a KV cache. Because the causal mask hides
exactly what is not there yet, both give the same logits at every position
(`teacher_forcing` measures the difference; it is float rounding).

Encoder-decoder models: the decoder's input is the target text, read with the source
(the encoder runs once); the same holds for the decoder side.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from models.kv_cache import KVCache, cache_is_exact
from models.transformer import Transformer


@dataclass
class TeacherForcing:
    """One sequence through one causal pass and through token-by-token decoding."""

    ids: list[int]               # the decoder sequence x_0 … x_{n−1}
    loss: np.ndarray             # [n−1] −log p(x_{i+1} | x_0..x_i) from the one parallel pass
    target_prob: np.ndarray      # [n−1] p(x_{i+1} | x_0..x_i)
    top_parallel: np.ndarray     # [n] argmax of the parallel pass at each position
    top_cached: np.ndarray       # [n] argmax of the cached, token-by-token pass
    diff: np.ndarray             # [n] max |logits_parallel[i] − logits_cached[i]| over the vocabulary
    n_passes_cached: int         # forward calls the token-by-token way needed (n)

    @property
    def mean_loss(self) -> float:
        """The training loss of this sequence: the mean over its n − 1 examples."""
        return float(self.loss.mean())

    @property
    def max_diff(self) -> float:
        return float(self.diff.max())

    def loss_matrix(self) -> np.ndarray:
        """[n−1, n] the examples as rows: row i is "x_0..x_i → x_{i+1}". NaN marks a
        position the example cannot see (after i+1); cells ≤ i (its context) hold 0, cell
        i+1 (its target) the loss."""
        n = len(self.ids)
        out = np.full((n - 1, n), np.nan)
        for i in range(n - 1):
            out[i, : i + 1] = 0.0
            out[i, i + 1] = self.loss[i]
        return out


def check(model: Transformer) -> None:
    cfg = model.cfg
    if cfg.arch == "encoder" or cfg.output != "logits":
        raise ValueError("Teacher forcing trains a decoder to predict the next token; this model is an encoder "
                         "(no next-token head).")
    if not cache_is_exact(cfg):
        raise ValueError(f"The {cfg.attention.kind!r} pattern changes earlier rows as the text grows, so "
                         "token-by-token decoding cannot reuse a cache here.")


@torch.no_grad()
def teacher_forcing(model: Transformer, ids: Sequence[int], source: Sequence[int] | None = None) -> TeacherForcing:
    """The parallel (teacher-forced) pass and the cached token-by-token pass over `ids`
    (the decoder sequence; `source`: the encoder input of an encoder-decoder)."""
    check(model)
    ids = list(ids)
    if len(ids) < 2:
        raise ValueError("Teacher forcing needs at least two tokens: one to read and one to predict.")
    encdec = model.cfg.arch == "encoder-decoder"
    if encdec and not source:
        raise ValueError("An encoder-decoder needs a source text for its encoder.")
    parallel = (model(source, ids) if encdec else model(ids))[0].double()          # [n, vocab]
    cache = KVCache.empty(model.cfg)
    rows = []
    for i, tok in enumerate(ids):
        out = model(source, [tok], cache=cache) if encdec else model([tok], cache=cache)
        rows.append(out[0, -1].double())
    cached = torch.stack(rows)                                                   # [n, vocab]
    logp = parallel.log_softmax(-1)
    targets = torch.as_tensor(ids[1:], device=logp.device)
    lp = logp[:-1].gather(-1, targets[:, None])[:, 0]
    return TeacherForcing(ids, (-lp).cpu().numpy(), lp.exp().cpu().numpy(), parallel.argmax(-1).cpu().numpy(),
                          cached.argmax(-1).cpu().numpy(), (parallel - cached).abs().amax(-1).cpu().numpy(), len(ids))

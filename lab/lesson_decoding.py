"""Numbers the "masks and decoders" lesson names: the keys a query may see under a mask,
and whether a decoder's next-token logits are the same with and without its KV cache.

`cache_check` runs the model itself (give it to the run gate: `serving.run`); the rest is
numpy in, numbers out. No Streamlit, no translated text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from models.kv_cache import KVCache, cache_is_exact
from models.transformer import Transformer

MATCH_TOL = 1e-4        # |logit difference| below this counts as the same (float32 rounding)


@dataclass(frozen=True)
class Visible:
    """One query's row of a boolean mask [q, k] (True = may attend)."""

    n_keys: int                  # keys it may see
    last: int                    # the latest key it may see (-1: none)
    first: int                   # the earliest (-1: none)
    n_hidden: int                # keys masked out


def visible(mask: np.ndarray, query: int) -> Visible:
    row = np.asarray(mask, dtype=bool)[query]
    keys = np.flatnonzero(row)
    return Visible(int(keys.size), int(keys[-1]) if keys.size else -1, int(keys[0]) if keys.size else -1,
                   int(row.size - keys.size))


@dataclass(frozen=True)
class CacheCheck:
    """Greedy decoding of `n` tokens, each step's next-token logits computed twice: the
    whole sequence recomputed, and only the new token fed with the K/V of the earlier ones
    cached."""

    new_ids: list[int]           # the tokens chosen (from the recomputed logits)
    diff: np.ndarray             # [steps] max |logits recomputed − logits with the cache|
    same_choice: int             # steps where both pick the same token
    cache_rows: list[int]        # positions cached after each step
    cache_bytes: list[int]       # bytes of K and V held after each step (all layers)
    exact: bool                  # whether this model's mask lets a cache be exact at all

    @property
    def max_diff(self) -> float:
        return float(self.diff.max()) if self.diff.size else 0.0

    @property
    def match(self) -> bool:
        return self.max_diff < MATCH_TOL


@torch.no_grad()
def cache_check(model: Transformer, prompt: Sequence[int], n_new: int) -> CacheCheck:
    """Decode `n_new` tokens greedily from `prompt` (decoder ids) with and without a KV cache."""
    cfg = model.cfg
    if cfg.arch != "decoder" or cfg.output != "logits":
        raise ValueError("The KV cache check needs a decoder that predicts tokens.")
    if not prompt:
        raise ValueError("The prompt is empty: give at least one token.")
    seq = torch.as_tensor([int(i) for i in prompt], device=model.device)[None]
    cache = KVCache.empty(cfg)
    new, diffs, same, rows, nbytes = [], [], 0, [], []
    for _ in range(n_new):
        if cfg.positional == "learned" and seq.shape[1] >= cfg.max_len:
            break
        full = model(seq)[0, -1].float()
        cached = model(seq[:, cache.length:], cache=cache)[0, -1].float()
        diffs.append(float((full - cached).abs().max()))
        nxt = int(torch.argmax(full))
        same += int(nxt == int(torch.argmax(cached)))
        rows.append(cache.length)
        nbytes.append(sum(layer.self_attn.nbytes for layer in cache.layers))
        new.append(nxt)
        seq = torch.cat([seq, torch.tensor([[nxt]], device=model.device)], dim=1)
    return CacheCheck(new, np.asarray(diffs, dtype=np.float64), same, rows, nbytes, cache_is_exact(cfg))

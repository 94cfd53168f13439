"""How much memory a recorded forward pass needs, known from the config and the token
count before the pass runs.

The attention maps dominate: every recorded map is [batch, heads, n_q, n_k], so

    attention maps = layers x heads x n² x bytes per value        (4 B float32, 2 B float16)

per recorded kind (`hook_pattern`; `hook_scores` doubles it), for each self-attention
stack (an encoder-decoder adds the decoder's n_tgt² and the cross-attention's
n_tgt x n_src maps). Everything else is per token: [batch, n, d_model] for the residual
stream, normalised values and sublayer outputs, [batch, n, d_ff] for the FFN,
[batch, n, heads, d_head] for q / k / v / z, and the masks are bool (1 B) [1, 1, n_q, n_k].

MiniLM (6 layers x 12 heads) at 512 tokens: 6 x 12 x 512² x 4 B = 75.5 MB of patterns;
a 12-layer, 12-head, d_model=768 model at 2,048 tokens: 12 x 12 x 2048² x 4 B = 2.4 GB.

`estimate_trace_bytes` adds up the exact shape of every hook the recording would keep;
it equals `Trace.logical_nbytes` (tested). `Trace.nbytes` can be lower: some hook
points hold the same tensor (the residual stream leaving one block is the one entering
the next; the layers of a stack share one mask).
"""
from __future__ import annotations

from typing import Callable, Sequence

import torch

from models.config import TransformerConfig
from models.hooks import Names, name_matcher
from models.trace import Stack, parse_name

_Q_LIKE = ("q", "rot_q", "z")
_KV_LIKE = ("k", "v", "rot_k")
_FFN = ("mlp_pre", "mlp_pre_linear", "mlp_post")


def hook_numel(name: str, cfg: TransformerConfig, n_src: int, n_tgt: int | None = None,
               batch: int = 1) -> tuple[int, bool]:
    """(number of values, is a bool mask) that hook `name` records for one pass over
    `batch` sequences of n_src tokens (and n_tgt decoder tokens for an encoder-decoder)."""
    a = parse_name(name)
    n_tgt = n_src if n_tgt is None else n_tgt
    n = n_tgt if a.stack in (Stack.DECODER, Stack.CROSS) else n_src        # positions of the stream
    k = n_src if a.stack in (Stack.ENCODER, Stack.SELF, Stack.CROSS) else n_tgt   # positions of its keys
    if a.kind == "mask":
        return n * k, True                                        # [1, 1, q, k] (no padding)
    if a.kind in ("scores", "pattern"):
        return batch * cfg.n_heads * n * k, False                 # [b, head, q, k]
    if a.kind in _Q_LIKE:
        return batch * n * cfg.n_heads * cfg.head_dim, False      # [b, q, head, d_head]
    if a.kind in _KV_LIKE:
        return batch * k * cfg.kv_heads * cfg.head_dim, False     # [b, k, kv_head, d_head]
    if a.kind in _FFN:
        return batch * n * cfg.d_ff, False                        # [b, pos, d_ff]
    if a.kind.endswith(".scale"):
        return batch * n, False                                   # [b, pos, 1]
    return batch * n * cfg.d_model, False                         # [b, pos, d_model]


def estimate_trace_bytes(cfg: TransformerConfig, hook_names: Sequence[str], n_src: int, n_tgt: int | None = None,
                         names: Names = None, dtype: torch.dtype = torch.float32, batch: int = 1) -> int:
    """Bytes a `run_with_cache(..., names=names, dtype=dtype)` trace holds, from the model's
    hook names (`model.hook_names()`) and the token counts, before anything runs."""
    if n_src < 0 or (n_tgt is not None and n_tgt < 0) or batch < 1:
        raise ValueError("Token counts must be >= 0 and the batch >= 1.")
    size = torch.empty((), dtype=dtype).element_size()
    match = name_matcher(names)
    total = 0
    for name in hook_names:
        if match(name):
            numel, is_bool = hook_numel(name, cfg, n_src, n_tgt, batch)
            total += numel * (1 if is_bool else size)
    return total


def attention_map_bytes(cfg: TransformerConfig, n: int, dtype: torch.dtype = torch.float32) -> int:
    """layers x heads x n² x bytes: one recorded kind of attention map of one stack."""
    return cfg.n_layers * cfg.n_heads * n * n * torch.empty((), dtype=dtype).element_size()


def working_bytes(cfg: TransformerConfig, n_src: int, n_tgt: int | None = None, batch: int = 1) -> int:
    """Memory the forward pass needs on top of the trace, one layer at a time: its
    scores, masked scores and softmax ([b, head, q, k] float32 each) and a few
    per-token activations. An estimate (an upper bound for our model, not a measurement)."""
    n = max(n_src, n_tgt or 0)
    return 4 * batch * (3 * cfg.n_heads * n * n + 4 * n * max(cfg.d_ff, cfg.d_model))


def max_tokens_within(budget: int, need: Callable[[int], int], n: int) -> int:
    """The largest m <= n with need(m) <= budget (need grows with m); 0 if none."""
    if need(n) <= budget:
        return n
    lo, hi = 0, n            # need(lo) <= budget (or lo == 0), need(hi) > budget
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if need(mid) <= budget:
            lo = mid
        else:
            hi = mid
    return lo if lo == 0 or need(lo) <= budget else 0


def megabytes(n_bytes: int) -> float:
    """Bytes in MB (10^6), as the app shows them."""
    return n_bytes / 1e6


def format_formula(cfg: TransformerConfig, n: int, dtype: torch.dtype = torch.float32) -> str:
    """'6 x 12 x 512² x 4 B = 75.5 MB' for the attention maps of one stack."""
    size = torch.empty((), dtype=dtype).element_size()
    mb = megabytes(attention_map_bytes(cfg, n, dtype))
    return f"{cfg.n_layers} × {cfg.n_heads} × {n}² × {size} B = {mb:.{1 if mb >= 1 else 3}f} MB"


__all__ = ["attention_map_bytes", "estimate_trace_bytes", "format_formula", "hook_numel", "max_tokens_within",
           "megabytes", "working_bytes"]

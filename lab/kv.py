"""Keys and values: which query heads share them (MHA, GQA, MQA) and what a KV cache
holds (Shazeer 2019, "Fast Transformer Decoding: One Write-Head is All You Need";
Ainslie et al. 2023, "GQA"; Kwon et al. 2023, PagedAttention)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.config import TransformerConfig


def kv_groups(n_heads: int, n_kv_heads: int) -> list[int]:
    """The key/value head that each query head reads: head h -> h // (n_heads / n_kv_heads)."""
    if n_kv_heads < 1 or n_heads % n_kv_heads:
        raise ValueError(f"n_heads ({n_heads}) must be divisible by n_kv_heads ({n_kv_heads}).")
    group = n_heads // n_kv_heads
    return [h // group for h in range(n_heads)]


def kv_head_options(n_heads: int) -> list[int]:
    """Valid numbers of key/value heads: the divisors of n_heads (1 = MQA, n_heads = MHA)."""
    return [g for g in range(1, n_heads + 1) if n_heads % g == 0]


def attention_kind(n_heads: int, n_kv_heads: int) -> str:
    """'MHA' (every query head has its own K/V), 'MQA' (one K/V head) or 'GQA' (in between)."""
    return "MHA" if n_kv_heads == n_heads else "MQA" if n_kv_heads == 1 else "GQA"


@dataclass(frozen=True)
class KVCacheSize:
    """Memory of a decoder's self-attention KV cache, in bytes."""

    n_kv_heads: int
    per_token: int        # 2 (K and V) x layers x kv heads x d_head x bytes per value
    total: int            # per_token x context


def kv_cache_bytes(cfg: TransformerConfig, context: int, n_kv_heads: int | None = None,
                   bytes_per_value: int = 4) -> KVCacheSize:
    """What a KV cache of `context` positions holds: per token 2 (K and V) · layers ·
    kv heads · d_head values. `n_kv_heads` asks "what if" (None = the model's own:
    MHA / GQA / MQA of the same shape); 4 bytes per value is float32 (our models), 2 is
    fp16/bf16. `cfg` may be any shape with n_layers, n_heads, kv_heads and head_dim
    (a lab.sizes.Shape: the size calculator's named models)."""
    kv = cfg.kv_heads if n_kv_heads is None else n_kv_heads
    kv_groups(cfg.n_heads, kv)                                    # validates kv
    if context < 0:
        raise ValueError(f"The context length cannot be negative (got {context}).")
    if bytes_per_value < 1:
        raise ValueError(f"A value takes at least one byte (got {bytes_per_value}).")
    per_token = 2 * cfg.n_layers * kv * cfg.head_dim * bytes_per_value
    return KVCacheSize(kv, per_token, per_token * context)


def paged_blocks(n_positions: int, block_size: int) -> tuple[int, int]:
    """PagedAttention stores the cache in fixed-size blocks: (blocks used, slots left
    empty in the last block)."""
    if block_size < 1:
        raise ValueError(f"The block size must be at least 1 (got {block_size}).")
    blocks = -(-n_positions // block_size)
    return blocks, blocks * block_size - n_positions


@dataclass(frozen=True)
class PagedLayout:
    """A sequence's KV cache in PagedAttention blocks."""

    blocks: int               # blocks used
    empty: int                # slots left empty in the last block
    physical: list[int]       # where each logical block lies in the shared pool


def paged_layout(n_positions: int, block_size: int, seed: int | None = None) -> PagedLayout:
    """`paged_blocks` plus a placement of the blocks in a pool of max(4 x blocks, 8): an
    illustration (the allocator hands out whichever blocks are free, so a sequence's
    blocks are scattered), seeded by `seed` (None: n_positions) so it is stable."""
    blocks, empty = paged_blocks(n_positions, block_size)
    rng = np.random.default_rng(n_positions if seed is None else seed)
    return PagedLayout(blocks, empty, [int(b) for b in rng.permutation(max(4 * blocks, 8))[:blocks]])


def kv_cache_curves(cfg: TransformerConfig, upto: int) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """(context lengths 1..upto, {kv heads: cache bytes [upto]}) for every valid number of
    key/value heads of this model's shape, MHA first (n_heads) down to MQA (1)."""
    positions = np.arange(1, upto + 1)
    return positions, {d: kv_cache_bytes(cfg, 1, d).per_token * positions
                       for d in sorted(kv_head_options(cfg.n_heads), reverse=True)}


@dataclass(frozen=True)
class CacheAtStep:
    """What a decoder's self-attention KV cache holds after one generation step."""

    rows: int                   # positions whose K and V are cached
    width: int                  # sequences cached side by side (beam search: the beam width)
    layer_bytes: list[float]    # per layer: measured, else `width` x this model's size
    shape: tuple[int, ...]      # of K (and of V) in each layer: [width, rows, kv heads, d_head]
    total: int                  # bytes for one sequence of `rows` positions, this model's kv heads
    mha: int                    # the same if every query head had its own K/V
    mqa: int                    # the same with a single K/V head


def cache_at_step(cfg: TransformerConfig, rows: int, width: int = 1,
                  measured: list[int] | None = None) -> CacheAtStep:
    """The cache after a step: `measured` per-layer bytes (the real tensors, 0 without a
    cache) when a step reported them, else `width` sequences of `rows` positions."""
    total = kv_cache_bytes(cfg, rows).total
    each = [width * total / cfg.n_layers] * cfg.n_layers
    return CacheAtStep(rows, width, list(measured) if measured is not None else each,
                       (width, rows, cfg.kv_heads, cfg.head_dim), total, kv_cache_bytes(cfg, rows, cfg.n_heads).total,
                       kv_cache_bytes(cfg, rows, 1).total)

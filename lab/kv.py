"""Keys and values: which query heads share them (MHA, GQA, MQA) and what a KV cache
holds (Shazeer 2019, "Fast Transformer Decoding: One Write-Head is All You Need";
Ainslie et al. 2023, "GQA"; Kwon et al. 2023, PagedAttention)."""
from __future__ import annotations

from dataclasses import dataclass

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
    fp16/bf16."""
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

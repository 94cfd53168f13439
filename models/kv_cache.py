"""The KV cache: what a decoder keeps between generation steps so that a step runs only
the new token (`Transformer.forward(new_ids, cache=c)` reads and extends it in place)."""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .config import MaskSpec, TransformerConfig


@dataclass
class KV:
    """Keys and values one attention layer has already computed: [b, pos, kv_head, dh]
    each (RoPE keys stored rotated; GQA/MQA store only the kv heads, before repeating)."""

    k: torch.Tensor | None = None
    v: torch.Tensor | None = None

    def extend(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Append the new rows; return all rows (past + new)."""
        self.k = k if self.k is None else torch.cat([self.k, k], dim=1)
        self.v = v if self.v is None else torch.cat([self.v, v], dim=1)
        return self.k, self.v

    @property
    def nbytes(self) -> int:
        return sum(t.numel() * t.element_size() for t in (self.k, self.v) if t is not None)


@dataclass
class LayerCache:
    self_attn: KV = field(default_factory=KV)   # grows by one row per generated token
    cross_attn: KV = field(default_factory=KV)  # encoder-decoder: the source's K/V, computed once


@dataclass
class KVCache:
    """`past_key_values`: what a decoder keeps between generation steps so that a step
    runs only the new token. `forward(new_ids, cache=c)` reads and extends it in place.
    Encoder-decoder: `memory` is the encoder output (the encoder runs once)."""

    layers: list[LayerCache]
    memory: torch.Tensor | None = None          # [b, src, d]
    memory_valid: torch.Tensor | None = None    # [b, src] bool or None

    @classmethod
    def empty(cls, cfg: TransformerConfig) -> "KVCache":
        return cls([LayerCache() for _ in range(cfg.n_layers)])

    @property
    def length(self) -> int:
        """Positions cached so far (the next token's position)."""
        k = self.layers[0].self_attn.k
        return 0 if k is None else k.shape[1]

    def reorder(self, index: torch.Tensor) -> None:
        """Keep batch rows `index` (beam search: each surviving beam takes its parent's cache)."""
        for layer in self.layers:
            for kv in (layer.self_attn, layer.cross_attn):
                if kv.k is not None:
                    kv.k, kv.v = kv.k.index_select(0, index), kv.v.index_select(0, index)
        if self.memory is not None:
            self.memory = self.memory.index_select(0, index)
        if self.memory_valid is not None:
            self.memory_valid = self.memory_valid.index_select(0, index)


LENGTH_DEPENDENT_ROPE = ("dynamic", "longrope")   # the rotation of every position depends on the text's length


def cache_is_exact(spec: MaskSpec | TransformerConfig) -> bool:
    """Whether extending a cache equals recomputing: the mask of n+1 tokens must contain
    the mask of n tokens (earlier rows never change). BigBird's random keys are drawn for
    the whole length, and a global token counted from the end (-1) moves as text grows.
    Given a whole config, also its positions: dynamic NTK and LongRoPE rotate every
    position by frequencies chosen for the current length, so keys cached at a shorter
    length keep an older rotation (transformers' own cached decoding does the same, and
    its `generate` re-reads a LongRoPE text once it outgrows the original context)."""
    if isinstance(spec, TransformerConfig):
        if spec.positional == "rope" and spec.rope_scaling in LENGTH_DEPENDENT_ROPE:
            return False
        spec = spec.attention
    if spec.kind == "bigbird":
        return False
    if spec.kind == "longformer":
        return all(g >= 0 for g in spec.global_tokens)
    return True

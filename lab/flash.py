"""FlashAttention (Dao et al. 2022), stepped through on one head of a real model.

The attention of a query row is softmax(s) · V over all its keys. FlashAttention never
holds the n × m matrix s: it reads K and V a tile of `tile_k` keys at a time (the
queries a tile of `tile_q` rows at a time) and keeps, per query row, three running
numbers: the largest score seen so far m, the denominator l = Σ e^(s − m) over the keys
seen so far, and the output O = Σ e^(s − m) v. When a tile brings a larger maximum, the
old l and O are rescaled by e^(m_old − m_new) (the "online softmax", Milakov & Gimelshein
2018). After the last tile O / l is exactly softmax(s) · V: the same arithmetic in
another order, so the same O(n·m) multiply-adds, but the memory it holds is O(n) numbers
of statistics plus one tile instead of the n·m scores.

`flash_head` records the head's q, k, v and mask through the model, runs the tiled
algorithm in float64 and compares the result with the model's own `hook_z` (softmax
attention times V, float32). Every tile's state is kept for the page (`TileStep`).
Real kernels also skip tiles that a causal mask hides entirely; here every tile is
visited, so the arithmetic is the plain one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from models.trace import Stack, act_name
from models.transformer import Transformer

from .kv import kv_groups
from .walkthrough import recompute_tolerance, walk_stack


@dataclass
class TileStep:
    """The running state of every query row after one key/value tile."""

    k_start: int
    k_stop: int
    tile_max: np.ndarray        # [n] the largest score of each row inside this tile (−∞: all masked)
    m: np.ndarray               # [n] running max after the tile
    l: np.ndarray               # [n] running denominator Σ e^(s − m)
    o: np.ndarray               # [n, dh] the partial output O / l: softmax over the keys seen so far · V
    rescale: np.ndarray         # [n] e^(m_old − m_new) applied to the old l and O (1: the max did not move)


@dataclass
class FlashRun:
    """One head through the tiled algorithm, and the check against the model."""

    layer: int
    head: int
    stack: str
    tile_q: int
    tile_k: int
    n: int                      # query rows
    m: int                      # keys
    d_head: int
    steps: list[TileStep] = field(default_factory=list)
    out: np.ndarray | None = None           # [n, dh] O / l after the last tile
    reference: np.ndarray | None = None     # [n, dh] softmax(s)·V computed whole, float64
    model_z: np.ndarray | None = None       # [n, dh] the model's hook_z of this head
    error: float = 0.0                      # max |out − model_z|
    error_reference: float = 0.0            # max |out − reference| (float64 rounding only)
    scores: np.ndarray | None = None        # [n, m] float32, NaN where masked: for drawing the tiles only
    tolerance: float = 1e-4                 # `error` below this is "the same" in the model's dtype

    @property
    def n_tiles_q(self) -> int:
        return math.ceil(self.n / self.tile_q)

    @property
    def n_tiles_k(self) -> int:
        return math.ceil(self.m / self.tile_k)

    def memory(self) -> dict[str, int]:
        return memory(self.n, self.m, self.tile_q, self.tile_k, self.d_head)

    def flops(self) -> dict[str, int]:
        """Multiply-adds counted as 2 flops: Q·Kᵀ and P·V are 2·n·m·dh each in both; the
        tiled version adds the rescaling of O and l once per key tile."""
        plain = 4 * self.n * self.m * self.d_head
        rescale = self.n_tiles_k * self.n * (self.d_head + 1)
        return {"standard": plain, "flash": plain + rescale}


def memory(n: int, m: int, tile_q: int, tile_k: int, d_head: int) -> dict[str, int]:
    """Numbers held at once for one head: the whole score matrix (n·m) against the
    running statistics (m and l per row: 2n), one score tile and the tiles of Q, K, V, O."""
    tq, tk = min(tile_q, n), min(tile_k, m)
    return {"matrix": n * m, "statistics": 2 * n, "score_tile": tq * tk, "qkvo_tiles": 2 * tq * d_head + 2 * tk * d_head}


def flash_forward(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray, bias: np.ndarray | None,
                  scale: float, tile_k: int, softcap: float | None = None) -> tuple[np.ndarray, list[TileStep]]:
    """The online-softmax loop over key tiles for every query row (the query tiles are
    independent of each other, so all rows advance together here). q [n, dh], k and v
    [m, dh], mask [n, m] bool (True = may attend), bias [n, m] or None, softcap: scores
    = c · tanh(scores / c) (Gemma 2; element-wise, so a tile at a time is exact). Returns
    (O / l [n, dh], the state after each tile)."""
    n, m = q.shape[0], k.shape[0]
    if tile_k < 1:
        raise ValueError(f"A tile holds at least one key (got {tile_k}).")
    run_m = np.full(n, -np.inf)
    run_l = np.zeros(n)
    acc = np.zeros((n, v.shape[1]))
    steps = []
    for start in range(0, m, tile_k):
        stop = min(start + tile_k, m)
        s = (q @ k[start:stop].T) * scale                              # [n, tile]: one tile of scores
        if bias is not None:
            s = s + bias[:, start:stop]
        if softcap is not None:
            s = np.tanh(s / softcap) * softcap
        s = np.where(mask[:, start:stop], s, -np.inf)
        tile_max = s.max(axis=1)
        new_m = np.maximum(run_m, tile_max)
        seen = np.isfinite(new_m)                                      # rows with at least one key so far
        moved = seen & np.isfinite(run_m)                              # rows with an old max to rescale from
        alpha = np.exp(np.subtract(run_m, new_m, out=np.zeros(n), where=moved))   # 1 where there is none
        p = np.where(seen[:, None], np.exp(s - np.where(seen, new_m, 0.0)[:, None]), 0.0)   # e^(−∞) = 0
        run_l = alpha * run_l + p.sum(axis=1)
        acc = alpha[:, None] * acc + p @ v[start:stop]
        run_m = new_m
        partial = np.divide(acc, run_l[:, None], out=np.zeros_like(acc), where=run_l[:, None] > 0)
        steps.append(TileStep(start, stop, tile_max, run_m.copy(), run_l.copy(), partial, alpha))
    return np.divide(acc, run_l[:, None], out=np.zeros_like(acc), where=run_l[:, None] > 0), steps


def reference_attention(q, k, v, mask, bias, scale, softcap: float | None = None) -> np.ndarray:
    """softmax(q kᵀ · scale + bias, soft-capped, masked) · v on the whole matrix (float64)."""
    s = q @ k.T * scale + (0.0 if bias is None else bias)
    if softcap is not None:
        s = np.tanh(s / softcap) * softcap
    s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v


def head_names(model: Transformer, layer: int, stack: Stack) -> list[str]:
    rot = model.cfg.layer_has_rope(layer) and not stack.cross          # a NoPE layer (SmolLM3) rotates nothing
    return [act_name("rot_q" if rot else "q", layer, stack), act_name("rot_k" if rot else "k", layer, stack),
            act_name("v", layer, stack), act_name("mask", layer, stack), act_name("z", layer, stack)]


@torch.no_grad()
def flash_head(model: Transformer, ids, layer: int, head: int, stack: Stack | str | None = None, tgt_ids=None,
               tile_q: int = 4, tile_k: int = 4) -> FlashRun:
    """Record one head's q, k, v, mask and z, run the tiled algorithm on them and compare."""
    cfg = model.cfg
    if not 0 <= layer < cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{cfg.n_layers - 1}.")
    if not 0 <= head < cfg.n_heads:
        raise ValueError(f"Head {head} does not exist: this model has heads 0..{cfg.n_heads - 1}.")
    if tile_q < 1 or tile_k < 1:
        raise ValueError("A tile holds at least one query and one key.")
    s = walk_stack(cfg, stack)
    q_name, k_name, v_name, mask_name, z_name = head_names(model, layer, s)
    _, tr = model.run_with_cache(ids, tgt_ids, names=[q_name, k_name, v_name, mask_name, z_name],
                                 stop_after=z_name)            # the layers above are not needed
    g = kv_groups(cfg.n_heads, cfg.kv_heads)[head]                      # its key/value head (GQA, MQA)

    def np64(t: torch.Tensor) -> np.ndarray:
        return t.detach().cpu().double().numpy()

    q, k, v = np64(tr[q_name][0, :, head]), np64(tr[k_name][0, :, g]), np64(tr[v_name][0, :, g])
    n, m = q.shape[0], k.shape[0]
    mask = np.broadcast_to(tr[mask_name][0, 0].cpu().numpy(), (n, m))
    bias = None
    if not s.cross:
        _, b, _ = model.stack_module(s).positions(cfg, n, tr[q_name])
        bias = None if b is None else np64(b[head])
    attn = model.stack_module(s).blocks[layer].attn if not s.cross else model.decoder.blocks[layer].cross_attn
    scale = attn.scale if attn.scale is not None else q.shape[1] ** -0.5   # T5: 1; Gemma 2/3, Granite: their own
    if attn.temperature != 1.0:                                           # the knobs' temperature, bias included
        scale, bias = scale / attn.temperature, None if bias is None else bias / attn.temperature
    out, steps = flash_forward(q, k, v, mask, bias, scale, tile_k, attn.softcap)
    ref = reference_attention(q, k, v, mask, bias, scale, attn.softcap)
    z = np64(tr[z_name][0, :, head])
    shown = np.where(mask, q @ k.T * scale + (0.0 if bias is None else bias), np.nan).astype(np.float32)
    return FlashRun(layer, head, s.value, tile_q, tile_k, n, m, q.shape[1], steps, out, ref, z,
                    float(np.abs(out - z).max()), float(np.abs(out - ref).max()), shown,
                    tolerance=recompute_tolerance(tr[z_name].dtype, float(np.abs(z).max())))

"""Long memory on one head's q, k, v (float64; dataclasses out): three ways to read
further back than one window.

- Transformer-XL (Dai et al. 2019): the text is cut into segments; each segment also
  attends to the previous segment's keys and values, kept in a cache without gradient
  (`.detach()`), and scores carry a relative-position term with four parts.
- Infini-attention (Munkhdalai et al. 2024): per segment, local softmax attention plus a
  compressive memory M (d×dv) and normaliser z (d) that summarise every earlier segment,
  mixed by a gate; its size does not grow with the text.
- LongNet's dilated attention (Ding et al. 2023): several (segment length w, dilation r)
  patterns, each attending among every r-th position of each w-long segment, mixed by
  their softmax denominators.

Where these differ from the papers (one layer's q, k, v instead of hidden states re-projected
at every layer; seeded u, v, W_R; no delta-rule memory update) is said where it is done.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import torch

from models import positional

from .recurrent import check_qkv

BYTES = 4                   # bytes per number in the size charts (float32)


def check_segment(segment: int) -> int:
    if int(segment) != segment or segment < 1:
        raise ValueError(f"The segment length must be a whole number of at least 1 (got {segment}).")
    return int(segment)


def softmax_rows(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, of the allowed cells only (0 elsewhere; `allowed`
    broadcasts against `scores`, e.g. one [q, k] mask for [heads, q, k]); a row with none
    allowed stays 0."""
    s = np.where(allowed, scores, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(s - np.where(np.isfinite(top), top, 0.0)), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


# --------------------------------------------------------------------------- Transformer-XL


@dataclass(frozen=True)
class XLParams:
    """The relative-position parameters, seeded: W_R [d_R, d] maps the sinusoidal
    embedding R_(i−j) (d_R = d rounded up to even) to key space; u, v [d] are the global
    content and position biases."""

    w_r: np.ndarray
    u: np.ndarray
    v: np.ndarray


def xl_params(d: int, seed: int = 0) -> XLParams:
    rng = np.random.default_rng(seed)
    d_r = d + d % 2
    return XLParams(rng.standard_normal((d_r, d)) / np.sqrt(d_r), rng.standard_normal(d) / np.sqrt(d),
                    rng.standard_normal(d) / np.sqrt(d))


def relative_keys(n: int, d: int, params: XLParams) -> np.ndarray:
    """W_R R_δ for δ = 0..n−1 [n, d]: the key of a distance."""
    return positional.sinusoidal_at(list(range(n)), params.w_r.shape[0]).numpy() @ params.w_r


def xl_terms(q: np.ndarray, k: np.ndarray, params: XLParams) -> np.ndarray:
    """The four terms [4, n, n] of A_ij = q_i·k_j (a) + q_i·W_R R_(i−j) (b) + u·k_j (c) +
    v·W_R R_(i−j) (d), for j <= i (0 where j > i: no relative key for the future)."""
    n, d = q.shape
    rel = relative_keys(n, d, params)                                 # [distance, d]
    dist = np.subtract.outer(np.arange(n), np.arange(n))
    past = dist >= 0
    gap = np.clip(dist, 0, None)
    a = q @ k.T
    b = np.take_along_axis(q @ rel.T, gap, axis=1)                    # q_i · W_R R_(i−j)
    c = np.broadcast_to(k @ params.u, (n, n))
    dd = (rel @ params.v)[gap]                                        # v · W_R R_(i−j)
    return np.stack([np.where(past, x, 0.0) for x in (a, b, c, dd)])


def xl_mask(n: int, segment: int) -> np.ndarray:
    """Who query i may read in one XL layer: its own segment up to itself and the whole
    previous segment (the cache) [n, n]."""
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return (j <= i) & (j >= (i // segment - 1) * segment)


def xl_segments(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scores: torch.Tensor,
                segment: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Segment by segment with a cache: segment s's queries read the cached keys and values
    of segment s−1 (`detach()`: no gradient flows into the past) and their own, causally.
    `scores` [n, n] are the full relative scores (already scaled). Returns (out [n, dv], weights [n, n])."""
    n = q.shape[0]
    out, weights = [], torch.zeros(n, n, dtype=torch.float64)
    cache_k = cache_v = None
    for start in range(0, n, segment):
        stop = min(start + segment, n)
        lo = start if cache_k is None else start - cache_k.shape[0]
        vals = v[start:stop] if cache_v is None else torch.cat([cache_v, v[start:stop]])
        s = scores[start:stop, lo:stop]
        allowed = torch.arange(lo, stop)[None, :] <= torch.arange(start, stop)[:, None]
        w = torch.softmax(s.masked_fill(~allowed, float("-inf")), dim=-1)
        out.append(w @ vals)
        weights[start:stop, lo:stop] = w.detach()
        cache_k, cache_v = k[start:stop].detach(), v[start:stop].detach()    # the cache: no gradient
    return torch.cat(out), weights


def xl_reach(n: int, segment: int, layers: int) -> tuple[np.ndarray, np.ndarray]:
    """How many positions the last of n positions reaches after ℓ = 1..layers layers [layers]:
    with the cache each layer adds one segment (o + 1 + ℓ·S, at most n, o its offset in its
    segment); segments read alone never leave their own (o + 1). `xl_reach_composed` checks it."""
    o = (n - 1) % segment
    ell = np.arange(1, layers + 1)
    return np.minimum(n, o + 1 + ell * segment), np.full(layers, o + 1)


def xl_reach_composed(n: int, segment: int, layers: int) -> np.ndarray:
    """The same reach by composing one layer's mask ℓ times (reach_ℓ = reach_(ℓ−1) · mask)."""
    one = xl_mask(n, segment).astype(np.float32)
    reach, out = one.copy(), []
    for _ in range(layers):
        out.append(int((reach[-1] > 0).sum()))
        reach = ((reach @ one) > 0).astype(np.float32)
    return np.array(out)


@dataclass(frozen=True)
class XL:
    """One Transformer-XL attention layer over the text cut into segments."""

    segment: int
    n_segments: int
    terms: np.ndarray           # [4, n, n] a, b, c, d (unscaled)
    weights: np.ndarray         # [n, n] the softmax weights, segment by segment (0 outside the reach)
    out: np.ndarray             # [n, dv]
    plain: np.ndarray           # [n, dv] plain causal attention with the same relative scores
    reach_n: int                # the length the reach is counted on (long enough to show it grow)
    reach: np.ndarray           # [layers] positions the last query reaches, with the cache
    reach_alone: np.ndarray     # [layers] without the cache


def transformer_xl(q: np.ndarray, k: np.ndarray, v: np.ndarray, segment: int, layers: int,
                   seed: int = 0) -> XL:
    q, k, v = check_qkv(q, k, v)
    segment = check_segment(segment)
    if not 1 <= layers <= 64:
        raise ValueError(f"The number of layers must be in 1..64 (got {layers}).")
    terms = xl_terms(q, k, xl_params(q.shape[1], seed))
    scores = torch.from_numpy(terms.sum(0) / math.sqrt(q.shape[1]))
    out, w = xl_segments(*(torch.from_numpy(x) for x in (q, k, v)), scores, segment)
    n = q.shape[0]
    plain = softmax_rows(scores.numpy(), np.tril(np.ones((n, n), dtype=bool))) @ v
    reach_n = max(n, segment * (layers + 1))
    reach, alone = xl_reach(reach_n, segment, layers)
    return XL(segment, -(-n // segment), terms, w.numpy(), out.numpy(), plain, reach_n, reach, alone)


# --------------------------------------------------------------------------- Infini-attention


def elu1(x: np.ndarray) -> np.ndarray:
    """σ(x) = ELU(x) + 1 > 0."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


@dataclass(frozen=True)
class Infini:
    """Infini-attention over segments of the text."""

    segment: int
    gate: float                 # g = sigmoid(β): the share of the memory read
    memory: np.ndarray          # [d, dv] M after the last segment
    norm: np.ndarray            # [d] z after the last segment
    memories: list              # M after each segment (for the test against the explicit sum)
    local: np.ndarray           # [n, dv] softmax attention inside each segment
    retrieved: np.ndarray       # [n, dv] σ(q) M / σ(q) z from earlier segments (0 in the first)
    out: np.ndarray             # [n, dv] g · retrieved + (1 − g) · local
    weights: np.ndarray         # [n, n] the weights the output implies: out = weights @ v
    memory_err: float           # max |M − Σ_segments σ(K_s)ᵀ V_s| (the sum written out segment by segment)


def memory_sum(k: np.ndarray, v: np.ndarray, segment: int) -> tuple[np.ndarray, np.ndarray]:
    """The explicit sums over segments: Σ_s σ(K_s)ᵀ V_s [d, dv] and Σ_s Σ_t σ(k_t) [d]."""
    parts = [(elu1(k[i:i + segment]).T @ v[i:i + segment], elu1(k[i:i + segment]).sum(0))
             for i in range(0, k.shape[0], segment)]
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


def infini_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, segment: int, beta: float) -> Infini:
    """Segments of length `segment`; memory M ← M + σ(K)ᵀV, z ← z + Σ σ(K) after each,
    retrieval σ(Q)M / σ(Q)z before it (the paper's linear update, not the delta rule; the
    first segment retrieves nothing), gate g = sigmoid(β)."""
    q, k, v = check_qkv(q, k, v)
    segment = check_segment(segment)
    if not np.isfinite(beta):
        raise ValueError("The gate β must be a finite number.")
    n, d = q.shape
    g = 1.0 / (1.0 + math.exp(-beta))
    fq, fk = elu1(q), elu1(k)
    mem, z = np.zeros((d, v.shape[1])), np.zeros(d)
    local, retrieved = np.zeros((n, v.shape[1])), np.zeros((n, v.shape[1]))
    w_local, w_mem, memories = np.zeros((n, n)), np.zeros((n, n)), []
    for start in range(0, n, segment):
        sl = slice(start, min(start + segment, n))
        m = sl.stop - start
        w = softmax_rows(q[sl] @ k[sl].T / math.sqrt(d), np.tril(np.ones((m, m), dtype=bool)))
        local[sl], w_local[sl, sl] = w @ v[sl], w
        if start > 0:
            den = fq[sl] @ z
            retrieved[sl] = (fq[sl] @ mem) / den[:, None]
            w_mem[sl, :start] = (fq[sl] @ fk[:start].T) / den[:, None]   # the same read, key by key
        mem, z = mem + fk[sl].T @ v[sl], z + fk[sl].sum(0)
        memories.append(mem.copy())
    explicit, _ = memory_sum(k, v, segment)
    return Infini(segment, g, mem, z, memories, local, retrieved, g * retrieved + (1 - g) * local,
                  g * w_mem + (1 - g) * w_local, float(np.abs(mem - explicit).max()))


def infini_bytes(lengths: np.ndarray, d: int, dv: int) -> tuple[np.ndarray, np.ndarray]:
    """Bytes held after each length: Infini's M and z (d·dv + d numbers, constant) and a
    KV cache ((d + dv)·n numbers), one head, float32."""
    lengths = np.asarray(lengths, dtype=np.int64)
    return np.full(lengths.shape, (d * dv + d) * BYTES, dtype=np.int64), (d + dv) * lengths * BYTES


# --------------------------------------------------------------------------- LongNet


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """ "4:1, 8:2, 16:4" -> [(4, 1), (8, 2), (16, 4)] (segment length w : dilation r)."""
    items = [p for p in re.split(r"[,;\s]+", text.strip()) if p]
    if not items:
        raise ValueError("Give at least one pair segment:dilation, e.g. 4:1, 8:2.")
    pairs = []
    for item in items:
        m = re.fullmatch(r"(\d{1,7}):(\d{1,7})", item)
        if not m:
            raise ValueError(f"{item!r} is not a pair segment:dilation such as 8:2.")
        w, r = int(m.group(1)), int(m.group(2))
        if w < 1:
            raise ValueError(f"A segment length must be at least 1 (got {w} in {item!r}).")
        if r < 1:
            raise ValueError(f"A dilation must be at least 1 (got {r} in {item!r}): 1 keeps every position.")
        pairs.append((w, r))
    if len(pairs) > 8:
        raise ValueError(f"At most 8 pairs (got {len(pairs)}).")
    return pairs


def dilated_pattern(n: int, w: int, r: int, causal: bool) -> np.ndarray:
    """One (w, r) pattern [n, n]: i and j in the same w-long segment, both at an offset
    that is a multiple of r inside it (and j <= i when causal)."""
    pos = np.arange(n)
    kept = (pos % w) % r == 0
    m = (pos[:, None] // w == pos[None, :] // w) & kept[:, None] & kept[None, :]
    return m & (pos[None, :] <= pos[:, None]) if causal else m


def pattern_pairs(n: int, w: int, r: int, causal: bool) -> int:
    """How many (query, key) pairs one pattern computes, by counting (no n×n matrix)."""
    full, rest = divmod(n, w)
    sizes = [-(-w // r)] * full + ([-(-rest // r)] if rest else [])
    return int(sum(m * (m + 1) // 2 if causal else m * m for m in sizes))


@dataclass(frozen=True)
class Dilated:
    pairs: list                 # [(w, r)]
    patterns: np.ndarray        # [P, n, n] bool
    weights: np.ndarray         # [n, n] mixed weights (rows of covered queries sum to 1)
    out: np.ndarray             # [n, dv]
    uncovered: list             # query positions no pattern reads for
    too_long: list              # pairs whose segment is longer than the text


def dilated_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, pairs: list[tuple[int, int]],
                      causal: bool) -> Dilated:
    """LongNet's mix: each pattern's softmax output O_p, weighted by its denominator s_p =
    Σ exp(score) over its keys: O = Σ s_p O_p / Σ s_p (one softmax over the keys counted
    once per pattern that holds them)."""
    q, k, v = check_qkv(q, k, v)
    n = q.shape[0]
    scores = q @ k.T / math.sqrt(q.shape[1])
    pats = np.stack([dilated_pattern(n, w, r, causal) for w, r in pairs])
    count = pats.sum(0)
    allowed = count > 0
    top = np.where(allowed, scores, -np.inf).max(axis=1, keepdims=True)
    e = np.where(allowed, count * np.exp(scores - np.where(np.isfinite(top), top, 0.0)), 0.0)
    total = e.sum(axis=1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return Dilated(list(pairs), pats, weights, weights @ v, np.flatnonzero(~allowed.any(1)).tolist(),
                   [(w, r) for w, r in pairs if w > n])


def dilated_mix_by_parts(q: np.ndarray, k: np.ndarray, v: np.ndarray, pairs: list[tuple[int, int]],
                         causal: bool) -> np.ndarray:
    """The same mix computed the paper's way, pattern by pattern (for the test)."""
    n = q.shape[0]
    scores = q @ k.T / math.sqrt(q.shape[1])
    num, den = np.zeros((n, v.shape[1])), np.zeros((n, 1))
    top = scores.max()
    for w, r in pairs:
        m = dilated_pattern(n, w, r, causal)
        e = np.where(m, np.exp(scores - top), 0.0)
        s = e.sum(1, keepdims=True)
        o = np.divide(e @ v, s, out=np.zeros((n, v.shape[1])), where=s > 0)
        num, den = num + s * o, den + s
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


def keys_per_query(lengths: np.ndarray, pairs: list[tuple[int, int]], causal: bool
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Average keys per query (pairs computed / n) against n: the mix of patterns and dense attention."""
    mix = np.array([sum(pattern_pairs(int(n), w, r, causal) for w, r in pairs) / n for n in lengths])
    dense = np.array([(n + 1) / 2 if causal else n for n in lengths], dtype=np.float64)
    return mix, dense

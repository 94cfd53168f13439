"""Attention geometry: one head's queries and keys in one picture (after AttentionViz,
Yeh et al. 2023, "AttentionViz: A Global View of Transformer Attention").

A head compares every query with every key by a dot product. Putting both sets of
vectors in one 2-D projection shows which keys a query is near: a query lands close to
the keys it attends to. We read the vectors the dot product really uses:
- RoPE models: after the rotation (`rot_q`, `rot_k`), since the rotation is where
  position enters; other models: `q`, `k` (additive PE is already inside them; ALiBi and
  T5 biases are added to the scores afterwards and are not in the picture).
- Grouped / multi-query attention: query head h reads key head h // (n_heads / n_kv_heads).

Normalisation (AttentionViz section 4.1, on by default). Queries and keys live in the
same space but not around the same centre nor at the same scale, so a raw projection
often shows two far-apart clouds. Two changes leave every attention weight unchanged:
- translating every key by the same vector t adds q·t to every score of query q, the
  same amount for all its keys, and softmax ignores a constant added to a row;
- scaling queries by c and keys by 1/c leaves every q·k as it is.
We choose c and t together so that afterwards the keys' centroid equals the queries'
centroid and the mean query norm equals the mean key norm (`normalise`; both hold
exactly, up to rounding). Queries are never translated: that would change the pattern.

Projection: PCA of the stacked [queries; keys] (float64 SVD), two components, the sign of
each fixed (its largest-|loading| entry positive), so the same input gives the same
picture bit for bit. PCA is linear and exact to explain (the axes are directions in the
head's space, with the share of variance each carries); UMAP/t-SNE distances are not
meaningful and they are heavy dependencies, so they are not used. No randomness.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from lab.kv import kv_groups
from models.config import TransformerConfig
from models.trace import act_name, as_numpy
from models.transformer import Transformer

MAX_PROBES = 8                 # probe texts projected together with the main text


@dataclass
class Geometry:
    """One head's queries and keys projected jointly. Points: for each text (text 0 is the
    main one, then the probes), its queries (positions 0..n-1), then its keys."""

    coords: np.ndarray         # [P, 2] float64, the 2-D projection
    kind: np.ndarray           # [P] "q" | "k"
    position: np.ndarray       # [P] int64, position in its text
    token_id: np.ndarray       # [P] int64, vocabulary id of the token at that position
    text: np.ndarray           # [P] int64, which text (0: the main text)
    explained: np.ndarray      # [2] float64, explained-variance ratio of each component
    explained_pair: float      # of the two together
    pairs: np.ndarray          # [K, 2] int64, (query position, key position) in text 0, largest weight first
    weights: np.ndarray        # [K] float64, their attention weights
    layer: int
    head: int
    kv_head: int               # the key/value head this query head reads
    rotated: bool              # RoPE: the vectors are the rotated ones
    normalised: bool
    scale: float               # c: queries * c, keys / c (1.0 when not normalised)
    shift: np.ndarray          # [d_head] t added to every key after scaling (zeros when not normalised)
    components: np.ndarray     # [2, d_head] float64, the PCA directions
    token_spread: float        # same-token spread / overall spread in the head's space (NaN: no token repeats)

    def index(self, kind: str, position: int, text: int = 0) -> int:
        """The point of `kind` ("q"/"k") at `position` of `text`."""
        hit = np.flatnonzero((self.kind == kind) & (self.position == position) & (self.text == text))
        if hit.size != 1:
            raise ValueError(f"No {kind} point at position {position} of text {text}.")
        return int(hit[0])

    def pair_points(self) -> np.ndarray:
        """[K, 2] int64: the (query point, key point) indices of the top pairs, for lines."""
        n = int((self.text == 0).sum()) // 2          # text 0: queries 0..n-1, then keys n..2n-1
        return np.stack([self.pairs[:, 0], n + self.pairs[:, 1]], axis=1).astype(np.int64) \
            if len(self.pairs) else np.zeros((0, 2), np.int64)


@dataclass
class HeadVectors:
    """One head's vectors in one text, as the dot product uses them (float64)."""

    q: np.ndarray              # [n, d_head]
    k: np.ndarray              # [n, d_head] (the kv head's keys)
    pattern: np.ndarray        # [n, n] the recorded attention weights
    mask: np.ndarray           # [n, n] bool, True = may attend
    scores: np.ndarray         # [n, n] the recorded scores (scaled, + position bias, before the mask)
    scale: float               # what q·k is multiplied by in the model
    kv_head: int
    rotated: bool


def kv_head_of(cfg: TransformerConfig, head: int) -> int:
    """The key/value head query head `head` reads: h // (n_heads / n_kv_heads)."""
    if not 0 <= head < cfg.n_heads:
        raise ValueError(f"Head {head} does not exist: this model has heads 0..{cfg.n_heads - 1}.")
    return kv_groups(cfg.n_heads, cfg.kv_heads)[head]


def check_model(model: Transformer, layer: int, head: int) -> None:
    cfg = model.cfg
    if cfg.arch == "encoder-decoder":
        raise ValueError("The query–key geometry takes a single-stack model (a decoder or an encoder).")
    if not 0 <= layer < cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{cfg.n_layers - 1}.")
    kv_head_of(cfg, head)


def head_vectors(model: Transformer, ids: Sequence[int], layer: int, head: int) -> HeadVectors:
    """Queries and keys of `head` in `layer` for one text, as used in the dot product."""
    check_model(model, layer, head)
    if len(ids) < 1:
        raise ValueError("The text has no tokens.")
    cfg = model.cfg
    rotated = cfg.positional == "rope"
    qn, kn = act_name("rot_q" if rotated else "q", layer), act_name("rot_k" if rotated else "k", layer)
    names = [qn, kn, act_name("scores", layer), act_name("pattern", layer), act_name("mask", layer)]
    _, trace = model.run_with_cache(list(ids), names=names, stop_after=names[3])   # the pattern comes last
    kv = kv_head_of(cfg, head)
    q = as_numpy(trace[qn][0, :, head]).astype(np.float64)            # [n, d_head]
    k = as_numpy(trace[kn][0, :, kv]).astype(np.float64)              # [n, d_head]
    pattern = as_numpy(trace.pattern(layer)[head]).astype(np.float64)  # [n, n]
    scores = as_numpy(trace.get("scores", layer, batch=0)[head]).astype(np.float64)
    mask = np.broadcast_to(as_numpy(trace.mask(layer=layer)), pattern.shape).copy()
    scale = cfg.head_dim ** -0.5 if cfg.scale_attention else 1.0
    return HeadVectors(q, k, pattern, mask, scores, scale, kv, rotated)


# ---- normalisation ---------------------------------------------------------------------------------
def normalise(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """(c·q, k/c + t, c, t) with the keys' centroid equal to the queries' centroid and
    equal mean norms; every attention weight is unchanged (see the module docstring).

    With a = k - mean(k), b = mean(q), m = mean|q| and s = 1/c², the conditions read
    mean|a·s + b| = m. The left side is convex in s with zero slope at s = 0 (mean a = 0),
    so it grows with s from |b| <= m: one root, found by bisection. When no root exists
    (all keys equal, or all queries equal) only the translation is done (c = 1)."""
    q, k = np.asarray(q, np.float64), np.asarray(k, np.float64)
    a, b = k - k.mean(0), q.mean(0)
    m = float(np.linalg.norm(q, axis=1).mean())

    def f(s: float) -> float:
        return float(np.linalg.norm(a * s + b, axis=1).mean()) - m

    c = 1.0
    if f(0.0) < 0 and np.abs(a).max() > 0:
        lo, hi = 0.0, 1.0
        while f(hi) < 0 and hi < 1e30:
            lo, hi = hi, hi * 4
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
        s = 0.5 * (lo + hi)
        if s > 0:
            c = float(s ** -0.5)
    t = c * b - k.mean(0) / c
    return q * c, k / c + t, c, t


def attention_from(q: np.ndarray, k: np.ndarray, mask: np.ndarray, scale: float,
                   bias: np.ndarray | None = None) -> np.ndarray:
    """softmax(scale · q kᵀ + bias) over the keys a query may attend [n, n] (masked: 0)."""
    s = scale * (q @ k.T) + (0.0 if bias is None else bias)
    s = np.where(mask, s, -np.inf)
    s = s - s.max(-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(-1, keepdims=True)


# ---- projection -------------------------------------------------------------------------------------
def pca2(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(coords [P, 2], explained ratios [2], components [2, d]) of the rows of `x`, centred.
    Each component's sign makes its largest-|loading| entry (the first on ties) positive."""
    x = np.asarray(x, np.float64)
    if x.ndim != 2 or x.shape[0] < 2:
        raise ValueError("The projection needs at least two vectors.")
    xc = x - x.mean(0)
    _, sv, vt = np.linalg.svd(xc, full_matrices=False)
    total = float((sv ** 2).sum())
    comps = np.zeros((2, x.shape[1]))
    ratios = np.zeros(2)
    for i in range(min(2, vt.shape[0])):
        v = vt[i].copy()
        if v[np.argmax(np.abs(v))] < 0:
            v = -v
        comps[i] = v
        ratios[i] = sv[i] ** 2 / total if total > 0 else 0.0
    return xc @ comps.T, ratios, comps


def top_pairs(pattern: np.ndarray, mask: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The `k` largest weights of `pattern` [n, n] among the allowed cells: ((q, key) [k, 2],
    weights [k]), largest first; ties in row-major order."""
    w = np.where(mask, pattern, -np.inf).ravel()
    k = int(max(0, min(k, int(np.isfinite(w).sum()))))
    order = np.argsort(-w, kind="stable")[:k]
    n = pattern.shape[1]
    return np.stack([order // n, order % n], axis=1).astype(np.int64), w[order].astype(np.float64)


def token_spread(vectors: np.ndarray, ids: Sequence[int]) -> float:
    """How far apart the vectors [n, d] of the same token are, relative to all vectors:
    the mean distance of repeated tokens' vectors to their token's centroid over the mean
    distance of all vectors to the overall centroid. 0: every occurrence of a token gives
    the same vector (position-blind, e.g. layer 0 without PE); NaN when no token repeats.
    Invariant to scaling and translating all vectors, so normalisation does not change it."""
    v, ids = np.asarray(vectors, np.float64), np.asarray(ids)
    overall = float(np.linalg.norm(v - v.mean(0), axis=1).mean())
    within = [np.linalg.norm(v[ids == i] - v[ids == i].mean(0), axis=1)
              for i in np.unique(ids) if (ids == i).sum() > 1]
    if not within or overall == 0:
        return float("nan")
    return float(np.concatenate(within).mean() / overall)


def qk_geometry(model: Transformer, ids: Sequence[int], layer: int, head: int, *,
                probes: Sequence[Sequence[int]] = (), normalised: bool = True, top_k: int = 16) -> Geometry:
    """Queries and keys of one head for `ids` (and up to MAX_PROBES probe texts) in one
    2-D PCA; the top `top_k` attention pairs of the main text."""
    texts = [list(ids), *[list(p) for p in probes[:MAX_PROBES]]]
    runs = [head_vectors(model, t, layer, head) for t in texts]
    q = np.concatenate([r.q for r in runs])
    k = np.concatenate([r.k for r in runs])
    c, shift = 1.0, np.zeros(q.shape[1])
    if normalised:
        q, k, c, shift = normalise(q, k)
    blocks, kinds, pos, tok, txt = [], [], [], [], []
    start = 0
    for i, (t, r) in enumerate(zip(texts, runs)):
        n = len(t)
        for kind, vecs in (("q", q), ("k", k)):
            blocks.append(vecs[start:start + n])
            kinds += [kind] * n
            pos.append(np.arange(n))
            tok.append(np.asarray(t, dtype=np.int64))
            txt.append(np.full(n, i))
        start += n
    coords, ratios, comps = pca2(np.concatenate(blocks))
    pairs, weights = top_pairs(runs[0].pattern, runs[0].mask, top_k)
    spread = float(np.mean([token_spread(runs[0].q, texts[0]), token_spread(runs[0].k, texts[0])]))
    return Geometry(coords, np.array(kinds), np.concatenate(pos).astype(np.int64),
                    np.concatenate(tok), np.concatenate(txt).astype(np.int64), ratios, float(ratios.sum()),
                    pairs, weights, layer, head, runs[0].kv_head, runs[0].rotated, normalised, c, shift, comps,
                    spread)


def side_by_side(models: Mapping[str, Transformer], ids: Sequence[int], layer: int, head: int, *,
                 normalised: bool = True, top_k: int = 16) -> dict[str, Geometry]:
    """The same head of several models on the same ids, each with its own projection
    (e.g. {scheme: model} for checkpoints trained alike except their positions)."""
    return {name: qk_geometry(m, ids, layer, head, normalised=normalised, top_k=top_k) for name, m in models.items()}

"""Attention masks as pure functions: one source of truth for the model and the masks page.

Every builder returns a bool tensor of shape [q, k] where True means "query q may attend
to key k". Masks compose with `&` (and `|`): e.g. `local(8, 2) & causal(8)` is a causal
sliding window, `build(spec, n) & padding(valid, n)` adds padding. A query row with no
True left is an error (`check_rows`), never a silent NaN.

References: causal masking (Vaswani et al. 2017, §3.2.3); dilated/local/strided
patterns (Child et al. 2019, "Sparse Transformers"); Longformer (Beltagy et al. 2020);
BigBird (Zaheer et al. 2020); prefix-LM (Raffel et al. 2020, T5 §3.2.1); XLNet
two-stream permutation masks (Yang et al. 2019).
"""
from __future__ import annotations

from typing import Sequence

import torch

from .config import MaskSpec

Device = torch.device | str | None


def _distance(n_q: int, n_k: int, device: Device = None) -> torch.Tensor:
    """Signed distance q - k as an int tensor [q, k]."""
    q = torch.arange(n_q, device=device)[:, None]
    k = torch.arange(n_k, device=device)[None, :]
    return q - k


def _check_n(n: int) -> None:
    if n < 1:
        raise ValueError(f"A mask needs at least one position (got {n}).")


def full(n_q: int, n_k: int | None = None, device: Device = None) -> torch.Tensor:
    """Every query sees every key (BERT, the original encoder)."""
    _check_n(n_q)
    return torch.ones(n_q, n_q if n_k is None else n_k, dtype=torch.bool, device=device)


def causal(n: int, device: Device = None) -> torch.Tensor:
    """Query i sees keys 0..i: lower triangle including the diagonal (GPT)."""
    _check_n(n)
    return _distance(n, n, device) >= 0


def padding(valid: torch.Tensor, n_q: int | None = None) -> torch.Tensor:
    """Hide padding keys. valid: [k] or [b, k] bool (True = real token) -> [q, k] or [b, q, k]."""
    valid = valid.bool()
    n_q = valid.shape[-1] if n_q is None else n_q
    return valid.unsqueeze(-2).expand(*valid.shape[:-1], n_q, valid.shape[-1])


def local(n: int, window: int, device: Device = None) -> torch.Tensor:
    """Sliding window: query i sees keys with |i - k| <= window (Longformer's local part)."""
    _check_n(n)
    if window < 1:
        raise ValueError(f"The attention window must be at least 1 token (got {window}).")
    return _distance(n, n, device).abs() <= window


def dilated(n: int, dilation: int, window: int | None = None, device: Device = None) -> torch.Tensor:
    """Atrous attention: keys whose distance is a multiple of `dilation` (optionally at most
    `window` steps of it away). Holes let a few layers cover a long range."""
    _check_n(n)
    if dilation < 1:
        raise ValueError(f"The dilation must be at least 1 (got {dilation}).")
    d = _distance(n, n, device)
    m = d.remainder(dilation) == 0
    if window is not None:
        if window < 1:
            raise ValueError(f"The attention window must be at least 1 step (got {window}).")
        m &= d.abs() <= window * dilation
    return m


def strided(n: int, stride: int, device: Device = None) -> torch.Tensor:
    """Sparse Transformer strided pattern: the union of a local block (|i - k| < stride)
    and every stride-th key ((i - k) mod stride == 0)."""
    _check_n(n)
    if stride < 1:
        raise ValueError(f"The stride must be at least 1 (got {stride}).")
    d = _distance(n, n, device)
    return (d.abs() < stride) | (d.remainder(stride) == 0)


def _global_index(n: int, global_tokens: Sequence[int]) -> list[int]:
    """Resolve negative positions (-1 = last token) and drop those past the end."""
    out = []
    for g in global_tokens:
        g = n + g if g < 0 else g
        if 0 <= g < n:
            out.append(g)
    return out


def longformer(n: int, window: int, global_tokens: Sequence[int] = (0,), device: Device = None) -> torch.Tensor:
    """Sliding window plus global tokens that see, and are seen by, every position."""
    m = local(n, window, device)
    g = _global_index(n, global_tokens)
    m[g, :] = True
    m[:, g] = True
    return m


def bigbird(
    n: int,
    window: int,
    global_tokens: Sequence[int] = (0,),
    n_random: int = 2,
    seed: int = 0,
    device: Device = None,
) -> torch.Tensor:
    """Longformer pattern plus `n_random` random keys per query, drawn with `seed`
    (token-level version of BigBird's block-sparse random attention)."""
    m = longformer(n, window, global_tokens, device)
    if n_random > 0:
        gen = torch.Generator().manual_seed(seed)
        # for each query, a random permutation of the keys; keep the first n_random
        keys = torch.argsort(torch.rand(n, n, generator=gen), dim=-1)[:, : min(n_random, n)]
        m[torch.arange(n, device=m.device)[:, None], keys.to(m.device)] = True
    return m


def prefix_lm(n: int, prefix_len: int, device: Device = None) -> torch.Tensor:
    """Prefix-LM: the first `prefix_len` positions see each other bidirectionally; the
    rest are causal (they also see the whole prefix)."""
    _check_n(n)
    if prefix_len < 0:
        raise ValueError(f"The prefix length cannot be negative (got {prefix_len}).")
    m = causal(n, device)
    m[:, :prefix_len] = True
    return m


def xlnet_permutation(order: Sequence[int], device: Device = None) -> tuple[torch.Tensor, torch.Tensor]:
    """XLNet's two-stream masks for a factorisation order (a permutation of positions).

    content[i, j]: position i may use the content of j iff j comes no later than i in
    `order` (it sees itself). query[i, j]: the same but strictly earlier, so the query
    stream predicting i never sees i's own token. The query row of the first position
    in `order` is empty by definition (in XLNet it only sees the memory).
    """
    n = len(order)
    _check_n(n)
    if sorted(order) != list(range(n)):
        raise ValueError(f"The factorisation order must be a permutation of 0..{n - 1} (got {list(order)}).")
    rank = torch.empty(n, dtype=torch.long, device=device)
    rank[torch.as_tensor(list(order), device=device)] = torch.arange(n, device=device)
    content = rank[None, :] <= rank[:, None]
    query = rank[None, :] < rank[:, None]
    return content, query


def build(spec: MaskSpec, n: int, device: Device = None) -> torch.Tensor:
    """The [n, n] pattern a MaskSpec describes (before causality and padding)."""
    kind = spec.kind
    if kind == "full":
        return full(n, device=device)
    if kind == "causal":
        return causal(n, device)
    if kind == "local":
        return local(n, spec.window, device)
    if kind == "dilated":
        return dilated(n, spec.dilation, device=device)
    if kind == "strided":
        return strided(n, spec.stride, device)
    if kind == "longformer":
        return longformer(n, spec.window, spec.global_tokens, device)
    if kind == "bigbird":
        return bigbird(n, spec.window, spec.global_tokens, spec.n_random, spec.seed, device)
    if kind == "prefix":
        return prefix_lm(n, spec.prefix_len, device)
    raise ValueError(f"Unknown attention pattern {kind!r}.")


def self_attention_mask(spec: MaskSpec, n: int, decoder: bool, device: Device = None) -> torch.Tensor:
    """The self-attention mask a stack uses: the spec's pattern, and in a decoder also
    causal (prefix-LM already is a causal pattern with a bidirectional prefix)."""
    m = build(spec, n, device)
    if decoder and spec.kind != "prefix":
        m = m & causal(n, device)
    return m


def check_rows(mask: torch.Tensor, what: str = "attention mask") -> None:
    """Raise ValueError if some query may attend to nothing (its softmax would be NaN)."""
    empty = ~mask.any(dim=-1)
    if bool(empty.any()):
        rows = torch.nonzero(empty)[:, -1].unique().tolist()
        raise ValueError(
            f"The {what} leaves query position(s) {rows[:10]} with nothing to attend to; "
            "every query needs at least one visible key."
        )

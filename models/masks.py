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


def distance(n_q: int, n_k: int, device: Device = None) -> torch.Tensor:
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
    return distance(n, n, device) >= 0


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
    return distance(n, n, device).abs() <= window


def dilated(n: int, dilation: int, window: int | None = None, device: Device = None) -> torch.Tensor:
    """Atrous attention: keys whose distance is a multiple of `dilation` (optionally at most
    `window` steps of it away). Holes let a few layers cover a long range."""
    _check_n(n)
    if dilation < 1:
        raise ValueError(f"The dilation must be at least 1 (got {dilation}).")
    d = distance(n, n, device)
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
    d = distance(n, n, device)
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


def stack_mask(spec: MaskSpec, n: int, decoder: bool, valid: torch.Tensor | None = None,
               device: Device = None) -> torch.Tensor:
    """The mask a stack's self-attention uses, [b or 1, 1, q, k]: the configured pattern
    (& causal in a decoder) & padding (`valid` [b, n], True = real token). Padding
    queries keep the unpadded pattern so their rows are never empty; their outputs are
    meaningless and ignored."""
    pattern = self_attention_mask(spec, n, decoder, device)                       # [q, k]
    if valid is None:
        check_rows(pattern)
        return pattern[None, None]
    padded = pattern & padding(valid, n)                                          # [b, q, k]
    mask = torch.where(valid[:, :, None], padded, pattern)                        # pad queries: unpadded row
    check_rows(mask)
    return mask[:, None]


def cross_mask(n_q: int, n_k: int, valid: torch.Tensor | None = None, device: Device = None) -> torch.Tensor:
    """Cross-attention mask [b or 1, 1, q, k]: every target position sees every real source token."""
    if valid is None:
        return torch.ones(1, 1, n_q, n_k, dtype=torch.bool, device=device)
    return padding(valid, n_q)[:, None]


def check_rows(mask: torch.Tensor, what: str = "attention mask") -> None:
    """Raise ValueError if some query may attend to nothing (its softmax would be NaN)."""
    empty = ~mask.any(dim=-1)
    if bool(empty.any()):
        rows = torch.nonzero(empty)[:, -1].unique().tolist()
        raise ValueError(
            f"The {what} leaves query position(s) {rows[:10]} with nothing to attend to; "
            "every query needs at least one visible key."
        )


# ---- the masks lab: compose, measure, reach ------------------------------------------------
# The masks page builds its patterns with these, from the same builders the model uses.

PART_KINDS = ("full", "causal", "local", "dilated", "strided", "longformer", "bigbird", "prefix",
              "xlnet_content", "xlnet_query")


def parse_order(text: str, n: int) -> list[int]:
    """An XLNet factorisation order typed by a person ("3 0 2 1" or "3,0,2,1") as a list.
    Raises ValueError with a sentence when it is not a permutation of 0..n-1."""
    raw = text.replace(",", " ").split()
    try:
        order = [int(x) for x in raw]
    except ValueError:
        raise ValueError(f"The order must be whole numbers separated by spaces or commas, e.g. "
                         f"{' '.join(str(i) for i in reversed(range(min(n, 4))))}…") from None
    if sorted(order) != list(range(n)):
        missing = sorted(set(range(n)) - set(order))[:5]
        repeated = sorted({i for i in order if order.count(i) > 1})[:5]
        outside = sorted({i for i in order if not 0 <= i < n})[:5]
        why = []
        if outside:
            why.append(f"{outside} are not positions 0..{n - 1}")
        if repeated:
            why.append(f"{repeated} appear more than once")
        if missing:
            why.append(f"{missing} are missing")
        raise ValueError(f"The order must list every position 0..{n - 1} exactly once ({'; '.join(why)}).")
    return order


def part(kind: str, n: int, *, window: int = 2, dilation: int = 2, dilated_window: int | None = None,
         stride: int = 4, global_tokens: Sequence[int] = (0,), n_random: int = 2, seed: int = 0,
         prefix_len: int = 2, order: Sequence[int] | None = None, device: Device = None) -> torch.Tensor:
    """One named pattern [n, n] of the composer (each kind is one of the builders above).
    `xlnet_content` / `xlnet_query` are the two streams of `xlnet_permutation(order)`."""
    _check_n(n)
    if kind not in PART_KINDS:
        raise ValueError(f"Unknown mask {kind!r}: choose one of {', '.join(PART_KINDS)}.")
    if kind == "full":
        return full(n, device=device)
    if kind == "causal":
        return causal(n, device)
    if kind == "local":
        return local(n, window, device)
    if kind == "dilated":
        return dilated(n, dilation, dilated_window, device)
    if kind == "strided":
        return strided(n, stride, device)
    if kind == "longformer":
        return longformer(n, window, global_tokens, device)
    if kind == "bigbird":
        if n_random < 0:
            raise ValueError(f"BigBird needs zero or more random keys per query (got {n_random}).")
        return bigbird(n, window, global_tokens, n_random, seed, device)
    if kind == "prefix":
        return prefix_lm(n, prefix_len, device)
    if order is None:
        raise ValueError("The XLNet masks need a factorisation order (a permutation of the positions).")
    if len(order) != n:
        raise ValueError(f"The factorisation order has {len(order)} positions but the text has {n}.")
    content, query = xlnet_permutation(order, device)
    return content if kind == "xlnet_content" else query


def compose(n: int, parts: Sequence[dict], device: Device = None) -> torch.Tensor:
    """The AND of several patterns: a pair (q, k) is allowed only if every part allows it.
    Each part is a dict {"kind": ..., **arguments of `part`}; no parts = full attention."""
    m = full(n, device=device)
    for p in parts:
        args = dict(p)
        m = m & part(args.pop("kind"), n, device=device, **args)
    return m


def empty_rows(mask: torch.Tensor) -> list[int]:
    """Queries [q, k] that may attend to nothing (their softmax would be 0/0 = NaN)."""
    return torch.nonzero(~mask.any(dim=-1)).flatten().tolist()


def keep_self(mask: torch.Tensor) -> torch.Tensor:
    """`mask` where every empty query row may attend to its own position (and nothing
    else), so softmax is defined: exp(s_qq) / exp(s_qq) = 1 (the token keeps its own
    value). Rows that already see a key are unchanged. [q, k] with q <= k."""
    rows = ~mask.any(dim=-1)                                                       # [q]
    if not bool(rows.any()):
        return mask
    eye = torch.eye(mask.shape[-2], mask.shape[-1], dtype=torch.bool, device=mask.device)
    return mask | (rows[:, None] & eye)


def mask_stats(mask: torch.Tensor) -> dict[str, float | list[int]]:
    """Density (fraction of allowed pairs), the number of allowed pairs, and the number
    of keys each query may attend to."""
    per_query = mask.sum(dim=-1)
    return {"density": float(mask.float().mean()), "pairs": int(mask.sum()),
            "per_query": per_query.tolist(), "empty": empty_rows(mask)}


def cost_curve(parts: Sequence[dict], lengths: Sequence[int]) -> list[int]:
    """Allowed (query, key) pairs of the composed pattern at each sequence length: the
    work and memory of attention (full attention: n²). Parts are rebuilt at every length
    with the same arguments (global positions past the end are dropped); an XLNet order
    is replaced by a seeded random permutation of that length (the count does not depend
    on which order)."""
    out = []
    for n in lengths:
        rebuilt = []
        for p in parts:
            p = dict(p)
            if p["kind"] in ("xlnet_content", "xlnet_query"):
                gen = torch.Generator().manual_seed(0)
                p["order"] = torch.randperm(n, generator=gen).tolist()
            rebuilt.append(p)
        out.append(int(compose(n, rebuilt).sum()))
    return out


def receptive_field(mask: torch.Tensor, n_layers: int) -> torch.Tensor:
    """Which inputs can reach each position after 1..n_layers layers of `mask` [q, k]:
    bool [n_layers, q, k]. One layer moves information along allowed edges (plus the
    residual connection, which keeps a position's own information): R_1 = A | I,
    R_l = A·R_(l-1) with A = mask | I (boolean matrix product)."""
    if n_layers < 1:
        raise ValueError(f"The number of layers must be at least 1 (got {n_layers}).")
    if mask.shape[-1] != mask.shape[-2]:
        raise ValueError("A receptive field needs a square self-attention mask [n, n].")
    a = (mask | torch.eye(mask.shape[-1], dtype=torch.bool, device=mask.device)).float()
    reach, out = a, [a > 0]
    for _ in range(n_layers - 1):
        reach = ((a @ reach) > 0).float()
        out.append(reach > 0)
    return torch.stack(out)


def layers_to_closure(mask: torch.Tensor) -> int:
    """The fewest layers after which every position reaches every input it can ever
    reach through `mask` [n, n] (the transitive closure; for a causal pattern, all
    earlier tokens). At most n - 1 layers are ever needed (1 for n = 1)."""
    n = mask.shape[-1]
    reach = receptive_field(mask, max(1, n))
    closure = reach[-1]
    for i in range(reach.shape[0]):
        if torch.equal(reach[i], closure):
            return i + 1
    return reach.shape[0]  # pragma: no cover - the last layer equals the closure

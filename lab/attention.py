"""Numbers about attention patterns: entropy, distance, sinks, sparsity, rollout.

Pure numpy, float64 inside, float64 out. A pattern is softmax weights with the key
axis last: [..., q, k], each row summing to 1. Masked cells are exactly 0 (as the
model produces them) or NaN (as the figures mark them); NaN and ±inf are read as 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

# Metric name -> one-line meaning (the UI translates these).
METRIC_INFO: dict[str, str] = {
    "entropy": "mean entropy of a query's attention, in nats (0 = one key, ln k = uniform)",
    "mean_distance": "mean |query - key| distance, weighted by attention, in tokens",
    "attn_to_first": "mean weight on the first token (e.g. [CLS], <bos>): attention sink",
    "attn_to_last": "mean weight on the last token (e.g. the final [SEP])",
    "sparsity": "1 - (keys needed for 90% of a row's mass) / (keys allowed), mean over queries",
}


def _pattern(x: np.ndarray, fn: str, ndim: int | None = None, doc: str = "[..., q, k]") -> np.ndarray:
    """Return ``x`` as float64 with masked (non-finite) cells set to 0."""
    a = np.asarray(x, dtype=np.float64)
    if (ndim is not None and a.ndim != ndim) or a.ndim < 2:
        raise ValueError(f"{fn} expects attention weights of shape {doc}; got shape {a.shape}.")
    if 0 in a.shape:
        raise ValueError(f"{fn} got an empty array of shape {a.shape}.")
    return np.where(np.isfinite(a), a, 0.0)


def _mask(mask: np.ndarray | None, shape: tuple[int, ...], fn: str) -> np.ndarray | None:
    """Broadcast a bool mask (True = may attend) to the pattern's shape."""
    if mask is None:
        return None
    m = np.asarray(mask, dtype=bool)
    try:
        return np.broadcast_to(m, shape)
    except ValueError:
        raise ValueError(
            f"{fn}: mask of shape {m.shape} does not broadcast to the pattern's shape {shape}."
        ) from None


def entropy(pattern: np.ndarray, *, mask: np.ndarray | None = None) -> np.ndarray:
    """Shannon entropy of each query's row, in nats: [..., q, k] -> [..., q].

    H = -sum_k p log p, with 0 log 0 = 0. ``mask`` (bool, True = may attend,
    broadcastable to the pattern) zeroes the masked keys first. Uniform over n keys
    gives ln n; all mass on one key gives 0.
    """
    p = _pattern(pattern, "entropy")
    m = _mask(mask, p.shape, "entropy")
    if m is not None:
        p = np.where(m, p, 0.0)
    logp = np.log(p, out=np.zeros_like(p), where=p > 0)  # log only where p > 0
    return -(p * logp).sum(axis=-1)


def head_entropy(patterns: np.ndarray, *, mask: np.ndarray | None = None) -> np.ndarray:
    """Mean over queries of :func:`entropy`: [layers, heads, q, k] -> [layers, heads]."""
    _pattern(patterns, "head_entropy", ndim=4, doc="[layers, heads, q, k]")
    return entropy(patterns, mask=mask).mean(axis=-1)


def mean_attention_distance(patterns: np.ndarray) -> np.ndarray:
    """How far a head looks, in tokens: [..., q, k] -> [...].

    Per query, sum_k p(q, k) * |q - k|; then the mean over queries. An identity
    pattern (each token attends to itself) gives 0; "previous token" gives ~1.
    """
    p = _pattern(patterns, "mean_attention_distance")
    n_q, n_k = p.shape[-2:]
    dist = np.abs(np.arange(n_q)[:, None] - np.arange(n_k)[None, :])  # [q, k]
    return (p * dist).sum(axis=-1).mean(axis=-1)


def attention_to(patterns: np.ndarray, key_index: int) -> np.ndarray:
    """Mean over queries of the weight on one key position: [..., q, k] -> [...].

    Used for attention sinks: ``key_index=0`` (first token, [CLS] / <bos>),
    ``-1`` (last token, the final [SEP]). Negative indices count from the end.
    """
    p = _pattern(patterns, "attention_to")
    n_k = p.shape[-1]
    if not -n_k <= key_index < n_k:
        raise ValueError(f"attention_to: key_index {key_index} is outside 0..{n_k - 1}.")
    return p[..., key_index].mean(axis=-1)


def sparsity(
    patterns: np.ndarray, *, mass: float = 0.9, mask: np.ndarray | None = None
) -> np.ndarray:
    """How few keys carry most of the attention: [..., q, k] -> [...] in [0, 1).

    Per query row: n = the fewest keys whose weights sum to at least ``mass`` of
    the row's total (largest weights first), a = the number of keys the row may
    attend to (``mask`` True, or, without a mask, weight > 0, since masked
    cells are exactly 0 after softmax). The row's sparsity is 1 - n / a; the result
    is the mean over rows. One-hot rows give 1 - 1/a, uniform rows about 1 - mass.
    Rows that may attend to at most one key (the first query under a causal mask)
    say nothing about the head and are left out of the mean (all left out -> 0).
    """
    if not 0.0 < mass <= 1.0:
        raise ValueError(f"sparsity: mass must be in (0, 1]; got {mass}.")
    p = _pattern(patterns, "sparsity")
    m = _mask(mask, p.shape, "sparsity")
    allowed = (p > 0) if m is None else m
    p = np.where(allowed, p, 0.0)
    n_allowed = allowed.sum(axis=-1)  # [..., q]
    total = p.sum(axis=-1, keepdims=True)  # [..., q, 1]
    cum = np.cumsum(-np.sort(-p, axis=-1), axis=-1)  # [..., q, k] largest first
    # Keys strictly below the target, plus the one that reaches it; the tolerance
    # keeps float round-off (0.1 * 9 = 0.8999...) from asking for one key too many.
    needed = (cum < mass * total - 1e-9).sum(axis=-1) + 1
    needed = np.minimum(needed, np.maximum(n_allowed, 1))
    valid = n_allowed > 1
    ratio = np.where(valid, 1.0 - needed / np.maximum(n_allowed, 1), 0.0)
    return ratio.sum(axis=-1) / np.maximum(valid.sum(axis=-1), 1)


def aggregate_heads(pattern: np.ndarray, how: str = "mean") -> np.ndarray:
    """Combine heads: [..., heads, q, k] -> [..., q, k] by ``"mean"`` or ``"max"``.

    NaN (masked) cells stay NaN, so the result can be drawn like one head.
    """
    a = np.asarray(pattern, dtype=np.float64)
    if a.ndim < 3:
        raise ValueError(f"aggregate_heads expects shape [heads, q, k]; got shape {a.shape}.")
    if how == "mean":
        return a.mean(axis=-3)
    if how == "max":
        return a.max(axis=-3)
    raise ValueError(f"aggregate_heads: how must be 'mean' or 'max', not {how!r}.")


def distinct_strongest_keys(patterns: np.ndarray) -> float:
    """How many different keys the heads of a layer attend to most, on average over layers
    and queries: [layers, heads, q, k] -> a number between 1 (every head picks the same key)
    and the number of heads."""
    a = np.asarray(patterns)
    if a.ndim != 4 or 0 in a.shape:
        raise ValueError(f"distinct_strongest_keys expects attention weights of shape [layers, heads, q, k]; "
                         f"got shape {a.shape}.")
    top = np.sort(a.argmax(-1), axis=1)                                 # [L, H, q]: each head's strongest key
    return float((1 + (np.diff(top, axis=1) != 0).sum(axis=1)).mean())


def rollout(
    patterns: np.ndarray, *, head_fusion: str = "mean", add_residual: bool = True
) -> np.ndarray:
    """Attention rollout (Abnar & Zuidema, 2020): [layers, heads, q, q] -> [layers, q, q].

    Per layer, fuse the heads (``"mean"``, ``"max"`` or ``"min"``) into A_l; with
    ``add_residual`` account for the skip connection as the paper does,
    A_l = 0.5 A_l + 0.5 I; renormalise rows. Then R_0 = A_0 and R_l = A_l @ R_{l-1}.
    Returns every R_l: row i of R_l says how much each input token flows into
    position i after layer l. Every row sums to 1.
    """
    p = _pattern(patterns, "rollout", ndim=4, doc="[layers, heads, q, q]")
    n_l, _, n_q, n_k = p.shape
    if n_q != n_k:
        raise ValueError(f"rollout needs self-attention (q == k); got q={n_q}, k={n_k}.")
    fuse = {"mean": np.mean, "max": np.max, "min": np.min}.get(head_fusion)
    if fuse is None:
        raise ValueError(f"rollout: head_fusion must be 'mean', 'max' or 'min', not {head_fusion!r}.")
    eye = np.eye(n_q)
    a = fuse(p, axis=1)  # [L, q, q]
    if add_residual:
        a = 0.5 * a + 0.5 * eye
    rows = a.sum(axis=-1, keepdims=True)  # [L, q, 1]
    # A row with no mass (only possible with head_fusion="min") keeps its own token.
    a = np.where(rows > 0, a / np.where(rows > 0, rows, 1.0), eye)
    out = np.empty_like(a)
    out[0] = a[0]
    for layer in range(1, n_l):
        out[layer] = a[layer] @ out[layer - 1]  # [q, q] @ [q, q]
    return out


def head_metrics(
    patterns: np.ndarray,
    tokens: Sequence[str] | None = None,
    *,
    mask: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Per-head summary numbers: [layers, heads, q, k] -> {name: [layers, heads]}.

    Keys (see ``METRIC_INFO``): entropy, mean_distance, attn_to_first,
    attn_to_last, sparsity. ``tokens`` (k of them), if given, is checked against
    the key axis; ``mask`` (True = may attend) is used by entropy and sparsity.
    """
    p = _pattern(patterns, "head_metrics", ndim=4, doc="[layers, heads, q, k]")
    if tokens is not None and len(tokens) != p.shape[-1]:
        raise ValueError(
            f"head_metrics: got {len(tokens)} tokens but the pattern has {p.shape[-1]} keys."
        )
    return {
        "entropy": head_entropy(p, mask=mask),
        "mean_distance": mean_attention_distance(p),
        "attn_to_first": attention_to(p, 0),
        "attn_to_last": attention_to(p, -1),
        "sparsity": sparsity(p, mask=mask),
    }


def metrics_table(metrics: Mapping[str, np.ndarray]) -> list[dict[str, float | int]]:
    """Flatten {name: [layers, heads]} into rows ``{"layer", "head", name...}``.

    Rows are layer-major (L0 H0, L0 H1, ...); ``st.dataframe`` and
    ``pandas.DataFrame`` take the list as is.
    """
    arrays = {name: np.asarray(a, dtype=np.float64) for name, a in metrics.items()}
    if not arrays:
        return []
    shape = next(iter(arrays.values())).shape
    for name, a in arrays.items():
        if a.ndim != 2 or a.shape != shape:
            raise ValueError(
                f"metrics_table: every metric must be [layers, heads] of one shape; "
                f"{name!r} has shape {a.shape}, expected {shape}."
            )
    return [
        {"layer": layer, "head": head, **{name: float(a[layer, head]) for name, a in arrays.items()}}
        for layer in range(shape[0])
        for head in range(shape[1])
    ]


def layerwise_head_metrics(patterns: np.ndarray, k_tokens: Sequence[str], mask: np.ndarray) -> dict[str, np.ndarray]:
    """`head_metrics` of every layer [L, H, q, k], one layer at a time: the metrics work in
    float64, and all layers at once at 512 tokens would be several 150 MB temporaries.
    Same numbers (every metric is per head). mask: [q, k], True = may attend."""
    per_layer = [head_metrics(layer[None], k_tokens, mask=np.broadcast_to(mask, layer[None].shape))
                 for layer in patterns]
    return {name: np.concatenate([m[name] for m in per_layer]) for name in per_layer[0]}

"""Numbers the "inside a block" lesson names: how the residual stream's norm changes from
block to block, which sub-layer adds the most to one token, what LayerNorm and RMSNorm do
to one token's vector, a layer's strongest FFN neurons, and where the logit lens settles.

numpy in (the arrays of one recorded pass, lab/residual.py), plain numbers and small
dataclasses out; no Streamlit, no translated text (kinds of things are ids: "embed",
"attn", "mlp", "grow", "shrink", ...).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class StreamTrend:
    """The stream's norm entering block 0 ("embed") and leaving every block."""

    steps: list[str]             # "embed", "L0", "L1", ...
    norms: np.ndarray            # [steps] mean ‖x‖ over positions
    growth: float                # norms[-1] / norms[0]
    direction: str               # "grow" (last > first) or "shrink"
    n_up: int                    # blocks after which the norm rose


def block_outputs(labels: Sequence[str]) -> list[int]:
    """Indices of the decomposition steps that end a block (the embedding and every
    "L{i} mlp"), from `lab.residual.decomposition` labels."""
    return [0] + [i for i, lab in enumerate(labels) if lab.endswith("mlp")]


def stream_trend(stream_norm: np.ndarray, labels: Sequence[str]) -> StreamTrend:
    """stream_norm [n, pos] (contribution_stats' "stream_norm"), labels [n]."""
    idx = block_outputs(labels)
    norms = np.asarray(stream_norm, dtype=np.float64)[idx].mean(1)
    growth = float(norms[-1] / norms[0]) if norms[0] > 0 else float("inf")
    return StreamTrend(["embed"] + [f"L{j}" for j in range(len(idx) - 1)], norms, growth,
                       "grow" if norms[-1] > norms[0] else "shrink", int((np.diff(norms) > 0).sum()))


def sublayer_kind(label: str) -> str:
    """"embed", "attn" (self- or cross-attention) or "mlp" for a decomposition label."""
    if label == "embed":
        return "embed"
    return "mlp" if label.endswith("mlp") else "attn"


@dataclass(frozen=True)
class Largest:
    index: int                   # decomposition step with the largest norm at the position
    label: str
    kind: str                    # embed | attn | mlp
    norm: float
    share: float                 # its norm / the sum of every step's norm at the position
    attn_total: float            # sum of the attention outputs' norms at the position
    mlp_total: float


def largest_contribution(labels: Sequence[str], norm: np.ndarray, position: int) -> Largest:
    """The step that adds the longest vector to the stream at `position` (norm [n, pos])."""
    col = np.asarray(norm, dtype=np.float64)[:, position]
    i = int(np.argmax(col))
    kinds = [sublayer_kind(lab) for lab in labels]
    total = float(col.sum())
    return Largest(i, labels[i], kinds[i], float(col[i]), float(col[i] / total) if total else float("nan"),
                   float(sum(c for c, k in zip(col, kinds) if k == "attn")),
                   float(sum(c for c, k in zip(col, kinds) if k == "mlp")))


@dataclass(frozen=True)
class NormCompare:
    """One token's vector x [d] and what the two normalisations make of it (without their
    learned gain and bias): LayerNorm (x − μ)/√(σ² + ε), RMSNorm x/√(mean x² + ε)."""

    x: np.ndarray
    layer: np.ndarray
    rms: np.ndarray
    mean: float                  # μ of x
    std: float                   # σ (biased)
    rms_value: float             # √(mean x²)
    cosine: float                # between the LayerNorm and RMSNorm outputs
    agree: bool                  # cosine ≥ AGREE
    layer_norm: float            # ‖LayerNorm(x)‖ (≈ √d)
    rms_norm: float              # ‖RMSNorm(x)‖ (≈ √d)


AGREE = 0.99


def compare_norms(x: np.ndarray, eps: float = 1e-5) -> NormCompare:
    v = np.asarray(x, dtype=np.float64).ravel()
    mu, sd, rms = float(v.mean()), float(v.std()), float(np.sqrt((v ** 2).mean()))
    ln = (v - mu) / np.sqrt(sd ** 2 + eps)
    rn = v / np.sqrt(rms ** 2 + eps)
    den = np.linalg.norm(ln) * np.linalg.norm(rn)
    cos = float(ln @ rn / den) if den > 0 else 0.0
    return NormCompare(v, ln, rn, mu, sd, rms, cos, cos >= AGREE, float(np.linalg.norm(ln)), float(np.linalg.norm(rn)))


@dataclass(frozen=True)
class TopNeurons:
    ids: np.ndarray              # [k] neurons, strongest activation first
    values: np.ndarray           # [k] their activations at the position
    n_positive: int              # neurons with activation > 0 at the position
    d_ff: int
    top_share: float             # the top k's share of the sum of |activation|


def top_neurons(post: np.ndarray, position: int, k: int = 12) -> TopNeurons:
    """The k most active FFN neurons at `position` (post [pos, d_ff]: what W_out reads)."""
    row = np.asarray(post, dtype=np.float64)[position]
    k = max(1, min(k, row.size))
    ids = np.argsort(-row, kind="stable")[:k]
    total = float(np.abs(row).sum())
    return TopNeurons(ids, row[ids], int((row > 0).sum()), row.size,
                      float(np.abs(row[ids]).sum() / total) if total else float("nan"))


@dataclass(frozen=True)
class LensSettle:
    """Where the logit lens reaches the model's own answer at one position."""

    first: int                   # first lens row whose top-1 is the final top-1 and stays so
    n_rows: int
    final_prob: float            # the model's own probability of its top-1
    halfway: bool                # settled by the middle row (first ≤ (n_rows − 1) // 2)


def lens_settle(top_ids: np.ndarray, top_probs: np.ndarray, position: int) -> LensSettle:
    """top_ids, top_probs [rows, pos, k] (lab.residual.Lens); the last row is the output."""
    tops = np.asarray(top_ids)[:, position, 0]
    n = tops.shape[0]
    first = n - 1
    while first > 0 and tops[first - 1] == tops[-1]:
        first -= 1
    return LensSettle(first, n, float(np.asarray(top_probs)[-1, position, 0]), first <= (n - 1) // 2)

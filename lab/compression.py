"""Compression in the CRATE sense (Yu et al. 2023, "White-Box Transformers via Sparse Rate
Reduction"), measured on any model's residual stream: the coding rate of the tokens'
directions and their sparsity, after the embedding and after every block (the residual
page's *Compression (CRATE)* view). numpy only; the stream comes from
`lab.residual.decomposition`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CODING_EPS = 0.5          # the distortion ε of the coding rate (CRATE's experiments use 0.5)


def coding_rate(z: np.ndarray, eps: float = CODING_EPS) -> float:
    """The coding rate R(Z) = ½ log det(I + d / (N ε²) · Z Zᵀ) (nats) of N token vectors
    z [N, d] (Yu et al. 2023, "White-Box Transformers via Sparse Rate Reduction", CRATE),
    each scaled to unit length first, so that the number measures how spread the tokens'
    directions are, not how long the vectors are: near 0 when every token points the same
    way, larger the more directions they fill. Computed on the smaller of the two Gram
    matrices (det(I + a ZᵀZ) = det(I + a Z Zᵀ))."""
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2 or z.shape[0] < 1:
        raise ValueError(f"coding_rate takes token vectors [N, d]; got shape {z.shape}.")
    n, d = z.shape
    unit = z / np.maximum(np.linalg.norm(z, axis=1, keepdims=True), 1e-12)
    gram = unit @ unit.T if n <= d else unit.T @ unit
    _, logdet = np.linalg.slogdet(np.eye(gram.shape[0]) + d / (n * eps ** 2) * gram)
    return 0.5 * float(logdet)


def hoyer_sparsity(z: np.ndarray) -> float:
    """Mean over tokens of Hoyer's sparsity (√d − ‖z‖₁/‖z‖₂) / (√d − 1): 0 when every
    coordinate is equally large, 1 when one coordinate holds everything."""
    z = np.asarray(z, dtype=np.float64)
    d = z.shape[1]
    if d < 2:
        raise ValueError("Sparsity needs at least two dimensions.")
    l1, l2 = np.abs(z).sum(1), np.maximum(np.linalg.norm(z, axis=1), 1e-12)
    return float(np.mean((np.sqrt(d) - l1 / l2) / (np.sqrt(d) - 1)))


@dataclass(frozen=True)
class Compression:
    """Coding rate and sparsity of the stream after the embedding and after every block."""

    labels: list[str]          # "embed", "L0", "L1", ...
    rate: np.ndarray           # [L + 1] nats
    sparsity: np.ndarray       # [L + 1]


def compression(labels: list[str], stream: np.ndarray) -> Compression:
    """From a decomposition's labels and stream [steps, pos, d] (`Decomposition`): the
    embedding and the end of every block (the step after its FFN)."""
    keep = [i for i, lab in enumerate(labels) if lab == "embed" or lab.endswith(" mlp")]
    names = ["embed" if labels[i] == "embed" else labels[i].split()[0] for i in keep]
    return Compression(names, np.array([coding_rate(stream[i]) for i in keep]),
                       np.array([hoyer_sparsity(stream[i]) for i in keep]))

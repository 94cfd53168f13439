"""Attention without softmax, on the same q, k, v as the model's softmax attention:
linear attention (Katharopoulos et al. 2020, "Transformers are RNNs") and retention
(Sun et al. 2023, RetNet), whose parallel form equals a recurrence with a fixed-size
state. `compare_with_softmax` puts both beside one head of the model."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

import models.masks


def elu_feature(x: torch.Tensor) -> torch.Tensor:
    """φ(x) = elu(x) + 1 > 0, the feature map of Katharopoulos et al. (2020)."""
    return F.elu(x) + 1


def linear_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                     causal: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Linear attention: out_i = φ(q_i)ᵀ Σ_j φ(k_j) v_jᵀ / φ(q_i)ᵀ Σ_j φ(k_j).
    The sums are computed once (O(n·d²) instead of O(n²·d)); the weights [n, m] it
    implies, φ(q_i)·φ(k_j) / Σ_j, are returned to be shown beside softmax's."""
    fq, fk = elu_feature(q), elu_feature(k)                         # [n, d], [m, d]
    if causal:
        kv = torch.cumsum(fk[:, :, None] * v[:, None, :], dim=0)     # [n, d, dv] prefix sums
        z = torch.cumsum(fk, dim=0)                                  # [n, d]
        out = torch.einsum("nd,nde->ne", fq, kv) / (fq * z).sum(-1, keepdim=True)
    else:
        kv = fk.T @ v                                                # [d, dv]: one summary of all keys
        out = fq @ kv / (fq @ fk.sum(0))[:, None]
    w = fq @ fk.T
    if causal:
        w = w * models.masks.causal(q.shape[0], device=q.device).to(w.dtype)
    return out, w / w.sum(-1, keepdim=True)


def retention_gammas(n_heads: int) -> torch.Tensor:
    """RetNet's per-head decay rates γ_h = 1 - 2^(-5-h) (Sun et al. 2023, §2.2)."""
    return 1 - 2.0 ** (-5 - torch.arange(n_heads, dtype=torch.float64))


def decay_matrix(n: int, gamma: float) -> torch.Tensor:
    """RetNet's D [n, n]: D_ij = γ^(i-j) for j <= i, else 0 (causal, exponentially fading)."""
    if not 0 < gamma <= 1:
        raise ValueError(f"The decay γ must be in (0, 1] (got {gamma}).")
    d = models.masks.distance(n, n).double()
    return torch.where(d >= 0, gamma ** d.clamp(min=0), torch.zeros((), dtype=torch.float64))


def retention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, gamma: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Retention, parallel form: (q kᵀ ⊙ D) v, no softmax (Sun et al. 2023, Eq. 5).
    Returns (out [n, dv], the weight matrix q kᵀ ⊙ D [n, n], which can be negative)."""
    w = (q @ k.T).double() * decay_matrix(q.shape[0], gamma).to(q.device)
    return w @ v.double(), w


def retention_recurrent(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, gamma: float) -> torch.Tensor:
    """The same retention as an RNN: S_n = γ S_(n-1) + k_nᵀ v_n, out_n = q_n S_n
    (Eq. 4): a fixed-size state instead of a cache that grows with the text."""
    q, k, v = q.double(), k.double(), v.double()
    state = torch.zeros(q.shape[-1], v.shape[-1], dtype=torch.float64, device=q.device)
    outs = []
    for i in range(q.shape[0]):
        state = gamma * state + k[i][:, None] * v[i][None, :]
        outs.append(q[i] @ state)
    return torch.stack(outs)


@dataclass
class VariantComparison:
    """Linear attention and retention on one head's q, k, v beside its softmax attention
    (n = tokens, dh = d_head)."""

    linear: np.ndarray                # [n, n] float32 the weights linear attention implies (rows sum to 1)
    retention: np.ndarray             # [n, n] float32 q kᵀ ⊙ D (no softmax: any sign)
    linear_similarity: np.ndarray     # [n] cosine(linear output, softmax output) per position
    retention_similarity: np.ndarray  # [n] cosine(retention output, softmax output)
    recurrent_error: float            # max |recurrent − parallel retention|: the two forms agree
    d_head: int


def compare_with_softmax(q: np.ndarray, k: np.ndarray, v: np.ndarray, softmax_out: np.ndarray, *,
                         causal: bool, gamma: float) -> VariantComparison:
    """One head's q [n, dh], k [n, dh], v [n, dh] and softmax output z [n, dh] (with the
    model's own mask and position bias): linear attention (causal or not) and retention
    with decay γ on the same q, k, v, in float64."""
    q, k, v = (torch.from_numpy(np.asarray(x)).double() for x in (q, k, v))
    soft = torch.from_numpy(np.asarray(softmax_out)).double()
    lin_out, lin_w = linear_attention(q, k, v, causal=causal)
    ret_out, ret_w = retention(q, k, v, gamma)

    def cos(a: torch.Tensor, b: torch.Tensor) -> np.ndarray:
        return F.cosine_similarity(a, b, dim=-1).numpy()

    return VariantComparison(
        linear=lin_w.numpy().astype(np.float32), retention=ret_w.numpy().astype(np.float32),
        linear_similarity=cos(lin_out, soft), retention_similarity=cos(ret_out, soft),
        recurrent_error=float((retention_recurrent(q, k, v, gamma) - ret_out).abs().max()), d_head=q.shape[-1])



def retention_chunkwise(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, gamma: float,
                        chunk: int) -> torch.Tensor:
    """The same retention, chunk by chunk (Sun et al. 2023, Eq. 7): inside a chunk of B
    positions the parallel form, across chunks the recurrent state
    R_i = γ^B R_(i-1) + K_[i]ᵀ (V_[i] ⊙ ζ), ζ_j = γ^(B-1-j), read by each query with the
    decay γ^(j+1) since the chunk began. The last chunk may be shorter; a chunk longer
    than the text is one chunk, i.e. the parallel form."""
    if int(chunk) < 1:
        raise ValueError(f"The chunk size must be at least 1 (got {chunk}).")
    q, k, v = q.double(), k.double(), v.double()
    state = torch.zeros(q.shape[-1], v.shape[-1], dtype=torch.float64, device=q.device)
    outs = []
    for start in range(0, q.shape[0], int(chunk)):
        qc, kc, vc = q[start:start + chunk], k[start:start + chunk], v[start:start + chunk]
        b = qc.shape[0]
        j = torch.arange(b, dtype=torch.float64, device=q.device)
        inner = ((qc @ kc.T) * decay_matrix(b, gamma).to(q.device)) @ vc       # within the chunk
        cross = (qc @ state) * (gamma ** (j + 1))[:, None]                     # what came before it
        outs.append(inner + cross)
        state = gamma ** b * state + kc.T @ (vc * (gamma ** (b - 1 - j))[:, None])
    return torch.cat(outs)

"""MLP-Mixer beside attention (Tolstikhin et al. 2021, "MLP-Mixer: An all-MLP Architecture
for Vision"), on one head's q, k, v.

A Mixer layer has two MLPs: token mixing, applied to each channel separately, mixes ACROSS
tokens with a learned n x n matrix that does not depend on the input (and fixes n); channel
mixing, applied to each token separately, mixes the channels WITHIN a token (like a
Transformer's feed-forward network). Attention's n x n weights softmax(q k^T / sqrt(d)) are
computed from the input itself.

Shuffling the tokens with a permutation P: attention's weights move with them,
A(Px) = P A(x) P^T (no mask, no positions), while the token-mixing matrix stays the same
matrix, so the same mix now lands on different content. The channel MLP, being per token,
permutes along. No Streamlit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .positional import shuffle

MIXINGS = ("fit", "random")     # the token-mixing matrix: fitted to the head's weights, or seeded random


def attention_weights(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """softmax(q k^T / sqrt(d)) without a mask or positions: input-dependent weights."""
    s = q @ k.T / np.sqrt(q.shape[1])
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def fit_token_mixing(targets: list[np.ndarray]) -> np.ndarray:
    """The one fixed n x n matrix closest in least squares to every matrix in `targets`
    (sum of squared differences): their mean. Fitted to one text's weights it is those weights."""
    return np.mean(np.stack(targets), axis=0)


def random_token_mixing(n: int, seed: int) -> np.ndarray:
    """An untrained Mixer's token-mixing matrix: seeded N(0, 1/n) weights."""
    return np.random.default_rng(seed).standard_normal((n, n)) / np.sqrt(n)


@dataclass(frozen=True)
class ChannelMLP:
    """The per-token MLP: x -> gelu(x W1 + b1) W2 + b2 (seeded weights, d -> 2d -> d)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def __call__(self, x: np.ndarray) -> np.ndarray:
        h = x @ self.w1 + self.b1
        h = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
        return h @ self.w2 + self.b2


def channel_mlp(d: int, seed: int, expand: int = 2) -> ChannelMLP:
    rng = np.random.default_rng(seed)
    return ChannelMLP(rng.standard_normal((d, expand * d)) / np.sqrt(d), np.zeros(expand * d),
                      rng.standard_normal((expand * d, d)) / np.sqrt(expand * d), np.zeros(d))


@dataclass(frozen=True)
class MixerVsAttention:
    """Both mixings on the input as shown (shuffled or not) and what shuffling did."""

    perm: list[int]              # shown position i holds original position perm[i] (identity when not shuffled)
    attention: np.ndarray        # [n, n] attention's weights on the input as shown
    token_mixing: np.ndarray     # [n, n] the Mixer's matrix: a parameter, the same whatever the input
    attention_out: np.ndarray    # [n, d] attention · v
    mixer_out: np.ndarray        # [n, d] channel_mlp(token_mixing · v)
    attn_moved: float            # max |A(Px) - P A(x) P^T|: ~0, the weights followed the tokens
    attn_changed: float          # max |A(Px) - A(x)|: how much the matrix itself changed
    attn_out_moved: float        # max |attn_out(Px) - P attn_out(x)|: ~0
    mixer_out_moved: float       # max |mixer_out(Px) - P mixer_out(x)|: not 0, the same mix on moved content
    channel_moved: float         # max |C(Px) - P C(x)| of the channel MLP alone: ~0, it is per token


def compare(q: np.ndarray, k: np.ndarray, v: np.ndarray, mixing: str = "fit", shuffled: bool = False,
            seed: int = 0, weights: np.ndarray | None = None) -> MixerVsAttention:
    """Attention and a Mixer layer on the same q, k, v. The token-mixing matrix is fitted to
    `weights` (default: attention_weights(q, k) of the unshuffled input) or seeded random;
    `shuffled` permutes the positions with the seeded permutation of `lab.positional.shuffle`."""
    if mixing not in MIXINGS:
        raise ValueError(f"Unknown token mixing {mixing!r}: choose one of {', '.join(MIXINGS)}.")
    n = q.shape[0]
    a0 = attention_weights(q, k)
    m = fit_token_mixing([a0 if weights is None else weights]) if mixing == "fit" else random_token_mixing(n, seed)
    mlp = channel_mlp(v.shape[1], seed)
    perm = shuffle(n, seed) if shuffled else list(range(n))
    p = np.asarray(perm)
    a = attention_weights(q[p], k[p])
    attn0, mix0 = a0 @ v, mlp(m @ v)
    attn_out, mix_out = a @ v[p], mlp(m @ v[p])
    big = lambda x: float(np.abs(x).max()) if x.size else 0.0      # noqa: E731
    return MixerVsAttention(perm, a, m, attn_out, mix_out, big(a - a0[np.ix_(p, p)]), big(a - a0),
                            big(attn_out - attn0[p]), big(mix_out - mix0[p]), big(mlp(v[p]) - mlp(v)[p]))

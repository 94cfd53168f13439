"""The Beyond page's input: the queries, keys and values every variant runs on (`QKV`),
from one head of a model or from seeded random vectors (`random_qkv`). The variants
themselves are lab/long_memory.py, lab/recurrent.py, lab/mixer.py, lab/kv_families.py
and lab/ternary.py."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class QKV:
    """The queries, keys and values every variant of the page runs on (float64 numpy).

    From the model: one head's q, k, v of one layer on the current text, before RoPE
    (`rotated` says whether the model rotates them; the variants here carry no
    positions of their own but a decay or a relative bias), with the head's softmax
    weights and output for comparison. Random: seeded standard-normal vectors."""

    source: str                     # "model" | "random"
    tokens: list[str]               # one label per position (escaped before rendering)
    q: np.ndarray                   # [n, dh]
    k: np.ndarray                   # [n, dh]
    v: np.ndarray                   # [n, dh]
    layer: int | None = None        # model source: the layer and head read
    head: int | None = None
    causal: bool = False            # the model's own attention is causal (a decoder)
    softmax: np.ndarray | None = None   # [n, n] the model's own weights of this head (model source)
    rotated: bool = False           # the model applies RoPE to q and k (shown unrotated here)

    @property
    def n(self) -> int:
        return int(self.q.shape[0])

    @property
    def d(self) -> int:
        return int(self.q.shape[1])


def random_qkv(n: int, d: int, seed: int) -> QKV:
    """Seeded standard-normal q, k, v (scaled by d^-1/4 so q·k has unit variance)."""
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    s = d ** -0.25
    return QKV("random", [str(i) for i in range(n)], q * s, k * s, v)

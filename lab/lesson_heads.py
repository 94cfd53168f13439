"""Numbers of the "many heads" lesson: where in the depth of a model a head sits, and how
much of each layer's attention the first and the last token collect.

numpy in, plain numbers and ids out; no Streamlit, no translated text (the lesson's step
kinds in ui/lessons/heads.py translate the ids).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PARTS = ("early", "middle", "late")


def layer_part(layer: int, n_layers: int) -> str:
    """Which third of the model a layer is in: "early", "middle" or "late" (layers split
    as evenly as they go; a 6-layer model: 0-1, 2-3, 4-5; one layer is "early")."""
    if not 0 <= layer < n_layers:
        raise ValueError(f"layer_part: layer {layer} outside 0..{n_layers - 1}")
    return PARTS[min(2, layer * 3 // n_layers)]


@dataclass(frozen=True)
class SinkShares:
    """Per layer, the mean weight (over heads and queries) on the first and on the last token."""

    first: np.ndarray        # [L]
    last: np.ndarray         # [L]

    @property
    def bigger(self) -> str:
        """"first" or "last": which of the two collects more weight over the whole model."""
        return "first" if float(self.first.mean()) >= float(self.last.mean()) else "last"

    @property
    def peak_layer(self) -> int:
        """The layer whose heads put the most weight on the two together."""
        return int(np.argmax(self.first + self.last))


def sink_shares(to_first: np.ndarray, to_last: np.ndarray) -> SinkShares:
    """[L, H] mean weight of each head on the first / last token (lab.attention.head_metrics'
    attn_to_first and attn_to_last) -> their mean over the heads of each layer."""
    a, b = np.asarray(to_first, np.float64), np.asarray(to_last, np.float64)
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(f"sink_shares expects two [layers, heads] arrays; got {a.shape} and {b.shape}")
    return SinkShares(np.nanmean(a, axis=1), np.nanmean(b, axis=1))


def argmax_head(scores: np.ndarray) -> tuple[int, int, float]:
    """(layer, head, value) of the largest finite entry of a [L, H] array."""
    s = np.asarray(scores, np.float64)
    i = int(np.nanargmax(s))
    return i // s.shape[1], i % s.shape[1], float(s.flat[i])

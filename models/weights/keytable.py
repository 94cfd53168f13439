"""The pieces every checkpoint family is described with (models/weights/pretrained.py and
the family modules beside it): the error a bad checkpoint raises, one row of a key table
(`Copy`: our parameter <- the checkpoint's tensor, with its transposition or slice), and a
family (`Family`: HF config -> our config, and its key table)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..config import TransformerConfig
from ..errors import Refused


class CheckpointError(Refused):
    """A checkpoint that cannot be loaded: a sentence that says why, with a reason id and
    values an app can translate (models/errors.py)."""


def unsupported(family: str, feature: str, message: str) -> CheckpointError:
    """The refusal of a variant of a family we load (a setting we do not implement)."""
    return CheckpointError("unsupported_variant", message, family=family, feature=feature)


def hf_get(hf: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """hf[key], or `default` when the key is missing or null (HF configs write null for
    "the default")."""
    return hf.get(key, default) if hf.get(key) is not None else default


@dataclass(frozen=True)
class Copy:
    """One row of a key table: our parameter `ours` is the checkpoint's tensor `theirs`."""

    ours: str
    theirs: str
    transpose: bool = False                     # Conv1D [in, out] -> Linear [out, in]
    part: tuple[int, int] | None = None         # (index, n_parts): a slice of a fused matrix (GPT-2 c_attn)


@dataclass(frozen=True)
class Family:
    config: Callable[[Mapping[str, Any]], TransformerConfig]
    keys: Callable[[TransformerConfig, str], list[Copy]]
    embed_key: str                   # finds the key prefix ("bert.", "transformer.", "model." or "")
    prefixes: tuple[str, ...]

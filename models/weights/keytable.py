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
class PerHead:
    """Rows of a matrix fused per head (GPT-NeoX's query_key_value): along dim 0 it is laid
    out [head, part, width] (q, k, v of head 0, then of head 1...), not [Q | K | V]. Selects
    part `index` of every head, in head order."""

    index: int                                  # 0 = q, 1 = k, 2 = v
    n_parts: int                                # 3
    n_heads: int

    def fits(self, n_rows: int) -> bool:
        return n_rows % (self.n_parts * self.n_heads) == 0

    def take(self, t: Any) -> Any:
        """[head * part * width, ...] -> [head * width, ...]"""
        rest = tuple(t.shape[1:])
        return t.reshape(self.n_heads, self.n_parts, -1, *rest)[:, self.index].reshape(-1, *rest)


@dataclass(frozen=True)
class Copy:
    """One row of a key table: our parameter `ours` is the checkpoint's tensor `theirs`."""

    ours: str
    theirs: str
    transpose: bool = False                     # Conv1D [in, out] -> Linear [out, in]
    part: tuple[int, int] | None = None         # (index, n_parts): a slice of a fused matrix (GPT-2 c_attn)
    rows: PerHead | None = None                 # rows of a per-head fused matrix (GPT-NeoX query_key_value)
    alt: str | None = None                      # another name of the same tensor (GPT-NeoX: embed_out / lm_head)
    span: tuple[int, int] | None = None         # rows start..stop of a fused matrix of unequal parts (Phi-3 qkv_proj)


@dataclass(frozen=True)
class Family:
    config: Callable[[Mapping[str, Any]], TransformerConfig]
    keys: Callable[[TransformerConfig, str], list[Copy]]
    embed_key: str                   # finds the key prefix ("bert.", "transformer.", "model." or "")
    prefixes: tuple[str, ...]


YARN_DEFAULTS = {"beta_fast": 32, "beta_slow": 1, "truncate": True}


def rope_settings(hf: Mapping[str, Any], family: str, default_theta: float = 10000.0) -> tuple[dict[str, Any], dict]:
    """(config fields, the rope settings dict) of a checkpoint's RoPE: the base, and a
    context extension we implement (models.positional.RopeScaling) — "linear" (position
    interpolation) or "yarn" with the paper's defaults. Other kinds (dynamic NTK, llama3,
    longrope…) and YaRN variants (attention_factor, mscale, other betas) are refused."""
    rope = hf_get(hf, "rope_parameters") or hf_get(hf, "rope_scaling") or {}
    kind = str(rope.get("rope_type", rope.get("type", "default")))
    out: dict[str, Any] = {"rope_base": float(rope.get("rope_theta", hf_get(hf, "rope_theta", default_theta)))}
    if kind == "default":
        return out, rope
    if kind not in ("linear", "yarn"):
        raise unsupported(family, f"rope_type={kind[:30]}", f"RoPE scaling rope_type={kind[:30]!r} is not supported "
                          "(default, linear and yarn are).")
    factor = rope.get("factor")
    if kind == "yarn":
        odd = [k for k in ("attention_factor", "mscale", "mscale_all_dim") if rope.get(k) is not None]
        odd += [k for k, v in YARN_DEFAULTS.items() if rope.get(k) is not None and rope[k] != v]
        if odd:
            raise unsupported(family, odd[0], f"YaRN with {odd[0]}={str(rope[odd[0]])[:20]} is not "
                              "supported (only the paper's defaults).")
        original = rope.get("original_max_position_embeddings")
        if not isinstance(original, int) or original < 1:
            raise unsupported(family, "yarn original_max_position_embeddings", "YaRN needs "
                              "original_max_position_embeddings, the context the model was trained on.")
        factor = factor if factor is not None else hf["max_position_embeddings"] / original
        out["rope_original_len"] = original
    if not isinstance(factor, (int, float)) or isinstance(factor, bool) or not factor >= 1:
        raise unsupported(family, f"{kind} factor", f"RoPE {kind} scaling needs a factor of at least 1 "
                          f"(got {str(factor)[:20]}).")
    out.update(rope_scaling=kind, rope_factor=float(factor))
    return out, rope

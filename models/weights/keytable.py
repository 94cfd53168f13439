"""The pieces every checkpoint family is described with (models/weights/pretrained.py and
the family modules beside it): the error a bad checkpoint raises, one row of a key table
(`Copy`: our parameter <- the checkpoint's tensor, with its transposition or slice), and a
family (`Family`: HF config -> our config, and its key table)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..config import STOCK_BASE, TransformerConfig
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
ROPE_KINDS = ("default", "linear", "dynamic", "yarn", "llama3", "longrope")   # rope_type values we load


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def rope_settings(hf: Mapping[str, Any], family: str, default_theta: float = STOCK_BASE) -> tuple[dict[str, Any], dict]:
    """(config fields, the rope settings dict) of a checkpoint's RoPE: the base, and the
    context extension (models.positional.RopeScaling) read as transformers reads it —
    "linear" (position interpolation), "dynamic" (dynamic NTK), "yarn" (with its
    attention_factor or DeepSeek's mscale/mscale_all_dim), "llama3" (Llama 3.1-3.3) and
    "longrope" (Phi-3, Phi-4-mini). Refused by name: other kinds (proportional, mrope…),
    YaRN with betas other than 32/1 or truncate=false, per-layer-type rope_parameters, and
    settings a kind needs but lacks."""
    rope = hf_get(hf, "rope_parameters") or hf_get(hf, "rope_scaling") or {}
    if not isinstance(rope, Mapping):
        raise unsupported(family, "rope_parameters", "rope_parameters (rope_scaling) must be an object of settings.")
    if any(isinstance(v, Mapping) for v in rope.values()):
        raise unsupported(family, "rope_parameters per layer type", "RoPE settings per layer type (a rope_parameters "
                          f"object for each of {', '.join(map(str, rope))[:60]}) are not supported for {family}.")
    kind = str(rope.get("rope_type", rope.get("type", "default")))
    theta = rope.get("rope_theta", hf_get(hf, "rope_theta", default_theta))
    out: dict[str, Any] = {"rope_base": float(theta)}
    if kind == "default":
        return out, rope
    if kind not in ROPE_KINDS:
        raise unsupported(family, f"rope_type={kind[:30]}", f"RoPE scaling rope_type={kind[:30]!r} is not supported "
                          f"({', '.join(ROPE_KINDS)} are).")
    max_len = hf["max_position_embeddings"]
    # transformers: a top-level original_max_position_embeddings (Phi-3 keeps it there) wins over
    # rope_parameters', which defaults to max_position_embeddings (standardize_rope_params)
    original = hf_get(hf, "original_max_position_embeddings", rope.get("original_max_position_embeddings", max_len))
    if kind in ("yarn", "llama3", "longrope"):
        if isinstance(original, bool) or not isinstance(original, int) or original < 1:
            raise unsupported(family, f"{kind} original_max_position_embeddings", f"RoPE {kind} scaling needs "
                              "original_max_position_embeddings, the context the model was trained on (got "
                              f"{str(original)[:20]}).")
        out["rope_original_len"] = original
    factor = rope.get("factor")
    if kind == "yarn":
        odd = [k for k in ("beta_fast", "beta_slow") if rope.get(k) is not None and rope[k] != YARN_DEFAULTS[k]]
        odd += ["truncate"] if "truncate" in rope and not rope["truncate"] else []   # transformers: null = false
        if odd:
            raise unsupported(family, odd[0], f"YaRN with {odd[0]}={str(rope[odd[0]])[:20]} is not "
                              "supported (beta_fast 32, beta_slow 1 and truncate true are).")
        factor = factor if factor is not None else max_len / original
        attn = _yarn_attention(rope, factor, family)
        if attn is not None:
            out["rope_attn_factor"] = attn
    elif kind == "llama3":
        for key in ("low_freq_factor", "high_freq_factor"):
            if not _number(rope.get(key)):
                raise unsupported(family, f"llama3 {key}", f"RoPE llama3 scaling needs {key} (got "
                                  f"{str(rope.get(key))[:20]}).")
        out.update(rope_low_freq_factor=float(rope["low_freq_factor"]),
                   rope_high_freq_factor=float(rope["high_freq_factor"]))
    elif kind == "dynamic":
        out["rope_original_len"] = max_len      # the base grows once the text is longer than max_position_embeddings
    elif kind == "longrope":
        factor = factor if factor is not None else max_len / original
        out.update(_longrope(hf, rope, family))
        if _number(factor) and factor < 1:      # transformers: no attention scaling at all (the same as factor 1)
            factor = 1.0
    if not _number(factor) or not factor >= 1:
        raise unsupported(family, f"{kind} factor", f"RoPE {kind} scaling needs a factor of at least 1 "
                          f"(got {str(factor)[:20]}).")
    out.update(rope_scaling=kind, rope_factor=float(factor))
    return out, rope


def _yarn_attention(rope: Mapping[str, Any], factor: float, family: str) -> float | None:
    """YaRN's cos/sin multiplier when the checkpoint sets it: attention_factor, else
    mscale(factor, mscale) / mscale(factor, mscale_all_dim) (DeepSeek) — transformers'
    `_compute_yarn_parameters`; None = the default 0.1 ln s + 1."""
    attn = rope.get("attention_factor")
    if attn is not None:
        if not _number(attn) or attn <= 0:
            raise unsupported(family, "attention_factor", f"YaRN with attention_factor={str(attn)[:20]} is not "
                              "supported (a positive number is).")
        return float(attn)
    mscale, mscale_all_dim = rope.get("mscale"), rope.get("mscale_all_dim")
    if not (mscale and mscale_all_dim):
        return None
    if not (_number(mscale) and _number(mscale_all_dim) and _number(factor)):
        raise unsupported(family, "mscale", "YaRN's mscale and mscale_all_dim must be numbers.")

    def get_mscale(scale: float, m: float = 1) -> float:
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

    return float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))


def _longrope(hf: Mapping[str, Any], rope: Mapping[str, Any], family: str) -> dict[str, Any]:
    """LongRoPE's per-pair factors (one per rotating pair of a head) and attention factor."""
    heads = hf["num_attention_heads"]
    head_dim = hf_get(hf, "head_dim", hf["hidden_size"] // heads)
    partial = rope.get("partial_rotary_factor", hf_get(hf, "partial_rotary_factor", 1.0))
    pairs = int(head_dim * partial) // 2
    out: dict[str, Any] = {}
    for key in ("short_factor", "long_factor"):
        values = rope.get(key)
        if not isinstance(values, (list, tuple)) or len(values) != pairs or \
                not all(_number(v) and v > 0 for v in values):
            n = len(values) if isinstance(values, (list, tuple)) else 0
            raise unsupported(family, f"longrope {key}", f"RoPE longrope scaling needs {key}: {pairs} positive "
                              f"numbers, one per rotating pair (got {n}).")
        out[f"rope_{key}"] = tuple(float(v) for v in values)
    attn = rope.get("attention_factor")
    if attn is not None:
        if not _number(attn) or attn <= 0:
            raise unsupported(family, "attention_factor", f"LongRoPE with attention_factor={str(attn)[:20]} is not "
                              "supported (a positive number is).")
        out["rope_attn_factor"] = float(attn)
    return out

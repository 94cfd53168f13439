"""Memory per generated token, family by family, for one model's shape.

What a decoder must hold to produce its next token, in bytes, against the context length n:

- softmax attention keeps every past key and value (a KV cache growing with n): MHA
  (every head its own), GQA (g key/value heads), MQA (one) — `lab.kv.kv_cache_bytes`;
- sliding-window attention keeps the last `window` positions only;
- YOCO (Sun et al. 2024, "You Only Cache Once"): the lower half of the layers (the
  self-decoder) uses sliding-window attention, the upper half (the cross-decoder) reads
  ONE global KV cache that the self-decoder's output produces once, shared by all of them;
- retention (RetNet), RWKV and a selective state space (Mamba) carry a state whose size
  does not depend on n.

Every total is a closed form of (layers, heads, key/value heads, d_head, d_model, bytes per
value); the bytes added by the next token are total(n) - total(n - 1). No Streamlit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.config import TransformerConfig

from .kv import kv_cache_bytes, kv_groups

FAMILIES = ("mha", "gqa", "mqa", "yoco", "window", "retention", "rwkv", "mamba")
STATE_FAMILIES = ("retention", "rwkv", "mamba")      # constant in n
DTYPE_BYTES = {"fp32": 4, "fp16": 2, "int8": 1}

RWKV_VECTORS = 5          # per layer and channel: WKV's (a, b, max) + the two token-shift inputs (RWKV-4)
MAMBA_EXPAND = 2          # Mamba's defaults (Gu & Dao 2023): d_inner = expand x d_model,
MAMBA_D_STATE = 16        # a d_state-wide state per inner channel,
MAMBA_D_CONV = 4          # and a causal convolution that keeps its last d_conv - 1 inputs


@dataclass(frozen=True)
class Settings:
    """The chart's settings (checked by `check`)."""

    bytes_per_value: int = 2
    groups: int = 1            # GQA's key/value heads
    window: int = 4096         # sliding window (also YOCO's self-decoder)


@dataclass(frozen=True)
class FamilyMemory:
    """One family's memory against the context lengths asked."""

    family: str
    contexts: np.ndarray       # [m] context lengths n
    total: np.ndarray          # [m] bytes held with n positions in context
    next_token: np.ndarray     # [m] bytes that generating position n + 1 adds: total(n + 1) - total(n)

    @property
    def constant(self) -> bool:
        return self.family in STATE_FAMILIES


def check(cfg: TransformerConfig, s: Settings) -> str | None:
    """None when the settings fit this shape, else a reason id: 'groups' (does not
    divide the heads), 'window' (< 1), 'bytes' (< 1)."""
    if s.bytes_per_value < 1:
        return "bytes"
    if s.window < 1:
        return "window"
    try:
        kv_groups(cfg.n_heads, s.groups)
    except ValueError:
        return "groups"
    return None


def one_layer_kv(cfg: TransformerConfig, n_kv_heads: int, bytes_per_value: int) -> int:
    """Bytes one layer's K and V take per cached position."""
    return kv_cache_bytes(cfg, 1, n_kv_heads, bytes_per_value).per_token // cfg.n_layers


def state_bytes(cfg: TransformerConfig, family: str, bytes_per_value: int) -> int:
    """The constant state of a recurrent family, all layers:
    retention: a d_head x d_head matrix per head; RWKV: RWKV_VECTORS values per channel;
    Mamba: d_inner x d_state for the scan plus d_inner x (d_conv - 1) for the convolution."""
    per_layer = {
        "retention": cfg.n_heads * cfg.head_dim * cfg.head_dim,
        "rwkv": RWKV_VECTORS * cfg.d_model,
        "mamba": MAMBA_EXPAND * cfg.d_model * (MAMBA_D_STATE + MAMBA_D_CONV - 1),
    }[family]
    return cfg.n_layers * per_layer * bytes_per_value


def held(cfg: TransformerConfig, family: str, n: np.ndarray, s: Settings) -> np.ndarray:
    """Bytes held with n positions in context (int64, same shape as n)."""
    n = np.asarray(n, dtype=np.int64)
    b = s.bytes_per_value
    if family in STATE_FAMILIES:
        return np.full_like(n, state_bytes(cfg, family, b))
    if family == "window":
        return kv_cache_bytes(cfg, 1, None, b).per_token * np.minimum(n, s.window)
    if family == "yoco":
        self_layers = cfg.n_layers // 2          # the self-decoder; the other layers share one cache
        layer = one_layer_kv(cfg, cfg.kv_heads, b)
        return self_layers * layer * np.minimum(n, s.window) + layer * n
    kv = {"mha": cfg.n_heads, "gqa": s.groups, "mqa": 1}[family]
    return kv_cache_bytes(cfg, 1, kv, b).per_token * n


def family_memory(cfg: TransformerConfig, family: str, contexts, s: Settings) -> FamilyMemory:
    """`held` at each context length and what the next token adds."""
    n = np.asarray(contexts, dtype=np.int64)
    if n.size and n.min() < 0:
        raise ValueError(f"A context length cannot be negative (got {int(n.min())}).")
    total = held(cfg, family, n, s)
    return FamilyMemory(family, n, total, held(cfg, family, n + 1, s) - total)


def memory_table(cfg: TransformerConfig, contexts, s: Settings) -> list[FamilyMemory]:
    """Every family (GQA only when its groups divide the heads and differ from MHA and MQA)."""
    if (why := check(cfg, s)) not in (None, "groups"):
        raise ValueError(f"Settings do not fit this model ({why}).")
    skip = {"gqa"} if why == "groups" or s.groups in (1, cfg.n_heads) else set()
    return [family_memory(cfg, f, contexts, s) for f in FAMILIES if f not in skip]


def context_grid(lo: int, hi: int, points: int = 60) -> np.ndarray:
    """Context lengths from lo to hi (inclusive), evenly spaced on a log axis, no repeats."""
    if lo < 1 or hi <= lo:
        raise ValueError(f"The context range must satisfy 1 <= low < high (got {lo}..{hi}).")
    return np.unique(np.round(np.geomspace(lo, hi, points)).astype(np.int64))

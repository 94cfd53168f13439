"""Live positional knobs: the same trained weights run with another RoPE base or scaling,
other ALiBi slopes, other T5 buckets, another sinusoidal base or layout, or another
softmax temperature.

A `Knobs` value is plain and hashable (the app caches on it and writes it into the URL).
`apply(model, knobs)` returns a new model that shares the trained tensors and differs only
in its config: the model code reads every knob from the config (models/config.py,
models/positional.py), so there is no second implementation to drift. Only the knobs of
the model's own scheme apply; the temperature applies to every model.

Changing T5's buckets changes what the trained table's rows mean, so the table is
re-indexed (`reindex_relative`): each new bucket takes the trained bias of the old bucket
that held the nearest distance the new bucket covers. This is a choice, said in the UI:
the model never saw the new buckets.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch

import models.positional
from models.config import ROPE_SCALINGS, SINUSOIDAL_LAYOUTS, TransformerConfig
from models.transformer import Transformer

# the ranges the UI offers and a link is clamped to (low, high)
RANGES = {
    "rope_base": (10.0, 1.0e7),
    "rope_factor": (1.0, 64.0),
    "alibi_slope_scale": (1.0 / 64, 64.0),
    "relative_buckets": (2, 128),
    "relative_max_distance": (2, 4096),
    "sinusoidal_base": (10.0, 1.0e7),
    "temperature": (0.05, 20.0),
}
SCHEME_KNOBS = {            # which knobs act on which scheme (the temperature acts on all)
    "rope": ("rope_base", "rope_scaling", "rope_factor"),
    "alibi": ("alibi_slope_scale",),
    "relative": ("relative_buckets", "relative_max_distance"),
    "sinusoidal": ("sinusoidal_base", "sinusoidal_layout"),
}


@dataclass(frozen=True)
class Knobs:
    """Settings that override a trained model's positional config. None = the model's own."""

    rope_base: float | None = None
    rope_scaling: str = "none"                 # none | linear | ntk | yarn
    rope_factor: float = 1.0
    alibi_slope_scale: float = 1.0
    relative_buckets: int | None = None
    relative_max_distance: int | None = None
    sinusoidal_base: float | None = None
    sinusoidal_layout: str | None = None       # interleaved | halves
    temperature: float = 1.0

    def __post_init__(self) -> None:
        if self.rope_scaling not in ROPE_SCALINGS:
            raise ValueError(f"Unknown RoPE scaling {self.rope_scaling!r}: use one of {', '.join(ROPE_SCALINGS)}.")
        if self.sinusoidal_layout is not None and self.sinusoidal_layout not in SINUSOIDAL_LAYOUTS:
            raise ValueError(f"Unknown sinusoidal layout {self.sinusoidal_layout!r}: use one of "
                             f"{', '.join(SINUSOIDAL_LAYOUTS)}.")
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if value is not None and not low <= value <= high:
                raise ValueError(f"{name} must be between {low:g} and {high:g} (got {value!r}).")

    @property
    def is_stock(self) -> bool:
        return self == Knobs()


def config_with(cfg: TransformerConfig, knobs: Knobs, original_len: int | None = None) -> TransformerConfig:
    """The config with the knobs of its scheme applied (and the temperature). `original_len`:
    the training context, for YaRN (default: the config's own, else max_len)."""
    changes: dict = {}
    if knobs.temperature != 1.0:
        changes["attn_temperature"] = float(knobs.temperature)
    pe = cfg.positional
    if pe == "rope":
        if knobs.rope_base is not None:
            changes["rope_base"] = float(knobs.rope_base)
        if knobs.rope_scaling != "none" and knobs.rope_factor != 1.0:
            changes.update(rope_scaling=knobs.rope_scaling, rope_factor=float(knobs.rope_factor),
                           rope_original_len=original_len or cfg.rope_original_len or cfg.max_len)
    elif pe == "alibi" and knobs.alibi_slope_scale != 1.0:
        changes["alibi_slope_scale"] = float(knobs.alibi_slope_scale)
    elif pe == "relative":
        if knobs.relative_buckets is not None:
            changes["relative_buckets"] = int(knobs.relative_buckets)
        if knobs.relative_max_distance is not None:
            changes["relative_max_distance"] = int(knobs.relative_max_distance)
    elif pe == "sinusoidal":
        if knobs.sinusoidal_base is not None:
            changes["sinusoidal_base"] = float(knobs.sinusoidal_base)
        if knobs.sinusoidal_layout is not None:
            changes["sinusoidal_layout"] = knobs.sinusoidal_layout
    return dataclasses.replace(cfg, **changes) if changes else cfg


def relative_source_buckets(old_buckets: int, old_max: int, new_buckets: int, new_max: int,
                            bidirectional: bool, span: int = 8192) -> torch.Tensor:
    """For every new bucket, the old bucket that held the nearest relative position the new
    bucket covers [new_buckets] (−1: a bucket no position in ±span reaches; never read)."""
    rel = torch.arange(-span, span + 1)
    rel = rel[torch.argsort(rel.abs(), stable=True)]                  # nearest distances first
    new = models.positional.relative_bucket(rel, bidirectional, new_buckets, new_max)
    old = models.positional.relative_bucket(rel, bidirectional, old_buckets, old_max)
    source = torch.full((new_buckets,), -1, dtype=torch.long)
    for b in range(new_buckets):
        hit = (new == b).nonzero()
        if len(hit):
            source[b] = old[hit[0, 0]]
    return source


def reindex_relative(table: torch.Tensor, cfg: TransformerConfig, new_cfg: TransformerConfig,
                     bidirectional: bool) -> torch.Tensor:
    """A trained T5 bias table [old buckets, head] re-indexed for new buckets [new, head]."""
    src = relative_source_buckets(cfg.relative_buckets, cfg.relative_max_distance, new_cfg.relative_buckets,
                                  new_cfg.relative_max_distance, bidirectional)
    out = torch.zeros(new_cfg.relative_buckets, table.shape[1], dtype=table.dtype, device=table.device)
    hit = src >= 0
    out[hit] = table[src[hit].to(table.device)]
    return out


def apply(model: Transformer, knobs: Knobs, original_len: int | None = None) -> Transformer:
    """A model with the knobs applied, sharing the trained tensors (the model itself when
    nothing changes). Eval mode."""
    cfg = model.cfg
    new_cfg = config_with(cfg, knobs, original_len)
    if new_cfg == cfg:
        return model
    state = dict(model.state_dict())
    if (new_cfg.relative_buckets, new_cfg.relative_max_distance) != (cfg.relative_buckets, cfg.relative_max_distance):
        for name, module in model.named_modules():
            if hasattr(module, "rel_bias"):
                key = f"{name}.rel_bias.weight" if name else "rel_bias.weight"
                state[key] = reindex_relative(state[key], cfg, new_cfg, bidirectional=not module.is_decoder)
    device = next(model.parameters()).device
    return Transformer.from_state(new_cfg, state, device=device).eval()


def wavelengths(cfg: TransformerConfig, knobs: Knobs, original_len: int | None = None) -> torch.Tensor:
    """The wavelength of every rotating pair of a RoPE model [rotary_dim / 2], in positions,
    under the knobs (compare with the training length: pairs whose wavelength exceeds it
    never completed a turn in training)."""
    new = config_with(cfg, knobs, original_len)
    return models.positional.rope_wavelengths(new.rotary_dim, new.rope_base, models.positional.rope_scaling_of(new))


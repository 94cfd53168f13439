"""The normalisations a block can use: LayerNorm (BERT, GPT-2), RMSNorm (LLaMA, T5) and
DyT (no statistics at all). Each records what it divides by (`hook_scale`) and its
output (`hook_normalized`); `make_norm(cfg)` picks the one the config names."""
from __future__ import annotations

import torch
from torch import nn

from .config import TransformerConfig
from .hooks import HookPoint


class LayerNorm(nn.Module):
    """(x - mean) / sqrt(var + eps) · w + b  (Ba et al. 2016), per position.

    The output comes from PyTorch's own layer_norm kernel, so loaded BERT/GPT-2 models
    match Hugging Face bitwise; `hook_scale` records sqrt(var + eps) beside it for
    reading (replacing it does not change the output)."""

    def __init__(self, d: int, eps: float, bias: bool = True) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d)) if bias else None    # ModernBERT: no bias (cfg.norm_bias)
        self.hook_scale = HookPoint()       # [b, pos, 1]
        self.hook_normalized = HookPoint()  # [b, pos, d]

    @property
    def gain(self) -> torch.Tensor:
        """What the normalised vector is multiplied by (before the bias)."""
        return self.weight

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # the kernel behind F.layer_norm, which also returns its 1/sqrt(var + eps)
        out, _mean, rstd = torch.native_layer_norm(x, x.shape[-1:], self.weight, self.bias, self.eps)
        if self.hook_scale.hooked:          # only shown, never used: computed when someone looks
            self.hook_scale(rstd.reciprocal())
        return self.hook_normalized(out)


class RMSNorm(nn.Module):
    """x / sqrt(mean(x²) + eps) · w  (Zhang & Sennrich 2019): LayerNorm without centring.
    Same operations, in the same order, as LLaMA's reference implementation.

    plus_one (Gemma): x / sqrt(mean(x²) + eps) · (1 + w), with w starting at 0; computed
    as Gemma does, all in float32 and rounded to x's dtype only at the end (LLaMA rounds
    before multiplying by w)."""

    def __init__(self, d: int, eps: float, plus_one: bool = False) -> None:
        super().__init__()
        self.eps = eps
        self.plus_one = plus_one
        self.weight = nn.Parameter(torch.zeros(d) if plus_one else torch.ones(d))
        self.hook_scale = HookPoint()       # [b, pos, 1]
        self.hook_normalized = HookPoint()  # [b, pos, d]

    @property
    def gain(self) -> torch.Tensor:
        """What the normalised vector is multiplied by: w, or 1 + w (Gemma)."""
        return 1.0 + self.weight if self.plus_one else self.weight

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x32 = x.float()                     # one float32 copy of x (none when x is float32)
        ms = x32.pow(2).mean(-1, keepdim=True) + self.eps
        if self.hook_scale.hooked:          # only shown, never used: computed when someone looks
            self.hook_scale(ms.sqrt())
        if self.plus_one:
            return self.hook_normalized(((x32 * torch.rsqrt(ms)) * (1.0 + self.weight.float())).to(x.dtype))
        return self.hook_normalized(self.weight * (x32 * torch.rsqrt(ms)).to(x.dtype))


class DyT(nn.Module):
    """Dynamic Tanh, w · tanh(α x) + b (Zhu et al. 2025, "Transformers without
    Normalization"): an element-wise squashing with a learned α, no statistics."""

    def __init__(self, d: int, alpha: float) -> None:
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(float(alpha)))
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))
        self.hook_normalized = HookPoint()  # [b, pos, d]

    @property
    def gain(self) -> torch.Tensor:
        return self.weight

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.hook_normalized(torch.tanh(self.alpha * x) * self.weight + self.bias)


def make_norm(cfg: TransformerConfig, width: int | None = None) -> nn.Module:
    """The config's norm over `width` dims (default d_model; the embeddings' width for an
    embedding norm, d_head or a projection's width for a query/key norm)."""
    d = cfg.d_model if width is None else width
    if cfg.norm == "layernorm":
        return LayerNorm(d, cfg.norm_eps, bias=cfg.norm_bias)
    if cfg.norm == "rmsnorm":
        return RMSNorm(d, cfg.norm_eps, plus_one=cfg.norm_plus_one)
    return DyT(d, cfg.dyt_alpha)

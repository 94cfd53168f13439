"""The position-wise parts of the model: the feed-forward network of every block and
the unembedding of a seq2seq checkpoint. Each token is transformed on its own here;
attention (models/transformer.py) is the only place where tokens mix.

Shapes: b = batch, pos = positions, d = d_model, ff = d_ff.
"""
from __future__ import annotations

from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn

from .config import TransformerConfig
from .hooks import HookPoint

ACTIVATION_FNS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "relu": F.relu,
    "gelu": F.gelu,                                           # exact, erf form (BERT)
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),     # GPT-2's "gelu_new"
    "silu": F.silu,                                           # x·σ(x), "swish" (Marian)
    "swiglu": F.silu,                                         # the gate of SwiGLU
    "geglu": lambda x: F.gelu(x, approximate="tanh"),         # the gate of GeGLU (Gemma, T5 v1.1)
    "geglu_exact": F.gelu,                                    # GeGLU with the exact GELU (ModernBERT)
}


class MLP(nn.Module):
    """Position-wise feed-forward: W_out · act(W_in x) (Eq. 2), or a gated one
    W_out · (act(W_gate x) ⊙ W_in x) (Shazeer 2020): SwiGLU (SiLU gate, LLaMA) or GeGLU
    (GELU-tanh gate, Gemma, T5 v1.1)."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        self.gated = cfg.gated
        if self.gated:
            self.W_gate = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias)
        self.W_in = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias)
        self.W_out = nn.Linear(cfg.d_ff, cfg.d_model, bias=cfg.bias)
        self.act = ACTIVATION_FNS[cfg.activation]
        self.hook_pre = HookPoint()             # [b, pos, ff] before the activation (gate, if gated)
        if self.gated:
            self.hook_pre_linear = HookPoint()  # [b, pos, ff] the ungated branch
        self.hook_post = HookPoint()            # [b, pos, ff] after the activation (and gating)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.gated:
            pre = self.hook_pre(self.W_gate(x))
            post = self.hook_post(self.act(pre) * self.hook_pre_linear(self.W_in(x)))
        else:
            post = self.hook_post(self.act(self.hook_pre(self.W_in(x))))
        return self.W_out(post)


class Unembed(nn.Linear):
    """W_U with what some checkpoints add around it: logits = W_U (x · d_model^-0.5) + b,
    then ÷ a divisor and a soft cap. unembed_scale: T5 (tied) scales the decoder output
    first; logit_bias: Marian/BART's `final_logits_bias` (a buffer: loaded, never trained);
    unembed_bias: a learned bias (Phi-2); logit_divisor: Granite's logits_scaling;
    logit_softcap: c · tanh(logits / c) (Gemma 2). `model.unembed(x)` applies them all."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__(cfg.d_model, cfg.vocab_size, bias=cfg.unembed_bias)
        self.in_scale = cfg.d_model ** -0.5 if cfg.unembed_scale else None
        self.register_buffer("logit_bias", torch.zeros(1, cfg.vocab_size) if cfg.logit_bias else None)  # [1, vocab]
        self.divisor = cfg.logit_divisor
        self.softcap = cfg.logit_softcap

    @staticmethod
    def needed(cfg: TransformerConfig) -> bool:
        """Whether a plain bias-free nn.Linear would not do."""
        return bool(cfg.unembed_scale or cfg.logit_bias or cfg.unembed_bias or cfg.logit_divisor != 1.0
                    or cfg.logit_softcap is not None)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.in_scale is not None:
            x = x * self.in_scale
        out = super().forward(x)
        if self.logit_bias is not None:
            out = out + self.logit_bias[0]                                    # [vocab]: any input shape
        if self.divisor != 1.0:
            out = out / self.divisor
        if self.softcap is not None:
            out = torch.tanh(out / self.softcap) * self.softcap
        return out

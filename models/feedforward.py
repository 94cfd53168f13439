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
    """W_U of a seq2seq checkpoint: logits = W_U (x · d_model^-0.5) + b. unembed_scale: T5
    (tied) scales the decoder output first; logit_bias: Marian/BART's `final_logits_bias`
    (a buffer: loaded, never trained). `model.unembed(x)` applies both."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__(cfg.d_model, cfg.vocab_size, bias=False)
        self.in_scale = cfg.d_model ** -0.5 if cfg.unembed_scale else None
        self.register_buffer("logit_bias", torch.zeros(1, cfg.vocab_size) if cfg.logit_bias else None)  # [1, vocab]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.in_scale is not None:
            x = x * self.in_scale
        out = super().forward(x)
        return out if self.logit_bias is None else out + self.logit_bias[0]    # [vocab]: any input shape

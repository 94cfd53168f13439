"""ResiDual (Xie et al. 2023): a Transformer with two residual streams, against Post-LN and
Pre-LN, at initialisation, on the reader's token vectors.

With F_l a sublayer (here a seeded, untrained two-layer MLP of the model's width):
- Post-LN: x ← LN(x + F(x)); the output is x.
- Pre-LN:  x ← x + F(LN(x)); the output is LN(x).
- ResiDual: the Post-LN stream p ← LN(p + F(p)) and beside it a dual stream d ← d + F(p)
  that adds the same sublayer outputs without any norm; the output is p + LN(d).

The paper's argument: in Post-LN every layer's gradient passes through the norms above it
and shrinks toward the first layers; in Pre-LN the stream keeps growing, so a late layer's
output is a smaller and smaller share of it (each layer changes the output less); the dual
stream gives the lower layers a norm-free path for the gradient while the Post-LN stream
keeps every layer's share. `wirings` measures both on one seeded stack: the gradient norm of
each layer's weights for one loss, and each layer's output norm ÷ the stream it is added to.
The stack is random (seeded) and untrained: this is what happens at the start of training.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

WIRINGS = ("post", "pre", "residual")


class Sublayer(nn.Module):
    """A seeded two-layer MLP d → 2d → d (GELU), the stand-in for every attention / FFN sublayer."""

    def __init__(self, d: int, gain: float = 1.0) -> None:
        super().__init__()
        self.w1 = nn.Linear(d, 2 * d)
        self.w2 = nn.Linear(2 * d, d)
        with torch.no_grad():
            self.w2.weight.mul_(gain)          # how large a sublayer's output is next to its input

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(torch.nn.functional.gelu(self.w1(x)))


def stack(d: int, layers: int, seed: int, gain: float = 1.0) -> nn.ModuleList:
    torch.manual_seed(seed)
    return nn.ModuleList([Sublayer(d, gain) for _ in range(layers)])


def forward(wiring: str, subs: nn.ModuleList, x: torch.Tensor) -> tuple[torch.Tensor, list[float]]:
    """(output, per layer ‖F_l‖ ÷ ‖the stream F_l is added to‖) of one wiring on x [n, d]."""
    d = x.shape[-1]
    ln = lambda v: torch.nn.functional.layer_norm(v, (d,))          # noqa: E731 (no learned gain: at init it is 1)
    share = []
    if wiring == "post":
        for f in subs:
            y = f(x)
            share.append(float(y.detach().norm() / x.detach().norm()))
            x = ln(x + y)
        return x, share
    if wiring == "pre":
        for f in subs:
            y = f(ln(x))
            share.append(float(y.detach().norm() / x.detach().norm()))
            x = x + y
        return ln(x), share
    if wiring == "residual":
        p, dual = x, x
        for f in subs:
            y = f(p)
            share.append(float(y.detach().norm() / p.detach().norm()))
            p, dual = ln(p + y), dual + y
        return p + ln(dual), share
    raise ValueError(f"Unknown wiring {wiring!r}; known: {', '.join(WIRINGS)}.")


@dataclass(frozen=True)
class Wiring:
    name: str
    grad_norm: np.ndarray     # [L] ‖∂loss/∂W‖ of each layer's weights (both matrices together)
    share: np.ndarray         # [L] ‖F_l‖ ÷ ‖stream‖ where F_l is added

    @property
    def spread(self) -> float:
        """Largest ÷ smallest layer gradient norm: 1 when every layer learns at the same rate."""
        return float(self.grad_norm.max() / max(self.grad_norm.min(), 1e-30))


def wirings(x: torch.Tensor, layers: int = 12, seed: int = 0, gain: float = 1.0) -> dict[str, Wiring]:
    """Every wiring on the same seeded stack and the same input x [n, d]; the loss is the
    output's dot product with a seeded random target (the same for all three). `gain` scales
    every sublayer's output matrix: at 1, PyTorch's default initialisation."""
    if layers < 1:
        raise ValueError(f"Stack at least one layer (got {layers}).")
    with torch.inference_mode(False), torch.enable_grad():
        x = torch.tensor(x.detach().float().cpu().numpy())
        g = torch.Generator().manual_seed(seed + 1)
        target = torch.randn(x.shape, generator=g)
        out = {}
        for name in WIRINGS:
            subs = stack(x.shape[-1], layers, seed, gain)
            y, share = forward(name, subs, x)
            (y * target).sum().backward()
            grads = np.array([float(torch.sqrt(sum((p.grad ** 2).sum() for p in f.parameters() if p.dim() == 2)))
                              for f in subs])
            out[name] = Wiring(name, grads, np.array(share))
    return out

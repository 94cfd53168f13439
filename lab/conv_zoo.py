"""Convolutions over a sequence beside attention: the kinds of 1-D convolution (standard,
dilated, grouped, depthwise, depthwise-separable, transposed, and involution) built as torch.nn modules at
the loaded model's width, their parameters counted from the modules and by formula, their
receptive field after L layers by formula and measured with autograd on the reader's token
vectors; and Lite Transformer's long-short range attention (Wu et al. 2020, LSRA): half the
channels go through attention (every token), half through a convolution (a few
neighbours), against one attention over all channels.

Weights are seeded and untrained (said on the page): parameter counts, lengths and which
inputs reach an output do not depend on the values.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from models.trace import Stack, act_name
from models.transformer import Transformer

KINDS = ("standard", "dilated", "grouped", "depthwise", "separable", "transposed", "involution")
REDUCTION = 4          # involution: the kernel generator's bottleneck, C → C/4


class Involution1d(nn.Module):
    """Involution (Li et al. 2021) over a sequence: the k-wide kernel is generated at every
    position from that position's own vector (C → C/r → k·G), shared by the C/G channels of
    each of G groups: the weights depend on the input (like attention's), the window is fixed
    (like a convolution's)."""

    def __init__(self, channels: int, kernel: int, groups: int, reduction: int = REDUCTION) -> None:
        super().__init__()
        if channels % groups:
            raise ValueError(f"{channels} channels cannot be split into {groups} equal groups.")
        self.k, self.g = kernel, groups
        self.reduce = nn.Linear(channels, max(1, channels // reduction))
        self.span = nn.Linear(max(1, channels // reduction), kernel * groups)

    def forward(self, x: torch.Tensor) -> torch.Tensor:           # x [1, C, n]
        _, c, n = x.shape
        kernels = self.span(torch.relu(self.reduce(x[0].T))).view(n, self.g, self.k)        # [n, G, k]
        pad = (self.k - 1) // 2
        win = nn.functional.pad(x[0], (pad, self.k - 1 - pad)).unfold(1, self.k, 1)        # [C, n, k]
        win = win.view(self.g, c // self.g, n, self.k)
        return torch.einsum("ngk,gcnk->gcn", kernels, win).reshape(1, c, n)


def layer(kind: str, channels: int, kernel: int = 3, dilation: int = 2, groups: int = 4, stride: int = 2) -> nn.Module:
    """One convolution of `kind` mapping `channels` to `channels` ("same" padding except transposed)."""
    if channels < 1 or kernel < 1 or dilation < 1 or groups < 1 or stride < 1:
        raise ValueError("Channels, kernel, dilation, groups and stride must all be at least 1.")
    pad = (kernel - 1) // 2
    if kind == "standard":
        return nn.Conv1d(channels, channels, kernel, padding=pad)
    if kind == "dilated":
        return nn.Conv1d(channels, channels, kernel, padding=pad * dilation, dilation=dilation)
    if kind == "grouped":
        if channels % groups:
            raise ValueError(f"{channels} channels cannot be split into {groups} equal groups.")
        return nn.Conv1d(channels, channels, kernel, padding=pad, groups=groups)
    if kind == "depthwise":
        return nn.Conv1d(channels, channels, kernel, padding=pad, groups=channels)
    if kind == "separable":
        return nn.Sequential(nn.Conv1d(channels, channels, kernel, padding=pad, groups=channels),
                             nn.Conv1d(channels, channels, 1))
    if kind == "involution":
        return Involution1d(channels, kernel, groups)
    if kind == "transposed":
        return nn.ConvTranspose1d(channels, channels, kernel, stride=stride, padding=pad, output_padding=stride - 1)
    raise ValueError(f"Unknown convolution {kind!r}; known: {', '.join(KINDS)}.")


def formula_params(kind: str, c: int, k: int, groups: int = 4) -> int:
    """Weights + biases by formula: C·C·k + C; grouped C·(C/g)·k + C; depthwise C·k + C;
    separable (C·k + C) + (C·C + C); dilated and transposed as standard; involution only its
    kernel generator, C·(C/r) + C/r + (C/r)·k·G + k·G, whatever the sequence."""
    r = max(1, c // REDUCTION)
    return {"involution": c * r + r + r * k * groups + k * groups, "standard": c * c * k + c,
            "dilated": c * c * k + c, "grouped": c * (c // groups) * k + c, "depthwise": c * k + c, "separable": c * k + c + c * c + c, "transposed": c * c * k + c}[kind]


def formula_reach(kind: str, k: int, dilation: int, layers: int) -> int:
    """Input positions one output sees after `layers` stacked layers: 1 + L·(k − 1)·(d for dilated)."""
    step = (k - 1) * (dilation if kind == "dilated" else 1)
    return 1 + layers * step


@torch.no_grad()
def token_vectors(model: Transformer, ids) -> torch.Tensor:
    """The reader's token vectors as the first block reads them [n, d] (an encoder-decoder's encoder)."""
    cfg = model.cfg
    s = Stack.ENCODER if cfg.arch == "encoder-decoder" else Stack.SELF
    name = act_name("resid_pre", 0, s)
    _, tr = model.run_with_cache(ids, ids if cfg.arch == "encoder-decoder" else None, names=[name], stop_after=name)
    return tr[name][0].float().cpu()


@torch.no_grad()
def counted(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


def measured_reach(stack: nn.Module, x: torch.Tensor, position: int) -> list[int]:
    """Input positions whose vectors change output `position` of `stack` on x [1, C, n]:
    those with a non-zero gradient (autograd through the seeded layers)."""
    with torch.inference_mode(False), torch.enable_grad():
        x = torch.tensor(x.detach().cpu().numpy(), requires_grad=True)      # a plain tensor, whatever mode made x
        out = stack(x)
        out[0, :, position].sum().backward()
    return [int(i) for i in torch.nonzero(x.grad[0].abs().sum(0) > 0).flatten()]


@dataclass(frozen=True)
class ZooRow:
    kind: str
    params: int              # counted from the module
    formula: int             # by formula
    out_len: int             # output positions for the text's n inputs
    reach_formula: int
    reach: list[int]         # measured: input positions that reach the middle output after L layers


def zoo(x: torch.Tensor, kernel: int = 3, dilation: int = 2, groups: int = 4, layers: int = 2,
        seed: int = 0) -> list[ZooRow]:
    """Every kind at the width of x [n, C] (the reader's token vectors), L layers stacked."""
    n, c = x.shape
    if layers < 1:
        raise ValueError(f"Stack at least one layer (got {layers}).")
    groups = groups if c % groups == 0 else 1
    inp = torch.tensor(x.detach().float().cpu().numpy()).T[None]               # [1, C, n], a plain tensor
    rows = []
    with torch.inference_mode(False):                                          # layers that autograd can read
        for kind in KINDS:
            rows.append(zoo_row(kind, inp, c, kernel, dilation, groups, layers, seed))
    return rows


def zoo_row(kind: str, inp: torch.Tensor, c: int, kernel: int, dilation: int, groups: int, layers: int,
            seed: int) -> ZooRow:
    """One kind's row (see `zoo`)."""
    n = inp.shape[-1]
    torch.manual_seed(seed)
    one = layer(kind, c, kernel, dilation, groups)
    with torch.no_grad():
        out_len = one(inp).shape[-1]
    if kind == "transposed":
        return ZooRow(kind, counted(one), formula_params(kind, c, kernel, groups), out_len, 0, [])
    stack = nn.Sequential(*[layer(kind, c, kernel, dilation, groups) for _ in range(layers)])
    return ZooRow(kind, counted(one), formula_params(kind, c, kernel, groups), out_len,
                  formula_reach(kind, kernel, dilation, layers), measured_reach(stack, inp, n // 2))


@dataclass(frozen=True)
class Lsra:
    """One attention over d channels against LSRA's attention on d/2 plus a convolution on d/2."""

    d: int
    n: int
    kernel: int
    attn_params: int         # nn.MultiheadAttention(d)
    lsra_attn_params: int    # nn.MultiheadAttention(d/2)
    lsra_conv_params: int    # depthwise conv k on d/2 + a d/2 × d/2 pointwise mix
    attn_macs: int           # multiply-adds on n tokens: 4·n·d² + 2·n²·d
    lsra_macs: int           # 4·n·(d/2)² + 2·n²·(d/2) + n·k·(d/2) + n·(d/2)²
    attn_reach: int          # tokens one output of the attention branch sees (the whole text)
    conv_reach: int          # ... of the convolution branch, one layer

    @property
    def lsra_params(self) -> int:
        return self.lsra_attn_params + self.lsra_conv_params


def lsra(d: int, n: int, kernel: int = 3, heads: int = 4) -> Lsra:
    """LSRA's halves against full attention at width d on n tokens (parameters counted from torch modules)."""
    if d < 2 or d % 2:
        raise ValueError(f"LSRA splits the channels in half: d must be even (got {d}).")
    half = d // 2
    h = next(x for x in range(min(heads, half), 0, -1) if half % x == 0 and d % x == 0)
    attn = counted(nn.MultiheadAttention(d, h))
    small = counted(nn.MultiheadAttention(half, h))
    conv = counted(nn.Sequential(nn.Conv1d(half, half, kernel, padding=(kernel - 1) // 2, groups=half),
                                 nn.Conv1d(half, half, 1)))
    return Lsra(d, n, kernel, attn, small, conv, 4 * n * d * d + 2 * n * n * d,
                4 * n * half * half + 2 * n * n * half + n * kernel * half + n * half * half, n, min(n, kernel))

"""The FFN split across k devices (tensor parallelism, Megatron-LM, Shoeybi et al. 2019), run
on the loaded model's own weights and the reader's text.

Written with x as a row, FFN(x) = act(x W_in + b_in) W_out + b_out with W_in [d, d_ff] and
W_out [d_ff, d]. Device i holds a block of d_ff/k columns of W_in (and of W_gate in a gated
FFN), the same block of b_in, and the matching d_ff/k rows of W_out. The activation works
on each hidden unit alone, so every device finishes its own part without talking to the
others: y_i = act(x W_in[:, s_i] + b_in[s_i]) W_out[s_i, :]. One sum (an all-reduce) adds
the k partial outputs, and b_out is added once. (torch's nn.Linear stores W_in transposed,
[d_ff, d]: its *rows* s_i are the columns above.)

The other way to cut W_in, along d (rows of W_in), gives every device a partial pre-activation
that has to be summed *before* the activation; applying the activation on each part and
summing after gives a different answer, which `wrong_split_difference` measures.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from models.transformer import Transformer

from .residual import stack_of, sublayer_input

MAX_DEVICES = 64


def bounds(total: int, k: int) -> list[tuple[int, int]]:
    """[start, end) of k nearly equal consecutive blocks of `total` (the first total % k one longer)."""
    if not 1 <= k <= total:
        raise ValueError(f"Cannot cut {total} hidden units into {k} parts: choose 1 to {total}.")
    size, extra = divmod(total, k)
    out, start = [], 0
    for i in range(k):
        end = start + size + (1 if i < extra else 0)
        out.append((start, end))
        start = end
    return out


@torch.no_grad()
def ffn_input(model: Transformer, ids, layer: int, tgt_ids=None) -> tuple[torch.Tensor, torch.nn.Module]:
    """What layer `layer`'s FFN reads on this text ([1, n, d], batch row 0) and the FFN
    module itself. An encoder-decoder is read in its decoder (`tgt_ids`, default `ids`)."""
    cfg = model.cfg
    if not 0 <= layer < cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{cfg.n_layers - 1}.")
    s = stack_of(model)
    name = sublayer_input(cfg, layer, "ffn", s)
    tgt = (ids if tgt_ids is None else tgt_ids) if cfg.arch == "encoder-decoder" else None
    _, tr = model.run_with_cache(ids, tgt, names=[name], stop_after=name)
    return tr[name][:1], model.stack_module(s).blocks[layer].mlp


def part_output(mlp: torch.nn.Module, x: torch.Tensor, start: int, end: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(hidden [.., end-start], partial output [.., d]) of the hidden units start..end: the
    columns of W_in (and W_gate) and the rows of W_out one device holds; no b_out."""
    def cut(lin: torch.nn.Linear) -> torch.Tensor:
        out = x @ lin.weight[start:end].T
        return out + lin.bias[start:end] if lin.bias is not None else out
    if mlp.gated:
        hidden = mlp.act(cut(mlp.W_gate)) * cut(mlp.W_in)
    else:
        hidden = mlp.act(cut(mlp.W_in))
    return hidden, hidden @ mlp.W_out.weight[:, start:end].T


@dataclass
class Sharding:
    """One FFN split across k devices, on the reader's text (n tokens)."""

    k: int
    n: int
    d_model: int
    d_ff: int
    gated: bool
    blocks: list[tuple[int, int]]       # hidden units [start, end) per device
    params: list[int]                   # parameters each device holds (b_out on device 0)
    hidden: list[int]                   # activations each device makes: n × its hidden units
    partial_norm: list[float]           # ‖y_i‖ (Frobenius over the text) of each partial output
    full_norm: float                    # ‖FFN(x)‖ as the model computes it
    max_abs_diff: float                 # max |Σ y_i + b_out − FFN(x)|
    rel_diff: float                     # ‖Σ y_i + b_out − FFN(x)‖ / ‖FFN(x)‖
    wrong_rel_diff: float               # the same for the split along d (activation before the sum)
    bytes_per_param: int
    full_params: int                    # the whole FFN's parameters
    full_hidden: int                    # n × d_ff

    @property
    def reduce_values(self) -> int:
        """Numbers each device sends into the all-reduce: its partial output, n × d."""
        return self.n * self.d_model


def layer_params(mlp: torch.nn.Module) -> int:
    return sum(p.numel() for p in mlp.parameters())


def device_params(mlp: torch.nn.Module, start: int, end: int, first: bool) -> int:
    """Parameters of W_in (and W_gate) columns, b_in entries and W_out rows start..end; b_out on the first."""
    d = mlp.W_out.weight.shape[0]
    m = end - start
    mats = 2 + int(mlp.gated)
    n = mats * d * m
    n += m * ((mlp.W_in.bias is not None) + (mlp.gated and mlp.W_gate.bias is not None))
    if first and mlp.W_out.bias is not None:
        n += d
    return int(n)


@torch.no_grad()
def wrong_split_difference(mlp: torch.nn.Module, x: torch.Tensor, k: int, full: torch.Tensor) -> float:
    """‖Σ_i W_out-part(act(x[:, d-block i] W_in[d-block i, :])) − FFN(x)‖ / ‖FFN(x)‖: W_in
    cut along d, each device applying the activation to its partial pre-activation before
    the sum (the mistake the column split avoids). b_in and b_out are added once."""
    d = x.shape[-1]
    k = min(k, d)
    total = torch.zeros_like(full)
    for i, (a, b) in enumerate(bounds(d, k)):
        bias = (lambda lin: lin.bias if (lin.bias is not None and i == 0) else 0)
        pre_in = x[..., a:b] @ mlp.W_in.weight[:, a:b].T + bias(mlp.W_in)
        if mlp.gated:
            hidden = mlp.act(x[..., a:b] @ mlp.W_gate.weight[:, a:b].T + bias(mlp.W_gate)) * pre_in
        else:
            hidden = mlp.act(pre_in)
        total = total + hidden @ mlp.W_out.weight.T
    if mlp.W_out.bias is not None:
        total = total + mlp.W_out.bias
    return float((total - full).norm() / full.norm().clamp_min(1e-30))


@torch.no_grad()
def shard(model: Transformer, ids, layer: int, k: int, tgt_ids=None) -> Sharding:
    """Split layer `layer`'s FFN into k column/row blocks, run each on the text's FFN input,
    and compare the sum of the partial outputs with the model's own FFN output."""
    if not 1 <= k <= MAX_DEVICES:
        raise ValueError(f"The number of devices must be 1 to {MAX_DEVICES} (got {k}).")
    x, mlp = ffn_input(model, ids, layer, tgt_ids)
    d_ff, d = mlp.W_in.weight.shape
    if k > d_ff:
        raise ValueError(f"This FFN has {d_ff} hidden units: it cannot be split across {k} devices.")
    full = mlp(x)
    blocks = bounds(d_ff, k)
    total = torch.zeros_like(full)
    norms = []
    for a, b in blocks:
        _, y = part_output(mlp, x, a, b)
        norms.append(float(y.norm()))
        total = total + y
    if mlp.W_out.bias is not None:
        total = total + mlp.W_out.bias
    diff = total - full
    n = x.shape[1]
    elem = next(model.parameters()).element_size()
    return Sharding(k=k, n=n, d_model=d, d_ff=d_ff, gated=bool(mlp.gated), blocks=blocks,
                    params=[device_params(mlp, a, b, i == 0) for i, (a, b) in enumerate(blocks)],
                    hidden=[n * (b - a) for a, b in blocks], partial_norm=norms, full_norm=float(full.norm()),
                    max_abs_diff=float(diff.abs().max()), rel_diff=float(diff.norm() / full.norm().clamp_min(1e-30)),
                    wrong_rel_diff=wrong_split_difference(mlp, x, k, full), bytes_per_param=int(elem),
                    full_params=layer_params(mlp), full_hidden=n * d_ff)

"""Fused attention kernels (FasterTransformer, FlashAttention, torch's
`scaled_dot_product_attention`), timed against the unfused chain of operations on one layer
of the loaded model and the reader's text.

Unfused: four separate operations, each writing its whole result to memory before the next
reads it: the scores q·kᵀ·scale (+ position bias) [heads, n, m], the mask, the softmax
[heads, n, m] and the product with V. Fused: one call, `torch.nn.functional.
scaled_dot_product_attention`, which may pick a kernel that never writes the n × m matrix.
Both get the layer's own q, k, v (after RoPE), mask, bias and scale, recorded from the model;
their outputs are compared with the model's `hook_z`.

The text can be repeated r times along the sequence (the mask and the bias rebuilt for the
longer length with the model's own builders) to see how the gap grows with n: the unfused
chain moves O(n·m) numbers through memory several times. Timings are medians of repeats
measured now on this machine (`lab.rope_cost.median_seconds`); the page shows what it
measured, never a fixed number.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from models import masks
from models.trace import Stack
from models.transformer import Transformer

from .flash import head_names
from .kv import kv_groups
from .rope_cost import median_seconds
from .walkthrough import walk_stack

REPEATS = (1, 4, 16, 64)
MAX_LEN = 512          # repeats that would make the text longer than this are left out (n² scores per head)


@dataclass(frozen=True)
class LayerInputs:
    """What one attention layer computes with, all heads: [1, heads, n, d] q, [1, heads, m, d] k, v
    (key/value heads already shared out to their query heads), the mask [n, m] (True = may
    attend), an additive bias [heads, n, m] or None, the scale and the model's output z."""

    q: torch.Tensor
    k: torch.Tensor
    v: torch.Tensor
    mask: torch.Tensor
    bias: torch.Tensor | None
    scale: float
    z: torch.Tensor                 # [1, heads, n, d]


@torch.no_grad()
def layer_inputs(model: Transformer, ids, layer: int, stack: Stack | str | None = None, tgt_ids=None,
                 repeat: int = 1) -> LayerInputs:
    """Record layer `layer`'s attention inputs on the text, repeated `repeat` times along the sequence."""
    cfg = model.cfg
    if not 0 <= layer < cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{cfg.n_layers - 1}.")
    if repeat < 1:
        raise ValueError(f"Repeat the text at least once (got {repeat}).")
    s = walk_stack(cfg, stack)
    attn = model.stack_module(s).blocks[layer].attn if not s.cross else model.decoder.blocks[layer].cross_attn
    if attn.softcap is not None:
        raise ValueError("This model caps its attention scores (c·tanh(s/c), Gemma 2); the fused call has no cap, "
                         "so the two would compute different things.")
    q_name, k_name, v_name, mask_name, z_name = head_names(model, layer, s)
    _, tr = model.run_with_cache(ids, tgt_ids, names=[q_name, k_name, v_name, mask_name, z_name],
                                 stop_after=z_name)            # the layers above are not needed
    groups = torch.tensor(kv_groups(cfg.n_heads, cfg.kv_heads))

    def heads(x: torch.Tensor) -> torch.Tensor:          # [1, pos, heads, d] -> [1, heads, pos·repeat, d] float32
        return torch.cat([x] * repeat, dim=1).transpose(1, 2).float().contiguous()
    q, k, v = heads(tr[q_name]), heads(tr[k_name][:, :, groups]), heads(tr[v_name][:, :, groups])
    n, m = q.shape[2], k.shape[2]
    if repeat == 1:
        mask = tr[mask_name][0, 0].expand(n, m).cpu()
    elif s.cross:
        mask = torch.ones(n, m, dtype=torch.bool)
    else:
        decoder = s is Stack.DECODER or (s is Stack.SELF and cfg.arch == "decoder")
        mask = masks.self_attention_mask(cfg.attention, n, decoder=decoder)
    bias = None
    if not s.cross:
        _, b, _ = model.stack_module(s).positions(cfg, n, q)
        bias = None if b is None else b.float()
    scale = attn.scale if attn.scale is not None else q.shape[-1] ** -0.5
    if attn.temperature != 1.0:
        scale, bias = scale / attn.temperature, None if bias is None else bias / attn.temperature
    return LayerInputs(q, k, v, mask.to(q.device), None if bias is None else bias.to(q.device), float(scale),
                       tr[z_name].transpose(1, 2).float())


def unfused(x: LayerInputs) -> torch.Tensor:
    """Scores, mask, softmax and the product with V as four separate operations."""
    scores = (x.q @ x.k.transpose(-1, -2)) * x.scale
    if x.bias is not None:
        scores = scores + x.bias
    scores = scores.masked_fill(~x.mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ x.v


def fused(x: LayerInputs) -> torch.Tensor:
    """One call to torch's scaled_dot_product_attention with the same mask, bias and scale."""
    if x.bias is None:
        return F.scaled_dot_product_attention(x.q, x.k, x.v, attn_mask=x.mask, scale=x.scale)
    additive = x.bias.masked_fill(~x.mask, float("-inf"))
    return F.scaled_dot_product_attention(x.q, x.k, x.v, attn_mask=additive, scale=x.scale)


@dataclass(frozen=True)
class FusedTiming:
    """One repeat count: the sizes, the agreement and the medians."""

    repeat: int
    n: int
    m: int
    heads: int
    unfused_s: float
    fused_s: float
    max_diff: float                 # max |fused − unfused|
    model_diff: float | None        # max |unfused − the model's z| (repeat 1 only)
    matrix_bytes: int               # the scores and the weights the unfused chain writes: 2·heads·n·m·4

    @property
    def ratio(self) -> float:
        return self.unfused_s / max(self.fused_s, 1e-12)


@torch.no_grad()
def compare(model: Transformer, ids, layer: int, stack: Stack | str | None = None, tgt_ids=None,
            repeats: tuple[int, ...] = REPEATS, runs: int = 10) -> list[FusedTiming]:
    """Time the unfused chain and the fused call on layer `layer` at every repeat count (in
    increasing order) that keeps the text within MAX_LEN tokens."""
    out = []
    for r in repeats:
        if r > 1 and out and out[0].n * r > MAX_LEN:
            break
        x = layer_inputs(model, ids, layer, stack, tgt_ids, r)
        device = x.q.device
        sync = (lambda: torch.cuda.synchronize(device)) if device.type == "cuda" else (lambda: None)
        a, b = unfused(x), fused(x)
        model_diff = float((a - x.z).abs().max()) if r == 1 else None
        _, h, n, _ = x.q.shape
        m = x.k.shape[2]
        out.append(FusedTiming(r, n, m, h, median_seconds(lambda: unfused(x), runs, sync=sync),
                               median_seconds(lambda: fused(x), runs, sync=sync), float((a - b).abs().max()),
                               model_diff, 2 * h * n * m * 4))
    return out

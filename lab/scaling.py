"""Why attention divides the scores by √d_k (Vaswani et al. 2017, section 3.2.1), measured.

- `random_variance`: Var(q·k) for random q, k with unit-variance components grows as
  d_k (the sum of d_k products each of variance 1), and Var(q·k / √d_k) stays 1. The
  closed form of the sampling error is returned with it, so the line Var = d_k can be
  checked, not just drawn.
- `head_scaling`: the same for the real q, k of one head (a walk from lab/walkthrough.py),
  and one query's softmax with and without the scaling: the largest weight, the
  entropy and the size of the softmax's gradient. Unscaled scores saturate the softmax
  (one weight near 1, the rest near 0) and its gradient vanishes: the division keeps
  the softmax in the region where it still learns, it does not "squeeze the scores
  into 0..1" (the scaled scores are not in 0..1; softmax outputs are, with or without)
  and it does not stop gradients from exploding (the failure it prevents is the
  opposite).
- `unscaled_run`: the whole model run again with the division removed (a hook
  multiplies every query by √d_k), and what changes: attention entropy per layer and
  the output.
- `attention_linearity`: attention is not linear in its input X, because the weights
  are a softmax of X: doubling X does not double the output (compared as an affine
  map, so the biases do not count against it).

`scaling_study` runs all of it on one model pass; the app calls it inside its run gate.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import torch

from models.hooks import hooks
from models.trace import Stack, act_name, as_numpy
from models.transformer import Transformer

from . import attention
from .ablation import output_change
from .walkthrough import HeadWalk, attention_input_name, layer_positions, memory_name, record_and_walk, walk_stack

DIMS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


# ---- random q, k ---------------------------------------------------------------------------------
@dataclass
class VarianceCurve:
    """Sample variance of q·k for q, k ~ N(0, I_d) at each d (float64)."""

    dims: np.ndarray            # [n] d_k
    var: np.ndarray             # [n] Var(q·k): the closed form is d_k
    var_scaled: np.ndarray      # [n] Var(q·k / √d_k): the closed form is 1
    stderr: np.ndarray          # [n] standard error of var: sqrt((2d² + 6d) / samples)
    samples: int


def random_variance(dims: Sequence[int] = DIMS, samples: int = 4096, seed: int = 0) -> VarianceCurve:
    """Var(q·k) over `samples` random pairs per d_k. For unit-variance independent
    components E[(q·k)²] = d and E[(q·k)⁴] = 3d² + 6d, so the sample variance has
    standard error sqrt((2d² + 6d) / samples)."""
    if samples < 2:
        raise ValueError("Take at least 2 samples to estimate a variance.")
    rng = np.random.default_rng(seed)
    var, var_s = [], []
    for d in dims:
        q = rng.standard_normal((samples, int(d)))
        k = rng.standard_normal((samples, int(d)))
        dots = np.einsum("sd,sd->s", q, k)
        var.append(dots.var())
        var_s.append((dots / math.sqrt(d)).var())
    d = np.asarray(dims, dtype=np.float64)
    return VarianceCurve(d, np.asarray(var), np.asarray(var_s), np.sqrt((2 * d**2 + 6 * d) / samples), samples)


# ---- one query's softmax -----------------------------------------------------------------------------
def softmax(s: np.ndarray) -> np.ndarray:
    """softmax of a row with −∞ for masked keys (at least one finite entry)."""
    e = np.exp(s - s[np.isfinite(s)].max())
    return e / e.sum()


def softmax_jacobian(p: np.ndarray) -> np.ndarray:
    """∂p/∂s = diag(p) − p pᵀ for p = softmax(s) [m] -> [m, m]."""
    return np.diag(p) - np.outer(p, p)


@dataclass
class SoftmaxStats:
    """One query's attention under one choice of scale."""

    scale: float                # what q·k was multiplied by (1/√d_k, or 1)
    scores: np.ndarray          # [m] scale·q·k + bias, −∞ where masked
    weights: np.ndarray         # [m] softmax
    max_weight: float
    entropy: float              # nats
    grad_scores: float          # ‖∂p/∂s‖_F: the softmax's own gradient
    grad_dots: float            # ‖∂p/∂(q·k)‖_F = scale · ‖∂p/∂s‖_F


def softmax_stats(dots: np.ndarray, scale: float, bias: np.ndarray | None, mask: np.ndarray) -> SoftmaxStats:
    s = dots * scale + (0.0 if bias is None else bias)
    s = np.where(mask, s, -np.inf)
    p = softmax(s)
    g = float(np.linalg.norm(softmax_jacobian(p)))
    return SoftmaxStats(scale, s, p, float(p.max()), float(attention.entropy(p[None, :])[0]), g, g * scale)


# ---- a real head -------------------------------------------------------------------------------------
@dataclass
class HeadScaling:
    """√d_k on one head of a real model (numbers from a HeadWalk, float64)."""

    d_k: int
    var_dots: float             # Var(q_i·k_j) over every (query, key) pair of the head
    var_scaled: float           # Var(q_i·k_j / √d_k)
    var_q: float                # mean over dimensions of Var(q component)
    var_k: float
    scaled_range: tuple[float, float]   # min, max of q·k/√d_k over all pairs (not 0..1)
    with_scale: SoftmaxStats    # the chosen query, as the model computes it
    without: SoftmaxStats       # the same query with q·k not divided
    model_error: float          # max |with_scale.weights − the model's pattern row|


def head_scaling(walk: HeadWalk) -> HeadScaling:
    q = walk.q_rot if walk.rope else walk.q_all               # [n, dh]
    dots = q @ walk.keys.T                                    # [n, m]
    d = q.shape[1]
    scaled = dots / math.sqrt(d)
    with_s = softmax_stats(walk.dots, walk.scale, walk.bias, walk.mask)
    without = softmax_stats(walk.dots, 1.0, walk.bias, walk.mask)
    return HeadScaling(d, float(dots.var()), float(scaled.var()), float(q.var(0).mean()), float(walk.keys.var(0).mean()),
                       (float(scaled.min()), float(scaled.max())), with_s, without,
                       float(np.abs(with_s.weights - walk.model_pattern).max()))


# ---- the model without the scaling -------------------------------------------------------------------
@dataclass
class NoScaling:
    """The model run as it is and with every q·k left undivided (every attention)."""

    stack: str                  # the self-attention stack whose patterns are summarised
    entropy: np.ndarray         # [L] mean attention entropy per layer, as the model computes it
    entropy_unscaled: np.ndarray  # [L] the same without the division
    max_weight: np.ndarray      # [L] mean of each query's largest weight
    max_weight_unscaled: np.ndarray
    change: dict[str, np.ndarray]   # lab.ablation.output_change (KL and top-1 for logits, else cosine)
    logits: bool


def unscale_hooks(model: Transformer) -> list[tuple[str, object]]:
    """Hooks that multiply every query by √d_k, so q·k/√d_k becomes q·k (RoPE is linear,
    so scaling before the rotation is the same)."""
    factor = math.sqrt(model.cfg.head_dim)
    return [(act_name("q", None, s), lambda q, name: q * factor) for s in Stack.attention_maps(model.cfg.arch)]


@torch.no_grad()
def unscaled_run(model: Transformer, ids: Sequence[int], tgt_ids: Sequence[int] | None = None) -> NoScaling:
    s = Stack.attention_maps(model.cfg.arch)[0 if model.cfg.arch != "encoder-decoder" else 1]  # decoder self
    names = [act_name("pattern", None, s), act_name("mask", None, s)]
    base, tr = model.run_with_cache(ids, tgt_ids, names=names)
    with hooks(model, unscale_hooks(model)):
        alt, tr2 = model.run_with_cache(ids, tgt_ids, names=names)

    def summary(trace) -> tuple[np.ndarray, np.ndarray]:
        p = as_numpy(trace.stacked("pattern", stack=s)).astype(np.float64)          # [L, H, q, k]
        return attention.entropy(p).mean(axis=(1, 2)), p.max(-1).mean(axis=(1, 2))

    (e0, m0), (e1, m1) = summary(tr), summary(tr2)
    logits = model.cfg.output == "logits"
    return NoScaling(s.value, e0, e1, m0, m1, output_change(base, alt, logits), logits)


# ---- attention is not linear in X ---------------------------------------------------------------------
@dataclass
class AttentionCall:
    """One attention layer ready to be called on other inputs: its recorded input x
    [1, n, d] (and, for cross-attention, the encoder output `memory` [1, m, d])."""

    x: torch.Tensor
    memory: torch.Tensor | None
    run: Callable[[torch.Tensor, torch.Tensor | None], torch.Tensor]   # (x, memory) -> attention output


@torch.no_grad()
def attention_call(model: Transformer, ids, layer: int, stack: Stack | str | None = None, tgt_ids=None,
                   names: Sequence[str] = ()) -> tuple[AttentionCall, object]:
    """Record what the attention of `layer` reads (and `names`), and return it with a
    function that runs that attention module (its weights, mask and positions) on any
    input. Returns (the call, the trace)."""
    s = walk_stack(model.cfg, stack)
    cfg = model.cfg
    x_name = attention_input_name(cfg, layer, s)
    record = [x_name, act_name("mask", layer, s), *names] + ([memory_name(cfg)] if s.cross else [])
    _, tr = model.run_with_cache(ids, tgt_ids, names=record)
    x = tr[x_name]
    mask = tr[act_name("mask", layer, s)]
    module = model.stack_module(s)
    block = module.blocks[layer]
    attn = block.cross_attn if s.cross else block.attn
    bias, rope = (None, None) if s.cross else layer_positions(model, s, layer, x.shape[1], x)

    def run(inp: torch.Tensor, memory: torch.Tensor | None) -> torch.Tensor:
        return attn(inp, mask, bias, rope, memory=memory)

    return AttentionCall(x, tr[memory_name(cfg)] if s.cross else None, run), tr


@torch.no_grad()
def attention_linearity(model: Transformer, ids, layer: int, stack: Stack | str | None = None,
                        tgt_ids=None, factor: float = 2.0) -> float:
    """‖A(cX) − A(0) − c·(A(X) − A(0))‖ / ‖c·(A(X) − A(0))‖ for one attention layer A
    (its own weights, mask, positions). An affine map gives 0; softmax attention does not."""
    call, _ = attention_call(model, ids, layer, stack, tgt_ids)

    def at(c: float) -> torch.Tensor:
        return call.run(c * call.x, None if call.memory is None else c * call.memory).double()

    zero, one, many = at(0.0), at(1.0), at(factor)
    linear = factor * (one - zero)
    return float((many - zero - linear).norm() / linear.norm().clamp_min(1e-30))


# ---- everything the page shows, on one model ----------------------------------------------------------
@dataclass
class ScalingStudy:
    walk: HeadWalk
    head: HeadScaling
    ablation: NoScaling
    nonlinearity: float         # attention_linearity of the walked layer (factor 2)


def scaling_study(model: Transformer, ids, layer: int, head: int, query: int, stack: Stack | str | None = None,
                  tgt_ids=None) -> ScalingStudy:
    walk = record_and_walk(model, ids, layer, head, query, stack, tgt_ids)
    return ScalingStudy(walk, head_scaling(walk), unscaled_run(model, ids, tgt_ids),
                        attention_linearity(model, ids, layer, stack, tgt_ids))

"""A Mixture of Experts cut out of the loaded model's FFN (Shazeer et al. 2017; Switch
Transformer, Fedus et al. 2021; Mixtral 2024), run on the reader's text.

The FFN's d_ff hidden units are cut into E consecutive blocks; block e (its columns of W_in
and W_gate, rows of W_out) is expert e, so the E experts together are exactly the dense FFN.
A router, a d × E matrix, scores every token against every expert; each token goes to its
top-k experts, whose outputs are added with the router's softmax weights renormalised over
the k chosen (Mixtral's rule).

What is ours and not a trained MoE: the router here is random (seeded, N(0, 1/d)), and the
experts were trained as one dense FFN, never as experts. So the routing shows the mechanism
(which expert each token goes to, the load per expert, the compute) on real token vectors,
and the difference from the dense output measures what this untrained routing drops, not
the quality of a real MoE, whose router and experts learn together.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from .sharding import bounds, device_params, ffn_input, part_output

MAX_EXPERTS = 64


def router_matrix(d_model: int, n_experts: int, seed: int) -> torch.Tensor:
    """[d, E] float32, N(0, 1/d) from a seeded generator (the same seed, the same router)."""
    g = torch.Generator(device="cpu").manual_seed(int(seed))
    return torch.randn(d_model, n_experts, generator=g) / d_model ** 0.5


@dataclass
class Routing:
    """Top-k routing of one FFN's tokens to E experts, on the reader's text (n tokens)."""

    n_experts: int
    top_k: int
    seed: int
    blocks: list[tuple[int, int]]       # hidden units [start, end) of each expert
    probs: np.ndarray                   # [n, E] router softmax
    chosen: np.ndarray                  # [n, k] expert ids, highest probability first
    gates: np.ndarray                   # [n, k] weights of the chosen experts (sum 1 per token)
    load: np.ndarray                    # [E] (token, slot) assignments per expert
    aux_loss: float                     # Switch's balance loss E · Σ_e f_e · P_e (1 when perfectly even)
    dense_flops: int                    # multiply-adds ×2 of the dense FFN over the text
    moe_flops: int                      # of the chosen experts plus the router, over the text
    router_params: int                  # d × E
    expert_params: list[int]            # parameters of each expert (b_out is shared, outside them)
    rel_diff: float                     # ‖MoE(x) − FFN(x)‖ / ‖FFN(x)‖
    all_rel_diff: float                 # ‖Σ_e expert_e(x) + b_out − FFN(x)‖ / ‖FFN(x)‖: the experts are the FFN

    @property
    def n(self) -> int:
        return int(self.probs.shape[0])

    @property
    def active_params(self) -> float:
        """Parameters one token uses, averaged over the text: its k experts and the router."""
        return float(np.asarray(self.expert_params)[self.chosen].sum(1).mean() + self.router_params)

    @property
    def ideal_load(self) -> float:
        return self.n * self.top_k / self.n_experts


def balance_loss(probs: np.ndarray, chosen: np.ndarray) -> float:
    """E · Σ_e f_e · P_e: f_e the share of the (token, slot) assignments expert e got, P_e its
    mean router probability (Switch Transformer's auxiliary loss, counted over all k slots)."""
    n, e = probs.shape
    f = np.bincount(chosen.ravel(), minlength=e) / chosen.size
    return float(e * (f * probs.mean(0)).sum())


@torch.no_grad()
def route(model, ids, layer: int, n_experts: int, top_k: int, seed: int = 0, tgt_ids=None) -> Routing:
    """Cut layer `layer`'s FFN into `n_experts` experts, route the text's tokens to their
    `top_k` experts with a seeded router, and compare with the dense FFN."""
    if not 2 <= n_experts <= MAX_EXPERTS:
        raise ValueError(f"The number of experts must be 2 to {MAX_EXPERTS} (got {n_experts}).")
    if not 1 <= top_k <= n_experts:
        raise ValueError(f"Each token goes to 1 to {n_experts} experts (got {top_k}).")
    x, mlp = ffn_input(model, ids, layer, tgt_ids)
    x = x[0]                                                                   # [n, d]
    d_ff, d = mlp.W_in.weight.shape
    if n_experts > d_ff:
        raise ValueError(f"This FFN has {d_ff} hidden units: it cannot be cut into {n_experts} experts.")
    blocks = bounds(d_ff, n_experts)
    logits = x.float() @ router_matrix(d, n_experts, seed)                    # [n, E]
    probs = torch.softmax(logits, -1)
    top = torch.topk(probs, top_k, dim=-1)                                   # sorted, highest first
    gates = top.values / top.values.sum(-1, keepdim=True)
    outs = torch.stack([part_output(mlp, x, a, b)[1] for a, b in blocks])     # [E, n, d]
    bias = mlp.W_out.bias if mlp.W_out.bias is not None else 0
    full = mlp(x)
    picked = outs[top.indices.T, torch.arange(x.shape[0])]                    # [k, n, d]
    moe = (gates.T[..., None].to(picked) * picked).sum(0) + bias
    norm = full.norm().clamp_min(1e-30)
    mats = 2 + int(mlp.gated)
    sizes = np.array([b - a for a, b in blocks])
    chosen = top.indices.cpu().numpy()
    n = x.shape[0]
    per_unit = 2 * mats * d                                                   # multiply-adds ×2 per hidden unit per token
    return Routing(
        n_experts=n_experts, top_k=top_k, seed=int(seed), blocks=blocks, probs=probs.cpu().numpy(),
        chosen=chosen, gates=gates.cpu().numpy(), load=np.bincount(chosen.ravel(), minlength=n_experts),
        aux_loss=balance_loss(probs.cpu().numpy(), chosen), dense_flops=int(per_unit * d_ff * n),
        moe_flops=int(per_unit * sizes[chosen].sum() + 2 * d * n_experts * n), router_params=d * n_experts,
        expert_params=[device_params(mlp, a, b, False) for a, b in blocks],
        rel_diff=float((moe - full).norm() / norm), all_rel_diff=float((outs.sum(0) + bias - full).norm() / norm))

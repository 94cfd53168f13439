"""Ternary weights (Ma et al. 2024, "The Era of 1-bit LLMs: All Large Language Models are
in 1.58 Bits", BitNet b1.58): one matrix of a trained model quantised to {-1, 0, +1}.

absmean: gamma = mean|W|, W~ = clip(round(W / (gamma + eps)), -1, 1), used as W~ * gamma.
BitNet trains with this quantiser in the forward pass (a straight-through estimator), so
its weights learn to live on three values; here a model trained in floating point is
quantised after training, one matrix at a time, which loses much more.

`matrix_error` runs the model twice on the same ids (the original weights, then the one
matrix replaced, restored in a `finally`): the relative error of that matrix's output, of
its layer's output and of the final hidden state. Call it inside an attempt given to the
run gate (ui/serving). No Streamlit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from models.trace import Stack, act_name
from models.transformer import Transformer

EPS = 1e-5
MATRICES = ("W_Q", "W_K", "W_V", "W_O", "W_in", "W_gate", "W_out")
BITS = {"fp32": 32.0, "fp16": 16.0, "ternary": math.log2(3), "packed": 2.0}   # bits per weight


@dataclass(frozen=True)
class Ternary:
    """A matrix quantised with absmean scaling."""

    codes: np.ndarray          # int8 in {-1, 0, 1}, the shape of W
    gamma: float               # mean |W|
    dequantised: np.ndarray    # codes * gamma (float64)

    @property
    def shares(self) -> tuple[float, float, float]:
        """Shares of -1, 0 and +1."""
        n = self.codes.size
        return tuple(float((self.codes == v).sum()) / n for v in (-1, 0, 1))


def absmean(w: np.ndarray, eps: float = EPS) -> Ternary:
    """BitNet b1.58's quantiser of one weight matrix."""
    w = np.asarray(w, dtype=np.float64)
    gamma = float(np.abs(w).mean())
    codes = np.clip(np.round(w / (gamma + eps)), -1, 1).astype(np.int8)
    return Ternary(codes, gamma, codes.astype(np.float64) * gamma)


def sign_binary(w: np.ndarray) -> np.ndarray:
    """The 1-bit baseline (BitNet, 2023, without its centring): sign(W) * mean|W|."""
    w = np.asarray(w, dtype=np.float64)
    return np.where(w >= 0, 1.0, -1.0) * np.abs(w).mean()


def relative_error(approx: np.ndarray, exact: np.ndarray) -> float:
    """||approx - exact|| / ||exact|| (Frobenius); 0 when both are zero."""
    den = float(np.linalg.norm(exact))
    num = float(np.linalg.norm(np.asarray(approx) - np.asarray(exact)))
    return num / den if den else (0.0 if num == 0 else math.inf)


def matrices_of(model: Transformer) -> tuple[str, ...]:
    """The weight matrices each block has (W_gate only with SwiGLU)."""
    gated = model.cfg.gated
    return tuple(m for m in MATRICES if m != "W_gate" or gated)


def linear(model: Transformer, stack: str, layer: int, matrix: str) -> torch.nn.Linear:
    """The nn.Linear holding `matrix` in `layer` of `stack`."""
    if matrix not in matrices_of(model):
        raise ValueError(f"Unknown weight matrix {matrix!r}: choose one of {', '.join(matrices_of(model))}.")
    blocks = model.stack_module(stack).blocks
    if not 0 <= layer < len(blocks):
        raise ValueError(f"Layer {layer} does not exist (the model has {len(blocks)}).")
    part = blocks[layer].attn if matrix in ("W_Q", "W_K", "W_V", "W_O") else blocks[layer].mlp
    return getattr(part, matrix)


def weights(model: Transformer, stack: str, layer: int, matrix: str) -> np.ndarray:
    """The matrix as float64 numpy [out, in]."""
    return linear(model, stack, layer, matrix).weight.detach().to("cpu", torch.float64).numpy()


def matrix_bytes(numel: int) -> dict[str, float]:
    """Bytes of one matrix of `numel` weights in each format of BITS (a ternary matrix also
    stores its gamma, in fp16)."""
    return {fmt: numel * bits / 8 + (2 if fmt in ("ternary", "packed") else 0) for fmt, bits in BITS.items()}


@dataclass(frozen=True)
class ModelBytes:
    """Bytes of the model's parameters, as stored (fp32) and with ternary block matrices."""

    params: int                # every parameter
    ternary_params: int        # weights of the block matrices (attention and FFN projections)
    n_matrices: int            # how many such matrices (one gamma each)
    fp32: int                  # params x 4
    fp16: int                  # params x 2
    ternary_ideal: float       # ternary weights at log2(3) bits, gammas and the rest at fp16
    ternary_packed: float      # the same at 2 bits per ternary weight


def model_bytes(model: Transformer) -> ModelBytes:
    """Sizes if every block matrix were ternary, as BitNet b1.58 does (its embeddings,
    norms and biases stay in high precision: here fp16)."""
    params = sum(p.numel() for p in model.parameters())
    mats = [linear(model, s.value, layer, m).weight for s in Stack.blocks_of(model.cfg.arch)
            for layer in range(model.cfg.n_layers) for m in matrices_of(model)]
    tern = sum(w.numel() for w in mats)
    rest = (params - tern + len(mats)) * BITS["fp16"]
    return ModelBytes(params, tern, len(mats), params * 4, params * 2,
                      (tern * BITS["ternary"] + rest) / 8, (tern * BITS["packed"] + rest) / 8)


@dataclass(frozen=True)
class MatrixError:
    """What replacing one matrix by its ternary version does on one text."""

    matrix_out: float          # relative error of x W^T (the matrix's own output, all positions)
    layer_out: float           # of the layer's output (its residual stream after the block)
    final: float               # of the final hidden state (the last block's output)
    weight: float              # of the weights themselves


def matrix_error(model: Transformer, ids, stack: str, layer: int, matrix: str,
                 tgt_ids=None, q: Ternary | None = None) -> MatrixError:
    """Run the model with the original matrix, then with its ternary version (`q`, default
    `absmean` of it), and compare. The weights are restored in a `finally`."""
    lin = linear(model, stack, layer, matrix)
    q = q or absmean(weights(model, stack, layer, matrix))
    out_stack = Stack.output(model.cfg.arch)
    names = [act_name("resid_post", layer, stack), act_name("resid_post", model.cfg.n_layers - 1, out_stack)]

    def once() -> list[np.ndarray]:
        seen: list[torch.Tensor] = []
        handle = lin.register_forward_hook(lambda _m, _i, out: seen.append(out.detach()))
        try:
            _, trace = model.run_with_cache(torch.as_tensor([list(ids)]), None if tgt_ids is None else
                                            torch.as_tensor([list(tgt_ids)]), names=names)
        finally:
            handle.remove()
        return [torch.cat([s.reshape(-1, s.shape[-1]) for s in seen]).double().cpu().numpy()] + \
               [trace[n].double().cpu().numpy() for n in names]

    exact = once()
    saved = lin.weight.detach().clone()
    try:
        with torch.no_grad():
            lin.weight.copy_(torch.as_tensor(q.dequantised, dtype=saved.dtype, device=saved.device))
        approx = once()
    finally:
        with torch.no_grad():
            lin.weight.copy_(saved)
    errs = [relative_error(a, e) for a, e in zip(approx, exact)]
    return MatrixError(*errs, relative_error(q.dequantised, saved.double().cpu().numpy()))

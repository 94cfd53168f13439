"""Common mistakes in hand-written attention code, each as our own small function run on the
model's own queries, keys and values for one layer (every head, every token), against the
layer's real output (the model's hook_attn_out). The correct version comes first: it
matches the model to float precision, so each difference below is the mistake's alone.

The mistakes are the ones tutorials and the course notes make (the walk-through page's
"Common code mistakes" section): scaling after the softmax; splitting into heads without
the transpose; the causal triangle the wrong way round; a `masked_fill` whose result is
dropped; 1/sqrt(d_model) for 1/sqrt(d_k); the head width divided by the head count a
second time; and a scale that is computed but never applied. numpy float64; no torch in
the arithmetic.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.config import TransformerConfig
from models.trace import Stack, Trace, act_name

from .long_memory import softmax_rows
from .residual import out_norms

MISTAKES = ("scale_after_softmax", "split_without_transpose", "mask_inverted", "mask_fill_dropped",
            "sqrt_d_model", "head_width_split_twice", "scale_never_applied")


def unsupported(cfg: TransformerConfig, stack: Stack | str) -> str | None:
    """Why this section cannot rebuild the layer's output from q, k and v alone (a short
    reason id), or None. The functions here compute softmax(q k^T * scale) v W_O + b_O, so
    a model whose scores add a position bias (ALiBi, T5), are soft-capped or divided by a
    temperature, or whose attention output passes a norm or a multiplier before the
    residual, is out of reach, as is cross-attention."""
    if Stack(stack).cross:
        return "cross"
    if cfg.positional in ("alibi", "relative"):
        return "bias"
    if cfg.attn_softcap is not None or cfg.attn_temperature != 1.0:
        return "scores"
    if out_norms(cfg) or cfg.residual_multiplier != 1.0:
        return "output"
    return None


def names(cfg: TransformerConfig, layer: int, stack: Stack | str) -> list[str]:
    """The hooks to record: the queries and keys the scores read (after RoPE where the layer
    rotates), the values, the mask and the layer's attention output."""
    s = Stack(stack)
    rotated = cfg.positional == "rope" and cfg.layer_has_rope(layer)
    q, k = ("rot_q", "rot_k") if rotated else ("q", "k")
    return [act_name(kind, layer, s) for kind in (q, k, "v", "mask", "attn_out")]


@dataclass
class LayerInputs:
    """One layer's attention, as the model computed it (float64, batch 0)."""

    q: np.ndarray          # [n, H*dh] every head's queries side by side (as the projection writes them)
    k: np.ndarray          # [n, G*dh] the key heads' keys
    v: np.ndarray          # [n, G*dh]
    mask: np.ndarray       # [n, n] bool, True = may attend
    w_o: np.ndarray        # [H*dh, d] (out = concat @ w_o + b_o)
    b_o: np.ndarray        # [d]
    n_heads: int
    kv_heads: int
    d_head: int
    d_model: int
    scale: float           # the model's own score scale (1/sqrt(d_head) unless the model sets another)
    model_out: np.ndarray  # [n, d] the model's hook_attn_out

    @property
    def causal(self) -> bool:
        """The mask is the causal triangle (a decoder)."""
        n = self.mask.shape[0]
        return bool(np.array_equal(self.mask, np.tril(np.ones((n, n), dtype=bool)))) and n > 1


def layer_inputs(model, trace: Trace, layer: int, stack: Stack | str) -> LayerInputs:
    """The recorded q, k, v, mask and output of `layer` (see `names`) and its W_O."""
    cfg = model.cfg
    s = Stack(stack)
    reason = unsupported(cfg, s)
    if reason is not None:
        raise ValueError(f"the code-mistakes section cannot rebuild this layer ({reason}).")
    q_name, k_name, v_name, mask_name, out_name = names(cfg, layer, s)

    def flat(name: str) -> np.ndarray:                    # [b, n, heads, dh] -> [n, heads*dh]
        x = trace[name][0].double()
        return x.reshape(x.shape[0], -1).cpu().numpy()

    attn = model.stack_module(s).blocks[layer].attn
    n = trace[q_name].shape[1]
    mask = torch.broadcast_to(trace[mask_name][0, 0], (n, n)).bool().cpu().numpy()
    w_o = attn.W_O.weight.detach().double().T.cpu().numpy()
    b_o = attn.W_O.bias.detach().double().cpu().numpy() if attn.W_O.bias is not None else np.zeros(cfg.d_model)
    scale = attn.scale if attn.scale is not None else cfg.head_dim ** -0.5
    return LayerInputs(flat(q_name), flat(k_name), flat(v_name), mask, w_o, b_o, cfg.n_heads, cfg.kv_heads,
                       cfg.head_dim, cfg.d_model, float(scale), trace[out_name][0].double().cpu().numpy())


def _split(x: LayerInputs, m: np.ndarray, heads: int, mistake: str | None) -> np.ndarray:
    """[n, heads*dh] -> [heads, n, dh]: a view of each token's heads, then the transpose."""
    n = m.shape[0]
    if mistake == "split_without_transpose":
        return m.reshape(heads, n, x.d_head)                 # reads [n, heads, dh] memory as [heads, n, dh]
    return m.reshape(n, heads, x.d_head).transpose(1, 0, 2)


def weights(x: LayerInputs, mistake: str | None = None) -> np.ndarray:
    """The attention weights [H, n, n] the code computes (rows sum to 1 unless it breaks that)."""
    if mistake is not None and mistake not in MISTAKES:
        raise ValueError(f"unknown mistake {mistake!r}; known: {', '.join(MISTAKES)}.")
    H, G, dh = x.n_heads, x.kv_heads, x.d_head
    q = _split(x, x.q, H, mistake)
    k = np.repeat(_split(x, x.k, G, mistake), H // G, axis=0)             # GQA: each key head serves its group
    scale = x.scale
    if mistake == "sqrt_d_model":
        scale = x.d_model ** -0.5
    elif mistake == "head_width_split_twice":
        scale = max(1, dh // H) ** -0.5                      # k.size(-1) // heads on keys already split
    elif mistake == "scale_never_applied":
        scale = 1.0                                          # the factor is stored, the scores never see it
    scores = q @ k.transpose(0, 2, 1)                        # [H, n, n]
    if mistake != "scale_after_softmax":
        scores = scores * scale
    allowed = x.mask.T if mistake == "mask_inverted" else x.mask
    if mistake == "mask_fill_dropped":                       # the dropped fill leaves the scores unmasked
        allowed = np.ones_like(allowed)
    w = softmax_rows(scores, allowed)
    return w * scale if mistake == "scale_after_softmax" else w


def attention(x: LayerInputs, mistake: str | None = None) -> np.ndarray:
    """The layer's attention output [n, d] from its q, k, v, written the right way
    (`mistake` None) or with one of MISTAKES."""
    n, H = x.q.shape[0], x.n_heads
    v = np.repeat(_split(x, x.v, x.kv_heads, mistake), H // x.kv_heads, axis=0)
    z = weights(x, mistake) @ v                              # [H, n, dh]
    # merged back the way it was split (code without the transpose leaves it out both times)
    concat = z.reshape(n, -1) if mistake == "split_without_transpose" else z.transpose(1, 0, 2).reshape(n, -1)
    return concat @ x.w_o + x.b_o


@dataclass(frozen=True)
class Outcome:
    """One version of the code against the model: the largest difference of any output
    number, the difference's size relative to the output (Frobenius norms), and what the
    last token's weights add up to in head 0 (1 unless the code breaks it)."""

    mistake: str | None
    max_abs: float
    relative: float
    weights_sum: float


def outcomes(x: LayerInputs) -> list[Outcome]:
    """The right code first, then every mistake, each against the model's output."""
    norm = float(np.linalg.norm(x.model_out)) or 1.0
    out = []
    for mistake in (None, *MISTAKES):
        diff = attention(x, mistake) - x.model_out
        out.append(Outcome(mistake, float(np.abs(diff).max()), float(np.linalg.norm(diff)) / norm,
                           float(weights(x, mistake)[0, -1].sum())))
    return out

"""Attention, one step at a time, on a real model: the arithmetic behind the masks page
and the Q/K/V walk-through page.

- `run_with_mask`: the model itself computes with another self-attention mask (a hook
  replaces every layer's `hook_mask`), so the scores, patterns and outputs shown are
  the model's own.
- `walk_head`: one query of one head from the attention input x to the layer's output,
  every intermediate value kept: q = x W_Q, k, v, q·k, /√d_head, + position bias, mask,
  softmax, Σ p·v, the concatenation of all heads and W_O. Its result equals the model's
  `hook_attn_out` (tested to 1e-5 for BERT/MiniLM and a GQA decoder).
- `kv_cache_bytes`, `kv_groups`: multi-head vs grouped-query vs multi-query attention
  (Shazeer 2019; Ainslie et al. 2023) and what each costs in a KV cache.
- `linear_attention`, `retention`: attention without softmax (Katharopoulos et al. 2020,
  "Transformers are RNNs"; Sun et al. 2023, RetNet), to compare with softmax attention
  on the same q, k, v.

Imports no streamlit or plotly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import torch
import torch.nn.functional as F

from . import masks as M
from .config import TransformerConfig
from .hooks import Names, Trace, hooks
from .transformer import Transformer


# ---- which stack --------------------------------------------------------------------------
def stack_prefix(cfg: TransformerConfig, stack: str | None) -> str:
    """'' for a single-stack model, 'encoder.' / 'decoder.' for an encoder-decoder."""
    if cfg.arch == "encoder-decoder":
        if stack not in ("encoder", "decoder"):
            raise ValueError("This is an encoder-decoder model: choose stack='encoder' or stack='decoder'.")
        return stack + "."
    return ""


def _stack_module(model: Transformer, stack: str | None):
    prefix = stack_prefix(model.cfg, stack)
    return getattr(model, prefix[:-1]) if prefix else model


def trained_mask(cfg: TransformerConfig, n: int, stack: str | None = None) -> torch.Tensor:
    """The self-attention pattern [n, n] the model uses on its own (before padding)."""
    decoder = cfg.arch == "decoder" or (cfg.arch == "encoder-decoder" and stack == "decoder")
    return M.self_attention_mask(cfg.attention, n, decoder)


# ---- apply a mask to the model ----------------------------------------------------------------
def run_with_mask(
    model: Transformer,
    ids: Sequence[int] | torch.Tensor,
    mask: torch.Tensor,
    *,
    tgt_ids: Sequence[int] | torch.Tensor | None = None,
    stack: str | None = None,
    names: Names = None,
    tokens: list[str] | None = None,
    tgt_tokens: list[str] | None = None,
) -> tuple[torch.Tensor, Trace]:
    """Run the model with `mask` [q, k] (True = may attend) as the self-attention mask of
    every layer of one stack, and record the pass. A hook replaces each layer's
    `hook_mask`, so the model's own code computes the masked scores and the softmax;
    the recorded `hook_mask` is the mask used. A query row with nothing to attend to is
    refused (use `masks.keep_self` first): its softmax would be 0/0 = NaN."""
    mask = torch.as_tensor(mask).bool()
    if mask.dim() != 2 or mask.shape[0] != mask.shape[1]:
        raise ValueError(f"The mask must be a square [q, k] matrix, got shape {tuple(mask.shape)}.")
    M.check_rows(mask, "composed mask")
    prefix = stack_prefix(model.cfg, stack)
    mask = mask.to(model.device)

    def replace(value: torch.Tensor, name: str) -> torch.Tensor:
        if value.shape[-2:] != mask.shape:
            raise ValueError(f"The mask is {mask.shape[0]}×{mask.shape[1]} but the text has "
                             f"{value.shape[-2]} tokens.")
        return mask.expand(value.shape)

    with hooks(model, [(f"{prefix}blocks.*.attn.hook_mask", replace)]):
        return model.run_with_cache(ids, tgt_ids, names=names, tokens=tokens, tgt_tokens=tgt_tokens)


# ---- the walk-through ------------------------------------------------------------------------
@dataclass
class HeadWalk:
    """Every number between the attention input and the attention output for one query
    of one head (float64 numpy). Shapes: n = query positions, m = key positions (= n in
    self-attention), dh = d_head, d = d_model, H = query heads."""

    layer: int
    head: int
    query: int
    kv_head: int                    # the key/value head this query head reads (GQA/MQA)
    x: np.ndarray                   # [n, d] the attention input (ln1 output, or the stream in post-LN)
    cross: bool                     # cross-attention: keys and values from the encoder output (m positions)
    W_q: np.ndarray                 # [d, dh] this head's slice of W_Q (b_q: [dh])
    b_q: np.ndarray
    W_k: np.ndarray                 # [d, dh] of its kv head
    b_k: np.ndarray
    W_v: np.ndarray                 # [d, dh]
    b_v: np.ndarray
    q_all: np.ndarray               # [n, dh] x W_q + b_q (before RoPE)
    k_all: np.ndarray               # [m, dh] (m = n in self-attention)
    v_all: np.ndarray               # [m, dh]
    rope: bool                      # whether q and k are rotated
    q_rot: np.ndarray | None        # [n, dh] after RoPE
    k_rot: np.ndarray | None
    q: np.ndarray                   # [dh] the chosen query vector (rotated if RoPE)
    keys: np.ndarray                # [m, dh] the keys it is compared with (rotated if RoPE)
    dots: np.ndarray                # [m] q · k_j
    scale: float                    # 1 / √d_head
    scaled: np.ndarray              # [m] q · k_j / √d_head
    bias: np.ndarray | None         # [m] position bias (ALiBi, T5) or None
    scores: np.ndarray              # [m] scaled + bias (the model's hook_scores row)
    mask: np.ndarray                # [m] bool, True = may attend
    masked: np.ndarray              # [m] scores with -inf where masked
    weights: np.ndarray             # [m] softmax(masked), sums to 1
    z: np.ndarray                   # [dh] Σ_j weights_j v_j
    z_heads: np.ndarray             # [H, dh] every head's z for this query, the same arithmetic
    concat: np.ndarray              # [H·dh] heads side by side
    W_o: np.ndarray                 # [H·dh, d]
    b_o: np.ndarray                 # [d]
    head_out: np.ndarray            # [d] this head's share: z W_o[rows of this head]
    out: np.ndarray                 # [d] concat W_o + b_o
    model_out: np.ndarray           # [d] the model's hook_attn_out (hook_cross_attn_out) at this query
    model_pattern: np.ndarray       # [m] the model's hook_pattern row
    error: float = field(default=0.0)  # max |out - model_out|


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().double().numpy()


def attention_input_name(cfg: TransformerConfig, layer: int, prefix: str = "", cross: bool = False) -> str:
    """The hook holding what the attention of `layer` reads (its queries): ln1's output
    in pre-LN, the residual stream itself in post-LN; for cross-attention, ln_cross's
    output or the stream after self-attention."""
    if cross:
        return (f"{prefix}blocks.{layer}.ln_cross.hook_normalized" if cfg.norm_position == "pre"
                else f"{prefix}blocks.{layer}.hook_resid_mid")
    if cfg.norm_position == "pre":
        return f"{prefix}blocks.{layer}.ln1.hook_normalized"
    return f"{prefix}blocks.{layer}.hook_resid_pre"


def memory_name(cfg: TransformerConfig) -> str:
    """The hook holding the encoder output that cross-attention reads its keys and values from."""
    if cfg.norm_position == "pre":
        return "encoder.ln_final.hook_normalized"
    return f"encoder.blocks.{cfg.n_layers - 1}.hook_resid_post"


def _check_cross(cfg: TransformerConfig, stack: str | None, cross: bool) -> None:
    if cross and (cfg.arch != "encoder-decoder" or stack != "decoder"):
        raise ValueError("Cross-attention exists only in the decoder of an encoder-decoder model "
                         "(stack='decoder', cross=True).")


def walk_names(cfg: TransformerConfig, layer: int, stack: str | None = None, cross: bool = False) -> list[str]:
    """The hooks `walk_head` reads for one layer (record only these)."""
    _check_cross(cfg, stack, cross)
    p = stack_prefix(cfg, stack)
    attn, out = ("cross_attn", "hook_cross_attn_out") if cross else ("attn", "hook_attn_out")
    names = [attention_input_name(cfg, layer, p, cross), f"{p}blocks.{layer}.{attn}.hook_mask",
             f"{p}blocks.{layer}.{attn}.hook_pattern", f"{p}blocks.{layer}.{out}"]
    return names + [memory_name(cfg)] if cross else names


@torch.no_grad()
def walk_head(model: Transformer, trace: Trace, layer: int, head: int, query: int,
              stack: str | None = None, batch: int = 0, cross: bool = False) -> HeadWalk:
    """One query of one head, step by step, recomputed from the attention input that
    the trace recorded and the layer's weights (float64). See `walk_names`. With
    cross=True (decoder of an encoder-decoder) the queries come from the decoder and the
    keys and values from the encoder output; `model_out` is then `hook_cross_attn_out`."""
    cfg = model.cfg
    if not 0 <= layer < cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{cfg.n_layers - 1}.")
    if not 0 <= head < cfg.n_heads:
        raise ValueError(f"Head {head} does not exist: this model has heads 0..{cfg.n_heads - 1}.")
    _check_cross(cfg, stack, cross)
    prefix = stack_prefix(cfg, stack)
    x = trace[attention_input_name(cfg, layer, prefix, cross)][batch].double()   # [n, d] queries read this
    kv_in = trace[memory_name(cfg)][batch].double() if cross else x              # [m, d] keys/values read this
    n, m = x.shape[0], kv_in.shape[0]
    if not 0 <= query < n:
        raise ValueError(f"Query position {query} does not exist: the text has positions 0..{n - 1}.")
    block = _stack_module(model, stack).blocks[layer]
    attn = block.cross_attn if cross else block.attn
    attn_hooks = f"{prefix}blocks.{layer}.{'cross_attn' if cross else 'attn'}"
    out_hook = f"{prefix}blocks.{layer}.{'hook_cross_attn_out' if cross else 'hook_attn_out'}"
    H, G, dh = cfg.n_heads, cfg.kv_heads, cfg.head_dim
    group = H // G

    def weight(lin: torch.nn.Linear, heads: int) -> tuple[torch.Tensor, torch.Tensor]:
        w = lin.weight.double().T.reshape(-1, heads, dh)                          # [d, heads, dh]
        b = lin.bias.double().reshape(heads, dh) if lin.bias is not None else torch.zeros(heads, dh, dtype=torch.float64,
                                                                                          device=w.device)
        return w, b

    wq, bq = weight(attn.W_Q, H)
    wk, bk = weight(attn.W_K, G)
    wv, bv = weight(attn.W_V, G)
    q_all = torch.einsum("nd,dhe->nhe", x, wq) + bq                              # [n, H, dh]
    k_all = torch.einsum("md,dhe->mhe", kv_in, wk) + bk                          # [m, G, dh]
    v_all = torch.einsum("md,dhe->mhe", kv_in, wv) + bv
    # position bias and RoPE act in self-attention only (as in the model)
    bias = rope = None
    if not cross:
        _, bias, rope = _stack_module(model, stack)._positions(cfg, n, x)
    q_r, k_r = q_all, k_all
    if rope is not None:
        cos, sin = (r.double() for r in rope)
        from .positional import apply_rope

        q_r, k_r = apply_rope(q_all[None], cos, sin)[0], apply_rope(k_all[None], cos, sin)[0]
    mask_full = trace[f"{attn_hooks}.hook_mask"]
    mask_full = mask_full[batch if mask_full.shape[0] > 1 else 0, 0]
    mask_row = torch.broadcast_to(mask_full, (n, m))[query].bool()                # [m]
    scale = dh ** -0.5

    z_heads = []
    steps = {}
    for h in range(H):
        g = h // group
        qv = q_r[query, h]                                                        # [dh]
        dots = k_r[:, g] @ qv                                                     # [n]
        scaled = dots * scale
        b_row = bias[h, query].double() if bias is not None else None
        scores = scaled + b_row if b_row is not None else scaled
        masked = scores.masked_fill(~mask_row, float("-inf"))
        weights = masked.softmax(-1)
        z = weights @ v_all[:, g]                                                 # [dh]
        z_heads.append(z)
        if h == head:
            steps = dict(qv=qv, dots=dots, scaled=scaled, b_row=b_row, scores=scores, masked=masked,
                         weights=weights, z=z, g=g)
    z_heads_t = torch.stack(z_heads)                                              # [H, dh]
    concat = z_heads_t.reshape(H * dh)
    w_o = attn.W_O.weight.double().T                                              # [H·dh, d]
    b_o = attn.W_O.bias.double() if attn.W_O.bias is not None else torch.zeros(cfg.d_model, dtype=torch.float64,
                                                                               device=w_o.device)
    out = concat @ w_o + b_o
    model_out = trace[out_hook][batch, query].double()
    g = steps["g"]
    return HeadWalk(
        layer=layer, head=head, query=query, kv_head=g, x=_np(x), cross=cross,
        W_q=_np(wq[:, head]), b_q=_np(bq[head]), W_k=_np(wk[:, g]), b_k=_np(bk[g]),
        W_v=_np(wv[:, g]), b_v=_np(bv[g]),
        q_all=_np(q_all[:, head]), k_all=_np(k_all[:, g]), v_all=_np(v_all[:, g]),
        rope=rope is not None,
        q_rot=_np(q_r[:, head]) if rope is not None else None,
        k_rot=_np(k_r[:, g]) if rope is not None else None,
        q=_np(steps["qv"]), keys=_np(k_r[:, g]), dots=_np(steps["dots"]), scale=scale,
        scaled=_np(steps["scaled"]), bias=None if steps["b_row"] is None else _np(steps["b_row"]),
        scores=_np(steps["scores"]), mask=mask_row.cpu().numpy(), masked=_np(steps["masked"]),
        weights=_np(steps["weights"]), z=_np(steps["z"]), z_heads=_np(z_heads_t), concat=_np(concat),
        W_o=_np(w_o), b_o=_np(b_o), head_out=_np(steps["z"] @ w_o[head * dh:(head + 1) * dh]),
        out=_np(out), model_out=_np(model_out),
        model_pattern=_np(trace[f"{attn_hooks}.hook_pattern"][batch, head, query]),
        error=float((out - model_out).abs().max()),
    )


def neuron_view(walk: HeadWalk, key: int) -> dict[str, np.ndarray | float]:
    """BertViz's neuron view for one (query, key) pair: the element-wise products
    q_i·k_i [dh] (they sum to q·k), the score after scaling, and the value vector the
    key contributes with its weight."""
    if not 0 <= key < walk.keys.shape[0]:
        raise ValueError(f"Key position {key} does not exist: the text has positions 0..{walk.keys.shape[0] - 1}.")
    products = walk.q * walk.keys[key]
    return {"q": walk.q, "k": walk.keys[key], "products": products, "dot": float(products.sum()),
            "score": float(walk.scores[key]), "weight": float(walk.weights[key]), "v": walk.v_all[key],
            "weighted_v": walk.weights[key] * walk.v_all[key]}


# ---- MHA / GQA / MQA -------------------------------------------------------------------------
def kv_groups(n_heads: int, n_kv_heads: int) -> list[int]:
    """The key/value head that each query head reads: head h -> h // (n_heads / n_kv_heads)."""
    if n_kv_heads < 1 or n_heads % n_kv_heads:
        raise ValueError(f"n_heads ({n_heads}) must be divisible by n_kv_heads ({n_kv_heads}).")
    group = n_heads // n_kv_heads
    return [h // group for h in range(n_heads)]


def kv_cache_bytes(cfg: TransformerConfig, context: int, n_kv_heads: int | None = None,
                   bytes_per_value: int = 2) -> dict[str, int]:
    """Memory a decoder's KV cache needs: per token 2 (K and V) · layers · kv heads ·
    d_head values, times the context length. `n_kv_heads` asks "what if" (None = the
    model's own); fp16/bf16 = 2 bytes per value."""
    kv = cfg.kv_heads if n_kv_heads is None else n_kv_heads
    kv_groups(cfg.n_heads, kv)                                    # validates kv
    if context < 0:
        raise ValueError(f"The context length cannot be negative (got {context}).")
    per_token = 2 * cfg.n_layers * kv * cfg.head_dim * bytes_per_value
    return {"n_kv_heads": kv, "per_token": per_token, "total": per_token * context}


def kv_head_options(n_heads: int) -> list[int]:
    """Valid numbers of key/value heads: the divisors of n_heads (1 = MQA, n_heads = MHA)."""
    return [g for g in range(1, n_heads + 1) if n_heads % g == 0]


# ---- attention without softmax ----------------------------------------------------------------
def softmax_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                      mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(q kᵀ/√d + mask) v for one head: q [n, d], k, v [m, d] -> (out [n, d], weights [n, m])."""
    s = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = s.softmax(-1)
    return w @ v, w


def elu_feature(x: torch.Tensor) -> torch.Tensor:
    """φ(x) = elu(x) + 1 > 0, the feature map of Katharopoulos et al. (2020)."""
    return F.elu(x) + 1


def linear_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                     causal: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Linear attention: out_i = φ(q_i)ᵀ Σ_j φ(k_j) v_jᵀ / φ(q_i)ᵀ Σ_j φ(k_j).
    The sums are computed once (O(n·d²) instead of O(n²·d)); the weights [n, m] it
    implies, φ(q_i)·φ(k_j) / Σ_j, are returned to be shown beside softmax's."""
    fq, fk = elu_feature(q), elu_feature(k)                         # [n, d], [m, d]
    if causal:
        kv = torch.cumsum(fk[:, :, None] * v[:, None, :], dim=0)     # [n, d, dv] prefix sums
        z = torch.cumsum(fk, dim=0)                                  # [n, d]
        out = torch.einsum("nd,nde->ne", fq, kv) / (fq * z).sum(-1, keepdim=True)
    else:
        kv = fk.T @ v                                                # [d, dv]: one summary of all keys
        out = fq @ kv / (fq @ fk.sum(0))[:, None]
    w = fq @ fk.T
    if causal:
        w = w * M.causal(q.shape[0], device=q.device).to(w.dtype)
    return out, w / w.sum(-1, keepdim=True)


def retention_gammas(n_heads: int) -> torch.Tensor:
    """RetNet's per-head decay rates γ_h = 1 - 2^(-5-h) (Sun et al. 2023, §2.2)."""
    return 1 - 2.0 ** (-5 - torch.arange(n_heads, dtype=torch.float64))


def decay_matrix(n: int, gamma: float) -> torch.Tensor:
    """RetNet's D [n, n]: D_ij = γ^(i-j) for j <= i, else 0 (causal, exponentially fading)."""
    if not 0 < gamma <= 1:
        raise ValueError(f"The decay γ must be in (0, 1] (got {gamma}).")
    d = M._distance(n, n).double()
    return torch.where(d >= 0, gamma ** d.clamp(min=0), torch.zeros((), dtype=torch.float64))


def retention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, gamma: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Retention, parallel form: (q kᵀ ⊙ D) v, no softmax (Sun et al. 2023, Eq. 5).
    Returns (out [n, dv], the weight matrix q kᵀ ⊙ D [n, n], which can be negative)."""
    w = (q @ k.T).double() * decay_matrix(q.shape[0], gamma).to(q.device)
    return w @ v.double(), w


def retention_recurrent(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, gamma: float) -> torch.Tensor:
    """The same retention as an RNN: S_n = γ S_(n-1) + k_nᵀ v_n, out_n = q_n S_n
    (Eq. 4): a fixed-size state instead of a cache that grows with the text."""
    q, k, v = q.double(), k.double(), v.double()
    state = torch.zeros(q.shape[-1], v.shape[-1], dtype=torch.float64, device=q.device)
    outs = []
    for i in range(q.shape[0]):
        state = gamma * state + k[i][:, None] * v[i][None, :]
        outs.append(q[i] @ state)
    return torch.stack(outs)

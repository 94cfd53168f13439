"""One query of one head, step by step, on a real model: the arithmetic behind the Q/K/V
walk-through page.

`walk_head` goes from the attention input x to the layer's output, every intermediate
value kept: q = x W_Q, k, v (through the q/k norms where the model has them), q·k,
× the scale (1/√d_head unless the config sets it), + position bias, the soft-cap, mask,
softmax, Σ p·v, the concatenation of all heads and W_O, then what the block adds (its
output norm and residual multiplier, if any). Each layer's own positions: RoPE with the
local base on sliding-window layers, none on NoPE layers. It recomputes in float64 from the layer's weights
and the input the trace recorded, and its result equals the model's attention output
(`attn_out`, tested to 1e-5 for BERT/MiniLM and a GQA decoder).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from models.config import TransformerConfig
from models.positional import apply_rope
from models.trace import Stack, Trace, act_name
from models.transformer import Transformer

from .residual import out_norms, sublayer_input


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
    x: np.ndarray                   # [n, d] the attention input (ln1 output, or the stream: post, output, no ln1)
    cross: bool                     # cross-attention: keys and values from the encoder output (m positions)
    W_q: np.ndarray                 # [d, dh] this head's slice of W_Q (b_q: [dh])
    b_q: np.ndarray
    W_k: np.ndarray                 # [d, dh] of its kv head
    b_k: np.ndarray
    W_v: np.ndarray                 # [d, dh]
    b_v: np.ndarray
    q_all: np.ndarray               # [n, dh] x W_q + b_q, through the q norm if any (before RoPE)
    k_all: np.ndarray               # [m, dh] (m = n in self-attention)
    v_all: np.ndarray               # [m, dh]
    rope: bool                      # whether q and k are rotated
    q_rot: np.ndarray | None        # [n, dh] after RoPE
    k_rot: np.ndarray | None
    q: np.ndarray                   # [dh] the chosen query vector (rotated if RoPE)
    keys: np.ndarray                # [m, dh] the keys it is compared with (rotated if RoPE)
    dots: np.ndarray                # [m] q · k_j
    scale: float                    # 1 / √d_head (1 for T5, whose scores are not scaled; cfg.attn_scale; ÷ temperature)
    scaled: np.ndarray              # [m] q · k_j × scale
    bias: np.ndarray | None         # [m] position bias (ALiBi, T5) or None
    scores: np.ndarray              # [m] scaled + bias, soft-capped if the model caps (the model's hook_scores row)
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
    added: np.ndarray               # [d] what the block adds to the stream: out, through ln1_out (sandwich,
    #                                 output placements) and × cfg.residual_multiplier
    model_out: np.ndarray           # [d] the model's hook_attn_out (hook_cross_attn_out) at this query
    model_pattern: np.ndarray       # [m] the model's hook_pattern row
    error: float = field(default=0.0)  # max |out - model_out|
    tolerance: float = 1e-4         # `error` below this is "the same" in the model's dtype (recompute_tolerance)
    checked_against: str = ""       # the hook name of model_out (the layer's attention output)
    qk_norm: str = "none"           # none | head | full: q and k went through the model's q/k norms
    softcap: float | None = None    # scores = c · tanh(scores / c) (Gemma 2)
    out_norm: bool = False          # `added` went through the norm on the attention's output (ln1_out)
    multiplier: float = 1.0         # `added` is × this (Granite's residual multiplier)


def recompute_tolerance(dtype: torch.dtype, magnitude: float) -> float:
    """The largest |our float64 recomputation − the model's value| still read as "the same":
    1e-4 for a float32 (or float64) model (the tests hold it to 1e-5); for a bfloat16 or
    float16 model, whose every product and sum is rounded to 8 or 11 bits, 16 machine
    epsilons of that dtype times the value's size (at least 1): bfloat16's ε is 2^-7, so a
    value near 1 may differ by ~0.1 and still be the same computation."""
    if dtype in (torch.float32, torch.float64):
        return 1e-4
    return 16 * float(torch.finfo(dtype).eps) * max(1.0, magnitude)


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().double().numpy()


def attention_input_name(cfg: TransformerConfig, layer: int, stack: Stack) -> str:
    """The hook holding what the attention of `layer` reads (its queries): ln1's output
    in pre-LN and sandwich, the residual stream itself in post-LN, the output placement
    and a block 0 without ln1; for cross-attention, ln_cross's output or the stream after
    self-attention."""
    return sublayer_input(cfg, layer, "cross" if stack.cross else "attn", stack)


def memory_name(cfg: TransformerConfig) -> str:
    """The hook holding the encoder output that cross-attention reads its keys and values from."""
    if cfg.final_norm:
        return act_name("ln_final.normalized", None, Stack.ENCODER)
    return act_name("resid_post", cfg.n_layers - 1, Stack.ENCODER)


def layer_positions(model: Transformer, stack: Stack, layer: int, n: int, like: torch.Tensor):
    """(score bias [head, n, n] or None, RoPE (cos, sin) or None) of the self-attention of
    `layer`: no rotation on a NoPE layer, the local base on a sliding-window layer."""
    cfg = model.cfg
    module = model.stack_module(stack)
    _, bias, rope = module.positions(cfg, n, like)
    if rope is not None and not cfg.layer_has_rope(layer):
        rope = None
    elif rope is not None and cfg.layer_is_local(layer) and cfg.rope_local_base is not None:
        rope = module.positions(cfg, n, like, local=True)[2]
    return bias, rope


def walk_stack(cfg: TransformerConfig, stack: Stack | str | None, cross: bool = False) -> Stack:
    """The attention walked: `stack` checked against the model; cross=True (or
    stack='cross') is the decoder's cross-attention."""
    if cross and (cfg.arch != "encoder-decoder" or stack not in ("decoder", "cross", Stack.DECODER, Stack.CROSS)):
        raise ValueError("Cross-attention exists only in the decoder of an encoder-decoder model "
                         "(stack='decoder', cross=True).")
    s = Stack.resolve(stack, cfg.arch)
    return Stack.CROSS if cross else s


def walk_names(cfg: TransformerConfig, layer: int, stack: Stack | str | None = None, cross: bool = False) -> list[str]:
    """The hooks `walk_head` reads for one layer (record only these)."""
    s = walk_stack(cfg, stack, cross)
    names = [attention_input_name(cfg, layer, s), act_name("mask", layer, s), act_name("pattern", layer, s),
             act_name("attn_out", layer, s)]
    return names + [memory_name(cfg)] if s.cross else names


@torch.no_grad()
def walk_head(model: Transformer, trace: Trace, layer: int, head: int, query: int,
              stack: Stack | str | None = None, batch: int = 0, cross: bool = False) -> HeadWalk:
    """One query of one head, step by step, recomputed from the attention input that
    the trace recorded and the layer's weights (float64). See `walk_names`. With
    cross=True (decoder of an encoder-decoder) the queries come from the decoder and the
    keys and values from the encoder output; `model_out` is then `hook_cross_attn_out`."""
    cfg = model.cfg
    if not 0 <= layer < cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{cfg.n_layers - 1}.")
    if not 0 <= head < cfg.n_heads:
        raise ValueError(f"Head {head} does not exist: this model has heads 0..{cfg.n_heads - 1}.")
    s = walk_stack(cfg, stack, cross)
    cross = s.cross
    x = trace[attention_input_name(cfg, layer, s)][batch].double()              # [n, d] queries read this
    kv_in = trace[memory_name(cfg)][batch].double() if cross else x              # [m, d] keys/values read this
    n, m = x.shape[0], kv_in.shape[0]
    if not 0 <= query < n:
        raise ValueError(f"Query position {query} does not exist: the text has positions 0..{n - 1}.")
    block = model.stack_module(s).blocks[layer]
    attn = block.cross_attn if cross else block.attn
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
    qk_norm = getattr(attn, "qk_norm", "none")
    if qk_norm != "none":        # the model's own q/k norms: over each head (head) or all heads at once (full)
        def normed(norm: torch.nn.Module, y: torch.Tensor) -> torch.Tensor:
            w = norm.weight
            shape = y.shape
            y = y.reshape(shape[0], -1) if qk_norm == "full" else y
            return norm(y.to(w)).double().reshape(shape)
        q_all, k_all = normed(attn.q_norm, q_all), normed(attn.k_norm, k_all)
    # position bias and RoPE act in self-attention only (as in the model), each layer its own
    bias = rope = None
    if not cross:
        bias, rope = layer_positions(model, s, layer, n, x)
    q_r, k_r = q_all, k_all
    if rope is not None:
        cos, sin = (r.double() for r in rope)
        q_r, k_r = apply_rope(q_all[None], cos, sin)[0], apply_rope(k_all[None], cos, sin)[0]
    mask_full = trace[act_name("mask", layer, s)]
    mask_full = mask_full[batch if mask_full.shape[0] > 1 else 0, 0]
    mask_row = torch.broadcast_to(mask_full, (n, m))[query].bool()                # [m]
    scale = attn.scale if attn.scale is not None else dh ** -0.5                  # T5: 1; Gemma 2/3, Granite: their own
    if attn.temperature != 1.0:                                                   # softmax(scores / T), bias too
        scale = scale / attn.temperature
        bias = None if bias is None else bias / attn.temperature
    softcap = attn.softcap

    z_heads = []
    steps = {}
    for h in range(H):
        g = h // group
        qv = q_r[query, h]                                                        # [dh]
        dots = k_r[:, g] @ qv                                                     # [n]
        scaled = dots * scale
        b_row = bias[h, query].double() if bias is not None else None
        scores = scaled + b_row if b_row is not None else scaled
        if softcap is not None:
            scores = torch.tanh(scores / softcap) * softcap
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
    added = out
    if out_norms(cfg) and not cross:           # sandwich / output placement: the norm on the attention's output
        added = block.ln1_out(out[None].to(attn.W_O.weight)).double()[0]
    if cfg.residual_multiplier != 1.0:
        added = added * cfg.residual_multiplier
    model_out = trace[act_name("attn_out", layer, s)][batch, query].double()
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
        out=_np(out), added=_np(added), model_out=_np(model_out),
        model_pattern=_np(trace[act_name("pattern", layer, s)][batch, head, query]),
        error=float((added - model_out).abs().max()), checked_against=act_name("attn_out", layer, s),
        tolerance=recompute_tolerance(trace[act_name("attn_out", layer, s)].dtype, float(model_out.abs().max())),
        qk_norm=qk_norm, softcap=softcap, out_norm=out_norms(cfg) and not cross,
        multiplier=cfg.residual_multiplier,
    )


def record_and_walk(model: Transformer, ids, layer: int, head: int, query: int, stack: Stack | str | None = None,
                    tgt_ids=None) -> HeadWalk:
    """Run the model recording only what `walk_head` reads (`walk_names`), up to the layer's
    attention output (the layers above it are not run), then walk one head."""
    stop = act_name("attn_out", layer, walk_stack(model.cfg, stack)) if 0 <= layer < model.cfg.n_layers else None
    _, trace = model.run_with_cache(ids, tgt_ids, names=walk_names(model.cfg, layer, stack), stop_after=stop)
    return walk_head(model, trace, layer, head, query, stack=stack)


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


def agreement(products: np.ndarray, top: int = 3) -> dict[str, object]:
    """q·k read as the course notes' film example reads a rating (a film's features times a
    viewer's tastes, summed): which dimensions agree (positive q_i·k_i) and which disagree,
    from the per-dimension products. Returns the `top` largest positive and negative
    products as (dimension, product), and the sums of all positive and all negative ones
    (they add up to q·k)."""
    p = np.asarray(products, dtype=np.float64)
    order = np.argsort(p)
    pos = [(int(i), float(p[i])) for i in order[::-1][:top] if p[i] > 0]
    neg = [(int(i), float(p[i])) for i in order[:top] if p[i] < 0]
    return {"agree": pos, "disagree": neg, "plus": float(p[p > 0].sum()), "minus": float(p[p < 0].sum())}


def key_value_difference(walk: HeadWalk) -> tuple[float, float]:
    """K and V read the same input but through different matrices: (cosine between this
    head's W_K and W_V, flattened; mean over tokens of ‖k_j − v_j‖ / ‖k_j‖)."""
    wk, wv = walk.W_k.ravel(), walk.W_v.ravel()
    cos = float(wk @ wv / max(np.linalg.norm(wk) * np.linalg.norm(wv), 1e-300))
    k = walk.k_all
    rel = np.linalg.norm(k - walk.v_all, axis=1) / np.maximum(np.linalg.norm(k, axis=1), 1e-300)
    return cos, float(rel.mean())

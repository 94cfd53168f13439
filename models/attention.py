"""The attention function: softmax(Q Kᵀ / √d_k + bias) V, always on the explicit path
(no fused kernel), so the score and probability matrices exist and can be recorded; and
`Attention`, the multi-head attention module of a block (models/transformer.py), which
projects, normalises and rotates Q and K and calls it.

Which code computes an attention weight depends on the input:
- `scaled_dot_product_attention` (the whole-tensor path): every batch row and head at
  once. Used on GPUs, in float16/bfloat16, with autograd or dropout, below 256 x 256
  scores, and whenever a hook may change a value (interventions, `run_with_hooks`).
- `attend_per_head` (the per-head CPU path): float32 on the CPU, no autograd, 256 x 256
  scores or more, and only recording hooks. Same kernels on the same values in another
  order, so its numbers are bitwise those of the whole-tensor path
  (tests/unit/test_attention_kernels.py); it is faster because one head's block stays in
  the core's cache.
"""
from __future__ import annotations

from typing import Callable

import torch
from torch import nn
from torch.utils.weak import WeakIdKeyDictionary

from . import positional
from .config import TransformerConfig
from .hooks import HookPoint
from .kv_cache import KV
from .norms import make_norm


def identity(x: torch.Tensor) -> torch.Tensor:
    return x


def scaled_dot_product_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    mask: torch.Tensor | None = None,
    bias: torch.Tensor | None = None,
    *,
    on_scores: Callable[[torch.Tensor], torch.Tensor] = identity,
    on_mask: Callable[[torch.Tensor], torch.Tensor] = identity,
    on_pattern: Callable[[torch.Tensor], torch.Tensor] = identity,
    dropout: Callable[[torch.Tensor], torch.Tensor] = identity,
    scale: float | None = None,
    softcap: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention(Q, K, V) = softmax(Q Kᵀ / √d_k + bias) V  (Vaswani et al. 2017, Eq. 1).

    q: [b, head, q, dh], k and v: [b, head, k, dh] (K/V already repeated for GQA),
    mask: bool, broadcastable to [b, head, q, k], True = may attend; bias: additive
    position bias broadcastable to the scores (ALiBi, T5). The `on_*` callables are the
    hook points of the calling module (identity here). Returns (z [b, head, q, dh],
    pattern [b, head, q, k]). scale: what Q Kᵀ is multiplied by, None = 1/√d_k
    (T5 passes 1.0: its scores are not scaled). softcap: scores = c · tanh(scores / c)
    after the bias, before the mask (Gemma 2's attn_logit_softcapping).
    """
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    if per_head_applies(q, k, v, bias, (on_scores, on_mask, on_pattern), dropout):
        return attend_per_head(q, k, v, mask, bias, scale, on_scores, on_mask, on_pattern, softcap)
    scores = torch.matmul(q, k.transpose(-1, -2)).mul_(scale)               # [b, head, q, k]
    if bias is not None:
        scores = scores + bias
    if softcap is not None:
        scores = torch.tanh(scores / softcap) * softcap
    scores = on_scores(scores)
    if mask is not None:
        mask = on_mask(mask)
        # the layers of a pass share one mask. A hook point with no hook, or only recording's,
        # cannot change it, so its additive form, made in the first layer, is reused here
        # unchecked; after a user's hook (it may have edited the mask in place) it is checked
        add = additive_mask(mask, scores.dtype, check=not (isinstance(on_mask, HookPoint) and on_mask.passive))
        if add is not None:                                                 # None: nothing is hidden, no copy
            scores = scores + add                                           # exp(-inf) = exactly 0
    pattern = on_pattern(scores.softmax(dim=-1, dtype=torch.float32).to(q.dtype))  # rows sum to 1
    z = torch.matmul(dropout(pattern), v)                                    # [b, head, q, dh]
    return z, pattern


# Long inputs on the CPU are computed a few heads at a time. One head's [q, k] block
# (1 MiB at 512 tokens) stays in the core's L2 cache from Q·Kᵀ through scale, bias,
# mask, softmax and pattern·V, where the whole-tensor path sends the layer's 12 MiB
# (MiniLM) through L3/RAM four times. Heads go in groups of one per torch thread, so
# each thread works on its own head. Measured at 512 tokens (MiniLM's 12 x 32 heads,
# a layer): 1 thread 9.6 -> 8.6-8.8 ms on a quiet machine and 22 -> 9 ms while
# another process used it; 2 threads 4.9 -> 4.5 ms. (The fused SDPA kernel, which
# records nothing: 6.2 / 3.4 ms.) Same kernels on the same values, so the numbers are
# bitwise those of the whole-tensor path (tests/unit/test_attention_kernels.py). Below
# 256 x 256 scores the loop's per-op overhead costs more than the cache saves.
PER_HEAD_MIN_SCORES = 256 * 256


def per_head_applies(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, bias: torch.Tensor | None,
              points: tuple[Callable, ...], dropout: Callable) -> bool:
    """Whether the per-head path computes exactly what the whole-tensor path would:
    float32 on the CPU, no autograd, no active dropout, and hook points that only read
    (recording), since they are shown the finished scores/mask/pattern afterwards."""
    if q.device.type != "cpu" or q.dtype != torch.float32 or q.shape[-2] * k.shape[-2] < PER_HEAD_MIN_SCORES:
        return False
    if torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in (q, k, v, bias)):
        return False
    if not (dropout is identity or (isinstance(dropout, nn.Dropout) and (not dropout.training or dropout.p == 0))):
        return False
    return all(f is identity or (isinstance(f, HookPoint) and f.passive) for f in points)


def attend_per_head(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None, bias: torch.Tensor | None,
    scale: float, on_scores: Callable, on_mask: Callable, on_pattern: Callable, softcap: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """`scaled_dot_product_attention` computed a group of heads at a time (see above);
    the hook points are shown the finished tensors afterwards."""
    b, h, n_q, _ = q.shape
    n_k = k.shape[-2]
    scores = q.new_empty(b, h, n_q, n_k)
    pattern = torch.empty_like(scores)
    z = q.new_empty(b, h, n_q, v.shape[-1])
    k_t = k.transpose(-1, -2)
    bias = None if bias is None else bias.expand(b, h, n_q, n_k)
    # every hook point here is identity or only records (per_head_applies): the check is for callers' own masks
    hidden = None if mask is None else additive_mask(mask, q.dtype, check=not isinstance(on_mask, HookPoint))
    hidden = None if hidden is None else hidden.expand(b, h, n_q, n_k)
    step = max(1, torch.get_num_threads())
    for i in range(b):
        for j in range(0, h, step):
            heads = slice(j, j + step)
            s = torch.matmul(q[i, heads], k_t[i, heads], out=scores[i, heads]).mul_(scale)
            if bias is not None:
                s.add_(bias[i, heads])
            if softcap is not None:
                s.div_(softcap).tanh_().mul_(softcap)
            if hidden is not None:
                s = s + hidden[i, heads]
            torch.matmul(torch.softmax(s, -1, out=pattern[i, heads]), v[i, heads], out=z[i, heads])
    on_scores(scores)                     # passive hooks: they record, they cannot change
    if mask is not None:
        on_mask(mask)
    return z, on_pattern(pattern)


def additive_mask(mask: torch.Tensor, dtype: torch.dtype, check: bool = True) -> torch.Tensor | None:
    """The bool mask as numbers to add to the scores: 0 where a query may attend, -inf where
    it may not; None when the mask hides nothing (no addition needed). `scores +
    additive_mask(...)` equals `scores.masked_fill(~mask, -inf)` for every finite score, and
    is ~4x faster: masked_fill broadcasting a [q, k] bool mask over the heads is not
    vectorised (bfloat16, 14 heads x 512 x 512: 2.8 ms against 0.7 ms).

    The layers of one pass share one mask, so it is made once per mask and kept beside a
    copy of the mask it was made from. check=True compares that copy with the mask (bytes,
    vectorised) in case a hook changed the mask in place (inference tensors keep no version
    counter to tell). check=False trusts what was made: the model's own pass when no hook
    can change the mask. On a GPU that matters more than the bytes: the comparison and
    `hides_nothing` are answers read on the CPU, so each waits for the GPU's queue of
    kernels to run dry; checked, every layer would do that twice, unchecked only the first
    layer of a pass reads the mask, once."""
    made = _ADDITIVE.get(mask)
    if (made is None or made[0] != dtype or made[1].shape != mask.shape
            or (check and not torch.equal(made[1].view(torch.uint8), mask.view(torch.uint8)))):
        additive = None if hides_nothing(mask) else \
            torch.zeros(mask.shape, dtype=dtype, device=mask.device).masked_fill_(~mask, float("-inf"))
        made = (dtype, mask.clone(), additive)
        _ADDITIVE[mask] = made
    return made[2]


_ADDITIVE = WeakIdKeyDictionary()         # mask -> (dtype, the mask as it was, additive mask or None)


def hides_nothing(mask: torch.Tensor) -> bool:
    """mask.all() for a bool mask, read as bytes: torch's bool reduction is not
    vectorised (122 us for 512 x 512 with one thread), uint8's min is (6.5 us)."""
    if mask.dtype != torch.bool:
        return bool(mask.all())
    return mask.numel() == 0 or bool(mask.view(torch.uint8).min())


# ---- the attention module of a block ----------------------------------------------------------
def dropout_of(cfg: TransformerConfig) -> Callable[[torch.Tensor], torch.Tensor]:
    """nn.Dropout when the config asks for it; without dropout a plain identity (one
    module call less at every site: ~20 per pass)."""
    return nn.Dropout(cfg.dropout) if cfg.dropout > 0 else identity


class Attention(nn.Module):
    """Multi-head attention with grouped key/value heads (MHA, GQA, MQA).

    Query head h reads key/value head h // (n_heads / n_kv_heads) (Ainslie et al. 2023).
    Cross-attention takes its keys and values from the encoder output.
    """

    def __init__(self, cfg: TransformerConfig, cross: bool = False, layer: int = 0) -> None:
        super().__init__()
        self.n_heads, self.n_kv, self.dh = cfg.n_heads, cfg.kv_heads, cfg.head_dim
        # what q·k is multiplied by: None = 1/√d_head; T5: 1 (unscaled); Gemma 2/3, Granite: their own (cfg.attn_scale)
        self.scale = cfg.attn_scale if cfg.attn_scale is not None else None if cfg.scale_attention else 1.0
        self.temperature = cfg.attn_temperature              # softmax((q·k·scale + bias) / T)
        self.softcap = cfg.attn_softcap                      # Gemma 2: c · tanh(scores / c)
        qkv_bias = cfg.has_qkv_bias          # Qwen2: biases on Q, K, V but none on W_O (cfg.qkv_bias)
        self.W_Q = nn.Linear(cfg.d_model, self.n_heads * self.dh, bias=qkv_bias)
        self.W_K = nn.Linear(cfg.d_model, self.n_kv * self.dh, bias=qkv_bias)
        self.W_V = nn.Linear(cfg.d_model, self.n_kv * self.dh, bias=qkv_bias)
        self.W_O = nn.Linear(self.n_heads * self.dh, cfg.d_model, bias=cfg.bias)
        self.qk_norm = "none" if cross else cfg.qk_norm
        if self.qk_norm != "none":   # head: over each head's d_head (Qwen3, Gemma 3); full: over all heads (OLMo 2)
            full = self.qk_norm == "full"
            self.q_norm = make_norm(cfg, self.n_heads * self.dh if full else self.dh)
            self.k_norm = make_norm(cfg, self.n_kv * self.dh if full else self.dh)
        self.drop = dropout_of(cfg)
        self.hook_q = HookPoint()          # [b, pos, head, dh] (after the q norm, if any)
        self.hook_k = HookPoint()          # [b, pos, kv_head, dh]
        self.hook_v = HookPoint()          # [b, pos, kv_head, dh]
        if cfg.layer_has_rope(layer) and not cross:
            self.hook_rot_q = HookPoint()  # [b, pos, head, dh]
            self.hook_rot_k = HookPoint()  # [b, pos, kv_head, dh]
        self.hook_scores = HookPoint()     # [b, head, q, k], scaled (unless scale_attention=False), + position bias, soft-capped, before the mask
        self.hook_mask = HookPoint()       # [b or 1, 1, q, k] bool, True = may attend
        self.hook_pattern = HookPoint()    # [b, head, q, k], softmax
        self.hook_z = HookPoint()          # [b, pos, head, dh], pattern · V

    def _project(self, W: nn.Linear, x: torch.Tensor, heads: int, norm: str) -> torch.Tensor:
        """W x as [b, pos, heads, dh], through the q or k norm when the config has one."""
        y = W(x)
        if self.qk_norm == "full" and norm:
            y = getattr(self, norm)(y)
        y = y.view(x.shape[0], x.shape[1], heads, self.dh)
        if self.qk_norm == "head" and norm:
            y = getattr(self, norm)(y)
        return y

    def forward(
        self,
        x: torch.Tensor,                           # [b, q, d]
        mask: torch.Tensor,                        # [b or 1, 1, q, k]
        bias: torch.Tensor | None = None,          # [head, q, k]
        rope: tuple[torch.Tensor, torch.Tensor] | None = None,
        memory: torch.Tensor | None = None,        # [b, k, d] (cross-attention)
        cache: KV | None = None,                   # incremental decoding: past K/V, extended here
    ) -> torch.Tensor:
        b, n_q, _ = x.shape
        kv_in = x if memory is None else memory
        n_k = kv_in.shape[1]
        reuse = cache is not None and memory is not None and cache.k is not None   # encoder K/V: once
        q = self.hook_q(self._project(self.W_Q, x, self.n_heads, "q_norm"))
        if not reuse:
            k = self.hook_k(self._project(self.W_K, kv_in, self.n_kv, "k_norm"))
            v = self.hook_v(self.W_V(kv_in).view(b, n_k, self.n_kv, self.dh))
        if rope is not None:                                      # with a cache: the new positions only
            q = self.hook_rot_q(positional.apply_rope(q, *rope))
            k = self.hook_rot_k(positional.apply_rope(k, *rope))
        if cache is not None:
            k, v = (cache.k, cache.v) if reuse else cache.extend(k, v)   # [b, past + new, kv_head, dh]
        group = self.n_heads // self.n_kv                         # query heads per kv head
        k, v = k.transpose(1, 2), v.transpose(1, 2)               # [b, kv_head, k, dh]
        if group > 1:       # repeated head-first, so each head's K and V are one contiguous block for the matmuls
            k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)   # [b, head, k, dh]
        scale = self.scale
        if self.temperature != 1.0:                               # scores ÷ T, the position bias included
            scale = (self.dh ** -0.5 if scale is None else scale) / self.temperature
            bias = None if bias is None else bias / self.temperature
        z, _ = scaled_dot_product_attention(
            q.transpose(1, 2), k, v, mask,
            None if bias is None else bias[None],
            on_scores=self.hook_scores, on_mask=self.hook_mask, on_pattern=self.hook_pattern, dropout=self.drop,
            scale=scale, softcap=self.softcap,
        )
        z = self.hook_z(z.transpose(1, 2))                        # [b, q, head, dh]
        return self.W_O(z.reshape(b, n_q, self.n_heads * self.dh))

"""A small, readable Transformer whose every intermediate value can be recorded.

One file, paper names, shape comments. Encoder (BERT), decoder (GPT, LLaMA) and
encoder-decoder (the original Transformer, Vaswani et al. 2017) share the same blocks.
Identity `HookPoint`s sit inline where values are worth seeing; their names come from
`named_modules()` (see the table in README.md). Attention always takes the explicit path
(no fused kernel), so the score and probability matrices exist and can be shown.

Shapes: b = batch, pos/q/k = positions, head = attention heads, d = d_model,
dh = d_head, ff = d_ff.
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

import torch
from torch import nn

from . import masks
from . import positional
from .config import MaskSpec, TransformerConfig
from .device import embedding, pick_device
from .attention import Attention, dropout_of, identity
from .hooks import HookFn, HookPoint, Names, hook_points, hooks, recording, stopping
from .kv_cache import KVCache, LayerCache, cache_is_exact
from .feedforward import MLP, Unembed
from .norms import make_norm
from .trace import Stack, Trace


class Block(nn.Module):
    """One layer: self-attention, (cross-attention), feed-forward, each with a residual
    connection. Where each sub-layer's norm sits (cfg.norm_position):

    - pre (GPT-2, LLaMA):       x + f(ln(x))
    - post (Vaswani, BERT):     ln(x + f(x)), so every resid hook after an addition holds
                                the normalised stream;
    - sandwich (Gemma 2/3):     x + ln_out(f(ln(x))), a norm before and after the sub-layer;
    - output (OLMo 2):          x + ln_out(f(x)), the norm on the sub-layer's output only.

    `ln1`/`ln2` are the norms a sub-layer reads (pre, sandwich) or that follow its
    addition (post); `ln1_out`/`ln2_out` the norms on its output (sandwich, output). The
    hook_attn_out / hook_mlp_out record what is added to the stream (after ln*_out), so
    embedding + Σ contributions = the final stream in every placement but post.
    cfg.residual_multiplier scales what is added (Granite).

    Parallel residual (cfg.parallel_residual, GPT-NeoX/Pythia, GPT-J, Phi-2): attention and
    MLP both read the block's input, x + attn(ln1 x) + mlp(ln2 x); the MLP never sees the
    attention output of its own layer. With cfg.shared_block_norm both read ln1 (Phi-2)."""

    def __init__(self, cfg: TransformerConfig, cross: bool = False, layer: int = 0) -> None:
        super().__init__()
        self.pre = cfg.norm_position == "pre"
        self.placement = cfg.norm_position
        self.parallel = cfg.parallel_residual
        self.shared_norm = cfg.shared_block_norm
        self.multiplier = cfg.residual_multiplier
        self.drop = dropout_of(cfg)
        reads_norm = cfg.norm_position in ("pre", "sandwich", "post")   # a norm named ln1/ln2 exists
        out_norm = cfg.norm_position in ("sandwich", "output")
        self.hook_resid_pre = HookPoint()            # [b, pos, d]
        if reads_norm and (layer > 0 or cfg.first_attn_norm):
            self.ln1 = make_norm(cfg)
        if out_norm:
            self.ln1_out = make_norm(cfg)
        self.attn = Attention(cfg, layer=layer)
        self.hook_attn_out = HookPoint()             # [b, pos, d]
        self.hook_resid_mid = HookPoint()            # [b, pos, d]
        if cross:
            self.ln_cross = make_norm(cfg)
            self.cross_attn = Attention(cfg, cross=True, layer=layer)
            self.hook_cross_attn_out = HookPoint()   # [b, pos, d]
            self.hook_resid_mid_cross = HookPoint()  # [b, pos, d]
        if reads_norm and not self.shared_norm:
            self.ln2 = make_norm(cfg)
        if out_norm:
            self.ln2_out = make_norm(cfg)
        self.mlp = MLP(cfg)
        self.hook_mlp_out = HookPoint()              # [b, pos, d]
        self.hook_resid_post = HookPoint()           # [b, pos, d]

    def _norm(self, name: str) -> Callable[[torch.Tensor], torch.Tensor]:
        return getattr(self, name, identity)

    def _sublayer(self, x: torch.Tensor, norm: str, f: Callable, out_hook: HookPoint,
                  resid_hook: HookPoint) -> torch.Tensor:
        if self.placement == "post":
            return resid_hook(self._norm(norm)(x + out_hook(self.drop(f(x)))))
        h = f(self._norm(norm)(x)) if self.placement != "output" else f(x)
        h = self._norm(norm + "_out")(h)
        return resid_hook(x + out_hook(self.drop(h * self.multiplier if self.multiplier != 1.0 else h)))

    def forward(self, x: torch.Tensor, mask: torch.Tensor, bias: torch.Tensor | None = None,
                rope: tuple[torch.Tensor, torch.Tensor] | None = None,
                memory: torch.Tensor | None = None, memory_mask: torch.Tensor | None = None,
                cache: LayerCache | None = None) -> torch.Tensor:
        self_kv, cross_kv = (None, None) if cache is None else (cache.self_attn, cache.cross_attn)
        x = self.hook_resid_pre(x)
        if self.parallel:
            # both branches read x = resid_pre. hook_resid_mid holds x + attn_out: the stream as
            # if the MLP were absent (the MLP did not read it), so resid_post = resid_mid + mlp_out
            # still holds and the residual decomposition (embed + Σ attn_out + Σ mlp_out) is unchanged.
            h = self.ln1(x)
            attn_out = self.hook_attn_out(self.drop(self.attn(h, mask, bias, rope, cache=self_kv)))
            mlp_out = self.hook_mlp_out(self.drop(self.mlp(h if self.shared_norm else self.ln2(x))))
            return self.hook_resid_post(self.hook_resid_mid(x + attn_out) + mlp_out)
        x = self._sublayer(x, "ln1", lambda h: self.attn(h, mask, bias, rope, cache=self_kv),
                           self.hook_attn_out, self.hook_resid_mid)
        if memory is not None:
            x = self._sublayer(x, "ln_cross",
                               lambda h: self.cross_attn(h, memory_mask, memory=memory, cache=cross_kv),
                               self.hook_cross_attn_out, self.hook_resid_mid_cross)
        return self._sublayer(x, "ln2", self.mlp, self.hook_mlp_out, self.hook_resid_post)


# ---- stacks ----------------------------------------------------------------------------
class _StackMixin:
    """Embedding hooks, positional scheme, blocks and final norm of one stack. A
    single-stack model holds these at the top level (`blocks.0...`); an encoder-decoder
    holds two `Stack`s (`encoder.blocks.0...`, `decoder.blocks.0...`)."""

    def _build_stack(self, cfg: TransformerConfig, decoder: bool) -> None:
        self.is_decoder = decoder
        e = cfg.embed_dim                                # d_model, or ELECTRA's narrower embeddings
        self.hook_embed = HookPoint()                    # [b, pos, e] token embeddings
        if cfg.n_token_types:
            self.type_embed = embedding(cfg.n_token_types, e)
            self.hook_type_embed = HookPoint()           # [b, pos, e]
        if cfg.positional == "learned":      # BART: pos_offset unused rows first (position p reads row p + 2)
            self.pos_embed = embedding(cfg.max_len + cfg.pos_offset, e)
        for name, value in self.computed_buffers(cfg).items():
            self.register_buffer(name, value, persistent=False)
        if cfg.positional in ("learned", "sinusoidal"):
            self.hook_pos_embed = HookPoint()            # [b, pos, d]
        if cfg.positional == "relative":
            self.rel_bias = embedding(cfg.relative_buckets, cfg.n_heads)
        if cfg.embed_norm:
            self.ln_embed = make_norm(cfg, e)
        if cfg.d_embed is not None:                      # ELECTRA: embeddings [e] -> the stream [d]
            self.embed_proj = nn.Linear(e, cfg.d_model)
            self.hook_embed_proj = HookPoint()           # [b, pos, d]
        self.drop_embed = dropout_of(cfg)
        self.blocks = nn.ModuleList(Block(cfg, cross=decoder and cfg.arch == "encoder-decoder", layer=i)
                                    for i in range(cfg.n_layers))
        if cfg.final_norm:
            self.ln_final = make_norm(cfg)

    @staticmethod
    def computed_buffers(cfg: TransformerConfig) -> dict[str, torch.Tensor]:
        """The stack's tensors that are computed from the config, never learned nor saved:
        the sinusoidal table, ALiBi's slopes."""
        out = {}
        if cfg.positional == "sinusoidal":   # interleaved sin/cos (Vaswani) or [sin | cos] halves (Marian)
            out["pe_table"] = positional.sinusoidal(cfg.max_len, cfg.d_model, cfg.sinusoidal_base, cfg.sinusoidal_layout)
        if cfg.positional == "alibi":
            slopes = positional.alibi_slopes(cfg.n_heads)
            out["alibi_slopes"] = slopes * cfg.alibi_slope_scale if cfg.alibi_slope_scale != 1.0 else slopes
        return out

    def positions(self, cfg: TransformerConfig, n: int, like: torch.Tensor, offset: int = 0, local: bool = False):
        """(additive PE [n, d] or None, score bias [head, n, offset + n] or None, rope
        cos/sin or None) for the positions offset..offset+n-1 (offset > 0: a decoding step
        with `offset` tokens already in the KV cache). local: RoPE of the sliding-window
        layers (cfg.rope_local_base, never scaled)."""
        pe = bias = rope = None
        end = offset + n
        if cfg.positional == "learned":
            pe = self.pos_embed.weight[offset + cfg.pos_offset:end + cfg.pos_offset]
        elif cfg.positional == "sinusoidal":
            pe = self.pe_table[offset:end] if end <= self.pe_table.shape[0] \
                else positional.sinusoidal(end, cfg.d_model, cfg.sinusoidal_base, cfg.sinusoidal_layout)[offset:].to(like)
        elif cfg.positional == "alibi":
            bias = positional.alibi_bias(self.alibi_slopes, n, end, q_offset=offset)
        elif cfg.positional == "relative":
            bias = positional.relative_bias(self.rel_bias.weight, n, end, bidirectional=not self.is_decoder,
                                   max_distance=cfg.relative_max_distance, q_offset=offset)
        elif cfg.positional == "rope":
            positions = torch.arange(offset, end, device=like.device)
            if local:
                cos, sin = positional.rope_cos_sin(positions, cfg.rotary_dim, cfg.rope_local_base)
            else:
                cos, sin = positional.rope_cos_sin(positions, cfg.rotary_dim, cfg.rope_base, positional.rope_scaling_of(cfg))
            rope = (cos.to(like.dtype), sin.to(like.dtype))
        return pe, bias, rope

    def _run_stack(self, cfg: TransformerConfig, tok_emb: torch.Tensor, valid: torch.Tensor | None,
                   token_type_ids: torch.Tensor | None = None, memory: torch.Tensor | None = None,
                   memory_valid: torch.Tensor | None = None, cache: KVCache | None = None) -> torch.Tensor:
        b, n, _ = tok_emb.shape
        offset = 0 if cache is None else cache.length
        if cfg.embed_scale:   # Gemma rounds √d to the weights' dtype first (bfloat16: √640 = 25.25)
            tok_emb = tok_emb * (torch.tensor(cfg.d_model ** 0.5, dtype=tok_emb.dtype) if cfg.embed_scale_rounded
                                 else cfg.d_model ** 0.5)
        if cfg.embed_multiplier != 1.0:                  # Granite
            tok_emb = tok_emb * cfg.embed_multiplier
        x = self.hook_embed(tok_emb)
        if cfg.n_token_types:
            types = torch.zeros_like(tok_emb[..., 0], dtype=torch.long) if token_type_ids is None else token_type_ids
            x = x + self.hook_type_embed(self.type_embed(types))
        pe, bias, rope = self.positions(cfg, n, x, offset)
        if pe is not None:
            x = x + self.hook_pos_embed(pe[None].expand(b, -1, -1))
        if cfg.embed_norm:
            x = self.ln_embed(x)
        if cfg.d_embed is not None:
            x = self.hook_embed_proj(self.embed_proj(x))
        x = self.drop_embed(x)
        specs = {False: cfg.attention}
        if cfg.local_layers:       # sliding-window layers (Gemma 2/3, ModernBERT): |q - k| <= local_window
            specs[True] = MaskSpec("local", window=cfg.local_window)
        stack_masks = {}
        for local, spec in specs.items():
            if cache is None:
                stack_masks[local] = masks.stack_mask(spec, n, self.is_decoder, valid, x.device)
            else:   # the new rows of the mask over every position so far: [1, 1, n, offset + n]
                stack_masks[local] = masks.self_attention_mask(spec, offset + n, self.is_decoder, x.device)[offset:][None, None]
        local_rope = None
        if rope is not None and cfg.local_layers and cfg.rope_local_base is not None:
            local_rope = self.positions(cfg, n, x, offset, local=True)[2]
        # cos, sin [pos, rot] -> [1, pos, 1, rot], the shape apply_rope broadcasts over
        # [b, pos, head, dh]: made once here rather than in every layer's attention
        rope, local_rope = (None if r is None else (r[0][None, :, None], r[1][None, :, None])
                            for r in (rope, local_rope))
        memory_mask = None
        if memory is not None:
            memory_mask = masks.cross_mask(n, memory.shape[1], memory_valid, x.device)
        for i, block in enumerate(self.blocks):
            local = cfg.layer_is_local(i)
            layer_rope = None if not cfg.layer_has_rope(i) else local_rope if local and local_rope is not None \
                else rope
            x = block(x, stack_masks[local], bias, layer_rope, memory, memory_mask,
                      None if cache is None else cache.layers[i])
        if cfg.final_norm:
            x = self.ln_final(x)
        return x


class TransformerStack(_StackMixin, nn.Module):
    """One side of an encoder-decoder model."""

    def __init__(self, cfg: TransformerConfig, decoder: bool) -> None:
        super().__init__()
        self._build_stack(cfg, decoder)


class Transformer(_StackMixin, nn.Module):
    """The Glassbox model. See README.md for the hook table and examples.

    >>> model = Transformer(TransformerConfig(arch="decoder", vocab_size=100))
    >>> logits, trace = model.run_with_cache([1, 2, 3])
    """

    def __init__(self, cfg: TransformerConfig, device: str | torch.device | None = "auto") -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = embedding(cfg.vocab_size, cfg.embed_dim)     # W_E [vocab, d] (ELECTRA: [vocab, d_embed])
        if cfg.arch == "encoder-decoder":
            self.encoder = TransformerStack(cfg, decoder=False)
            self.decoder = TransformerStack(cfg, decoder=True)
        else:
            self._build_stack(cfg, decoder=cfg.arch == "decoder")
        if cfg.output == "logits":   # W_U; T5/Marian/BART: scaled input or a fixed logit bias (Unembed)
            self.unembed = Unembed(cfg) if Unembed.needed(cfg) else nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        if device != "meta":           # a skeleton's values are never read: no initialisation to compute
            self.apply(_init_weights)
        if cfg.output == "logits" and cfg.tie_embeddings:
            self.unembed.weight = self.embed.weight
        if device != "meta":           # "meta": shapes only, no memory (models/weights/safety.py)
            self.to(pick_device(device))

    @classmethod
    def skeleton(cls, cfg: TransformerConfig) -> "Transformer":
        """The model's modules and shapes on the meta device: no memory, no values."""
        with torch.device("meta"):
            return cls(cfg, device="meta")

    @classmethod
    def from_state(cls, cfg: TransformerConfig, state: dict[str, torch.Tensor],
                   device: str | torch.device | None = "cpu", skeleton: "Transformer | None" = None) -> "Transformer":
        """A model whose parameters ARE the given tensors (a full state dict, every shape
        checked by load_state_dict): a skeleton (`skeleton(cfg)`, or the one given) takes
        them, so no random initialisation is computed only to be overwritten (loading
        MiniLM: ~0.4 s saved), then the computed buffers are made on the tensors' device."""
        model = cls.skeleton(cfg) if skeleton is None else skeleton
        model.load_state_dict(state, strict=True, assign=True)
        like = state["embed.weight"]
        for stack in model.modules():
            if isinstance(stack, _StackMixin):
                for name, value in stack.computed_buffers(cfg).items():
                    stack.register_buffer(name, value.to(like.device), persistent=False)
        if cfg.output == "logits" and cfg.tie_embeddings:
            model.unembed.weight = model.embed.weight
        return model.to(pick_device(device))

    # ---- properties -------------------------------------------------------------------
    @property
    def device(self) -> torch.device:
        return self.embed.weight.device

    @property
    def n_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def stack_module(self, stack: Stack | str | None = None) -> nn.Module:
        """The module holding one stack's blocks and position parameters: the model itself,
        or its encoder / decoder (cross-attention lives in the decoder)."""
        s = Stack.resolve(stack, self.cfg.arch)
        return self if s.module is None else getattr(self, s.module)

    def hook_names(self) -> list[str]:
        """Every hook point's name (registration order; a Trace lists execution order)."""
        return list(hook_points(self))

    # ---- forward ----------------------------------------------------------------------
    def _as_ids(self, ids: torch.Tensor | Sequence[int], what: str = "input") -> torch.Tensor:
        ids = torch.as_tensor(ids, dtype=torch.long, device=self.device) if not torch.is_tensor(ids) \
            else ids.to(self.device, torch.long)
        if ids.dim() == 1:
            ids = ids[None]
        if ids.dim() != 2:
            raise ValueError(f"The {what} must be token ids of shape [pos] or [batch, pos], got {tuple(ids.shape)}.")
        n = ids.shape[1]
        if n == 0:
            raise ValueError(f"The {what} is empty: give at least one token.")
        if self.cfg.positional == "learned" and n > self.cfg.max_len:
            raise ValueError(f"The {what} has {n} tokens but this model has learned positions for only "
                             f"{self.cfg.max_len}; shorten the text (the tokenizers can truncate it).")
        lo, hi = int(ids.min()), int(ids.max())
        if lo < 0 or hi >= self.cfg.vocab_size:
            raise ValueError(f"Token id {lo if lo < 0 else hi} is outside this model's vocabulary "
                             f"(0..{self.cfg.vocab_size - 1}).")
        return ids

    def _as_vectors(self, x: torch.Tensor, attention_mask, *others) -> tuple[torch.Tensor, torch.Tensor | None]:
        """(input vectors [b, pos, embed_dim] on the model's device and dtype, the padding mask)."""
        cfg, x = self.cfg, torch.as_tensor(x).to(self.device, self.embed.weight.dtype)
        if any(o is not None for o in others) or cfg.arch == "encoder-decoder" or x.dim() != 3 or not x.shape[1] \
                or x.shape[-1] != cfg.embed_dim or (cfg.positional == "learned" and x.shape[1] > cfg.max_len):
            raise ValueError(f"Input vectors (no token ids, no KV cache) feed an encoder or a decoder as [batch, "
                             f"1 to {cfg.max_len} positions, {cfg.embed_dim}]; got {tuple(x.shape)}.")
        return x, self._as_valid(attention_mask, x[..., 0])

    def _as_valid(self, attention_mask: torch.Tensor | Sequence | None, ids: torch.Tensor) -> torch.Tensor | None:
        if attention_mask is None:
            return None
        valid = torch.as_tensor(attention_mask, device=self.device).bool()
        valid = valid[None] if valid.dim() == 1 else valid
        if valid.shape != ids.shape:
            raise ValueError(f"attention_mask has shape {tuple(valid.shape)} but the ids have {tuple(ids.shape)}.")
        if not bool(valid.any(-1).all()):
            raise ValueError("A sequence in the batch is all padding: every query would have nothing to attend to.")
        return None if bool(valid.all()) else valid

    def forward(
        self,
        ids: torch.Tensor | Sequence[int] | None = None,
        tgt_ids: torch.Tensor | Sequence[int] | None = None,
        *,
        attention_mask: torch.Tensor | Sequence | None = None,
        tgt_attention_mask: torch.Tensor | Sequence | None = None,
        token_type_ids: torch.Tensor | Sequence | None = None,
        cache: KVCache | None = None,
        out_positions: Sequence[int] | None = None,
        inputs_embeds: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """Logits [b, pos, vocab] (or the final hidden state [b, pos, d] when
        cfg.output == 'hidden'). Encoder-decoder: ids = source, tgt_ids = target, and the
        output is for the target positions. attention_mask: 1 = real token, 0 = padding.

        out_positions: only these positions reach the output, [b, len(out_positions), ...]
        (the unembedding is most of a small model's cost at a large vocabulary, and an
        activation-patching sweep, lab/patching.py, reads one position of each run).

        cache (incremental decoding, see `lab.generate.generate`): the ids (decoder) or tgt_ids
        (encoder-decoder) are only the NEW tokens; their positions continue after the
        cache's, their K/V rows are appended to it, and the output is for them only.
        inputs_embeds [b, pos, embed_dim]: input vectors (ViT patches) in place of the embedding's rows."""
        cfg = self.cfg
        if inputs_embeds is not None:          # `inputs_embeds=model.embed(ids)` gives what `ids` gives
            x = self._run_stack(cfg, *self._as_vectors(inputs_embeds, attention_mask, ids, tgt_ids, cache))
            x = x if out_positions is None else x[:, list(out_positions)]
            return self.unembed(x) if cfg.output == "logits" else x
        if cache is not None:
            return self._forward_cached(ids, tgt_ids, cache, attention_mask)
        src = self._as_ids(ids, "source" if cfg.arch == "encoder-decoder" else "input")
        valid = self._as_valid(attention_mask, src)
        types = None if token_type_ids is None else torch.as_tensor(token_type_ids, device=self.device).long().reshape(src.shape)
        if cfg.arch == "encoder-decoder":
            if tgt_ids is None:
                raise ValueError("An encoder-decoder model needs target ids too: run_with_cache(src_ids, tgt_ids).")
            tgt = self._as_ids(tgt_ids, "target")
            if tgt.shape[0] != src.shape[0]:
                raise ValueError("Source and target must have the same batch size.")
            memory = self.encoder._run_stack(cfg, self.embed(src), valid)
            x = self.decoder._run_stack(cfg, self.embed(tgt), self._as_valid(tgt_attention_mask, tgt),
                                        memory=memory, memory_valid=valid)
        else:
            if tgt_ids is not None:
                raise ValueError(f"A {cfg.arch} model takes one sequence; tgt_ids is only for encoder-decoder.")
            x = self._run_stack(cfg, self.embed(src), valid, types)
        if out_positions is not None:
            x = x[:, list(out_positions)]
        return self.unembed(x) if cfg.output == "logits" else x

    def _forward_cached(self, ids, tgt_ids, cache: KVCache, attention_mask) -> torch.Tensor:
        cfg = self.cfg
        if cfg.arch == "encoder":
            raise ValueError("An encoder reads the whole text at once; only a decoder extends a KV cache.")
        if not cache_is_exact(cfg.attention):
            raise ValueError(f"The {cfg.attention.kind!r} attention pattern changes earlier rows as the text "
                             "grows, so cached keys and values would be stale: recompute instead.")
        # dynamic NTK / LongRoPE (cache_is_exact(cfg) is False): a cached step is what transformers'
        # cached decoding computes, not a recomputation; lab/generate.py recomputes for them
        new = self._as_ids(tgt_ids if cfg.arch == "encoder-decoder" else ids, "new tokens")
        if cfg.positional == "learned" and cache.length + new.shape[1] > cfg.max_len:
            raise ValueError(f"This model has learned positions for only {cfg.max_len} tokens; "
                             f"the cache already holds {cache.length}.")
        if cfg.arch == "decoder":
            if attention_mask is not None:
                raise ValueError("Cached decoding takes no padding mask.")
            x = self._run_stack(cfg, self.embed(new), None, cache=cache)
        else:
            if cache.memory is None:   # first step: run the encoder once and keep its output
                src = self._as_ids(ids, "source")
                cache.memory_valid = self._as_valid(attention_mask, src)
                cache.memory = self.encoder._run_stack(cfg, self.embed(src), cache.memory_valid)
            x = self.decoder._run_stack(cfg, self.embed(new), None, memory=cache.memory,
                                        memory_valid=cache.memory_valid, cache=cache)
        return self.unembed(x) if cfg.output == "logits" else x

    def run_with_cache(
        self,
        ids: torch.Tensor | Sequence[int] | None = None, tgt_ids: torch.Tensor | Sequence[int] | None = None,
        *,
        names: Names = None,
        tokens: list[str] | None = None, tgt_tokens: list[str] | None = None,
        grad: bool = False,
        dtype: torch.dtype | None = None, store_device: torch.device | str | None = None,
        stop_after: str | None = None,
        **kwargs,
    ) -> tuple[torch.Tensor | None, Trace]:
        """Forward pass that records the hook points matching `names` (glob patterns,
        None = all). Returns (output, Trace). Without grad=True it runs under
        torch.inference_mode (the recorded tensors are read-only).

        dtype=torch.float16 stores the recorded values at half the bytes (the forward
        itself runs at the model's precision). store_device: None keeps the recorded
        values where they were computed (a GPU trace stays on the GPU; `Trace.numpy`
        copies what a view asks for), "cpu" moves each one off the device as it is
        recorded. Memory: see `lab.memory.estimate_trace_bytes`. stop_after: one recorded
        hook point's name; the pass ends there (the layers above it do not run) and the
        output is None (`models.hooks.stopping`)."""
        out = None
        with (torch.enable_grad() if grad else torch.inference_mode()), \
                recording(self, names, dtype=dtype, device=store_device) as store, \
                stopping(self, stop_after, names):      # after the recording: the value is kept first
            out = self(ids, tgt_ids, **kwargs)
        return out, Trace(store, self.cfg, tokens, tgt_tokens)

    def run_with_hooks(self, ids: torch.Tensor | Sequence[int], tgt_ids: torch.Tensor | Sequence[int] | None = None,
                       *, fwd_hooks: Iterable[tuple[str, HookFn]], **kwargs) -> torch.Tensor:
        """Forward pass with user functions at hook points, e.g. to zero a head:
        `fwd_hooks=[("blocks.0.attn.hook_z", lambda z, name: z * head_mask)]`."""
        with hooks(self, fwd_hooks):
            return self(ids, tgt_ids, **kwargs)

    @torch.no_grad()
    def generate(self, ids: torch.Tensor | Sequence[int], max_new_tokens: int, temperature: float = 0.0,
                 seed: int | None = None) -> torch.Tensor:
        """Append tokens one at a time (greedy when temperature == 0). Decoder only."""
        if self.cfg.arch != "decoder" or self.cfg.output != "logits":
            raise ValueError("Generation needs a decoder model with a language-model head.")
        ids = self._as_ids(ids)
        gen = torch.Generator(device=self.device).manual_seed(seed) if seed is not None else None
        for _ in range(max_new_tokens):
            if self.cfg.positional == "learned" and ids.shape[1] >= self.cfg.max_len:
                break
            logits = self(ids)[:, -1]
            if temperature <= 0:
                nxt = logits.argmax(-1, keepdim=True)
            else:
                nxt = torch.multinomial((logits / temperature).softmax(-1), 1, generator=gen)
            ids = torch.cat([ids, nxt], dim=1)
        return ids


@torch.no_grad()
def _init_weights(m: nn.Module) -> None:
    """GPT-2's initialisation: N(0, 0.02) weights, zero biases. Tensor methods, not
    torch.nn.init: transformers' from_pretrained swaps torch.nn.init's functions for no-ops
    process-wide while it loads (not thread-safe), and the app builds models in several
    threads (a parity badge's reference model in one, a student's random model in another)."""
    if isinstance(m, (nn.Linear, nn.Embedding)):
        m.weight.normal_(0.0, 0.02)
    if isinstance(m, nn.Linear) and m.bias is not None:
        m.bias.zero_()

"""The model map: which parts a model has, in the order its forward pass runs them, what
shape flows out of each for a text of n tokens, and what one recorded pass measured at
each of them.

`model_map(cfg, n_src, n_tgt)` reads a `TransformerConfig` only (no weights): the
embeddings (and their projection to the stream's width, ELECTRA), the positional scheme
(added to the embedding, or inside attention), one block's sub-layers with the norms where
`norm_position` puts them (pre: in the branch before the sub-layer; post: on the stream
after the ⊕; sandwich: before and after the sub-layer; output: after it, before the ⊕),
what differs between layers (sliding-window and NoPE layers, block 0 without its
attention norm), the final norm and the head, with every scale, soft-cap and multiplier
the config sets in the parts' `info`. `map_data(model, trace)` reads a `Trace` recorded with `KINDS`: the norm of
every token's vector after every part ("follow one token"), the attention entropy per
layer and head, and the head's top prediction. `compare(cfg_a, cfg_b)` lists what two
configurations do differently and which parts that touches.

Ids and numbers only (no translated words): the app's figure (viz_core/model_map.py)
names the parts in the reader's language.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import torch

from lab import attention
from lab.kv import kv_groups
from lab.residual import has_unembedding, input_norm, lens_logits, out_norms, sublayer_output
from models.config import TransformerConfig
from models.trace import Stack, Trace
from models.transformer import Transformer

# what map_data reads (record these: `record_names(cfg, KINDS)`, every stack)
KINDS = ("embed", "pos_embed", "type_embed", "resid_pre", "resid_mid", "resid_post", "attn_out", "mlp_out",
         "pattern", "mask", "ln1.normalized", "ln2.normalized", "ln_final.normalized",
         # sandwich / output placements (the attention's own output: W_O z), ELECTRA's projection
         "z", "ln1_out.normalized", "ln2_out.normalized", "ln_embed.normalized", "embed_proj")
ADDITIVE_PE = ("learned", "sinusoidal")           # a position vector is added to the token embedding
INSIDE_ATTENTION = ("rope", "alibi", "relative")  # positions enter inside self-attention
NORM_IDS = ("ln_embed", "ln1", "ln1_out", "ln_cross", "ln2", "ln2_out", "ln_final")
SECTIONS = ("input", "attn", "cross", "ffn", "output")   # rows that line up across stacks and maps


@dataclass(frozen=True)
class Part:
    """One box of the map. `id` names the module where one exists (ln1, ln2, ln1_out,
    ln2_out, ln_cross, ln_final, ln_embed, embed_proj), else the role (tokens, embed, type,
    pos, attn, cross, add1, add_cross, add2, ffn, head, output, hidden)."""

    id: str
    kind: str                      # tokens|embed|pos|norm|attn|ffn|add|head|output
    stack: str                     # self|encoder|decoder (models.trace.Stack values)
    section: str                   # input|attn|cross|ffn|output (SECTIONS)
    in_block: bool                 # repeated in every layer (drawn once, "× N")
    shape: tuple[int, ...]         # what flows out of it for this text, e.g. (19, 384)
    on_stream: bool = True         # on the residual stream (False: in a sub-layer's branch, or a note beside it)
    info: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class StackMap:
    """One stack (the only one, or the encoder / decoder of an encoder-decoder)."""

    stack: str
    n_tokens: int
    parts: tuple[Part, ...]        # in execution order: embeddings, one block, final norm (and head)

    def part(self, pid: str) -> Part | None:
        return next((p for p in self.parts if p.id == pid), None)

    @property
    def block(self) -> tuple[Part, ...]:
        return tuple(p for p in self.parts if p.in_block)


@dataclass(frozen=True)
class ModelMap:
    """The whole architecture for a text of n tokens, read from a config."""

    arch: str
    n_layers: int
    d_model: int
    n_heads: int
    kv_heads: int
    d_head: int
    d_ff: int
    vocab_size: int
    positional: str
    norm: str                      # layernorm | rmsnorm | dyt
    norm_position: str             # pre | post | sandwich | output
    activation: str
    attention_kind: str            # MHA | GQA | MQA
    mask: str                      # the self-attention pattern (MaskSpec.kind)
    stacks: tuple[StackMap, ...]   # (self,) or (encoder, decoder)

    @property
    def cross(self) -> bool:
        """Whether the decoder reads the encoder's output (cross-attention)."""
        return self.arch == "encoder-decoder"

    def stack(self, name: str) -> StackMap:
        for s in self.stacks:
            if s.stack == name:
                return s
        raise ValueError(f"This model has no {name!r} stack; it has {', '.join(s.stack for s in self.stacks)}.")

    def parts(self) -> list[Part]:
        """Every part of every stack, in drawing order (the index is a click's id)."""
        return [p for s in self.stacks for p in s.parts]


def _attention(cfg: TransformerConfig, stack: Stack, n_q: int, n_k: int, cross: bool) -> Part:
    inside = cfg.positional if cfg.positional in INSIDE_ATTENTION and not cross else None
    mask = "cross" if cross else ("causal" if stack is Stack.DECODER or cfg.arch == "decoder" else "full")
    if not cross and cfg.attention.kind != "full":
        mask = cfg.attention.kind
    rope = cfg.positional == "rope" and not cross
    info = {"heads": cfg.n_heads, "kv_heads": cfg.kv_heads, "d_head": cfg.head_dim, "kind": cfg.attention_kind,
            "pattern": (cfg.n_heads, n_q, n_k), "q": (n_q, cfg.n_heads, cfg.head_dim),
            "kv": (n_k, cfg.kv_heads, cfg.head_dim), "positional": inside, "mask": mask,
            "groups": kv_groups(cfg.n_heads, cfg.kv_heads), "scaled": cfg.scale_attention,
            # a sliding window (Mistral): |q - k| <= window; biases on Q, K, V only (Qwen2)
            "window": cfg.attention.window if not cross and cfg.attention.kind == "local" else None,
            "qkv_bias": cfg.has_qkv_bias and not cfg.bias,
            "n_layers": cfg.n_layers,
            # q/k norm: none | head (Qwen3, Gemma 3) | full (OLMo 2); scores × this (None: 1/√d_head);
            # scores = c · tanh(scores / c) (Gemma 2)
            "qk_norm": "none" if cross else cfg.qk_norm, "scale": cfg.attn_scale, "softcap": cfg.attn_softcap,
            # layers whose self-attention is a sliding window |q - k| <= local_window (Gemma 2/3, ModernBERT),
            # with their own RoPE base; layers without RoPE (SmolLM3)
            "local_layers": () if cross else cfg.local_layers, "local_window": cfg.local_window,
            "rope_local_base": cfg.rope_local_base if rope and cfg.local_layers else None,
            "rope_base": cfg.rope_base if rope else None,
            "nope_layers": cfg.nope_layers if rope else ()}
    return Part("cross" if cross else "attn", "attn", stack.value, "cross" if cross else "attn", True,
                (n_q, cfg.d_model), False, info)


def _stack_parts(cfg: TransformerConfig, stack: Stack, n: int, n_src: int, output: bool) -> tuple[Part, ...]:
    d, e, s, place = cfg.d_model, cfg.embed_dim, stack.value, cfg.norm_position
    norm = {"norm": cfg.norm, "plus_one": cfg.norm_plus_one,      # plus_one: RMSNorm × (1 + w) (Gemma)
            "bias": cfg.norm_bias or cfg.norm != "layernorm"}     # False: LayerNorm without its bias (ModernBERT)

    def ln(pid: str, section: str, in_block: bool = True, on_stream: bool | None = None, width: int = d,
           **extra: Any) -> Part:
        # parallel residual (GPT-NeoX): ln2 reads the block's input, not the stream after attention
        parallel = cfg.parallel_residual and pid == "ln2"
        stream = (place == "post") if on_stream is None else on_stream
        return Part(pid, "norm", s, section, in_block, (n, width), stream,
                    {**norm, "position": place, "parallel": parallel, **extra})

    def add(pid: str, section: str) -> Part:
        return Part(pid, "add", s, section, True, (n, d), info={"multiplier": cfg.residual_multiplier})

    parts = [Part("tokens", "tokens", s, "input", False, (n,), info={"vocab": cfg.vocab_size}),
             Part("embed", "embed", s, "input", False, (n, e),
                  info={"vocab": cfg.vocab_size, "multiplier": cfg.embed_multiplier, "sqrt_d": cfg.embed_scale})]
    if cfg.n_token_types:
        parts.append(Part("type", "embed", s, "input", False, (n, e), info={"types": cfg.n_token_types}))
    added = cfg.positional in ADDITIVE_PE      # else a note: positions live inside attention (or nowhere)
    parts.append(Part("pos", "pos", s, "input", False, (n, e), added,
                      {"positional": cfg.positional, "added": added, "max_len": cfg.max_len,
                       "layout": cfg.sinusoidal_layout if cfg.positional == "sinusoidal" else None,
                       "offset": cfg.pos_offset if cfg.positional == "learned" else 0}))
    if cfg.embed_norm:
        parts.append(ln("ln_embed", "input", in_block=False, on_stream=True, width=e))
    if cfg.d_embed is not None:                # ELECTRA: the embeddings are narrower than the stream
        parts.append(Part("embed_proj", "embed", s, "input", False, (n, d), info={"d_embed": e, "d_model": d}))
    sub = [("attn", "ln1", _attention(cfg, stack, n, n, False), "add1")]
    if stack is Stack.DECODER and cfg.arch == "encoder-decoder":
        sub.append(("cross", "ln_cross", _attention(cfg, stack, n, n_src, True), "add_cross"))
    gated = cfg.gated
    shared = cfg.shared_block_norm
    ffn = Part("ffn", "ffn", s, "ffn", True, (n, d), False,
               {"d_ff": cfg.d_ff, "activation": cfg.activation, "gated": gated, "hidden": (n, cfg.d_ff),
                "parallel": cfg.parallel_residual, "shared_norm": shared})
    sub.append(("ffn", "ln2", ffn, "add2"))
    for section, norm_id, body, add_id in sub:
        # ModernBERT: block 0's attention reads the embeddings without a norm
        absent = (0,) if norm_id == "ln1" and not cfg.first_attn_norm else ()
        if place == "post":
            parts += [body, add(add_id, section), ln(norm_id, section, absent=absent)]
            continue
        if place in ("pre", "sandwich") and not (norm_id == "ln2" and shared):   # Phi-2: the FFN reads ln1
            parts.append(ln(norm_id, section, absent=absent, shared=norm_id == "ln1" and shared))
        parts.append(body)
        if place in ("sandwich", "output") and section != "cross":
            parts.append(ln(f"{norm_id}_out", section, out=True))
        parts.append(add(add_id, section))
    if cfg.final_norm:
        parts.append(ln("ln_final", "output", in_block=False, on_stream=True))
    if output:
        if cfg.output == "logits":
            parts.append(Part("head", "head", s, "output", False, (n, cfg.vocab_size),
                              info={"vocab": cfg.vocab_size, "tied": cfg.tie_embeddings,
                                    "scaled": cfg.unembed_scale, "bias": cfg.logit_bias or cfg.unembed_bias,
                                    "divisor": cfg.logit_divisor, "softcap": cfg.logit_softcap}))
            parts.append(Part("output", "output", s, "output", False, (n,), info={"vocab": cfg.vocab_size}))
        else:
            parts.append(Part("hidden", "output", s, "output", False, (n, d)))
    return tuple(parts)


def model_map(cfg: TransformerConfig, n_src: int, n_tgt: int | None = None) -> ModelMap:
    """The map of a model of config `cfg` reading n_src tokens (and n_tgt decoder tokens
    in an encoder-decoder; default n_src)."""
    if n_src < 1 or (n_tgt is not None and n_tgt < 1):
        raise ValueError("The model map needs at least one token.")
    stacks = []
    for stack in Stack.blocks_of(cfg.arch):
        n = (n_tgt or n_src) if stack is Stack.DECODER else n_src
        stacks.append(StackMap(stack.value, n, _stack_parts(cfg, stack, n, n_src, stack is Stack.output(cfg.arch))))
    return ModelMap(cfg.arch, cfg.n_layers, cfg.d_model, cfg.n_heads, cfg.kv_heads, cfg.head_dim, cfg.d_ff,
                    cfg.vocab_size, cfg.positional, cfg.norm, cfg.norm_position, cfg.activation, cfg.attention_kind,
                    cfg.attention.kind, tuple(stacks))


# ---- what one pass measured ------------------------------------------------------------------
@dataclass(frozen=True)
class Stop:
    """Where a token's vector is after a part of the map (layer -1: outside the blocks)."""

    part: str
    layer: int


@dataclass
class StackData:
    """One stack's numbers for one text (batch row 0)."""

    stack: str
    tokens: list[str]
    stops: list[Stop]              # every part in execution order, block parts once per layer
    norms: np.ndarray              # [stops, pos] ‖x‖ of each token's vector right after that stop
    entropy: np.ndarray            # [L, H] mean entropy of each head's attention rows (nats)
    token_entropy: np.ndarray      # [L, pos] entropy of each query's row, mean over heads
    cross_entropy: np.ndarray | None = None         # [L, H] cross-attention (decoder of an encoder-decoder)
    cross_token_entropy: np.ndarray | None = None   # [L, pos]
    top_ids: np.ndarray | None = None               # [pos] the head's most probable next token (output stack)
    top_probs: np.ndarray | None = None             # [pos] its probability

    def index(self, part: str, layer: int = -1) -> int:
        try:
            return self.stops.index(Stop(part, layer))
        except ValueError:
            raise ValueError(f"No stop {part!r} at layer {layer} in the {self.stack} stack.") from None

    def value(self, part: str, layer: int = -1) -> float:
        """Mean over tokens of ‖x‖ after `part` (of `layer`)."""
        return float(self.norms[self.index(part, layer)].mean())

    def per_layer(self, part: str) -> np.ndarray:
        """[L] mean over tokens of ‖x‖ after `part` in every layer."""
        n_layers = self.entropy.shape[0]
        return np.array([self.value(part, i) for i in range(n_layers)], np.float32)

    def attention_entropy(self, cross: bool = False) -> np.ndarray:
        """[L] mean attention entropy per layer (over heads and queries)."""
        e = self.cross_entropy if cross else self.entropy
        return np.zeros(0, np.float32) if e is None else e.mean(1).astype(np.float32)


@dataclass
class MapData:
    """Every stack's numbers for one text."""

    stacks: dict[str, StackData]

    def stack(self, name: str) -> StackData:
        if name not in self.stacks:
            raise ValueError(f"No data for the {name!r} stack; have {', '.join(self.stacks)}.")
        return self.stacks[name]


def _norm(x: torch.Tensor) -> torch.Tensor:
    return x.float().norm(dim=-1)


def _stack_data(model: Transformer, trace: Trace, stack: StackMap, output: bool) -> StackData:
    cfg, s = model.cfg, Stack(stack.stack)
    place = cfg.norm_position
    tokens = (trace.tgt_tokens if s is Stack.DECODER else trace.tokens) or []
    stops: list[Stop] = []
    rows: list[torch.Tensor] = []

    def stop(part: str, layer: int, x: torch.Tensor) -> None:
        stops.append(Stop(part, layer))
        rows.append(_norm(x).cpu())

    x = trace.get("embed", None, s, batch=0)
    stop("embed", -1, x)
    for pid, kind in (("type", "type_embed"), ("pos", "pos_embed")):
        if trace.has(kind, None, s):
            x = x + trace.get(kind, None, s, batch=0)
            stop(pid, -1, x)
    if stack.part("ln_embed") is not None:
        stop("ln_embed", -1, trace.get("ln_embed.normalized", None, s, batch=0) if trace.has("ln_embed.normalized",
                                                                                           None, s)
             else trace.get("resid_pre", 0, s, batch=0))
    if stack.part("embed_proj") is not None:
        stop("embed_proj", -1, trace.get("resid_pre", 0, s, batch=0))
    for i in range(cfg.n_layers):
        x = trace.get("resid_pre", i, s, batch=0)
        for sec in ("attn", "cross", "ffn") if stack.part("cross") is not None else ("attn", "ffn"):
            where = Stack.CROSS if sec == "cross" else s
            out_kind = "mlp_out" if sec == "ffn" else "attn_out"
            resid_kind = "resid_post" if sec == "ffn" else "resid_mid"
            ln_id, add_id = {"attn": ("ln1", "add1"), "cross": ("ln_cross", "add_cross"), "ffn": ("ln2", "add2")}[sec]
            out = trace.get(out_kind, i, where, batch=0)
            after = trace.get(resid_kind, i, s if sec == "ffn" else where, batch=0)
            if place == "post":
                stop(sec, i, out)
                stop(add_id, i, x + out)
                if trace.has(f"{'ln1' if sec == 'cross' else ln_id}.normalized", i, where):   # not block 0 without ln1
                    stop(ln_id, i, after)
                x = after
                continue
            norm = input_norm(cfg, i, sec)
            if norm is not None and norm == ln_id:                   # its own norm (not shared, not missing)
                stop(ln_id, i, trace.get(f"{'ln1' if sec == 'cross' else ln_id}.normalized", i, where, batch=0))
            if out_norms(cfg) and sec != "cross":                    # the sub-layer's own output, then its norm
                stop(sec, i, sublayer_output(model, trace, i, sec, s))
                stop(f"{ln_id}_out", i, trace.get(f"{ln_id}_out.normalized", i, s, batch=0))
            else:
                stop(sec, i, out)
            stop(add_id, i, after)
            x = after
    if cfg.final_norm:
        x = trace.get("ln_final.normalized", None, s, batch=0)
        stop("ln_final", -1, x)
    top_ids = top_probs = None
    if output and has_unembedding(model):
        logits = lens_logits(model, trace.get("resid_post", cfg.n_layers - 1, s, batch=0), s).float()
        stop("head", -1, logits)
        probs = logits.softmax(-1).max(-1)
        top_ids, top_probs = probs.indices.cpu().numpy(), probs.values.cpu().numpy()
    ent, tok_ent = _entropies(trace, s, cfg.n_layers)
    data = StackData(stack.stack, list(tokens), stops, torch.stack(rows).numpy(), ent, tok_ent,
                     top_ids=top_ids, top_probs=top_probs)
    if s is Stack.DECODER and cfg.arch == "encoder-decoder":
        data.cross_entropy, data.cross_token_entropy = _entropies(trace, Stack.CROSS, cfg.n_layers)
    return data


def _entropies(trace: Trace, stack: Stack, n_layers: int) -> tuple[np.ndarray, np.ndarray]:
    """([L, H] mean entropy per head, [L, pos] per query averaged over heads)."""
    patterns = trace.patterns(stack=stack).float().cpu().numpy()            # [L, H, q, k]
    # each layer its own mask (sliding-window layers beside global ones)
    mask = np.stack([trace.mask(stack, layer=i).cpu().numpy() for i in range(n_layers)])[:, None]   # [L, 1, q, k]
    rows = attention.entropy(patterns, mask=mask)                                  # [L, H, q]
    return rows.mean(-1).astype(np.float32), rows.mean(1).astype(np.float32)


@torch.no_grad()
def map_data(model: Transformer, trace: Trace, mp: ModelMap | None = None) -> MapData:
    """What one recorded pass (the `KINDS`, every stack) measured along the map."""
    if mp is None:
        n_src = len(trace.tokens or []) or int(trace.get("embed", None, Stack.blocks_of(model.cfg.arch)[0]).shape[1])
        n_tgt = len(trace.tgt_tokens) if trace.tgt_tokens else None
        mp = model_map(model.cfg, n_src, n_tgt)
    out = Stack.output(model.cfg.arch).value
    return MapData({s.stack: _stack_data(model, trace, s, s.stack == out) for s in mp.stacks})


# ---- two configurations side by side ------------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """One setting two models do differently, and the parts of the map it touches."""

    field: str
    a: str
    b: str
    parts: tuple[str, ...]         # part ids ("block": the N blocks as a whole)


# setting -> (how to read it from a config, the parts it changes)
_COMPARED: dict[str, tuple[Any, tuple[str, ...]]] = {
    "arch": (lambda c: c.arch, ("cross", "ln_cross", "add_cross")),
    "n_layers": (lambda c: c.n_layers, ("block",)),
    "d_model": (lambda c: c.d_model, ("embed",)),
    "n_heads": (lambda c: c.n_heads, ("attn", "cross")),
    "kv_heads": (lambda c: f"{c.kv_heads} ({c.attention_kind})", ("attn", "cross")),
    "positional": (lambda c: c.positional, ("pos", "attn")),
    "attention": (lambda c: c.attention.kind, ("attn",)),
    "norm": (lambda c: c.norm, NORM_IDS),
    "norm_position": (lambda c: c.norm_position, NORM_IDS),
    "embed_norm": (lambda c: c.embed_norm, ("ln_embed",)),
    "n_token_types": (lambda c: c.n_token_types, ("type",)),
    "activation": (lambda c: c.activation, ("ffn",)),
    "d_ff": (lambda c: c.d_ff, ("ffn",)),
    "output": (lambda c: c.output, ("head", "output", "hidden")),
    "scale_attention": (lambda c: c.scale_attention, ("attn", "cross")),
    "sinusoidal_layout": (lambda c: c.sinusoidal_layout if c.positional == "sinusoidal" else "-", ("pos",)),
    "pos_offset": (lambda c: c.pos_offset if c.positional == "learned" else 0, ("pos",)),
    "unembed_scale": (lambda c: c.unembed_scale, ("head",)),
    "logit_bias": (lambda c: c.logit_bias, ("head",)),
    # the 2024-26 families (issue 32)
    "parallel_residual": (lambda c: c.parallel_residual, ("ln2", "ffn")),
    "shared_block_norm": (lambda c: c.shared_block_norm, ("ln2", "ffn")),
    "first_attn_norm": (lambda c: c.first_attn_norm, ("ln1",)),
    "norm_bias": (lambda c: c.norm_bias if c.norm == "layernorm" else "-", NORM_IDS),
    "norm_plus_one": (lambda c: c.norm_plus_one if c.norm == "rmsnorm" else "-", NORM_IDS),
    "qk_norm": (lambda c: c.qk_norm, ("attn",)),
    "local_layers": (lambda c: _layers(c.local_layers), ("attn",)),
    "local_window": (lambda c: c.local_window if c.local_layers else "-", ("attn",)),
    "rope_local_base": (lambda c: _number(c.rope_local_base) if c.local_layers and c.positional == "rope" else "-",
                        ("attn", "pos")),
    "nope_layers": (lambda c: _layers(c.nope_layers) if c.positional == "rope" else "-", ("attn", "pos")),
    "rope_scaling": (lambda c: (c.rope_scaling if c.rope_scaling == "none" else f"{c.rope_scaling} ×{c.rope_factor:g}")
                     if c.positional == "rope" else "-", ("pos", "attn")),
    "attn_scale": (lambda c: _number(c.attn_scale), ("attn", "cross")),
    "attn_softcap": (lambda c: _number(c.attn_softcap), ("attn",)),
    "logit_softcap": (lambda c: _number(c.logit_softcap) if c.output == "logits" else "-", ("head",)),
    "embed_multiplier": (lambda c: _number(c.embed_multiplier), ("embed",)),
    "residual_multiplier": (lambda c: _number(c.residual_multiplier), ("add1", "add_cross", "add2")),
    "logit_divisor": (lambda c: _number(c.logit_divisor) if c.output == "logits" else "-", ("head",)),
    "unembed_bias": (lambda c: c.unembed_bias if c.output == "logits" else "-", ("head",)),
    "d_embed": (lambda c: "-" if c.d_embed is None else c.d_embed, ("embed", "embed_proj")),
}


def _layers(layers: tuple[int, ...]) -> str:
    """Layer numbers as a table shows them: '0, 2, 4' ('-' for none)."""
    return ", ".join(map(str, layers)) if layers else "-"


def _number(x: float | None) -> str:
    """A setting's number ('-' where unset): 50, 0.0625, 1000000."""
    return "-" if x is None else f"{x:g}" if abs(x) < 1e6 else f"{int(x)}" if float(x).is_integer() else f"{x:g}"


def compare(a: TransformerConfig, b: TransformerConfig) -> list[Difference]:
    """The settings in which two configurations differ (the map's highlights), in a
    fixed order: architecture, depth, widths, attention, positions, norms, FFN, output."""
    out = []
    default = TransformerConfig()
    for name, (read, parts) in _COMPARED.items():
        va, vb = str(read(a)), str(read(b))
        # "-": the setting does not apply to that model (no logits, no RoPE, ...); beside the default: no difference
        if va != vb and not {va, vb} <= {"-", str(read(default))}:
            out.append(Difference(name, va, vb, parts))
    return out


def highlighted(diffs: list[Difference]) -> set[str]:
    """The part ids any of `diffs` touches."""
    return {p for d in diffs for p in d.parts}

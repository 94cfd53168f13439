"""Direct logit attribution and what one head writes, read from a Trace.

Direct logit attribution (Elhage et al. 2021, "A Mathematical Framework for Transformer
Circuits"; TransformerLens's `decompose_resid` / `apply_ln_to_stack`): the final stream
at a position is a sum of the pieces the sub-layers wrote into it,

    x_final = embed + pos + Σ_layers (Σ_heads z_h W_O^h + b_O) + Σ_layers MLP_l,

and the logit of token t is LN_final(x_final) · W_U[t]. A norm is not linear, but with
its divisor *frozen* at the value this pass used (the `hook_scale` it recorded), it is an
affine map: LN(x) = w ⊙ (x − mean x) / s + b (RMSNorm: w ⊙ x / s). So each piece gets an
exact share of the logit, and the shares plus the norms' bias terms add up to the logit
the model computed (tested within 1e-4). A post-LN model renormalises after every
sub-layer: a piece then passes through every later norm, each with its own frozen
divisor; the same bookkeeping applies (`readout_path`). DyT (tanh) has no divisor to
freeze, so no exact share exists: `Refused("no_frozen_scale")`. The sandwich (Gemma 2/3)
and output (OLMo 2) placements put a norm on each sub-layer's output before the addition:
a head's output goes through that norm (frozen too) and × the residual multiplier
(Granite) before it joins the stream. ELECTRA's narrower embeddings go through their
projection (a linear map: exact). Logits ÷ the divisor (Granite) stay linear; a soft-cap
(Gemma 2) does not, so the shares add up to the logit before the cap (`Attribution.capped`
holds the model's capped one).

What a head writes: its output at a position, z_h W_O^h (d_model), pushed through the
same frozen norms and the unembedding, is its direct effect on every token's logit: the
tokens it promotes and suppresses. The value vector of one key times W_O^h is what the
head would write if it put all its attention there (its OV circuit, in context).

Everything takes the model and the `Trace` of one recorded pass (batch row 0; record
`record_kinds(model)`) and returns numpy; no Streamlit, no translated text.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from models.errors import Refused
from models.tokenizer import Tokenizer
from models.trace import Stack, Trace, act_name, record_names
from models.transformer import Transformer

from .ffn import VocabProjection, project_to_vocab
from .kv import kv_groups
from .residual import LENS_UNAVAILABLE, has_unembedding, out_norms, stack_of

# what the functions here read (record these: act_name kinds)
KINDS = ("embed", "pos_embed", "type_embed", "z", "v", "pattern", "mlp_out", "resid_post",
         "ln_embed.scale", "ln1.scale", "ln2.scale", "ln_final.scale", "ln_final.normalized", "ln1_out.scale")


def record_kinds(model: Transformer) -> list[str]:
    """Hook-name globs to record for attribution on this model (the output stack and,
    in an encoder-decoder, its cross-attention)."""
    s = stack_of(model)
    stacks = [s, Stack.CROSS] if model.cfg.arch == "encoder-decoder" else [s]
    return record_names(model.cfg, KINDS, stacks)


def no_lm_head() -> Refused:
    return Refused("no_lm_head", LENS_UNAVAILABLE)


# ---- the path from each piece to the output ----------------------------------------------
@dataclass(frozen=True)
class Step:
    """One step of the stream at a position, in execution order: a piece is added
    ("add": embed | attn | cross | mlp), a norm rescales the stream ("norm"), or the
    embeddings are projected to the stream's width ("proj": embed_proj, ELECTRA)."""

    op: str                      # add | norm | proj
    kind: str                    # add: embed | attn | cross | mlp; norm: ln_embed | ln1 | ln2 | ln_final;
    #                              proj: embed_proj
    layer: int | None
    stack: Stack                 # where its hooks live (CROSS for the cross-attention sub-layer)

    @property
    def label(self) -> str:
        """'L0 attn', 'L1 ln2', 'ln_final' (what charts and tests call it)."""
        name = "ln_cross" if self.stack is Stack.CROSS and self.kind == "ln1" else self.kind
        return name if self.layer is None else f"L{self.layer} {name}"


def readout_path(model: Transformer, stack: Stack | str | None = None) -> list[Step]:
    """The steps of one stack's stream, from the embedding to what the unembedding reads.
    Pre-LN, sandwich, output: pieces are added (their own output norms are not on the
    stream), then ln_final; post-LN: each addition is followed by its norm."""
    s = stack_of(model, stack)
    cfg = model.cfg
    post = cfg.norm_position == "post"
    cross = s is Stack.DECODER and cfg.arch == "encoder-decoder"
    steps = [Step("add", "embed", None, s)]
    if cfg.embed_norm:
        steps.append(Step("norm", "ln_embed", None, s))
    if cfg.d_embed is not None:
        steps.append(Step("proj", "embed_proj", None, s))
    for i in range(cfg.n_layers):
        subs = [("attn", "ln1", s)] + ([("cross", "ln1", Stack.CROSS)] if cross else []) + [("mlp", "ln2", s)]
        for piece, norm, where in subs:
            steps.append(Step("add", piece, i, where))
            if post:
                steps.append(Step("norm", norm, i, where))
    if cfg.final_norm:
        steps.append(Step("norm", "ln_final", None, s))
    return steps


@dataclass
class FrozenNorm:
    """A norm at one position with its divisor frozen: x -> w ⊙ (x − mean x) / s + b
    (centred: LayerNorm) or w ⊙ x / s + b (RMSNorm, b = 0)."""

    label: str
    weight: torch.Tensor         # [d] float64
    bias: torch.Tensor           # [d] float64 (zeros for RMSNorm)
    scale: float                 # the divisor this pass used at this position
    centred: bool

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The linear part applied to vectors x [..., d] (the bias is a piece of its own)."""
        if self.centred:
            x = x - x.mean(-1, keepdim=True)
        return self.weight * x / self.scale

    def back(self, v: torch.Tensor) -> torch.Tensor:
        """The transpose: a direction v [d] after the norm as a direction before it."""
        u = self.weight * v
        if self.centred:
            u = u - u.mean()
        return u / self.scale


def frozen_norm(model: Transformer, trace: Trace, step: Step, position: int) -> FrozenNorm:
    """The norm of a "norm" step with the divisor the pass recorded at `position`."""
    scale_hook = act_name(f"{step.kind}.scale", step.layer, step.stack)
    module = model.get_submodule(scale_hook.rsplit(".", 1)[0])
    if not hasattr(module, "hook_scale"):
        raise Refused("no_frozen_scale", "DyT normalisation (tanh) has no divisor to freeze, so the logit cannot be "
                      "split exactly into per-piece shares on this model.")
    w = module.gain.detach().double().cpu()          # w, or 1 + w (Gemma's RMSNorm)
    b = getattr(module, "bias", None)
    bias = b.detach().double().cpu() if b is not None else torch.zeros_like(w)
    scale = float(trace[scale_hook][0, position, 0])
    return FrozenNorm(step.label, w, bias, scale, centred=model.cfg.norm == "layernorm")


def _f64(t: torch.Tensor) -> torch.Tensor:
    return t.detach().double().cpu()


def _w_o(model: Transformer, step: Step) -> torch.nn.Linear:
    block = model.stack_module(step.stack).blocks[step.layer]
    return block.cross_attn.W_O if step.stack is Stack.CROSS else block.attn.W_O


def final_stream(model: Transformer, trace: Trace, stack: Stack | str | None = None) -> torch.Tensor:
    """What the unembedding reads [pos, d] (batch row 0): ln_final's output (every placement
    but post-LN) or the last block's output (post-LN)."""
    s = stack_of(model, stack)
    if model.cfg.final_norm:
        return trace.get("ln_final.normalized", None, s, batch=0)
    return trace.get("resid_post", model.cfg.n_layers - 1, s, batch=0)


@torch.no_grad()
def output_logits(model: Transformer, trace: Trace, position: int, stack: Stack | str | None = None,
                  capped: bool = True) -> np.ndarray:
    """The model's logits [vocab] at `position`, from the recorded final stream through
    its own unembedding (what the forward pass returned there). capped=False: before the
    soft-cap (Gemma 2's c · tanh(logits / c)), the sum the shares add up to."""
    if not has_unembedding(model):
        raise no_lm_head()
    x = final_stream(model, trace, stack)[position].to(model.device)
    un = model.unembed
    if capped or getattr(un, "softcap", None) is None:
        return un(x).float().cpu().numpy()
    # models/feedforward.py Unembed.forward without its last step (the module is shared: never changed here)
    if getattr(un, "in_scale", None) is not None:
        x = x * un.in_scale
    out = torch.nn.functional.linear(x, un.weight, un.bias)
    if getattr(un, "logit_bias", None) is not None:
        out = out + un.logit_bias[0]
    if getattr(un, "divisor", 1.0) != 1.0:
        out = out / un.divisor
    return out.float().cpu().numpy()


# ---- direct logit attribution ------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """One piece of the final stream and its share of the logit."""

    kind: str                    # embed | pos_embed | type_embed | embed_proj (its bias) | head | cross_head
    #                              | attn_bias | cross_bias | mlp | norm_bias
    value: float
    layer: int | None = None
    head: int | None = None
    norm: str | None = None      # norm_bias: the norm's label ("ln_final", "L0 ln1")

    @property
    def label(self) -> str:
        """'L1 H2', 'L0 mlp', 'ln_final bias', 'embed' (English ids; a UI translates by kind)."""
        if self.kind in ("head", "cross_head"):
            return f"L{self.layer} {'cross ' if self.kind == 'cross_head' else ''}H{self.head}"
        if self.kind == "norm_bias":
            return f"{self.norm} bias"
        return self.kind if self.layer is None else f"L{self.layer} {self.kind}"


@dataclass
class Attribution:
    """Each piece's direct share of one logit (or of a logit difference) at one position."""

    position: int
    target: int                  # token id
    other: int | None            # None: the logit of target; else logit(target) − logit(other)
    logit: float                 # what the model computed (the shares add up to it); before a soft-cap
    heads: np.ndarray            # [L, H] each head's share (self-attention)
    cross_heads: np.ndarray | None  # [L, H] the decoder's cross-attention heads (encoder-decoder)
    mlps: np.ndarray             # [L]
    attn_bias: np.ndarray        # [L] the bias of W_O (cross-attention's included)
    embeddings: dict[str, float]  # embed | pos_embed | type_embed (| embed_proj: the projection's bias) -> share
    norm_bias: dict[str, float]  # norm label -> the share of its bias b (frozen norms only)
    scales: dict[str, float]     # norm label -> the divisor frozen at this position
    parts: list[Piece] = field(default_factory=list)   # every piece, in execution order
    capped: float | None = None  # with a logit soft-cap (Gemma 2): the model's logit after it (≠ logit)

    @property
    def total(self) -> float:
        """The sum of every share (equals `logit` up to float rounding)."""
        return float(sum(p.value for p in self.parts))

    def largest(self, k: int = 10) -> list[Piece]:
        """The k pieces with the largest share, positive or negative."""
        return sorted(self.parts, key=lambda p: -abs(p.value))[:k]

    @property
    def error(self) -> float:
        return self.total - self.logit


def direction(model: Transformer, target: int, other: int | None = None) -> torch.Tensor:
    """The unembedding direction of a logit, W_U[target] (− W_U[other]) [d] float64."""
    if not has_unembedding(model):
        raise no_lm_head()
    for tok in (target, other):
        if tok is not None and not 0 <= tok < model.cfg.vocab_size:
            raise ValueError(f"Token id {tok} is outside this model's vocabulary (0..{model.cfg.vocab_size - 1}).")
    w_u = model.unembed.weight
    u = _f64(w_u[target])
    u = u if other is None else u - _f64(w_u[other])
    scale = getattr(model.unembed, "in_scale", None)         # T5 (tied): the output × d_model^-0.5 first
    u = u if scale is None else u * scale
    return u / model.cfg.logit_divisor if model.cfg.logit_divisor != 1.0 else u     # Granite: logits ÷ this


@torch.no_grad()
def direct_logit_attribution(model: Transformer, trace: Trace, position: int, target: int,
                             other: int | None = None, stack: Stack | str | None = None) -> Attribution:
    """Split logit(target) (− logit(other)) at `position` into each head's, MLP's,
    embedding's and bias's direct share, through the frozen norms (module docstring)."""
    s = stack_of(model, stack)
    cfg = model.cfg
    n = final_stream(model, trace, s).shape[0]
    if not 0 <= position < n:
        raise ValueError(f"Position {position} does not exist: the text has positions 0..{n - 1}.")
    v = direction(model, target, other)                                    # [d], after the last step
    logits = output_logits(model, trace, position, s, capped=False)
    logit = float(logits[target] - (logits[other] if other is not None else 0.0))
    capped = None
    if cfg.logit_softcap is not None:
        out = output_logits(model, trace, position, s)
        capped = float(out[target] - (out[other] if other is not None else 0.0))
    L, H, dh = cfg.n_layers, cfg.n_heads, cfg.head_dim
    heads, mlps, bias = np.zeros((L, H)), np.zeros(L), np.zeros(L)
    cross = np.zeros((L, H)) if cfg.arch == "encoder-decoder" else None
    embeddings: dict[str, float] = {}
    norm_bias: dict[str, float] = {}
    scales: dict[str, float] = {}
    parts: list[Piece] = []
    # Marian/BART final_logits_bias, Phi-2's learned unembedding bias (÷ Granite's divisor, like the rest)
    out_bias = [b.reshape(-1) for b in (getattr(model.unembed, "logit_bias", None), model.unembed.bias)
                if b is not None]
    if out_bias:
        total_bias = sum(_f64(b) for b in out_bias) / cfg.logit_divisor
        norm_bias["unembedding"] = float(total_bias[target] - (total_bias[other] if other is not None else 0.0))
        parts.append(Piece("norm_bias", norm_bias["unembedding"], norm="unembedding"))
    for step in reversed(readout_path(model, s)):                         # walk back from the output
        if step.op == "norm":
            norm = frozen_norm(model, trace, step, position)
            norm_bias[step.label] = float(norm.bias @ v)
            scales[step.label] = norm.scale
            parts.append(Piece("norm_bias", norm_bias[step.label], norm=step.label))
            v = norm.back(v)
        elif step.op == "proj":                                            # ELECTRA: [e] -> the stream [d]
            proj = model.stack_module(s).embed_proj
            if proj.bias is not None:
                embeddings["embed_proj"] = float(_f64(proj.bias) @ v)
                parts.append(Piece("embed_proj", embeddings["embed_proj"]))
            v = _f64(proj.weight).T @ v                                    # [e]
        elif step.kind == "embed":
            for kind in ("embed", "type_embed", "pos_embed"):
                if trace.has(kind, None, s):
                    embeddings[kind] = float(_f64(trace.get(kind, None, s, batch=0)[position]) @ v)
            parts += [Piece(kind, value) for kind, value in reversed(embeddings.items()) if kind != "embed_proj"]
        elif step.kind == "mlp":
            mlps[step.layer] = float(_f64(trace.get("mlp_out", step.layer, s, batch=0)[position]) @ v)
            parts.append(Piece("mlp", float(mlps[step.layer]), step.layer))
        else:                                                              # attn | cross
            w_o = _w_o(model, step)
            u, out_bias_share = _through_out_norm(model, trace, step, position, v)
            if out_bias_share is not None:
                norm_bias[f"L{step.layer} ln1_out"] = out_bias_share
                parts.append(Piece("norm_bias", out_bias_share, norm=f"L{step.layer} ln1_out"))
            per_head = (_f64(w_o.weight).T @ u).view(H, dh)                # W_O^h T u for every head [H, dh]
            z = _f64(trace.get("z", step.layer, step.stack, batch=0)[position])   # [H, dh]
            shares = (z * per_head).sum(-1).numpy()
            (cross if step.kind == "cross" else heads)[step.layer] = shares
            b = float(_f64(w_o.bias) @ u) if w_o.bias is not None else 0.0
            bias[step.layer] += b
            head_kind, bias_kind = ("cross_head", "cross_bias") if step.kind == "cross" else ("head", "attn_bias")
            parts += [Piece(bias_kind, b, step.layer)] + [Piece(head_kind, float(x), step.layer, h)
                                                          for h, x in reversed(list(enumerate(shares)))]
    return Attribution(position, target, other, logit, heads, cross, mlps, bias, embeddings, norm_bias, scales,
                       parts[::-1], capped)


def _through_out_norm(model: Transformer, trace: Trace, step: Step, position: int,
                      v: torch.Tensor) -> tuple[torch.Tensor, float | None]:
    """The direction an attention sub-layer's own output (W_O z + b) is read along, when
    what the block adds is multiplier × ln1_out(that output) (sandwich, output placements;
    Granite's multiplier): (u [d], the share of ln1_out's bias, or None without one)."""
    cfg = model.cfg
    u = v * cfg.residual_multiplier if cfg.residual_multiplier != 1.0 else v
    if not out_norms(cfg) or step.stack is Stack.CROSS:
        return u, None
    norm = frozen_norm(model, trace, Step("norm", "ln1_out", step.layer, step.stack), position)
    return norm.back(u), float(norm.bias @ u)


# ---- what a head writes ----------------------------------------------------------------------
def to_output(model: Transformer, trace: Trace, vector: np.ndarray | torch.Tensor, layer: int, position: int,
              stack: Stack | str | None = None, cross: bool = False) -> np.ndarray:
    """A vector written into the stream by the attention of `layer` at `position`, as the
    unembedding sees it: through every later norm, frozen (the bias terms left out).
    Models without an LM head: the vector itself."""
    x = _f64(torch.as_tensor(np.asarray(vector)))
    if not has_unembedding(model):
        return x.float().numpy()
    steps = readout_path(model, stack)
    kind = "cross" if cross else "attn"
    start = next(i for i, st in enumerate(steps) if st.op == "add" and st.kind == kind and st.layer == layer)
    if out_norms(model.cfg) and not cross:      # sandwich / output: the attention's own output norm first
        x = frozen_norm(model, trace, Step("norm", "ln1_out", layer, steps[start].stack), position).forward(x)
    if model.cfg.residual_multiplier != 1.0:
        x = x * model.cfg.residual_multiplier
    for step in steps[start + 1:]:
        if step.op == "norm":
            x = frozen_norm(model, trace, step, position).forward(x)
    return x.float().numpy()


@dataclass
class HeadWrite:
    """What one head writes at one position, and what its value at one key would write."""

    layer: int
    head: int
    position: int
    key: int                     # the key whose value is projected (default: the most attended)
    weight: float                # the head's attention weight on that key
    output: np.ndarray           # [d] z_h W_O^h: the head's output at `position`
    value_out: np.ndarray        # [d] v_key W_O^h: the output if all attention went to `key`
    promoted: VocabProjection    # `output` through the frozen norms and the unembedding
    ov: VocabProjection          # `value_out` likewise


@torch.no_grad()
def head_write(model: Transformer, trace: Trace, layer: int, head: int, position: int, key: int | None = None,
               k: int = 10, stack: Stack | str | None = None, cross: bool = False) -> HeadWrite:
    """The tokens head (`layer`, `head`) promotes and suppresses at `position` (its direct
    effect on the logits; without an LM head, through the token embeddings), and its
    OV circuit read on the value vector of `key` (default: the key it attends to most)."""
    s = stack_of(model, stack)
    cfg = model.cfg
    if not (0 <= layer < cfg.n_layers and 0 <= head < cfg.n_heads):
        raise ValueError(f"Head L{layer} H{head} does not exist ({cfg.n_layers} layers x {cfg.n_heads} heads).")
    where = Stack.CROSS if cross else s
    pattern = trace.get("pattern", layer, where, batch=0)[head, position].float()   # [k]
    key = int(pattern.argmax()) if key is None else key
    if not 0 <= key < pattern.shape[0]:
        raise ValueError(f"Key position {key} does not exist: the keys are 0..{pattern.shape[0] - 1}.")
    dh = cfg.head_dim
    w_o = _w_o(model, Step("add", "cross" if cross else "attn", layer, where))
    w_h = _f64(w_o.weight)[:, head * dh:(head + 1) * dh]                      # [d, dh]
    z = _f64(trace.get("z", layer, where, batch=0)[position, head])          # [dh]
    v = _f64(trace.get("v", layer, where, batch=0)[key, kv_groups(cfg.n_heads, cfg.kv_heads)[head]])   # [dh]
    output, value_out = (w_h @ z).numpy(), (w_h @ v).numpy()
    read = [to_output(model, trace, x, layer, position, s, cross) for x in (output, value_out)]
    return HeadWrite(layer, head, position, key, float(pattern[key]), output, value_out,
                     project_to_vocab(model, read[0], k), project_to_vocab(model, read[1], k))


# ---- tokens typed by a user --------------------------------------------------------------------
def token_id(tok: Tokenizer, text: str) -> int:
    """The id of one token a user typed: a vocabulary entry as it is ("Ġcat", "##ing",
    "a"), or text that encodes to exactly one known token (" cat" for GPT-2). Anything
    else is refused with the pieces it splits into."""
    if not text:
        raise Refused("token_empty", "Type a token.")
    index = getattr(tok, "index", None)
    if index is not None and text in index:
        return index[text]
    inner = getattr(tok, "tok", None)
    if inner is not None and inner.token_to_id(text) is not None:
        return int(inner.token_to_id(text))
    enc = tok.encode(text, add_special_tokens=False)
    unk = getattr(tok, "unk_id", None)
    if len(enc.ids) == 1 and enc.ids[0] != unk:
        return enc.ids[0]
    if not enc.ids or all(i == unk for i in enc.ids):
        raise Refused("token_unknown", f"{text!r} is not in this model's vocabulary.", token=text)
    raise Refused("token_splits", f"{text!r} is not one token here: it splits into {enc.tokens}.", token=text,
                  pieces=" · ".join(enc.tokens))

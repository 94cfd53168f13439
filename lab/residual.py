"""The residual stream read from a Trace: its decomposition into sub-layer
contributions, the statistics around every normalisation, and the logit lens.

Everything takes a model and the `Trace` of one recorded pass (batch row 0) and
returns numpy; no Streamlit. The model's own modules do the work (its `ln_final`,
its unembedding), so what is shown is what the model computes.

The residual stream (Elhage et al. 2021, "A Mathematical Framework for Transformer
Circuits"): in a pre-LN block every sub-layer *adds* its output to the stream,
x_{l+1} = x_l + Attn(LN(x_l)) + MLP(LN(...)), so the final stream is exactly the
embedding plus the sum of all sub-layer outputs. In a post-LN block (Vaswani et al.,
BERT) x_{l+1} = LN(x_l + f(x_l)): every addition is followed by a rescaling, and the
stream is no longer such a sum. The sandwich (Gemma 2/3: x + LN_out(f(LN x))) and output
(OLMo 2: x + LN_out(f x)) placements normalise what a sub-layer adds, not the stream:
their hook_attn_out / hook_mlp_out record what is added, so the sum holds again.
`input_norm` / `sublayer_input` say which norm each sub-layer reads, for every placement.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.config import TransformerConfig
from models.trace import Stack, Trace, act_name, record_names
from models.transformer import Transformer


# what decomposition, norm_stats and logit_lens read (record these: act_name kinds)
KINDS = ("embed", "pos_embed", "type_embed", "resid_pre", "resid_mid", "resid_post", "attn_out", "mlp_out",
         "ln1.normalized", "ln1.scale", "ln2.normalized", "ln2.scale", "ln_embed.normalized", "ln_embed.scale",
         "ln_final.normalized", "ln_final.scale", "ln1_out.normalized", "ln1_out.scale", "ln2_out.normalized",
         "ln2_out.scale", "z")     # z: the attention output before ln1_out (sandwich, output placements)


# ---- where the norms sit (cfg.norm_position) ------------------------------------------------
def adds_up(cfg: TransformerConfig) -> bool:
    """Whether the stream after the last block is the embedding plus every sub-layer's
    recorded output: every placement but post-norm, whose norms rescale the stream."""
    return cfg.norm_position != "post"


def out_norms(cfg: TransformerConfig) -> bool:
    """Whether each sub-layer's output passes through its own norm before the addition
    (ln1_out / ln2_out: sandwich, Gemma 2/3; output, OLMo 2)."""
    return cfg.norm_position in ("sandwich", "output")


def input_norm(cfg: TransformerConfig, layer: int, sub: str) -> str | None:
    """The norm module a sub-layer ("attn", "cross" or "ffn") of `layer` reads its input
    through: "ln1", "ln_cross", "ln2", or None where it reads the stream itself (post- and
    output-norm; block 0's attention without a norm, ModernBERT). A shared block norm
    (Phi-2) feeds the FFN from ln1."""
    if cfg.norm_position not in ("pre", "sandwich"):
        return None
    if sub == "attn":
        return "ln1" if layer > 0 or cfg.first_attn_norm else None
    if sub == "cross":
        return "ln_cross"
    return "ln1" if cfg.shared_block_norm else "ln2"


def sublayer_input(cfg: TransformerConfig, layer: int, sub: str, stack: Stack | str = Stack.SELF) -> str:
    """The hook name holding what a sub-layer ("attn", "cross", "ffn") of `layer` in
    `stack` reads: its input norm's output, else the stream there (the block's input for
    attention and for a parallel FFN, the stream after the attention sub-layer(s) otherwise)."""
    s = Stack(stack)
    if s is Stack.CROSS:
        s, sub = Stack.DECODER, "cross"
    norm = input_norm(cfg, layer, sub)
    if norm is not None:
        return act_name(f"{'ln1' if norm == 'ln_cross' else norm}.normalized", layer,
                        Stack.CROSS if sub == "cross" else s)
    if sub == "attn" or (sub == "ffn" and cfg.parallel_residual):
        return act_name("resid_pre", layer, s)
    if sub == "cross":
        return act_name("resid_mid", layer, s)
    cross = s is Stack.DECODER and cfg.arch == "encoder-decoder"
    return act_name("resid_mid", layer, Stack.CROSS if cross else s)


def stack_of(model: Transformer, stack: Stack | str | None = None) -> Stack:
    """The stack read. Encoder-decoder models default to the decoder (the stack whose
    output is the model's output); cross-attention is part of the decoder's stream."""
    s = Stack.resolve(stack, model.cfg.arch, Stack.output(model.cfg.arch))
    if s.cross:
        raise ValueError("This is an encoder-decoder model: choose stack 'encoder' or 'decoder'.")
    return s


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().float().cpu().numpy()


# ---- decomposition -----------------------------------------------------------------------
@dataclass
class Decomposition:
    """The stream as it is built, one entry per step, for batch row 0.

    components[0] is the embedding (the input of block 0: token + position (+ type)
    embeddings, after the embedding norm if the model has one); then every sub-layer's
    output in execution order. stream[i] is the stream right after component i was
    added (post-LN: after the norm that follows the addition). d_embed (ELECTRA): the
    embedding is the projected one, as wide as the stream."""

    labels: list[str]            # "embed", "L0 attn", ("L0 cross",) "L0 mlp", ...
    components: np.ndarray       # [n, pos, d]
    stream: np.ndarray           # [n, pos, d]
    additive: bool               # all but post-LN: stream[i] == stream[i-1] + components[i]

    @property
    def final(self) -> np.ndarray:
        """The stream after the last block (before ln_final) [pos, d]."""
        return self.stream[-1]


def decomposition(model: Transformer, trace: Trace, stack: Stack | str | None = None) -> Decomposition:
    """Embedding and sub-layer outputs of one stack, and the stream after each.
    Needs the `hook_resid_*` and `hook_*_out` hooks of that stack recorded."""
    s = stack_of(model, stack)
    cross = s is Stack.DECODER and model.cfg.arch == "encoder-decoder"
    embed = trace.get("resid_pre", 0, s, batch=0)
    labels, comps, stream = ["embed"], [embed], [embed]
    for i in range(model.cfg.n_layers):
        steps = [("attn", "attn_out", "resid_mid", s)]
        if cross:
            steps.append(("cross", "attn_out", "resid_mid", Stack.CROSS))
        steps.append(("mlp", "mlp_out", "resid_post", s))
        for what, out, resid, where in steps:
            labels.append(f"L{i} {what}")
            comps.append(trace.get(out, i, where, batch=0))
            stream.append(trace.get(resid, i, where, batch=0))
    return Decomposition(labels, _np(torch.stack(comps)), _np(torch.stack(stream)), adds_up(model.cfg))


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity along the last axis; 0 where a vector is zero."""
    na, nb = np.linalg.norm(a, axis=-1), np.linalg.norm(b, axis=-1)
    den = na * nb
    return np.where(den > 0, (a * b).sum(-1) / np.where(den > 0, den, 1.0), 0.0).astype(np.float32)


def contribution_stats(dec: Decomposition) -> dict[str, np.ndarray]:
    """Per component and position: its norm, the norm of the stream it was added to,
    its cosine with that stream (> 0: it reinforces the direction, < 0: it erases it) and
    its cosine with the final stream. Each [n, pos]; the embedding's "stream before" is 0."""
    before = np.concatenate([np.zeros_like(dec.stream[:1]), dec.stream[:-1]])      # [n, pos, d]
    return {
        "norm": np.linalg.norm(dec.components, axis=-1).astype(np.float32),
        "stream_norm": np.linalg.norm(dec.stream, axis=-1).astype(np.float32),
        "cos_stream": _cos(dec.components, before),
        "cos_final": _cos(dec.components, dec.final[None]),
    }


# ---- normalisation statistics --------------------------------------------------------------
@dataclass
class NormStats:
    """Statistics of every norm's input and output over d_model, per position."""

    names: list[str]             # module paths of the norms (model.get_submodule), execution order
    labels: list[str]            # short chart labels: "L0 ln1", ..., "ln_final" ("dec L3 ln2" in a decoder)
    kind: str                    # layernorm | rmsnorm | dyt
    in_mean: np.ndarray          # [n, pos]
    in_var: np.ndarray           # [n, pos] (biased, as LayerNorm uses it)
    in_rms: np.ndarray           # [n, pos] sqrt(mean(x^2))
    scale: np.ndarray            # [n, pos] the divisor the norm used (hook_scale); NaN for DyT
    out_mean: np.ndarray         # [n, pos]
    out_var: np.ndarray          # [n, pos]
    inputs: np.ndarray           # [n, pos, d] (a narrower norm, ELECTRA's ln_embed: NaN-padded)
    outputs: np.ndarray          # [n, pos, d]
    alpha: np.ndarray            # [n] DyT's learned alpha in tanh(alpha x); NaN for the other norms


@dataclass
class NormSite:
    """One norm of a stack as the pass used it."""

    module: str                  # its module path (model.get_submodule)
    label: str                   # "L0 ln1", "ln_final", ("dec L0 ln_cross")
    scale: str | None            # the hook name of what it divided by (None: DyT, no statistics)
    input: torch.Tensor          # [pos, d]
    output: torch.Tensor         # [pos, d]


def _module_of(hook: str) -> str:
    """'blocks.0.ln1.hook_normalized' -> 'blocks.0.ln1' (the module the hook point sits in)."""
    return hook.rsplit(".", 1)[0]


def sublayer_output(model: Transformer, trace: Trace, layer: int, sub: str, stack: Stack) -> torch.Tensor:
    """What a sub-layer ("attn" or "ffn") of `layer` computed before its output norm
    (sandwich, output placements) [pos, d], batch row 0: W_O applied to the recorded z, or
    the FFN applied again to its recorded input (it works on each position alone)."""
    block = model.stack_module(stack).blocks[layer]
    like = block.attn.W_O.weight                                               # the model's device and dtype
    with torch.no_grad():
        if sub == "attn":
            z = trace.get("z", layer, stack, batch=0)                          # [pos, head, dh]
            return block.attn.W_O(z.reshape(z.shape[0], -1).to(like)).to(z)     # as the trace holds it
        x = trace[sublayer_input(model.cfg, layer, "ffn", stack)][0]
        return block.mlp(x.to(like)).to(x)


def norm_inputs(model: Transformer, trace: Trace, stack: Stack | str | None = None) -> list[NormSite]:
    """Every norm of one stack, in execution order, with its input and output (batch row
    0). Inputs are rebuilt from the resid hooks: pre-LN norms (and the first norm of a
    sandwich) read the stream itself; post-LN norms read stream + sub-layer output; the
    output norms of the sandwich and output placements read the sub-layer's own output
    (`sublayer_output`, so record `z` too)."""
    s = stack_of(model, stack)
    cfg = model.cfg
    post = not adds_up(cfg)
    tag = {Stack.SELF: "", Stack.ENCODER: "enc ", Stack.DECODER: "dec "}[s]
    out: list[NormSite] = []

    def site(kind: str, layer: int | None, where: Stack, label: str, x: torch.Tensor) -> None:
        normalized = act_name(f"{kind}.normalized", layer, where)
        scale = act_name(f"{kind}.scale", layer, where)
        out.append(NormSite(_module_of(normalized), tag + label, scale if scale in trace else None, x,
                            trace[normalized][0]))

    if cfg.embed_norm:
        x = trace.get("embed", None, s, batch=0)
        for extra in ("type_embed", "pos_embed"):
            if trace.has(extra, None, s):
                x = x + trace.get(extra, None, s, batch=0)
        site("ln_embed", None, s, "ln_embed", x)
    cross = s is Stack.DECODER and cfg.arch == "encoder-decoder"
    for i in range(cfg.n_layers):
        subs = [("attn", "ln1", "attn_out", s)] + ([("cross", "ln1", "attn_out", Stack.CROSS)] if cross else []) + \
               [("ffn", "ln2", "mlp_out", s)]
        for sub, ln, sub_out, where in subs:
            name = "ln_cross" if sub == "cross" else ln
            if post:                     # ln(x + f(x)): the stream the sub-layer read, plus what it added
                if not trace.has(f"{ln}.normalized", i, where):                # block 0 without ln1
                    continue
                x = trace[sublayer_input(cfg, i, sub, where)][0] + trace.get(sub_out, i, where, batch=0)
                site(ln, i, where, f"L{i} {name}", x)
                continue
            norm = input_norm(cfg, i, sub)
            if norm is not None and norm == name:          # a norm of its own (not block 0's missing ln1, not shared)
                reads = "resid_pre" if sub == "attn" or (sub == "ffn" and cfg.parallel_residual) else "resid_mid"
                r_stack = Stack.CROSS if sub == "ffn" and cross else s
                site(ln, i, where, f"L{i} {name}", trace.get(reads, i, r_stack, batch=0))
            if out_norms(cfg):
                site(f"{ln}_out", i, where, f"L{i} {ln}_out", sublayer_output(model, trace, i, sub, s))
    if cfg.final_norm:
        site("ln_final", None, s, "ln_final", trace.get("resid_post", cfg.n_layers - 1, s, batch=0))
    return out


def _alpha(norm: torch.nn.Module) -> float:
    a = getattr(norm, "alpha", None)
    return float(a.detach()) if a is not None else float("nan")


def norm_stats(model: Transformer, trace: Trace, stack: Stack | str | None = None) -> NormStats:
    """Mean, variance and RMS of each norm's input and output (over d_model) and the
    scale it divided by. For LayerNorm scale = sqrt(var + eps); RMSNorm sqrt(mean(x²) + eps);
    DyT has no statistics (an element-wise tanh), so its scale is NaN."""
    items = norm_inputs(model, trace, stack)
    names = [site.module for site in items]
    x = [site.input.float().cpu() for site in items]                   # n × [pos, d] (ln_embed: [pos, d_embed])
    y = [site.output.float().cpu() for site in items]
    scale = [trace[site.scale][0, :, 0].float().cpu() if site.scale is not None
             else torch.full(site.input.shape[:1], float("nan")) for site in items]

    def each(f, vs: list[torch.Tensor]) -> np.ndarray:
        return _np(torch.stack([f(v) for v in vs]))                     # [n, pos]

    def padded(vs: list[torch.Tensor]) -> np.ndarray:
        """[n, pos, d]; a narrower norm (ELECTRA's ln_embed over d_embed) padded with NaN."""
        width = max(v.shape[-1] for v in vs)
        return _np(torch.stack([torch.nn.functional.pad(v, (0, width - v.shape[-1]), value=float("nan"))
                                for v in vs]))

    return NormStats(
        names=names, labels=[site.label for site in items], kind=model.cfg.norm,
        in_mean=each(lambda v: v.mean(-1), x), in_var=each(lambda v: v.var(-1, unbiased=False), x),
        in_rms=each(lambda v: v.pow(2).mean(-1).sqrt(), x), scale=_np(torch.stack(scale)),
        out_mean=each(lambda v: v.mean(-1), y), out_var=each(lambda v: v.var(-1, unbiased=False), y),
        inputs=padded(x), outputs=padded(y),
        alpha=np.array([_alpha(model.get_submodule(n)) for n in names], np.float32),
    )


# ---- logit lens ------------------------------------------------------------------------------
LENS_UNAVAILABLE = ("This model has no unembedding (it outputs hidden states, like BERT/MiniLM without its "
                    "language-model head), so its intermediate streams cannot be read as next-token predictions.")


@dataclass
class Lens:
    """The logit lens (nostalgebraist 2020): every intermediate stream pushed through
    the model's own final norm and unembedding, as if the model stopped there."""

    labels: list[str]            # "embed", "L0", "L1", ...: the stream after that block
    top_ids: np.ndarray          # [n, pos, k] most probable next tokens (int64)
    top_probs: np.ndarray        # [n, pos, k]
    final_token_prob: np.ndarray  # [n, pos] probability given to the model's final top-1 token
    final_probs: np.ndarray      # [pos, vocab] the last row's full distribution


def has_unembedding(model: Transformer) -> bool:
    return model.cfg.output == "logits"


@torch.no_grad()
def lens_logits(model: Transformer, resid: torch.Tensor, stack: Stack | str | None = None) -> torch.Tensor:
    """Logits [..., vocab] of a stream [..., d] read through the model's own head:
    every placement but post-LN applies ln_final first (as the forward pass does); post-LN
    streams are already normalised, so they go straight to the unembedding."""
    if not has_unembedding(model):
        raise ValueError(LENS_UNAVAILABLE)
    mod = model.stack_module(stack_of(model, stack))
    x = resid.to(model.device)
    if model.cfg.final_norm:
        x = mod.ln_final(x)
    return model.unembed(x)


@torch.no_grad()
def logit_lens(model: Transformer, trace: Trace, stack: Stack | str | None = None, k: int = 5) -> Lens:
    """Top-k predictions at every layer and position (batch row 0). Row "embed" reads
    the input of block 0; row "L{i}" the stream after block i. The last row is the
    model's own output distribution."""
    if not has_unembedding(model):
        raise ValueError(LENS_UNAVAILABLE)
    s = stack_of(model, stack)
    n = model.cfg.n_layers
    streams = [trace.get("resid_pre", 0, s, batch=0)] + [trace.get("resid_post", i, s, batch=0) for i in range(n)]
    k = min(k, model.cfg.vocab_size)
    ids, probs, final_tok = [], [], []
    final_probs = lens_logits(model, streams[-1], stack).float().softmax(-1)      # [pos, vocab]
    winner = final_probs.argmax(-1)                                              # [pos]
    for s in streams:
        pr = final_probs if s is streams[-1] else lens_logits(model, s, stack).float().softmax(-1)
        top = pr.topk(k, dim=-1)
        ids.append(top.indices)
        probs.append(top.values)
        final_tok.append(pr.gather(-1, winner[:, None])[:, 0])
    return Lens(["embed"] + [f"L{i}" for i in range(n)], torch.stack(ids).cpu().numpy(), _np(torch.stack(probs)),
                _np(torch.stack(final_tok)), _np(final_probs))


# ---- the stream's growth layer by layer (Pre-LN vs Post-LN) ----------------------------------
@dataclass
class StreamGrowth:
    """How the stream's norm grows through one model on one input (batch row 0)."""

    steps: list[str]                 # "embed", "L0", "L1", ...: entering block 0, leaving each block
    per_token: np.ndarray            # [steps, pos] ‖x‖ per position
    norm_position: str               # pre | post | sandwich | output
    unnormed: np.ndarray | None      # post-LN: mean ‖x + f(x)‖ entering each block's ln2 [layers]

    @property
    def stream(self) -> np.ndarray:
        """[steps] the mean over positions."""
        return self.per_token.mean(1)

    def growth(self, start: int = 0) -> float:
        """‖last step‖ / ‖step `start`‖ (mean over positions); NaN when the start is 0."""
        s = self.stream
        return float(s[-1] / s[start]) if s[start] else float("nan")


@torch.no_grad()
def stream_growth(model: Transformer, ids) -> StreamGrowth:
    """Run the model on `ids` and measure the stream's norm entering each block and
    leaving the last one; for post-LN also the un-normalised sum x + f(x) that each
    ln2 receives (what the norm keeps from growing)."""
    _, trace = model.run_with_cache(ids, names=record_names(model.cfg, KINDS, [stack_of(model)]))
    dec = decomposition(model, trace)
    idx = [0] + [i for i, lab in enumerate(dec.labels) if lab.endswith("mlp")]
    per_token = np.linalg.norm(dec.stream[idx], axis=-1)                          # [steps, pos]
    unnormed = None
    if model.cfg.norm_position == "post":
        ln2 = np.stack([_np(site.input) for site in norm_inputs(model, trace) if site.label.endswith("ln2")])
        unnormed = np.linalg.norm(ln2, axis=-1).mean(1)                            # [layers]
    return StreamGrowth(["embed"] + [f"L{i}" for i in range(model.cfg.n_layers)], per_token,
                        model.cfg.norm_position, unnormed)


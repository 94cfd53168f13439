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
stream is no longer such a sum.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.trace import Stack, Trace, act_name, record_names
from models.transformer import Transformer


# what decomposition, norm_stats and logit_lens read (record these: act_name kinds)
KINDS = ("embed", "pos_embed", "type_embed", "resid_pre", "resid_mid", "resid_post", "attn_out", "mlp_out",
         "ln1.normalized", "ln1.scale", "ln2.normalized", "ln2.scale", "ln_embed.normalized", "ln_embed.scale",
         "ln_final.normalized", "ln_final.scale")


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
    added (post-LN: after the norm that follows the addition)."""

    labels: list[str]            # "embed", "L0 attn", ("L0 cross",) "L0 mlp", ...
    components: np.ndarray       # [n, pos, d]
    stream: np.ndarray           # [n, pos, d]
    additive: bool               # pre-LN: stream[i] == stream[i-1] + components[i]

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
    return Decomposition(labels, _np(torch.stack(comps)), _np(torch.stack(stream)),
                         model.cfg.norm_position == "pre")


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
    inputs: np.ndarray           # [n, pos, d]
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


def norm_inputs(model: Transformer, trace: Trace, stack: Stack | str | None = None) -> list[NormSite]:
    """Every norm of one stack, in execution order, with its input and output (batch row
    0). Inputs are rebuilt from the resid hooks: pre-LN norms read the stream itself;
    post-LN norms read stream + sub-layer output."""
    s = stack_of(model, stack)
    cfg = model.cfg
    pre = cfg.norm_position == "pre"
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
        steps = [("ln1", "resid_pre", s, "attn_out", s, "ln1")]
        if cross:
            steps.append(("ln1", "resid_mid", s, "attn_out", Stack.CROSS, "ln_cross"))
        # parallel residual (GPT-NeoX): ln2 reads the block's input, like ln1
        ln2_reads = "resid_pre" if cfg.parallel_residual else "resid_mid"
        steps.append(("ln2", ln2_reads, Stack.CROSS if cross else s, "mlp_out", s, "ln2"))
        for ln, resid, r_stack, sub, where, name in steps:
            x = trace.get(resid, i, r_stack, batch=0)
            if not pre:
                x = x + trace.get(sub, i, where, batch=0)
            site(ln, i, where, f"L{i} {name}", x)
    if pre:
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
    x = torch.stack([site.input for site in items]).float()            # [n, pos, d]
    y = torch.stack([site.output for site in items]).float()
    scale = [trace[site.scale][0, :, 0].float() if site.scale is not None
             else torch.full(site.input.shape[:1], float("nan")) for site in items]
    return NormStats(
        names=names, labels=[site.label for site in items], kind=model.cfg.norm,
        in_mean=_np(x.mean(-1)), in_var=_np(x.var(-1, unbiased=False)), in_rms=_np(x.pow(2).mean(-1).sqrt()),
        scale=_np(torch.stack(scale)), out_mean=_np(y.mean(-1)), out_var=_np(y.var(-1, unbiased=False)),
        inputs=_np(x), outputs=_np(y),
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
    pre-LN applies ln_final first (as the forward pass does); post-LN streams are
    already normalised, so they go straight to the unembedding."""
    if not has_unembedding(model):
        raise ValueError(LENS_UNAVAILABLE)
    mod = model.stack_module(stack_of(model, stack))
    x = resid.to(model.device)
    if model.cfg.norm_position == "pre":
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
    norm_position: str               # pre | post
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

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

from .hooks import Trace
from .transformer import Transformer


def stack_of(model: Transformer, stack: str | None = None) -> tuple[torch.nn.Module, str]:
    """(module holding the blocks, hook-name prefix) of one stack. Encoder-decoder
    models default to the decoder (the stack whose output is the model's output)."""
    if model.cfg.arch == "encoder-decoder":
        stack = stack or "decoder"
        if stack not in ("encoder", "decoder"):
            raise ValueError("This is an encoder-decoder model: choose stack 'encoder' or 'decoder'.")
        return getattr(model, stack), stack + "."
    if stack not in (None, "self", "encoder", "decoder"):
        raise ValueError(f"Unknown stack {stack!r}.")
    return model, ""


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


def decomposition(model: Transformer, trace: Trace, stack: str | None = None) -> Decomposition:
    """Embedding and sub-layer outputs of one stack, and the stream after each.
    Needs the `hook_resid_*` and `hook_*_out` hooks of that stack recorded."""
    _, p = stack_of(model, stack)
    cross = model.cfg.arch == "encoder-decoder" and p == "decoder."
    labels, comps, stream = ["embed"], [trace[f"{p}blocks.0.hook_resid_pre"][0]], [trace[f"{p}blocks.0.hook_resid_pre"][0]]
    for i in range(model.cfg.n_layers):
        b = f"{p}blocks.{i}."
        steps = [("attn", "hook_attn_out", "hook_resid_mid")]
        if cross:
            steps.append(("cross", "hook_cross_attn_out", "hook_resid_mid_cross"))
        steps.append(("mlp", "hook_mlp_out", "hook_resid_post"))
        for what, out, resid in steps:
            labels.append(f"L{i} {what}")
            comps.append(trace[b + out][0])
            stream.append(trace[b + resid][0])
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

    names: list[str]             # module paths: "blocks.0.ln1", ..., "ln_final"
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


def norm_inputs(model: Transformer, trace: Trace, stack: str | None = None) -> list[tuple[str, torch.Tensor, torch.Tensor]]:
    """(module path, input [pos, d], output [pos, d]) of every norm in one stack, in
    execution order. Inputs are rebuilt from the resid hooks: pre-LN norms read the
    stream itself; post-LN norms read stream + sub-layer output."""
    mod, p = stack_of(model, stack)
    cfg = model.cfg
    pre = cfg.norm_position == "pre"
    out: list[tuple[str, torch.Tensor, torch.Tensor]] = []
    if cfg.embed_norm:
        x = trace[f"{p}hook_embed"][0]
        for extra in ("hook_type_embed", "hook_pos_embed"):
            if f"{p}{extra}" in trace:
                x = x + trace[f"{p}{extra}"][0]
        out.append((f"{p}ln_embed", x, trace[f"{p}ln_embed.hook_normalized"][0]))
    cross = cfg.arch == "encoder-decoder" and p == "decoder."
    for i in range(cfg.n_layers):
        b = f"{p}blocks.{i}."
        steps = [("ln1", "hook_resid_pre", "hook_attn_out")]
        if cross:
            steps.append(("ln_cross", "hook_resid_mid", "hook_cross_attn_out"))
        steps.append(("ln2", "hook_resid_mid_cross" if cross else "hook_resid_mid", "hook_mlp_out"))
        for ln, resid, sub in steps:
            x = trace[b + resid][0] if pre else trace[b + resid][0] + trace[b + sub][0]
            out.append((b + ln, x, trace[f"{b}{ln}.hook_normalized"][0]))
    if pre:
        last = trace[f"{p}blocks.{cfg.n_layers - 1}.hook_resid_post"][0]
        out.append((f"{p}ln_final", last, trace[f"{p}ln_final.hook_normalized"][0]))
    return out


def _alpha(norm: torch.nn.Module) -> float:
    a = getattr(norm, "alpha", None)
    return float(a.detach()) if a is not None else float("nan")


def norm_stats(model: Transformer, trace: Trace, stack: str | None = None) -> NormStats:
    """Mean, variance and RMS of each norm's input and output (over d_model) and the
    scale it divided by. For LayerNorm scale = sqrt(var + eps); RMSNorm sqrt(mean(x²) + eps);
    DyT has no statistics (an element-wise tanh), so its scale is NaN."""
    items = norm_inputs(model, trace, stack)
    names = [n for n, _, _ in items]
    x = torch.stack([i for _, i, _ in items]).float()            # [n, pos, d]
    y = torch.stack([o for _, _, o in items]).float()
    scale = []
    for name, inp, _ in items:
        key = f"{name}.hook_scale"
        scale.append(trace[key][0, :, 0].float() if key in trace else torch.full(inp.shape[:1], float("nan")))
    return NormStats(
        names=names, kind=model.cfg.norm,
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
def lens_logits(model: Transformer, resid: torch.Tensor, stack: str | None = None) -> torch.Tensor:
    """Logits [..., vocab] of a stream [..., d] read through the model's own head:
    pre-LN applies ln_final first (as the forward pass does); post-LN streams are
    already normalised, so they go straight to the unembedding."""
    if not has_unembedding(model):
        raise ValueError(LENS_UNAVAILABLE)
    mod, _ = stack_of(model, stack)
    x = resid.to(model.device)
    if model.cfg.norm_position == "pre":
        x = mod.ln_final(x)
    return model.unembed(x)


@torch.no_grad()
def logit_lens(model: Transformer, trace: Trace, stack: str | None = None, k: int = 5) -> Lens:
    """Top-k predictions at every layer and position (batch row 0). Row "embed" reads
    the input of block 0; row "L{i}" the stream after block i. The last row is the
    model's own output distribution."""
    if not has_unembedding(model):
        raise ValueError(LENS_UNAVAILABLE)
    _, p = stack_of(model, stack)
    n = model.cfg.n_layers
    streams = [trace[f"{p}blocks.0.hook_resid_pre"][0]] + [trace[f"{p}blocks.{i}.hook_resid_post"][0] for i in range(n)]
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

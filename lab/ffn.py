"""The feed-forward network read from a model and a Trace: activations, the
activation function itself, neurons as key-value memories, and where the parameters live.

FFN(x) = W_out · act(W_in x + b_in) + b_out (Vaswani et al. 2017, Eq. 2), d_ff ≈ 4·d_model.
Geva et al. (2021, "Transformer Feed-Forward Layers Are Key-Value Memories"): row n of
W_in is a *key* that fires on some inputs; column n of W_out is the *value* that neuron
writes into the residual stream. Projecting a value onto the vocabulary (the
unembedding, or the token embeddings of an encoder without an LM head) shows which
tokens that neuron promotes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.trace import Stack, Trace, as_numpy
from models.feedforward import ACTIVATION_FNS
from models.transformer import Transformer

from .residual import stack_of, sublayer_input


# what activations() reads (record these: act_name kinds)
KINDS = ("mlp_pre", "mlp_pre_linear", "mlp_post")


def activations(trace: Trace, stack: Stack | str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(pre, post) activations of every layer's FFN, batch row 0: [layer, pos, d_ff] float32.
    pre is the input of the activation function (the gate's input for SwiGLU); post is what
    W_out reads (after the activation, and the gating). Encoder-decoder: the decoder's
    unless `stack` says otherwise."""
    s = trace.stack(stack, Stack.output(trace.config.arch))
    return as_numpy(trace.stacked("mlp_pre", s)), as_numpy(trace.stacked("mlp_post", s))


def activation_curve(name: str, x: np.ndarray) -> np.ndarray:
    """The model's own activation function evaluated on x (a gated FFN: its gate, SiLU or GELU-tanh)."""
    if name in ACTIVATION_FNS:
        fn = ACTIVATION_FNS[name]
    else:
        raise ValueError(f"Unknown activation {name!r}.")
    return fn(torch.as_tensor(np.asarray(x, dtype=np.float32))).numpy()


def is_exactly_sparse(activation: str) -> bool:
    """ReLU outputs exact zeros; GELU and SwiGLU only come close to zero."""
    return activation == "relu"


def neuron_value(model: Transformer, layer: int, neuron: int, stack: str | None = None) -> np.ndarray:
    """The vector neuron `neuron` of layer `layer` writes into the stream: W_out[:, n] [d_model]."""
    mod = model.stack_module(stack_of(model, stack))
    if not 0 <= layer < model.cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{model.cfg.n_layers - 1}.")
    if not 0 <= neuron < model.cfg.d_ff:
        raise ValueError(f"Neuron {neuron} does not exist: this FFN has neurons 0..{model.cfg.d_ff - 1}.")
    return mod.blocks[layer].mlp.W_out.weight[:, neuron].detach().float().cpu().numpy()


@dataclass
class VocabProjection:
    """A d_model vector read as scores over the vocabulary."""

    via: str                     # "unembedding" | "embedding"
    top_ids: np.ndarray          # [k] highest scores first
    top_scores: np.ndarray
    bottom_ids: np.ndarray       # [k] lowest scores first
    bottom_scores: np.ndarray


@torch.no_grad()
def project_to_vocab(model: Transformer, vector: np.ndarray, k: int = 10) -> VocabProjection:
    """Scores W · v over the vocabulary, with W the unembedding when the model has one
    (decoders: these are the logits the vector adds), else the token-embedding matrix
    (BERT/MiniLM: which tokens' embeddings the vector points towards). At most half the
    vocabulary each way."""
    if model.cfg.output == "logits":
        weight, via = model.unembed.weight, "unembedding"
    else:
        weight, via = model.embed.weight, "embedding"
    v = torch.as_tensor(np.asarray(vector, dtype=np.float32), device=weight.device)
    if v.shape != (model.cfg.d_model,):
        raise ValueError(f"Expected a vector of size d_model={model.cfg.d_model}, got shape {tuple(v.shape)}.")
    scores = weight.float() @ v                                              # [vocab]
    k = max(1, min(k, scores.numel() // 2))         # top and bottom never share a token (small vocabularies)
    top, bottom = scores.topk(k), (-scores).topk(k)
    return VocabProjection(via, top.indices.cpu().numpy(), top.values.cpu().numpy(),
                           bottom.indices.cpu().numpy(), (-bottom.values).cpu().numpy())


def parameter_breakdown(model: Transformer) -> dict[str, int]:
    """Parameters by part: embeddings (token, position, type, untied unembedding),
    attention (self and cross, all layers), ffn, norms, other. Shared (tied) tensors
    are counted once, so the parts sum to model.n_params."""
    parts = {"embeddings": 0, "attention": 0, "ffn": 0, "norms": 0, "other": 0}
    for name, p in model.named_parameters():      # named_parameters() yields a tied tensor once
        leaf = name.split(".")
        if ".mlp." in f".{name}":
            key = "ffn"
        elif "attn" in leaf or "cross_attn" in leaf:
            key = "attention"
        elif any(s.startswith("ln") for s in leaf):
            key = "norms"
        elif leaf[0] in ("embed", "unembed") or leaf[-2] in ("pos_embed", "type_embed", "rel_bias"):
            key = "embeddings"
        else:
            key = "other"
        parts[key] += p.numel()
    return parts


def ffn_params_per_layer(model: Transformer) -> int:
    """Parameters of one layer's FFN (every layer has the same shape)."""
    mod = model.stack_module(stack_of(model))
    return sum(p.numel() for p in mod.blocks[0].mlp.parameters())


# ---- what an activation "has": parameters, and which axis the FFN mixes -------------------------------
@dataclass
class ActivationParameters:
    """Learned numbers inside the nonlinearity of one FFN layer (and of the model's norms)."""

    activation: str              # relu | gelu | gelu_tanh | swiglu
    gate: int                    # SwiGLU's W_gate (and bias) per layer; 0 for ReLU/GELU
    gate_if_swiglu: int          # what a SwiGLU gate of this shape would hold: d_model·d_ff (+ d_ff bias)
    dyt_alphas: int              # DyT's learned α, one per norm (0 unless norm = dyt)


def activation_parameters(model: Transformer) -> ActivationParameters:
    cfg = model.cfg
    mlp = model.stack_module(stack_of(model)).blocks[0].mlp
    gate = sum(p.numel() for p in mlp.W_gate.parameters()) if mlp.gated else 0
    alphas = sum(1 for name, _ in model.named_parameters() if name.endswith(".alpha"))
    return ActivationParameters(cfg.activation, gate, cfg.d_model * cfg.d_ff + (cfg.d_ff if cfg.bias else 0), alphas)


@dataclass
class Mixing:
    """Which positions move when one position's input to a sublayer changes."""

    position: int                # the position whose input was changed
    ffn_here: float              # max |Δ FFN output| at that position
    ffn_elsewhere: float         # max |Δ FFN output| at every other position (0: it works per token)
    attn_moved: int              # positions whose attention output moved (by more than 1e-6)
    n: int                       # positions


@torch.no_grad()
def mixing(model: Transformer, ids, layer: int = 0, position: int = 0, seed: int = 0, tgt_ids=None) -> Mixing:
    """Add a random vector to one position's input of layer `layer`'s FFN and of its
    attention, and see where the outputs change: the FFN mixes the features within a token
    (MLP-Mixer's channel mixing), attention mixes across tokens (token mixing). An
    encoder-decoder is read in its decoder (`tgt_ids`, default the same ids)."""
    from .scaling import attention_call          # the attention module as a callable (lab/scaling.py)

    cfg = model.cfg
    s = stack_of(model)
    # what the FFN reads: ln2's output (pre-LN, sandwich; ln1's with one shared norm), or the stream after
    # the attention sub-layer(s) (post-LN, output placement)
    ffn_in = sublayer_input(cfg, layer, "ffn", s)
    tgt = (tgt_ids or ids) if cfg.arch == "encoder-decoder" else None
    call, tr = attention_call(model, ids, layer, s, tgt, [ffn_in])
    n = call.x.shape[1]
    if not 0 <= position < n:
        raise ValueError(f"Position {position} does not exist: the text has positions 0..{n - 1}.")
    g = torch.Generator(device="cpu").manual_seed(seed)
    bump = torch.zeros_like(call.x)
    bump[0, position] = torch.randn(call.x.shape[-1], generator=g).to(call.x)
    mlp = model.stack_module(s).blocks[layer].mlp
    x = tr[ffn_in]
    d_ffn = (mlp(x + bump) - mlp(x)).abs()[0].amax(-1)                        # [n]
    d_attn = (call.run(call.x + bump, call.memory) - call.run(call.x, call.memory)).abs()[0].amax(-1)
    others = torch.ones(n, dtype=torch.bool)
    others[position] = False
    return Mixing(position, float(d_ffn[position]), float(d_ffn[others].max()) if n > 1 else 0.0,
                  int((d_attn > 1e-6).sum()), n)

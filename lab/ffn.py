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
from models.transformer import ACTIVATION_FNS, Transformer

from .residual import stack_of


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
    """The model's own activation function evaluated on x (SwiGLU: its gate, SiLU)."""
    if name == "swiglu":
        fn = torch.nn.functional.silu
    elif name in ACTIVATION_FNS:
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

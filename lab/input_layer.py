"""The input layer: what a model adds up before its first block, token by token.

x_pos = E[token] (+ S[segment], BERT) (+ P[pos], learned or sinusoidal), then a norm in
BERT. `input_layer` looks the rows up in the model's own tables, checks them against the
recorded `hook_embed` / `hook_type_embed` / `hook_pos_embed`, and returns the size of
each part per token. Vaswani et al. (2017, section 3.4) multiply the token embeddings by
√d_model before adding the sinusoidal table: their embedding matrix is shared with the
output layer and initialised small (standard deviation d_model^−1/2), so a row has norm
about 1 while a sinusoidal position vector has norm √(d_model/2); the factor brings the
token back to the positions' scale. None of the models here multiply (GPT-2, BERT and
LLaMA do not); `scaled_norm` shows what the factor would make of this model's rows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

import models.positional
from models.trace import Stack, act_name, as_numpy
from models.transformer import Transformer

KINDS = ("embed", "type_embed", "pos_embed", "resid_pre")


@dataclass
class InputLayer:
    """Per token: the norm of each part added at the input (float64)."""

    ids: list[int]
    d_model: int
    positional: str              # the scheme (added vectors only for learned / sinusoidal)
    token_norm: np.ndarray       # [n] ‖E[id]‖
    scaled_norm: np.ndarray      # [n] ‖E[id]‖·√d_model: what Vaswani et al.'s factor would give
    scales_embeddings: bool      # whether this model multiplies by √d_model (cfg.embed_scale: Marian, Gemma)
    segment_norm: np.ndarray | None    # [n] ‖S[segment 0]‖ (BERT), else None
    position_norm: np.ndarray | None   # [n] ‖P[pos]‖ for an added position vector, else None
    sum_norm: np.ndarray         # [n] ‖E + S + P‖: what enters the first block (before BERT's norm)
    block_input_norm: np.ndarray  # [n] ‖x‖ entering block 0 (after the embedding norm, if any)
    cos_token_position: np.ndarray | None  # [n] cosine between the token and its position vector
    embed_std: float             # std of every entry of the embedding table
    lookup_error: float          # max |E[id] − hook_embed| (and the same for segments and positions)
    sum_error: float             # max |E + S + P (through ln_embed) − hook_resid_pre of block 0|

    @property
    def position_ratio(self) -> np.ndarray | None:
        """‖P‖ / ‖E‖ per token: above 1, the position vector is the larger part."""
        return None if self.position_norm is None else self.position_norm / self.token_norm


@torch.no_grad()
def input_layer(model: Transformer, ids: Sequence[int], stack: Stack | str | None = None,
                src_ids: Sequence[int] | None = None) -> InputLayer:
    """The input layer of one stack for `ids` (an encoder-decoder: `stack` 'encoder'
    reads `ids` as the source; 'decoder' reads `ids` as the target, `src_ids` the source)."""
    cfg = model.cfg
    s = Stack.resolve(stack, cfg.arch, default=Stack.ENCODER)
    names = [act_name(k, 0 if k == "resid_pre" else None, s) for k in KINDS]
    if cfg.arch == "encoder-decoder":
        src, tgt = (ids, ids) if s is Stack.ENCODER else (src_ids or ids, ids)
        _, tr = model.run_with_cache(src, tgt, names=names)
    else:
        _, tr = model.run_with_cache(ids, names=names)
    ids = list(ids)
    n = len(ids)
    table = model.embed.weight.double()
    raw = table[torch.as_tensor(ids, device=table.device)]                             # [n, d]
    rows = raw * math.sqrt(cfg.d_model) if cfg.embed_scale else raw                   # Marian, Gemma: × √d_model
    err = float((rows - tr.get("embed", None, s)[0].double()).abs().max())
    total = rows.clone()
    segment = position = cos = None
    module = model.stack_module(s)
    if cfg.n_token_types:
        seg = module.type_embed.weight.double()[torch.zeros(n, dtype=torch.long, device=table.device)]
        err = max(err, float((seg - tr.get("type_embed", None, s)[0].double()).abs().max()))
        total = total + seg
        segment = seg.norm(dim=-1).cpu().numpy()
    if cfg.positional in ("learned", "sinusoidal"):
        pe = module.pos_embed.weight[cfg.pos_offset:cfg.pos_offset + n] if cfg.positional == "learned" \
            else models.positional.sinusoidal(n, cfg.d_model, layout=cfg.sinusoidal_layout)
        pe = pe.double().to(table.device)
        err = max(err, float((pe - tr.get("pos_embed", None, s)[0].double()).abs().max()))
        total = total + pe
        position = pe.norm(dim=-1).cpu().numpy()
        cos = torch.nn.functional.cosine_similarity(rows, pe, dim=-1).cpu().numpy()
    block_in = tr.get("resid_pre", 0, s)[0].double()
    entered = module.ln_embed(total.to(model.embed.weight.dtype)).double() if cfg.embed_norm else total
    token = raw.norm(dim=-1).cpu().numpy()
    return InputLayer(ids, cfg.d_model, cfg.positional, token, token * math.sqrt(cfg.d_model), cfg.embed_scale, segment,
                      position, total.norm(dim=-1).cpu().numpy(), as_numpy(block_in.norm(dim=-1)).astype(np.float64),
                      cos, float(table.std()), err, float((entered - block_in).abs().max()))

"""Ablations: change one part of a model and see what its output does.

- zero a head: a hook on `blocks.{l}.attn.hook_z` multiplies that head's output by 0
  (the head then writes nothing into the stream);
- remove the mask: a hook on every self-attention `hook_mask` returns all True (a decoder
  then sees the future; padding aside, an encoder's full mask does not change);
- drop the positional encoding: the same weights in a model whose config says
  positional="none" (no position vectors, no rotation, no position bias);
- swap a norm: the same weights in a model whose config names another norm
  (LayerNorm <-> RMSNorm <-> DyT); parameters the new norm lacks are dropped, those it
  adds start at their initial values (RMSNorm -> LayerNorm: bias 0; -> DyT: alpha).

Hooks go through `models.hooks.hooks` (removed on exit); config changes build a new
model, so the original is never modified. No Streamlit.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import torch

from models.config import NORMS, TransformerConfig
from models.hooks import HookFn, hooks
from models.trace import Stack, act_name
from models.transformer import Transformer


@dataclass(frozen=True)
class Ablation:
    heads: tuple[tuple[int, int], ...] = ()   # (layer, head) pairs zeroed in self-attention (every stack)
    drop_positional: bool = False              # rebuild with positional="none"
    remove_mask: bool = False                  # every self-attention query may attend to every key
    norm: str | None = None                    # rebuild with this norm kind (None = keep)

    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", tuple(sorted({(int(l), int(h)) for l, h in self.heads})))
        if self.norm is not None and self.norm not in NORMS:
            raise ValueError(f"Unknown normalisation {self.norm!r}: choose one of {', '.join(NORMS)}.")

    @property
    def empty(self) -> bool:
        return not (self.heads or self.drop_positional or self.remove_mask or self.norm)

    def config_changes(self, model: Transformer) -> dict:
        changes = {}
        if self.drop_positional and model.cfg.positional != "none":
            changes["positional"] = "none"
        if self.norm is not None and self.norm != model.cfg.norm:
            changes["norm"] = self.norm
        return changes

    def check(self, model: Transformer) -> None:
        for layer, head in self.heads:
            if not (0 <= layer < model.cfg.n_layers and 0 <= head < model.cfg.n_heads):
                raise ValueError(f"Head L{layer} H{head} does not exist in this model "
                                 f"({model.cfg.n_layers} layers x {model.cfg.n_heads} heads).")

    def fwd_hooks(self, cfg: TransformerConfig) -> list[tuple[str, HookFn]]:
        """The interventions as (hook name, function) pairs for `run_with_hooks`; a head
        is zeroed in every self-attention stack of the model (encoder and decoder alike)."""
        stacks = Stack.blocks_of(cfg.arch)
        out: list[tuple[str, HookFn]] = []
        by_layer: dict[int, list[int]] = {}
        for layer, head in self.heads:
            by_layer.setdefault(layer, []).append(head)
        for layer, heads in by_layer.items():
            def zero(z: torch.Tensor, name: str, heads=tuple(heads)) -> torch.Tensor:   # z [b, pos, head, dh]
                z = z.clone()
                z[:, :, list(heads)] = 0
                return z
            out.extend((act_name("z", layer, s), zero) for s in stacks)
        if self.remove_mask:
            out.extend((act_name("mask", None, s), lambda m, name: torch.ones_like(m)) for s in stacks)
        return out


@dataclass
class Rebuilt:
    model: Transformer
    missing: list[str] = field(default_factory=list)      # parameters the new model had to initialise
    dropped: list[str] = field(default_factory=list)      # parameters of the original it has no place for


def rebuild(model: Transformer, ablation: Ablation) -> Rebuilt:
    """The model itself when the ablation changes no config field, else a new model with
    the changed config and every weight that still fits copied over."""
    changes = ablation.config_changes(model)
    if not changes:
        return Rebuilt(model)
    cfg = model.cfg.replace(**changes)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        new = Transformer(cfg, device="cpu")
    result = new.load_state_dict({k: v.cpu() for k, v in model.state_dict().items()}, strict=False)
    if cfg.output == "logits" and cfg.tie_embeddings:
        new.unembed.weight = new.embed.weight
    return Rebuilt(new.to(model.device).eval(), sorted(result.missing_keys), sorted(result.unexpected_keys))


@contextmanager
def applied(model: Transformer, ablation: Ablation, rebuilt: Rebuilt | None = None) -> Iterator[Transformer]:
    """The ablated model, with its hooks registered for the duration of the block:
    `with applied(model, Ablation(heads=((0, 1),))) as m: m(ids)`. Pass `rebuilt` to
    reuse a rebuilt model (it is cached by the app)."""
    ablation.check(model)
    m = (rebuilt or rebuild(model, ablation)).model
    with hooks(m, ablation.fwd_hooks(m.cfg)):
        yield m


@torch.no_grad()
def output_change(base: torch.Tensor, ablated: torch.Tensor, logits: bool) -> dict[str, np.ndarray]:
    """How the output moved, per position (batch row 0).

    logits: KL(base || ablated) of the next-token distributions, the base top-1 token's
    logit difference (ablated - base), the ablated model's top-1 and whether it changed.
    hidden states: cosine similarity and relative L2 change of the final vectors."""
    b, a = base[0].float(), ablated[0].float()
    if logits:
        lp_b, lp_a = b.log_softmax(-1), a.log_softmax(-1)
        top_b, top_a = b.argmax(-1), a.argmax(-1)
        return {
            "kl": (lp_b.exp() * (lp_b - lp_a)).sum(-1).clamp_min(0).cpu().numpy(),
            "logit_diff": (a.gather(-1, top_b[:, None]) - b.gather(-1, top_b[:, None]))[:, 0].cpu().numpy(),
            "top_base": top_b.cpu().numpy(),
            "top_ablated": top_a.cpu().numpy(),
            "changed": (top_b != top_a).cpu().numpy(),
        }
    cos = torch.nn.functional.cosine_similarity(a, b, dim=-1)
    rel = (a - b).norm(dim=-1) / b.norm(dim=-1).clamp_min(1e-12)
    return {"cosine": cos.cpu().numpy(), "rel_change": rel.cpu().numpy()}

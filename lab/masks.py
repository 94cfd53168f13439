"""Masks applied to a real model: the arithmetic behind the masks page.

- `run_with_mask`: the model itself computes with another self-attention mask (a hook
  replaces every layer's mask), so the scores, patterns and outputs shown are the
  model's own.
- `masked_run`: that run beside the model's own, reduced to the numpy arrays the page
  shows (`MaskedRun`).
- `padded_run`: two texts as one padded batch, to see what padding hides.
- numbers about a mask alone (no model): `mask_stats`, `gallery`, `cost_curves`,
  `reach`, `reach_comparison`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

import models.masks
from models.config import TransformerConfig
from models.hooks import Names, hooks
from models.trace import ATTENTION_KINDS, Stack, Trace, act_name, as_numpy, record_names
from models.transformer import Transformer

XLNET_KINDS = ("xlnet_content", "xlnet_query")
COST_LENGTHS = (16, 32, 64, 128, 256, 512, 1024)
REACH_PATTERNS = ("local", "dilated", "strided", "composed")


def trained_mask(cfg: TransformerConfig, n: int, stack: Stack | str | None = None) -> torch.Tensor:
    """The self-attention pattern [n, n] the model uses on its own (before padding)."""
    s = Stack.resolve(stack, cfg.arch)
    return models.masks.self_attention_mask(cfg.attention, n, cfg.arch == "decoder" or s.is_decoder)


def run_with_mask(
    model: Transformer,
    ids: Sequence[int] | torch.Tensor,
    mask: torch.Tensor,
    *,
    tgt_ids: Sequence[int] | torch.Tensor | None = None,
    stack: Stack | str | None = None,
    names: Names = None,
    tokens: list[str] | None = None,
    tgt_tokens: list[str] | None = None,
) -> tuple[torch.Tensor, Trace]:
    """Run the model with `mask` [q, k] (True = may attend) as the self-attention mask of
    every layer of one stack, and record the pass. A hook replaces each layer's mask, so
    the model's own code computes the masked scores and the softmax; the recorded mask
    is the mask used. A query row with nothing to attend to is refused (use
    `masks.keep_self` first): its softmax would be 0/0 = NaN."""
    mask = torch.as_tensor(mask).bool()
    if mask.dim() != 2 or mask.shape[0] != mask.shape[1]:
        raise ValueError(f"The mask must be a square [q, k] matrix, got shape {tuple(mask.shape)}.")
    models.masks.check_rows(mask, "composed mask")
    s = Stack.resolve(stack, model.cfg.arch)
    if s.cross:
        raise ValueError("A composed mask replaces a self-attention mask: choose stack 'encoder' or 'decoder'.")
    mask = mask.to(model.device)

    def replace(value: torch.Tensor, name: str) -> torch.Tensor:
        if value.shape[-2:] != mask.shape:
            raise ValueError(f"The mask is {mask.shape[0]}×{mask.shape[1]} but the text has "
                             f"{value.shape[-2]} tokens.")
        return mask.expand(value.shape)

    with hooks(model, [(act_name("mask", None, s), replace)]):
        return model.run_with_cache(ids, tgt_ids, names=names, tokens=tokens, tgt_tokens=tgt_tokens)


@dataclass
class MaskedRun:
    """One stack run with a composed mask and with its own, as numpy (batch row 0).
    n = tokens of that stack, L = layers, H = heads, G = kv heads, dh = d_head."""

    composed: np.ndarray          # [n, n] bool: the composed pattern
    used: np.ndarray              # [n, n] bool: composed, an empty row keeping only itself
    trained: np.ndarray           # [n, n] bool: the pattern the model uses on its own
    recorded_mask: np.ndarray     # [n, n] bool: the mask the model computed with (as recorded)
    scores: np.ndarray            # [L, H, n, n] scaled scores (+ position bias) of the masked run
    patterns: np.ndarray          # [L, H, n, n] its softmax
    change: np.ndarray            # [L, n] ‖attention output (masked) − attention output (own)‖
    own_q: np.ndarray             # [L, n, H, dh] the own run's queries (after RoPE, if any)
    own_k: np.ndarray             # [L, n, G, dh]
    own_v: np.ndarray             # [L, n, G, dh]
    own_z: np.ndarray             # [L, n, H, dh] pattern · V per head
    own_patterns: np.ndarray      # [L, H, n, n]
    own_mask: np.ndarray          # [n, n] bool
    decoder: bool                 # the stack is causal on its own
    kind: str                     # the config's attention pattern (full, local, ...)

    @property
    def n_changed(self) -> int:
        """Pairs where the mask used differs from the pattern the model uses on its own."""
        return int((self.used != self.trained).sum())

    @property
    def n_future(self) -> int:
        """Pairs where a query may see a later token (counted for a causal stack only)."""
        return int(np.triu(self.used, 1).sum()) if self.decoder else 0

    def row_deviation(self, layer: int, head: int) -> float | None:
        """max |Σ_k p[q, k] − 1| of the masked run's pattern, or None when a masked cell
        carries weight (then the rows are not a softmax over the allowed keys)."""
        pattern = self.patterns[layer, head]
        if (pattern[~self.recorded_mask] != 0).any():
            return None
        return float(np.abs(pattern.sum(-1) - 1).max())

    def own_head(self, layer: int, head: int) -> tuple[np.ndarray, ...]:
        """One head of the model's own run: (q [n, dh], k [n, dh] and v [n, dh] of the
        key/value head it reads (GQA/MQA), its weights [n, n], its output z [n, dh])."""
        g = head // (self.own_q.shape[2] // self.own_k.shape[2])
        return (self.own_q[layer, :, head], self.own_k[layer, :, g], self.own_v[layer, :, g],
                self.own_patterns[layer, head], self.own_z[layer, :, head])


def masked_run(model: Transformer, ids: Sequence[int], parts: Sequence[dict], *,
               tgt_ids: Sequence[int] | None = None, stack: Stack | str | None = None) -> MaskedRun:
    """The model run twice on the same tokens: with the mask composed from `parts`
    (`masks.compose`; an empty row attends to itself only) and with its own mask."""
    cfg = model.cfg
    s = Stack.resolve(stack, cfg.arch)
    n = len(tgt_ids if s is Stack.DECODER else ids)
    composed = models.masks.compose(n, parts)
    used = models.masks.keep_self(composed)
    names = record_names(cfg, [*ATTENTION_KINDS, "attn_out"], [s])
    _, tr = run_with_mask(model, ids, used, tgt_ids=tgt_ids, stack=s, names=names)
    _, own = model.run_with_cache(ids, tgt_ids, names=names)
    qk = "rot_" if cfg.positional == "rope" else ""
    return MaskedRun(
        composed=composed.numpy(), used=used.numpy(), trained=trained_mask(cfg, n, s).numpy(),
        recorded_mask=as_numpy(tr.mask(s)), scores=as_numpy(tr.stacked("scores", s)),
        patterns=as_numpy(tr.stacked("pattern", s)),
        change=np.linalg.norm(as_numpy(tr.stacked("attn_out", s)) - as_numpy(own.stacked("attn_out", s)), axis=-1),
        own_q=as_numpy(own.stacked(f"{qk}q", s)), own_k=as_numpy(own.stacked(f"{qk}k", s)),
        own_v=as_numpy(own.stacked("v", s)), own_z=as_numpy(own.stacked("z", s)),
        own_patterns=as_numpy(own.stacked("pattern", s)), own_mask=as_numpy(own.mask(s)),
        decoder=cfg.arch == "decoder" or s.is_decoder, kind=cfg.attention.kind,
    )


@dataclass
class PaddedRun:
    """Two token sequences run as one batch, the shorter padded at the end."""

    tokens: list[list[str]]       # per row, padding tokens included
    lengths: list[int]            # real tokens per row
    mask: np.ndarray              # [2, n, n] bool: each row's attention mask in `layer`
    pattern: np.ndarray           # [2, H, n, n] each row's attention in `layer`
    n: int                        # the padded length

    def pad_weight(self, row: int, head: int) -> float:
        """The largest weight a real token of `row` gives a padding token (0 when masked)."""
        n_real = self.lengths[row]
        return float(self.pattern[row, head, :n_real, n_real:].max()) if n_real < self.n else 0.0


def pad_rows(rows_ids: Sequence[Sequence[int]], pad_id: int, width: int | None = None
             ) -> tuple[list[list[int]], list[list[int]]]:
    """Sequences padded at the end to one width (default: the longest), and the
    attention mask that goes with them (1 = token, 0 = padding)."""
    n = max(len(r) for r in rows_ids) if width is None else width
    if any(len(r) > n for r in rows_ids):
        raise ValueError(f"A sequence is longer than the padded width {n}.")
    return ([list(r) + [pad_id] * (n - len(r)) for r in rows_ids],
            [[1] * len(r) + [0] * (n - len(r)) for r in rows_ids])


def padded_run(model: Transformer, rows_ids: Sequence[Sequence[int]], rows_tokens: Sequence[Sequence[str]],
               pad_id: int, pad_token: str, layer: int) -> PaddedRun:
    """Run sequences of different lengths as one batch with an attention mask (1 =
    token, 0 = padding), recording one layer's mask and pattern (single-stack models)."""
    if model.cfg.arch == "encoder-decoder":
        raise ValueError("The padded batch is shown for single-stack models (an encoder or a decoder).")
    ids, valid = pad_rows(rows_ids, pad_id)
    n = len(ids[0])
    _, tr = model.run_with_cache(ids, attention_mask=valid, names=[act_name("mask", layer), act_name("pattern", layer)],
                                 stop_after=act_name("pattern", layer))      # the layers above are not needed
    mask = np.stack([as_numpy(tr.mask(layer=layer, batch=b)) for b in range(len(ids))])
    return PaddedRun([list(t) + [pad_token] * (n - len(t)) for t in rows_tokens], [len(r) for r in rows_ids],
                     mask, as_numpy(tr.get("pattern", layer)), n)


# ---- a mask alone (no model) --------------------------------------------------------------------
@dataclass
class MaskStats:
    """How much of [q, k] a mask allows."""

    density: float                # fraction of allowed pairs
    pairs: int                    # allowed pairs
    total: int                    # q · k
    per_query: np.ndarray         # [q] keys each query may attend to
    empty: list[int]              # queries with nothing to attend to


def mask_stats(mask: np.ndarray) -> MaskStats:
    """The numbers of `mask` [q, k] (True = may attend)."""
    m = torch.from_numpy(np.asarray(mask, dtype=bool))
    stats = models.masks.mask_stats(m)
    return MaskStats(stats["density"], stats["pairs"], m.numel(), np.asarray(stats["per_query"]), stats["empty"])


def gallery(parts: Sequence[dict], n: int) -> dict[str, np.ndarray]:
    """Every part kind (`masks.PART_KINDS`) on n tokens, bool [n, n] each, with the
    arguments chosen in `parts` where that kind is chosen. The XLNet streams use the
    chosen order only if it orders exactly n tokens (else the reversed order); global
    tokens past n are dropped."""
    chosen = {p["kind"]: p for p in parts}
    order = next((p["order"] for p in parts if p["kind"] in XLNET_KINDS), None)
    if order is None or len(order) != n:
        order = list(reversed(range(n)))
    out = {}
    for kind in models.masks.PART_KINDS:
        args = {k: v for k, v in chosen.get(kind, {}).items() if k != "kind"}
        if kind in XLNET_KINDS:
            args["order"] = order
        if "global_tokens" in args:
            args["global_tokens"] = [g for g in args["global_tokens"] if g < n]
        out[kind] = models.masks.part(kind, n, **args).numpy()
    return out


def cost_curves(parts: Sequence[dict], lengths: Sequence[int] = COST_LENGTHS) -> dict[str, list[int]]:
    """Allowed pairs at each length: "full" (n²), each part alone (keyed by its kind),
    and "composed" when there are several parts (`masks.cost_curve`)."""
    curves = {"full": [n * n for n in lengths]}
    for p in parts:
        curves[p["kind"]] = models.masks.cost_curve([p], lengths)
    if len(parts) > 1:
        curves["composed"] = models.masks.cost_curve(parts, lengths)
    return curves


@dataclass
class Reach:
    """What `layers` layers of one mask let each position read."""

    maps: np.ndarray              # [layers, n, n] bool: inputs reaching each position after 1..layers layers
    layers_needed: int            # layers until nothing new is reached (the transitive closure)


def reach(mask: np.ndarray, layers: int) -> Reach:
    """The receptive field of `mask` [n, n] over 1..layers layers (`masks.receptive_field`)."""
    m = torch.from_numpy(np.asarray(mask, dtype=bool))
    return Reach(models.masks.receptive_field(m, layers).numpy(), models.masks.layers_to_closure(m))


@dataclass(frozen=True)
class ReachRow:
    """One causal sparse pattern on n tokens."""

    pattern: str                  # local | dilated | strided | composed (REACH_PATTERNS)
    size: int | None              # the window (local) or the stride (dilated, strided); None for composed
    pairs: int                    # allowed pairs
    layers: int                   # layers until nothing new is reached
    reaches_all: bool             # whether every token then reaches every earlier one


def reach_comparison(n: int, window: int, mask: np.ndarray) -> list[ReachRow]:
    """Causal sparse patterns on n tokens beside the composed `mask` [n, n]: pairs,
    layers until nothing new is reached, and whether every token then reaches every
    earlier one. The stride is ⌈√n⌉; the strided pattern is the Sparse Transformer's (a
    local block of `stride` keys plus every stride-th key)."""
    stride = max(1, int(np.ceil(np.sqrt(n))))
    causal = models.masks.causal(n)
    parts = {"local": (window, {"kind": "local", "window": window}),
             "dilated": (stride, {"kind": "dilated", "dilation": stride}),
             "strided": (stride, {"kind": "strided", "stride": stride}),
             "composed": (None, None)}
    rows = []
    for name in REACH_PATTERNS:
        size, part = parts[name]
        m = torch.from_numpy(np.asarray(mask, dtype=bool)) if part is None else models.masks.compose(n, [part, {"kind": "causal"}])
        closure = models.masks.receptive_field(m, max(1, n))[-1]
        rows.append(ReachRow(name, size, int(m.sum()), models.masks.layers_to_closure(m), bool(closure[causal].all())))
    return rows

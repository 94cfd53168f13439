"""The names of what a pass records, and the `Trace` that holds it.

This module is the one place where hook names are spelled. A hook name is the path of a
`HookPoint` in `named_modules()`:

    [encoder. | decoder.]hook_embed                       stack level: embed, pos_embed, type_embed,
    [encoder. | decoder.]ln_final.hook_normalized          ln_embed.*, ln_final.*
    [...]blocks.{layer}.hook_resid_pre                     block level: resid_*, attn_out, mlp_out
    [...]blocks.{layer}.attn.hook_pattern                  attention: q k v rot_q rot_k scores mask pattern z
    [...]blocks.{layer}.mlp.hook_post                      FFN: mlp_pre, mlp_pre_linear, mlp_post
    [...]blocks.{layer}.ln1.hook_scale                     norms: ln1.*, ln2.*, ln_cross.* (scale, normalized)

Code outside `models/` never writes such a string: it asks `act_name(kind, layer, stack)`
(TransformerLens's `get_act_name` idea) or `record_names(cfg, kinds)` for what to record,
and reads a `Trace` through its accessors (`get`, `stacked`, `pattern(s)`, `mask`).

`Stack` says which part of the model a name belongs to: the only stack of an encoder or
decoder (`self`), the encoder or decoder of an encoder-decoder, or the decoder's
cross-attention (`cross`: `attn` reads as `cross_attn`, `ln1` as `ln_cross`, `attn_out` as
`cross_attn_out`, `resid_mid` as `resid_mid_cross`).
"""
from __future__ import annotations

import enum
import functools
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import torch

from .config import TransformerConfig
from .hooks import Names, name_matcher


class Stack(str, enum.Enum):
    """Which part of a model a hook name belongs to."""

    SELF = "self"            # the only stack of an encoder or a decoder (names have no prefix)
    ENCODER = "encoder"
    DECODER = "decoder"
    CROSS = "cross"          # the decoder's cross-attention: decoder queries, encoder keys

    @property
    def prefix(self) -> str:
        """'' | 'encoder.' | 'decoder.' (cross-attention lives in the decoder)."""
        return {"self": "", "encoder": "encoder.", "decoder": "decoder.", "cross": "decoder."}[self.value]

    @property
    def module(self) -> str | None:
        """The attribute of a Transformer holding this stack's blocks (None: the model itself)."""
        return self.prefix[:-1] or None

    @property
    def cross(self) -> bool:
        return self is Stack.CROSS

    @property
    def is_decoder(self) -> bool:
        """Whether its self-attention is causal by construction (a decoder's); CROSS is not self-attention."""
        return self is Stack.DECODER

    @classmethod
    def attention_maps(cls, arch: str) -> tuple["Stack", ...]:
        """The attention maps a model of this architecture has."""
        if arch == "encoder-decoder":
            return cls.ENCODER, cls.DECODER, cls.CROSS
        return (cls.SELF,)

    @classmethod
    def blocks_of(cls, arch: str) -> tuple["Stack", ...]:
        """The stacks of blocks a model has (no CROSS: it is part of the decoder)."""
        return (cls.ENCODER, cls.DECODER) if arch == "encoder-decoder" else (cls.SELF,)

    @classmethod
    def output(cls, arch: str) -> "Stack":
        """The stack whose output is the model's output (the decoder of an encoder-decoder)."""
        return cls.DECODER if arch == "encoder-decoder" else cls.SELF

    @classmethod
    def resolve(cls, stack: "Stack | str | None", arch: str, default: "Stack | str | None" = None) -> "Stack":
        """A stack argument as a Stack, checked against the architecture.

        Single-stack models accept None, 'self', 'encoder' or 'decoder' (their one stack).
        An encoder-decoder needs 'encoder', 'decoder' or 'cross' (None takes `default`,
        and without one it is an error)."""
        if stack is None and default is not None:
            stack = default
        try:
            value = None if stack is None else cls(stack)
        except ValueError:
            raise ValueError(f"Unknown stack {stack!r}: use one of self, encoder, decoder, cross.") from None
        if arch == "encoder-decoder":
            if value in (None, cls.SELF):
                raise ValueError("This is an encoder-decoder model: pass stack='encoder' or stack='decoder'.")
            return value
        if value is cls.CROSS:
            raise ValueError("Cross-attention exists only in the decoder of an encoder-decoder model.")
        return cls.SELF


# kind -> (where it sits, the hook's own name). "stack": once per stack; "block": in each
# block; otherwise the sub-module of a block that holds it.
_KINDS: dict[str, tuple[str, str]] = {
    "embed": ("stack", "hook_embed"),
    "pos_embed": ("stack", "hook_pos_embed"),
    "type_embed": ("stack", "hook_type_embed"),
    "ln_embed.scale": ("stack", "ln_embed.hook_scale"),
    "ln_embed.normalized": ("stack", "ln_embed.hook_normalized"),
    "ln_final.scale": ("stack", "ln_final.hook_scale"),
    "ln_final.normalized": ("stack", "ln_final.hook_normalized"),
    "resid_pre": ("block", "hook_resid_pre"),
    "resid_mid": ("block", "hook_resid_mid"),
    "resid_post": ("block", "hook_resid_post"),
    "attn_out": ("block", "hook_attn_out"),
    "mlp_out": ("block", "hook_mlp_out"),
    **{k: ("attn", f"hook_{k}") for k in ("q", "k", "v", "rot_q", "rot_k", "scores", "mask", "pattern", "z")},
    "mlp_pre": ("mlp", "hook_pre"),
    "mlp_pre_linear": ("mlp", "hook_pre_linear"),
    "mlp_post": ("mlp", "hook_post"),
    **{f"{ln}.{k}": (ln, f"hook_{k}") for ln in ("ln1", "ln2") for k in ("scale", "normalized")},
    # sandwich / output placements: the norm on a sub-layer's output; ELECTRA's embedding projection
    **{f"{ln}.{k}": (ln, f"hook_{k}") for ln in ("ln1_out", "ln2_out") for k in ("scale", "normalized")},
    "embed_proj": ("stack", "hook_embed_proj"),
}
KINDS: tuple[str, ...] = tuple(_KINDS)
ATTENTION_KINDS = tuple(k for k, (where, _) in _KINDS.items() if where == "attn")
# what the names become in the decoder's cross-attention sub-layer
_CROSS = {"attn": "cross_attn", "ln1": "ln_cross", "hook_attn_out": "hook_cross_attn_out",
          "hook_resid_mid": "hook_resid_mid_cross"}
_NAME = re.compile(r"(?:(?P<stack>encoder|decoder)\.)?(?:blocks\.(?P<layer>\d+)\.)?(?:(?P<sub>[a-z_0-9]+)\.)?"
                   r"(?P<hook>hook_[a-z_]+)")


def act_name(kind: str, layer: int | str | None = None, stack: Stack | str = Stack.SELF) -> str:
    """The hook name of `kind` in `layer` of `stack`: `act_name("pattern", 3)` is
    'blocks.3.attn.hook_pattern'; `act_name("pattern", 0, "cross")` is
    'decoder.blocks.0.cross_attn.hook_pattern'. layer None (or '*') gives the glob over
    every layer. Stack-level kinds (embed, ln_final.*) take no layer."""
    if kind not in _KINDS:
        raise ValueError(f"Unknown activation {kind!r}; known: {', '.join(KINDS)}.")
    stack = Stack(stack)
    where, hook = _KINDS[kind]
    if where == "stack":
        if layer is not None:
            raise ValueError(f"{kind!r} is recorded once per stack, not per layer.")
        if stack.cross:
            raise ValueError(f"{kind!r} belongs to a stack; cross-attention is part of the decoder.")
        return stack.prefix + hook
    if stack.cross:
        if kind in ("resid_pre", "resid_post", "mlp_out") or where in ("mlp", "ln2", "ln1_out", "ln2_out"):
            raise ValueError(f"{kind!r} is not part of the cross-attention sub-layer; use stack='decoder'.")
        where, hook = _CROSS.get(where, where), _CROSS.get(hook, hook)
    block = f"{stack.prefix}blocks.{'*' if layer is None else layer}."
    return block + hook if where == "block" else f"{block}{where}.{hook}"


def record_names(cfg: TransformerConfig, kinds: Iterable[str],
                 stacks: Iterable[Stack | str] | None = None) -> list[str]:
    """Globs for recording `kinds` in every layer of the given stacks (default: every
    stack and attention the model has). Kinds a stack does not have are skipped."""
    wanted = list(Stack.attention_maps(cfg.arch)) if stacks is None else [Stack(s) for s in stacks]
    out: list[str] = []
    for kind in kinds:
        for stack in wanted:
            try:
                name = act_name(kind, None, stack)
            except ValueError:                  # e.g. mlp_post of the cross-attention sub-layer
                continue
            if name not in out:
                out.append(name)
    return out


@dataclass(frozen=True)
class ActName:
    """A hook name read back: which stack, which layer (None: stack level), which kind."""

    stack: Stack
    layer: int | None
    kind: str


@functools.lru_cache(maxsize=4096)
def parse_name(name: str) -> ActName:
    """The inverse of `act_name` (names outside the vocabulary raise ValueError). Remembered
    per name (the answer is frozen): a pass's memory estimate reads every hook name twice."""
    m = _NAME.fullmatch(name)
    if m is None:
        raise ValueError(f"{name!r} is not a hook name.")
    stack = Stack(m["stack"]) if m["stack"] else Stack.SELF
    sub, hook = m["sub"], m["hook"]
    if m["layer"] is None:
        own = f"{sub}.{hook}" if sub else hook
        kind = next((k for k, (w, h) in _KINDS.items() if w == "stack" and h == own), None)
        if kind is not None:
            return ActName(stack, None, kind)
        raise ValueError(f"{name!r} is not a hook name.")
    if stack is Stack.DECODER and (sub in _CROSS.values() or hook in _CROSS.values()):
        stack = Stack.CROSS
        back = {v: k for k, v in _CROSS.items()}
        sub, hook = back.get(sub, sub), back.get(hook, hook)
    where = sub or "block"
    kind = next((k for k, (w, h) in _KINDS.items() if w == where and h == hook), None)
    if kind is None:
        raise ValueError(f"{name!r} is not a hook name.")
    return ActName(stack, int(m["layer"]), kind)


class Trace:
    """Everything one forward pass recorded, with the tokens and config that produced it.

    >>> out, trace = model.run_with_cache(ids)
    >>> trace.get("pattern", 0).shape                   # [batch, head, q, k]
    >>> trace.pattern(0).shape                          # [head, q, k], batch 0
    >>> trace.stacked("mlp_post").shape                 # [layer, pos, d_ff], batch 0
    """

    def __init__(
        self,
        tensors: dict[str, torch.Tensor],
        config: TransformerConfig,
        tokens: list[str] | None = None,
        tgt_tokens: list[str] | None = None,
    ) -> None:
        self._tensors = dict(tensors)
        self.config = config
        self.tokens = tokens          # source / only sequence, printable strings (batch 0)
        self.tgt_tokens = tgt_tokens  # decoder sequence of an encoder-decoder

    # ---- access by name -----------------------------------------------------------------
    def names(self) -> list[str]:
        """Recorded hook names in execution order."""
        return list(self._tensors)

    def __getitem__(self, name: str) -> torch.Tensor:
        try:
            return self._tensors[name]
        except KeyError:
            close = [n for n in self._tensors if n.split(".")[-1] == name.split(".")[-1]][:5]
            hint = f" Recorded names like it: {', '.join(close)}." if close else ""
            raise KeyError(f"{name!r} was not recorded.{hint}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._tensors

    def __len__(self) -> int:
        return len(self._tensors)

    def __iter__(self) -> Iterator[str]:
        return iter(self._tensors)

    def items(self) -> Iterable[tuple[str, torch.Tensor]]:
        return self._tensors.items()

    def filter(self, names: Names) -> "Trace":
        match = name_matcher(names)
        return Trace({n: t for n, t in self._tensors.items() if match(n)}, self.config, self.tokens, self.tgt_tokens)

    # ---- access by kind, layer and stack (what views and the lab read) -------------------
    def stack(self, stack: Stack | str | None = None, default: Stack | str | None = None) -> Stack:
        """`stack` checked against this trace's architecture (see Stack.resolve)."""
        return Stack.resolve(stack, self.config.arch, default)

    def name(self, kind: str, layer: int | None = None, stack: Stack | str | None = None) -> str:
        return act_name(kind, layer, self.stack(stack))

    def has(self, kind: str, layer: int | None = None, stack: Stack | str | None = None) -> bool:
        """Whether `kind` of that layer and stack was recorded."""
        try:
            return self.name(kind, layer, stack) in self._tensors
        except ValueError:
            return False

    def _layer(self, layer: int) -> int:
        if not 0 <= layer < self.config.n_layers:
            raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{self.config.n_layers - 1}.")
        return layer

    def get(self, kind: str, layer: int | None = None, stack: Stack | str | None = None,
            batch: int | None = None) -> torch.Tensor:
        """The recorded `kind` of one layer (None for stack-level kinds) of one stack; one
        batch row if `batch` is given. `trace.get("pattern", 2)` is blocks.2.attn.hook_pattern."""
        t = self[self.name(kind, None if layer is None else self._layer(layer), stack)]
        return t if batch is None else t[batch]

    def stacked(self, kind: str, stack: Stack | str | None = None, batch: int = 0) -> torch.Tensor:
        """`kind` of every layer of one stack, one batch row, stacked: [layer, ...]."""
        return torch.stack([self.get(kind, i, stack, batch) for i in range(self.config.n_layers)])

    def pattern(self, layer: int, batch: int = 0, stack: Stack | str | None = None, cross: bool = False) -> torch.Tensor:
        """Attention probabilities of one layer [head, q, k] for one batch row.
        Encoder-decoder: stack='encoder'|'decoder'|'cross' (or 'decoder' with cross=True)."""
        self._layer(layer)
        return self.get("pattern", layer, self._attention(stack, cross), batch)

    def patterns(self, batch: int = 0, stack: Stack | str | None = None, cross: bool = False) -> torch.Tensor:
        """All layers' attention probabilities stacked [layer, head, q, k]."""
        return self.stacked("pattern", self._attention(stack, cross), batch)

    def mask(self, stack: Stack | str | None = None, layer: int = 0, batch: int = 0) -> torch.Tensor:
        """The attention mask [q, k] (True = may attend) of one layer and batch row."""
        m = self.get("mask", layer, stack)                                  # [b or 1, 1, q, k]
        return m[min(batch, m.shape[0] - 1), 0]

    def _attention(self, stack: Stack | str | None, cross: bool) -> Stack:
        s = self.stack(stack)
        if cross:
            if s not in (Stack.DECODER, Stack.CROSS):
                raise ValueError("Cross-attention exists only in the decoder of an encoder-decoder model.")
            return Stack.CROSS
        return s

    def residual_stream(self, batch: int = 0, stack: Stack | str | None = None) -> tuple[list[str], torch.Tensor]:
        """The residual stream at every recorded resid hook: (names, [n, pos, d_model])."""
        s = self.stack(stack)
        names = []
        for n in self._tensors:
            try:
                a = parse_name(n)
            except ValueError:
                continue
            if a.kind.startswith("resid_") and (a.stack is s or (s is Stack.DECODER and a.stack is Stack.CROSS)):
                names.append(n)
        if not names:
            raise KeyError("No residual-stream hooks were recorded (record act_name('resid_pre') and the others).")
        return names, torch.stack([self._tensors[n][batch] for n in names])

    # ---- conversion -------------------------------------------------------------------
    def to(self, device: torch.device | str) -> "Trace":
        return Trace({n: t.to(device) for n, t in self._tensors.items()}, self.config, self.tokens, self.tgt_tokens)

    def cpu(self) -> "Trace":
        return self.to("cpu")

    def numpy(self, name: str, batch: int | None = None) -> np.ndarray:
        """One tensor as numpy (float tensors as float32, float16 traces included),
        optionally one batch row; a tensor on a GPU is copied to the CPU here, on demand
        (only the row asked for)."""
        return as_numpy(self[name] if batch is None else self[name][batch])

    @property
    def nbytes(self) -> int:
        """Memory the recorded tensors keep alive, in bytes: each piece of memory counted
        once. Several hook points can hold the same tensor (`resid_post` of block i is
        `resid_pre` of block i + 1; every layer of a stack shares one mask), and a view
        counts only the part of its storage it spans (`pos_embed` is a slice of the
        position table, a weight the model holds anyway)."""
        spans: dict[tuple[str, int], list[int]] = {}
        for t in self._tensors.values():
            if t.numel() == 0:
                continue
            size = t.element_size()
            start = t.storage_offset() * size
            end = start + size * (1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()) if s > 0))
            key = (str(t.device), t.untyped_storage().data_ptr())
            span = spans.setdefault(key, [start, end])
            span[0], span[1] = min(span[0], start), max(span[1], end)
        return sum(end - start for start, end in spans.values())

    @property
    def logical_nbytes(self) -> int:
        """Sum of numel x element size over the recorded names (shared tensors counted
        at each name): what `lab.memory.estimate_trace_bytes` predicts exactly, and
        what a copy of every tensor (e.g. `save_npz`) would take."""
        return sum(t.numel() * t.element_size() for t in self._tensors.values())

    @property
    def devices(self) -> set[str]:
        """The devices the recorded tensors live on (e.g. {'cuda:0'})."""
        return {str(t.device) for t in self._tensors.values()}

    def __repr__(self) -> str:
        return f"Trace({len(self)} tensors, {self.nbytes / 2**20:.2f} MiB, arch={self.config.arch!r})"

    def save_npz(self, file: str | Path | io.IOBase) -> None:
        """Write every tensor (float32 / bool / int) plus tokens and config (as JSON)."""
        arrays = {n: self.numpy(n) for n in self._tensors}
        meta = {"config": self.config.to_dict(), "tokens": self.tokens, "tgt_tokens": self.tgt_tokens}
        np.savez_compressed(file, __meta__=np.array(json.dumps(meta, ensure_ascii=False)), **arrays)

    @classmethod
    def load_npz(cls, file: str | Path | io.IOBase) -> "Trace":
        with np.load(file, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
            tensors = {n: torch.from_numpy(data[n]) for n in data.files if n != "__meta__"}
        return cls(tensors, TransformerConfig.from_dict(meta["config"]), meta["tokens"], meta["tgt_tokens"])


def as_numpy(t: torch.Tensor) -> np.ndarray:
    """A tensor as numpy on the CPU; floating point as float32 (float16 traces included)."""
    t = t.detach().cpu()
    return (t.float() if t.is_floating_point() else t).numpy()

"""Hook points, recording, and the Trace that holds what a forward pass recorded.

A `HookPoint` is an identity module placed inline in the model
(`pattern = self.hook_pattern(scores.softmax(-1))`). Its name is its path in
`named_modules()` (e.g. `blocks.0.attn.hook_pattern`), never typed by hand. Recording
registers PyTorch forward hooks inside a context manager and removes them in `finally`,
so a model with no recording running carries no hooks and computes exactly the same
numbers.
"""
from __future__ import annotations

import fnmatch
import itertools
import io
import json
import re
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np
import torch
from torch import nn

from .config import TransformerConfig

Names = str | Sequence[str] | None
# a user hook gets (value, hook name) and returns a replacement or None (keep the value)
HookFn = Callable[[torch.Tensor, str], torch.Tensor | None]


class HookPoint(nn.Module):
    """Identity module: the place where a value can be read (or replaced) by a hook.

    Hooks are PyTorch forward hooks (`register_forward_hook`). Because a model has
    ~20 hook points per layer, `__call__` runs them itself, skipping the general
    `nn.Module.__call__` machinery (same semantics for plain forward hooks: each gets
    (module, (x,), x) and may return a replacement). With forward pre-hooks, kwargs
    hooks or global module hooks present it falls back to `nn.Module.__call__`."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    @property
    def passive(self) -> bool:
        """True when nothing here can change the value: no hooks, or only recording's
        (read-only) ones. The attention kernel may then compute in another order and
        show the hook the finished tensor (`models.transformer`, per-head path)."""
        if self._forward_pre_hooks or self._forward_hooks_with_kwargs or _has_global_hooks():
            return False
        return all(getattr(h, "read_only", False) for h in self._forward_hooks.values())

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self._forward_pre_hooks or self._forward_hooks_with_kwargs or _has_global_hooks():
            return super().__call__(x)
        for hook in tuple(self._forward_hooks.values()):
            out = hook(self, (x,), x)
            if out is not None:
                x = out
        return x


def _has_global_hooks() -> bool:
    from torch.nn.modules import module as m

    return bool(m._global_forward_hooks or m._global_forward_pre_hooks or m._global_backward_hooks
                or m._global_backward_pre_hooks)


_RECORDING_IDS = itertools.count(1)
_INDEX: "weakref.WeakKeyDictionary[nn.Module, dict[str, HookPoint]]" = weakref.WeakKeyDictionary()


def hook_points(model: nn.Module) -> dict[str, HookPoint]:
    """All hook points of a model by their `named_modules()` path, in registration order.
    Indexed once per model (a Transformer does not gain modules after construction)."""
    index = _INDEX.get(model)
    if index is None:
        index = _INDEX[model] = {name: m for name, m in model.named_modules() if isinstance(m, HookPoint)}
    return dict(index)


def name_matcher(names: Names) -> Callable[[str], bool]:
    """A predicate for hook names: None = all, else one or several glob patterns."""
    if names is None:
        return lambda _: True
    patterns = [names] if isinstance(names, str) else list(names)
    return lambda name: any(fnmatch.fnmatchcase(name, p) for p in patterns)


@contextmanager
def recording(model: nn.Module, names: Names = None, *, dtype: torch.dtype | None = None,
              device: torch.device | str | None = None) -> Iterator[dict[str, torch.Tensor]]:
    """Record the hook points matching `names` into the yielded dict (in execution order).

    Tensors are detached references, not copies: the model never writes in place after
    a hook point, so nothing is overwritten. Hooks are removed even if the forward raises.
    dtype (e.g. torch.float16): floating-point values are stored converted to it (a copy;
    the model goes on computing with the original). device: where the values are stored;
    None keeps them where they were computed (on a GPU: on the GPU until a view asks
    for them, `Trace.numpy` moves on demand), "cpu" moves each one as it is recorded.
    """
    if dtype is not None and not dtype.is_floating_point:
        raise ValueError(f"A trace can be stored as a floating-point dtype (float32, float16, bfloat16), not {dtype}.")
    target = torch.device(device) if device is not None else None
    store: dict[str, torch.Tensor] = {}
    match = name_matcher(names)
    points = [(name, hp) for name, hp in hook_points(model).items() if match(name)]
    # The hooks go straight into each HookPoint's PyTorch forward-hook dict under a key
    # of this recording (negative: PyTorch's own handle ids are positive). A
    # RemovableHandle per hook, x113 for MiniLM, cost ~0.5 ms a pass: 5 % at 32 tokens.
    key = -next(_RECORDING_IDS)

    def save(name: str) -> Callable[[nn.Module, Any, torch.Tensor], None]:
        def hook(_module: nn.Module, _inputs: Any, output: torch.Tensor) -> None:
            value = output.detach() if output.requires_grad else output
            if dtype is not None and value.is_floating_point() and value.dtype != dtype:
                value = value.to(dtype)
            if target is not None and value.device != target:
                value = value.to(target)
            store[name] = value
        hook.read_only = True     # returns None: the value goes on unchanged (HookPoint.passive)
        return hook

    try:
        for name, hp in points:
            hp._forward_hooks[key] = save(name)
        yield store
    finally:
        for _, hp in points:
            hp._forward_hooks.pop(key, None)


@contextmanager
def hooks(model: nn.Module, fwd_hooks: Iterable[tuple[str, HookFn]]) -> Iterator[None]:
    """Run user functions at hook points (glob patterns): for interventions such as
    zeroing a head. fn(value, name) may return a replacement tensor of the same shape."""
    handles = []
    points = hook_points(model)

    def wrap(fn: HookFn, name: str) -> Callable[[nn.Module, Any, torch.Tensor], torch.Tensor | None]:
        def hook(_module: nn.Module, _inputs: Any, output: torch.Tensor) -> torch.Tensor | None:
            new = fn(output, name)
            if new is not None and new.shape != output.shape:
                raise ValueError(f"A hook at {name} returned shape {tuple(new.shape)}, expected {tuple(output.shape)}.")
            return new
        return hook

    try:
        for pattern, fn in fwd_hooks:
            matched = [n for n in points if fnmatch.fnmatchcase(n, pattern)]
            if not matched:
                raise ValueError(f"No hook point matches {pattern!r}.")
            for name in matched:
                handles.append(points[name].register_forward_hook(wrap(fn, name)))
        yield
    finally:
        for h in handles:
            h.remove()


class Trace:
    """Everything one forward pass recorded, with the tokens and config that produced it.

    >>> out, trace = model.run_with_cache(ids)
    >>> trace["blocks.0.attn.hook_pattern"].shape      # [batch, head, q, k]
    >>> trace.pattern(0).shape                          # [head, q, k], batch 0
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

    # ---- access -----------------------------------------------------------------------
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

    # ---- helpers for views --------------------------------------------------------------
    def _prefix(self, stack: str | None) -> str:
        if self.config.arch == "encoder-decoder":
            if stack not in ("encoder", "decoder"):
                raise ValueError("This is an encoder-decoder model: pass stack='encoder' or stack='decoder'.")
            return stack + "."
        if stack not in (None, "encoder", "decoder"):
            raise ValueError(f"Unknown stack {stack!r}.")
        return ""

    def pattern(self, layer: int, batch: int = 0, stack: str | None = None, cross: bool = False) -> torch.Tensor:
        """Attention probabilities of one layer [head, q, k] for one batch row.
        Encoder-decoder: stack='encoder'|'decoder'; cross=True for the decoder's cross-attention."""
        if not 0 <= layer < self.config.n_layers:
            raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{self.config.n_layers - 1}.")
        if cross and (self.config.arch != "encoder-decoder" or stack != "decoder"):
            raise ValueError("Cross-attention exists only in the decoder of an encoder-decoder model.")
        attn = "cross_attn" if cross else "attn"
        return self[f"{self._prefix(stack)}blocks.{layer}.{attn}.hook_pattern"][batch]

    def patterns(self, batch: int = 0, stack: str | None = None, cross: bool = False) -> torch.Tensor:
        """All layers' attention probabilities stacked [layer, head, q, k]."""
        return torch.stack([self.pattern(i, batch, stack, cross) for i in range(self.config.n_layers)])

    def residual_stream(self, batch: int = 0, stack: str | None = None) -> tuple[list[str], torch.Tensor]:
        """The residual stream at every recorded resid hook: (names, [n, pos, d_model])."""
        resid = re.compile(re.escape(self._prefix(stack)) + r"blocks\.\d+\.hook_resid_\w+")
        names = [n for n in self._tensors if resid.fullmatch(n)]
        if not names:
            raise KeyError("No residual-stream hooks were recorded (record 'blocks.*.hook_resid_*').")
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
        t = self[name]
        if batch is not None:
            t = t[batch]
        t = t.detach().cpu()
        if t.is_floating_point():
            t = t.float()
        return t.numpy()

    @property
    def nbytes(self) -> int:
        """Memory the recorded tensors keep alive, in bytes: each piece of memory counted
        once. Several hook points can hold the same tensor (`blocks.0.hook_resid_post`
        is `blocks.1.hook_resid_pre`; every layer of a stack shares one mask), and a
        view counts only the part of its storage it spans (`hook_pos_embed` is a slice
        of the position table, a weight the model holds anyway)."""
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
        at each name): what `models.memory.estimate_trace_bytes` predicts exactly, and
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

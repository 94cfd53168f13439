"""Hook points and recording: where values can be read or replaced during a pass.

A `HookPoint` is an identity module placed inline in the model
(`pattern = self.hook_pattern(scores.softmax(-1))`). Its name is its path in
`named_modules()` (e.g. `blocks.0.attn.hook_pattern`), never typed by hand. Recording
registers PyTorch forward hooks inside a context manager and removes them in `finally`,
so a model with no recording running carries no hooks and computes exactly the same
numbers.
"""
from __future__ import annotations

import fnmatch
import functools
import itertools
import re
import weakref
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Sequence

import torch
from torch import nn
from torch.nn.modules import module as torch_module


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

    @property
    def hooked(self) -> bool:
        """True when some hook (recording's, a user's or a global module hook) will see
        the value passed here. A value computed only to be shown at this point (a norm's
        hook_scale) need not be computed when nothing is hooked."""
        return bool(self._forward_hooks or self._forward_pre_hooks or self._forward_hooks_with_kwargs
                    or _has_global_hooks())

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self._forward_pre_hooks or self._forward_hooks_with_kwargs or _has_global_hooks():
            return super().__call__(x)
        if not self._forward_hooks:           # the common case, ~20 times a layer: nothing to run
            return x
        for hook in tuple(self._forward_hooks.values()):
            out = hook(self, (x,), x)
            if out is not None:
                x = out
        return x


def _has_global_hooks() -> bool:
    return bool(torch_module._global_forward_hooks or torch_module._global_forward_pre_hooks
                or torch_module._global_backward_hooks or torch_module._global_backward_pre_hooks)


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
    """A predicate for hook names: None = all, else one or several glob patterns
    (`fnmatch.fnmatchcase` semantics)."""
    if names is None:
        return lambda _: True
    return _glob_matcher((names,) if isinstance(names, str) else tuple(names))


@functools.lru_cache(maxsize=256)
def _glob_matcher(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """The patterns as one compiled regular expression, made once per set of patterns. A pass
    asks it of every hook name three times (twice for the memory estimate, once to record);
    one `fnmatchcase` per pattern per name took 3.1 ms a look over MiniLM's 113 names with
    the residual page's 24 patterns, this 0.4 ms."""
    if not patterns:
        return lambda _: False
    match = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in patterns)).match
    return lambda name: match(name) is not None


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

    A GPU value moved to the CPU is copied into page-locked (pinned) memory without
    waiting (the copy runs on the GPU's stream while the pass goes on); the recording
    waits for the copies once, when the pass is over. Copies into ordinary pageable
    memory block the pass at every hook: 208x a plain forward at 2,048 tokens on an
    H100 (docs/benchmarks.md, "CUDA path").
    """
    if dtype is not None and not dtype.is_floating_point:
        raise ValueError(f"A trace can be stored as a floating-point dtype (float32, float16, bfloat16), not {dtype}.")
    target = torch.device(device) if device is not None else None
    store: dict[str, torch.Tensor] = {}
    copying: list[torch.device] = []            # CUDA devices with copies to the CPU in flight
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
                if target.type == "cpu" and value.is_cuda:
                    pinned = torch.empty(value.shape, dtype=value.dtype, pin_memory=True)
                    value = pinned.copy_(value, non_blocking=True)
                    if output.device not in copying:
                        copying.append(output.device)
                else:
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
        for dev in copying:                      # the pinned copies are complete before anyone reads them
            torch.cuda.synchronize(dev)


class _PassStopped(Exception):
    """Raised at the hook point a `stopping` block names; the block swallows it."""


@contextmanager
def stopping(model: nn.Module, name: str | None, names: Names = None) -> Iterator[None]:
    """End a forward pass run inside this block at hook point `name` (None: no stop), once
    its earlier hooks have run (enter it after `recording(model, names)`, which must record
    `name`): the layers above it never run, and the block ends without an exception. What
    reads one layer need not run the rest, as TransformerLens's `stop_at_layer`: a head's walk
    through MiniLM's layer 0 runs one layer of six (lab/walkthrough.py)."""
    if name is None:
        yield
        return
    point = hook_points(model).get(name)
    if point is None or not name_matcher(names)(name):
        raise ValueError(f"stop_after={name!r} is not one of the hook points this pass records.")

    def stop(_module: nn.Module, _inputs: Any, _output: torch.Tensor) -> None:
        raise _PassStopped

    handle = point.register_forward_hook(stop)   # after the hooks already there (PyTorch keeps their order)
    try:
        yield
    except _PassStopped:
        pass
    finally:
        handle.remove()


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

"""What the position information costs in a forward pass, measured on this machine at the
loaded model's shape and the length of the reader's text.

Three ways to give a model positions, with the model's own functions (models/positional.py):
- rope: cos and sin of every angle once per pass (`rope_cos_sin`), then in *every layer* the
  queries and the keys are rotated (`apply_rope`, on [1, n, heads, d_head]);
- table: the sinusoidal table (`sinusoidal`, built once when the model loads, as the model
  keeps it in a buffer): its first n rows added once to the token vectors [1, n, d_model]
  before the first layer; a learned table costs the same (a lookup and an addition);
- none: no position work at all (NoPE), 0 by construction.

Each is timed alone (the median of `repeats` runs after warm-up runs, `time.perf_counter`),
on random tensors of the shapes the model would use (the time of these elementwise
operations does not depend on the values), and counted in elementwise operations. The
loaded model's whole forward pass on the text is timed the same way, so the positional
part can be read as a share of it. Timings depend on the machine and its load: the page
shows what it measured and never a fixed number.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

import torch

from models import positional

SCHEMES = ("rope", "table", "none")


@dataclass(frozen=True)
class Shape:
    """The shape of the position work: text length and the model's widths."""

    n: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    d_head: int
    rot: int            # dims of each head RoPE turns (d_head unless partial rotary)
    d_model: int

    @classmethod
    def of(cls, cfg, n: int) -> Shape:
        d_head = cfg.d_head or cfg.d_model // cfg.n_heads
        rot = cfg.rope_dim or d_head
        return cls(n=int(n), n_layers=cfg.n_layers, n_heads=cfg.n_heads, n_kv_heads=cfg.n_kv_heads or cfg.n_heads,
                   d_head=d_head, rot=rot - rot % 2, d_model=cfg.d_model)


def counted_ops(shape: Shape) -> dict[str, int]:
    """Elementwise operations per pass: RoPE turns q and k in every layer, 3 per turned number
    (× cos, × sin of the half-turned copy, +), after 2·n·rot cos/sin values once; the table is
    n·d_model additions once (its values were computed at load time); none is 0."""
    s = shape
    turned = s.n * (s.n_heads + s.n_kv_heads) * s.rot
    return {"rope": 3 * turned * s.n_layers + 2 * s.n * s.rot, "table": s.n * s.d_model, "none": 0}


def median_seconds(fn: Callable[[], object], repeats: int, warmup: int = 2,
                   sync: Callable[[], object] = lambda: None) -> float:
    """Median wall-clock seconds of fn() over `repeats` runs, after `warmup` runs (`sync`
    waits for an accelerator's queued work before each clock reading)."""
    if repeats < 1:
        raise ValueError(f"Time at least one run (got {repeats}).")
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        sync()
        start = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - start)
    return float(statistics.median(times))


def position_work(shape: Shape, scheme: str, seed: int = 0, device: str = "cpu") -> Callable[[], object]:
    """The work one forward pass does for positions under `scheme`, as a function to time."""
    s = shape
    g = torch.Generator().manual_seed(seed)
    if scheme == "rope":
        q = torch.randn(1, s.n, s.n_heads, s.d_head, generator=g).to(device)
        k = torch.randn(1, s.n, s.n_kv_heads, s.d_head, generator=g).to(device)
        positions = torch.arange(s.n, device=device)

        def rope() -> object:
            cos, sin = positional.rope_cos_sin(positions, s.rot)
            cos, sin = cos[None, :, None, :], sin[None, :, None, :]
            for _ in range(s.n_layers):
                positional.apply_rope(q, cos, sin)
                positional.apply_rope(k, cos, sin)
            return cos
        return rope
    if scheme == "table":
        x = torch.randn(1, s.n, s.d_model, generator=g).to(device)
        d = s.d_model - s.d_model % 2

        table_rows = positional.sinusoidal(s.n, d).to(device)   # built once when the model loads (a buffer)

        def table() -> object:
            return x[..., :d] + table_rows[: s.n]
        return table
    if scheme == "none":
        return lambda: None
    raise ValueError(f"Unknown scheme {scheme!r}; known: {', '.join(SCHEMES)}.")


@dataclass(frozen=True)
class Cost:
    """Measured seconds (medians) and counted operations of each scheme, and of the forward pass."""

    shape: Shape
    seconds: dict[str, float]        # scheme -> median seconds of its position work
    ops: dict[str, int]              # scheme -> elementwise operations
    forward: float | None            # median seconds of the loaded model's forward pass on the text
    repeats: int

    @property
    def ratio(self) -> float:
        """RoPE's measured time ÷ the table's."""
        return self.seconds["rope"] / max(self.seconds["table"], 1e-12)


@torch.no_grad()
def measure(shape: Shape, repeats: int = 30, forward: Callable[[], object] | None = None,
            forward_repeats: int = 5, device: str = "cpu") -> Cost:
    """Time every scheme's position work at `shape` on `device` (and `forward`, the model's
    pass, if given)."""
    dev = torch.device(device)
    sync = (lambda: torch.cuda.synchronize(dev)) if dev.type == "cuda" else (lambda: None)
    seconds = {s: (0.0 if s == "none" else median_seconds(position_work(shape, s, device=device), repeats, sync=sync))
               for s in SCHEMES}
    fwd = median_seconds(forward, forward_repeats, warmup=1, sync=sync) if forward is not None else None
    return Cost(shape, seconds, counted_ops(shape), fwd, repeats)

"""One optimisation loop for the small models the tokens page trains (lab/patches.py's ViTs,
lab/sound.py's audio model, lab/pairing.py's two towers), so their recipes differ only in what
a batch is:

    fitted = fit(model, lambda: F.cross_entropy(model(x[i := draw()]), y[i]), steps=800, lr=3e-3)

AdamW (weight decay 0.01) over the parameters that require gradients, the rate warmed up
linearly over `warmup` steps and then decayed along a cosine to `floor` of itself, gradients
clipped to norm 1, on one CPU thread (models this small run fastest on one; the process's
thread count is restored after). `loss()` draws its own batch, so the caller's random
generator decides the batches and the same seed gives the same weights on the same CPU build.
The toy tasks' trainer (models/training/trainer.py) stays separate: it trains token tasks with
live evaluation and snapshots and a stop button.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
from torch import nn


@dataclass(frozen=True)
class Fitted:
    losses: list[float]
    seconds: float               # wall clock
    cpu_seconds: float           # this process's CPU time (on one thread: what an idle machine takes)


def rate(step: int, steps: int, warmup: int, floor: float) -> float:
    """The factor on the learning rate at `step`: linear warm-up, then cosine from 1 to `floor`."""
    return min(1.0, (step + 1) / warmup) * (floor + (1 - floor) / 2 * (1 + np.cos(np.pi * min(1.0, step / steps))))


def fit(model: nn.Module, loss: Callable[[], torch.Tensor], *, steps: int, lr: float, warmup: int = 50,
        floor: float = 0.1, progress: Callable[[int, float], None] | None = None) -> Fitted:
    """Train `model` for `steps` steps on `loss()` (one batch each); `progress(step, loss)` every
    20 steps and at the end. The model is left in eval mode."""
    opt = torch.optim.AdamW([q for q in model.parameters() if q.requires_grad], lr=lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: rate(s, steps, warmup, floor))
    losses: list[float] = []
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    start, cpu = time.perf_counter(), time.process_time()
    model.train()
    try:
        for _ in range(steps):
            value = loss()
            opt.zero_grad()
            value.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            losses.append(float(value.detach()))
            if progress is not None and (len(losses) % 20 == 0 or len(losses) == steps):
                progress(len(losses), losses[-1])
    finally:
        torch.set_num_threads(threads)
    model.eval()
    return Fitted(losses, time.perf_counter() - start, time.process_time() - cpu)

"""Side-by-side timing: interleaved repetitions, medians, ratios (never absolute asserts)."""
from __future__ import annotations

import platform
import statistics
import time
from typing import Callable

import torch


def interleaved_medians(fns: dict[str, Callable[[], object]], repeats: int = 30, warmup: int = 3) -> dict[str, float]:
    """Run each function once per round, rounds interleaved so drift hits all alike;
    return the median seconds of each."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) for name, ts in times.items()}


def machine() -> str:
    """One line describing where the numbers were taken."""
    import os

    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
            f"torch {torch.__version__} ({torch.get_num_threads()} threads), Python {platform.python_version()}")

"""Process-level performance settings for CPU inference.

The allocator setting below is applied when `models` is imported (a notebook or script
that only does `import models` gets the fast recording path too), unless the
environment says GLASSBOX_TUNE_ALLOCATOR=0 (or false/no/off) before the import; the app
and the benchmarks apply it the same way (`tune_serving`). Torch's thread counts are set
by the app only (`tune_threads`), never on import.

Recording a trace keeps tens of MB of activations alive per forward pass. With glibc's
default malloc, every large tensor is a fresh `mmap` (and the heap is trimmed back to
the OS after each pass), so each recorded pass page-faults its memory in again; that
alone made `run_with_cache` ~20 % slower than a plain forward at 128 tokens. Keeping
large blocks in the heap, as jemalloc/tcmalloc-style allocators do and as the PyTorch
CPU performance guide recommends, removes that cost. The price is that the process
keeps up to `trim_threshold` bytes of freed memory for reuse (freed blocks are reused by
the next pass, so a process's peak memory is about what it was; it is just not handed
back to the OS between passes). Opt out with GLASSBOX_TUNE_ALLOCATOR=0, e.g. for a
long-lived process that must return memory to the OS between rare large passes.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3   # glibc <malloc.h>
_tuned = False
ALLOCATOR_ENV = "GLASSBOX_TUNE_ALLOCATOR"
_OFF = {"0", "false", "no", "off"}


def tune_allocator(mmap_threshold: int = 256 << 20, trim_threshold: int = 512 << 20) -> bool:
    """Serve allocations below `mmap_threshold` from the heap and keep up to
    `trim_threshold` bytes of freed heap. Returns True if applied (Linux/glibc only)."""
    global _tuned
    if _tuned:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        ok = libc.mallopt(_M_MMAP_THRESHOLD, mmap_threshold) == 1 and libc.mallopt(_M_TRIM_THRESHOLD, trim_threshold) == 1
    except (OSError, AttributeError):  # not glibc (e.g. musl): leave the allocator alone
        return False
    _tuned = ok
    return ok


def allocator_tuned() -> bool:
    """Whether `tune_allocator` is in force in this process."""
    return _tuned


def allocator_opted_out(env: dict[str, str] | None = None) -> bool:
    """Whether $GLASSBOX_TUNE_ALLOCATOR turns the default allocator setting off."""
    return (os.environ if env is None else env).get(ALLOCATOR_ENV, "").strip().lower() in _OFF


def tune_allocator_by_default() -> bool:
    """`tune_allocator()` unless GLASSBOX_TUNE_ALLOCATOR=0: what `import models` runs
    (idempotent; cheap after the first call). Returns whether the setting is in force."""
    if allocator_opted_out():
        return _tuned
    return tune_allocator()


_threads_tuned: tuple[int, int] | None = None


def usable_cpus(cgroup: str = "/sys/fs/cgroup") -> int:
    """The CPUs this process can use: its affinity (taskset, a container's cpuset), bounded
    by the CPU quota of its cgroup (`docker run --cpus`, compose's `cpus:`, a Kubernetes CPU
    limit), rounded up. `os.cpu_count()` counts the host's CPUs, so in a container limited
    to 1 CPU on a 16-CPU host torch would start 8 threads to share that one CPU. Reads
    cgroup v2's `cpu.max`, else v1's `cpu/cpu.cfs_quota_us` and `cpu.cfs_period_us`; no
    quota, or a file it cannot read, leaves the affinity's count."""
    import math
    import os
    from pathlib import Path

    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    root = Path(cgroup)
    try:
        quota, period = (root / "cpu.max").read_text().split()[:2]
    except (OSError, ValueError):
        try:
            quota = (root / "cpu" / "cpu.cfs_quota_us").read_text().strip()
            period = (root / "cpu" / "cpu.cfs_period_us").read_text().strip()
        except OSError:
            quota, period = "max", "1"
    try:
        if quota not in ("max", "-1") and int(quota) > 0 and int(period) > 0:
            n = min(n, math.ceil(int(quota) / int(period)))
    except ValueError:
        pass
    return max(1, n)


def tune_threads(intra: int | None = None, interop: int = 1) -> tuple[int, int]:
    """Bound torch's CPU threads for a server that many sessions share.

    `intra` (threads inside one op, e.g. a matmul): the env var GLASSBOX_TORCH_THREADS if
    set, else the CPUs the process can use (`usable_cpus`: torch's own default counts the
    host's, also in a container with a CPU limit), at most 8. Sessions' forward
    passes are queued by the model locks and server/guard.py, so one pass at a time uses the
    cores; more threads than cores would only make them fight. `interop` (threads that
    run independent ops side by side): 1; the models run op after op and each extra pool
    is idle threads per process. Streamlit has no config option for either, so the app
    calls this once per process (ui/serving/gate.py, through `tune_serving`). torch refuses
    to change the inter-op count after its pool has started; that is then left as it is.
    Returns the (intra, interop) counts in force.
    """
    import os

    import torch

    global _threads_tuned
    if _threads_tuned is not None:
        return _threads_tuned
    if intra is None:
        env = os.environ.get("GLASSBOX_TORCH_THREADS", "").strip()
        if env:
            try:
                intra = int(env)
            except ValueError:
                raise ValueError(f"GLASSBOX_TORCH_THREADS must be a whole number, not {env!r}.") from None
        else:
            intra = min(usable_cpus(), 8)
    if intra < 1 or interop < 1:
        raise ValueError(f"thread counts must be >= 1 (intra={intra}, interop={interop}).")
    torch.set_num_threads(intra)
    try:
        torch.set_num_interop_threads(interop)
    except RuntimeError:   # "cannot set number of interop threads after parallel work has started"
        pass
    _threads_tuned = (torch.get_num_threads(), torch.get_num_interop_threads())
    return _threads_tuned


def tune_serving() -> dict[str, object]:
    """Everything the app sets for serving, once per process: the allocator (unless
    GLASSBOX_TUNE_ALLOCATOR=0) and torch's thread counts. Returns what is in force (for logs and the load benchmark)."""
    allocator = tune_allocator_by_default()
    intra, interop = tune_threads()
    return {"allocator_tuned": allocator, "intra_op_threads": intra, "interop_threads": interop}

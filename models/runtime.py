"""Process-level performance settings for CPU inference, applied explicitly by the app
and the benchmarks (never on import).

Recording a trace keeps tens of MB of activations alive per forward pass. With glibc's
default malloc, every large tensor is a fresh `mmap` (and the heap is trimmed back to
the OS after each pass), so each recorded pass page-faults its memory in again; that
alone made `run_with_cache` ~20 % slower than a plain forward at 128 tokens. Keeping
large blocks in the heap, as jemalloc/tcmalloc-style allocators do and as the PyTorch
CPU performance guide recommends, removes that cost. The price is that the process
keeps up to `trim_threshold` bytes of freed memory for reuse.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3   # glibc <malloc.h>
_tuned = False


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


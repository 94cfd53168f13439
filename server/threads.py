"""OpenMP's idle policy for the server process: worker threads sleep as soon as they are
idle instead of spinning. Set before PyTorch is loaded.

PyTorch runs its CPU kernels on OpenMP worker threads (libgomp, in the Linux wheels). By
default a worker that finishes a parallel region busy-waits for a while before it sleeps,
so that the next region starts a few microseconds sooner. A benchmark that runs pass after
pass gains from that; a server that a class shares loses: during and after every forward
pass the spinning workers hold the cores that other sessions' script runs are waiting
for. Measured on the 2-core development machine, a MiniLM pass over 48 words every 50 ms
with another process busy: 160 ms of CPU and 296 ms of wall time per pass by default,
23 ms and 44 ms with `OMP_WAIT_POLICY=PASSIVE` (docs/design-notes.md).

libgomp reads the variable once, when it is loaded (with `import torch`), so
`quiet_idle_threads()` runs before anything imports torch: at the top of ui/warmup.py,
the first module of the app's process (`make run`, `python -m cli.serve`, and app.py
under a plain `streamlit run`). An operator's own OMP_WAIT_POLICY wins. Standard library
only.
"""
from __future__ import annotations

import os
import sys

POLICY = "PASSIVE"


def quiet_idle_threads() -> bool:
    """Set OMP_WAIT_POLICY=PASSIVE unless it is set already; False (nothing changed)
    when torch is loaded already, since the setting would no longer be read."""
    if "torch" in sys.modules:
        return False
    os.environ.setdefault("OMP_WAIT_POLICY", POLICY)
    return True

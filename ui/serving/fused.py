"""What the walk-through's fused-kernel section runs (ui/views/walkthrough_fused.py):
`fused_timings`, lab.fused.compare on the sidebar's text, in the gate. Measured on every
call (a timing is not cached)."""
from __future__ import annotations

from lab import fused

from .gate import run
from .run_key import RunKey
from .walkthrough import MAX_TOKENS, encodings


def fused_timings(key: RunKey, stack: str, layer: int, runs: int) -> list[fused.FusedTiming]:
    _, src, tgt = encodings(key)
    ids, tgt_ids = src.ids[:MAX_TOKENS], (tgt.ids[:MAX_TOKENS] if tgt is not None else None)
    return run(key.model_key, key.device,
               lambda m, _n: fused.compare(m, ids, layer, stack, tgt_ids, runs=runs), len(ids))

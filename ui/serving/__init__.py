"""The serving layer: the one run gate, the caches the pages read and the models a
session trained. Streamlit glue only; the analysis lives in `lab`, and what the server
process keeps apart from any one page (the pass guard, run statistics, the session count,
class mode's store) in `server/`.

- `run_key`: `RunKey`, the (model, device, text, target) every cached per-text function takes first;
- `gate`: load -> budget -> guard (server/guard.py) -> lock -> run with fallback (every forward pass);
- `cache`: per-text numpy data for the pages (attention maps, FFN/residual internals);
- `attribution`: the attribution page's recorded pass, detector scores and patching
  sweeps (imported as `ui.serving.attribution`);
- one module per page topic for the cached passes its views (and lessons) read, imported by
  name (`ui.serving.walkthrough`, `attention`, `beyond`, `masks`, `positional`, `residual`,
  `ffn`, `generate`, `lessons`): views draw, these compute;
- `figures`: `shared_figure`, a figure built once for every session that shows the same thing
  (imported as `ui.serving.figures`);
- `trained`: models trained, uploaded or loaded in this browser session, the model picker's entries;
- `parity`: parity badges against transformers, cached per model and text (imported as `ui.serving.parity`).
"""
from .cache import (INTERNALS, AttentionData, InternalsData, attention_data, config_json, head_metrics, internals,
                    neuron_projection, parameters, rollout, trace_npz)
from .cache import MapView, map_view
from .gate import (BUDGET_ENV, DEFAULT_TRACE_BUDGET_MB, MAX_CHARS, OutOfMemory, Recorded, RunInfo, TraceBudgetError,
                   encode, fit_budget, is_loaded, is_oom, load_model, pass_bytes, record, run, run_held,
                   run_padded, run_with_fallback, trace_budget_bytes, unk_fraction)
from .run_key import RunKey
from .trained import entries, entry, task_of

__all__ = [
    "INTERNALS", "AttentionData", "InternalsData", "attention_data", "config_json", "head_metrics", "internals",
    "neuron_projection", "parameters", "rollout", "trace_npz", "MapView", "map_view",
    "BUDGET_ENV", "DEFAULT_TRACE_BUDGET_MB", "MAX_CHARS", "OutOfMemory", "Recorded", "RunInfo", "TraceBudgetError",
    "encode", "fit_budget", "is_loaded", "is_oom", "load_model", "pass_bytes", "record", "run", "run_held",
    "run_padded", "run_with_fallback", "trace_budget_bytes", "unk_fraction", "RunKey", "entries", "entry", "task_of",
]

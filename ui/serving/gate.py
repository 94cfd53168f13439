"""The run gate: every forward pass the app makes goes through here.

    load -> budget -> guard -> lock -> run with fallback -> result

- load: `load_model(key, device)` (models shared by all sessions, `st.cache_resource`),
  or a model this session trained (`trained.py`);
- budget: the memory a recorded pass needs is estimated from the config and the token
  count before it runs (`lab.memory`); a text over the budget is cut (`fit_budget`);
- guard: big passes queue across all models (`server/guard.py`), so thirty students never
  start thirty long passes at once;
- lock: a model is shared between browser sessions and recording registers hooks on
  it, so each pass holds that model's lock: two sessions never record into each
  other's trace;
- fallback: out of memory on a GPU runs again on the CPU copy, then (where the caller
  allows it) on shorter inputs; anything else goes up unchanged.

Entry points: `run(key, device, attempt, n)` for a catalogue or session model,
`run_held(model, attempt, n)` for a model in hand (a rebuilt ablation model, one
generation step, a training probe), and `record(run_key, names)` (a `RunKey`),
the recorded pass the pages' cached data is made from.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Callable, Sequence, TypeVar

import streamlit as st
import torch

from lab.memory import estimate_trace_bytes, max_tokens_within, working_bytes
from models import limits
from models.runtime import tune_serving
from models.tokenizer import Encoding, Tokenizer
from models.trace import Trace
from models.transformer import Transformer
from models.weights import zoo
from server import guard

from .run_key import RunKey

tune_serving()   # allocator + torch thread counts, once per process (see models/runtime.py)

# longer texts are cut before tokenizing (the model would keep <= max_len tokens anyway)
MAX_CHARS = int(limits.value("text_chars"))
# Memory one recorded pass may take (trace + one layer's working memory, estimated from
# the config and the token count before the pass runs, lab/memory.py). 256 MB: a
# 24 GB server shared by 30 users leaves ~800 MB a session, and the views keep copies
# (numpy slices, figures) of what is recorded. MiniLM at 512 tokens needs ~130 MB.
DEFAULT_TRACE_BUDGET_MB = limits.LIMITS["trace_mb"].default
BUDGET_ENV = limits.LIMITS["trace_mb"].env
T = TypeVar("T")
_locks: dict[int, threading.Lock] = {}
_locks_guard = threading.Lock()
_loaded: set[tuple[str, str]] = set()


def _lock(model: Transformer) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(id(model), threading.Lock())


# ---- load ----------------------------------------------------------------------------------
@st.cache_resource(show_spinner=False, max_entries=6)
def _load(key: str, device: str) -> tuple[Transformer, Tokenizer]:
    return zoo.load(key, device=device)


def is_loaded(key: str, device: str) -> bool:
    """Whether this process already holds the model (no progress needs showing)."""
    return key.startswith("trained:") or (key, device) in _loaded


def load_model(key: str, device: str) -> tuple[Transformer, Tokenizer]:
    """The (model, tokenizer) of a catalogue entry, or of a model this session trained or
    uploaded ("trained:<id>", see trained.py); raises ValueError with a message."""
    if key.startswith("trained:"):
        from . import trained

        return trained.load(key, device)
    model, tok = _load(key, device)
    _loaded.add((key, device))
    return model, tok


def encode(tok: Tokenizer, model: Transformer, text: str) -> Encoding:
    """Tokenize for the app: at most the model's max_len tokens (reported when cut)."""
    return tok.encode(text[:MAX_CHARS], max_len=model.cfg.max_len)


def unk_fraction(tok: Tokenizer, ids: list[int]) -> float:
    """Share of the ids that are the tokenizer's unknown token ([UNK])."""
    unk = getattr(tok, "unk_id", None)
    return 0.0 if unk is None or not ids else sum(i == unk for i in ids) / len(ids)


# ---- budget ----------------------------------------------------------------------------------
def trace_budget_bytes() -> int:
    """The per-pass memory budget in bytes: $GLASSBOX_TRACE_BUDGET_MB, else 256 MB
    (models/limits.py; an unreadable value falls back to the default)."""
    return limits.megabytes("trace_mb")


def pass_bytes(model: Transformer, n_src: int, n_tgt: int | None, names: list[str] | None) -> int:
    """Estimated memory of one recorded pass: the trace plus one layer's working memory."""
    return (estimate_trace_bytes(model.cfg, model.hook_names(), n_src, n_tgt, names)
            + working_bytes(model.cfg, n_src, n_tgt))


class TraceBudgetError(ValueError):
    """Not even one token fits the memory budget (a model too large for this server)."""

    def __init__(self, need: int, budget: int) -> None:
        super().__init__(f"One token of this model needs about {need / 1e6:.0f} MB, more than the budget of "
                         f"{budget / 1e6:.0f} MB per pass (${BUDGET_ENV}).")
        self.need, self.budget = need, budget


class OutOfMemory(ValueError):
    """Out of memory even on the CPU with a much shorter input."""

    def __init__(self, n: int) -> None:
        super().__init__(f"The server ran out of memory even on {n} tokens of this text.")
        self.n = n


@dataclass
class RunInfo:
    """How a recorded pass went: what the budget or an out-of-memory error changed."""

    n_asked: int                  # tokens the text has (after the model's own max_len cut)
    n_kept: int                   # tokens actually run
    need_bytes: int               # estimated memory of the pass at n_asked tokens
    budget_bytes: int
    trace_bytes: int = 0          # memory the recorded trace held (Trace.nbytes)
    device: str = "cpu"           # where it ran in the end
    fallback: str | None = None   # None | "cpu" (GPU out of memory) | "shorter" (out of memory on the CPU)

    @property
    def budget_cut(self) -> bool:
        return self.n_kept < self.n_asked and self.fallback != "shorter"


def fit_budget(model: Transformer, n_src: int, n_tgt: int | None, names: list[str] | None,
               budget: int | None = None) -> tuple[int, int]:
    """(tokens to run, estimated bytes at all n_src tokens). Both sequences are cut to the
    same length. Raises TraceBudgetError when not even one token fits."""
    budget = trace_budget_bytes() if budget is None else budget
    n = max(n_src, n_tgt or 0)

    def need(m: int) -> int:
        return pass_bytes(model, min(m, n_src), None if n_tgt is None else min(m, n_tgt), names)

    kept = max_tokens_within(budget, need, n)
    if kept < 1:
        raise TraceBudgetError(need(1), budget)
    return kept, need(n)


# ---- run with fallback ---------------------------------------------------------------------------
def _oom_types() -> tuple[type[BaseException], ...]:
    kinds = {getattr(torch, "OutOfMemoryError", None), getattr(torch.cuda, "OutOfMemoryError", None)}
    return tuple(k for k in kinds if k is not None)


def is_oom(e: BaseException) -> bool:
    """CUDA/MPS out of memory (torch.OutOfMemoryError, torch.cuda.OutOfMemoryError) or a
    CPU allocation that failed."""
    if isinstance(e, _oom_types()):
        return True
    msg = str(e).lower()
    return isinstance(e, RuntimeError) and ("out of memory" in msg or "can't allocate memory" in msg)


def _release(device: str) -> None:
    if torch.device(device).type == "cuda" and torch.cuda.is_available():
        torch.cuda.empty_cache()


def run_held(model: Transformer, attempt: Callable[[Transformer], T], n_tokens: int) -> T:
    """Run `attempt(model)` for a model in hand (not reloadable by key): guard, then the
    model's lock. Out of memory raises OutOfMemory (a ValueError with a message); there
    is no copy to fall back to."""
    try:
        with guard.forward_pass(n_tokens), _lock(model):
            return attempt(model)
    except Exception as e:      # noqa: BLE001 (re-raised unless it is out of memory)
        if not is_oom(e):
            raise
    _release(str(model.device))
    raise OutOfMemory(n_tokens)


def run_with_fallback(key: str, device: str, n: int, attempt: Callable[[Transformer, int], T],
                      min_tokens: int = 8, shorter: bool = True) -> tuple[T, str, int, str | None]:
    """The one place that survives running out of memory: `attempt(model, n_tokens)` runs
    under the guard and the model's lock on `device`; if it runs out of memory there,
    again on the CPU copy of the model (a GPU that is full), then on the CPU with half
    the tokens, down to `min_tokens`. Returns (result, device used, tokens used,
    fallback: None | "cpu" | "shorter"; shorter=False: no shorter tries). Anything else
    the attempt raises goes up unchanged; out of memory at the end raises OutOfMemory."""
    model, _ = load_model(key, device)
    try:
        with guard.forward_pass(n), _lock(model):
            return attempt(model, n), device, n, None
    except Exception as e:      # noqa: BLE001 (re-raised unless it is out of memory)
        if not is_oom(e):
            raise
    _release(device)
    fallback = None
    if torch.device(device).type != "cpu":
        model, _ = load_model(key, "cpu")
        fallback = "cpu"
        try:
            with guard.forward_pass(n), _lock(model):
                return attempt(model, n), "cpu", n, fallback
        except Exception as e:  # noqa: BLE001
            if not is_oom(e):
                raise
    m, floor = n // 2, max(1, min(min_tokens, n // 2))
    if not shorter:
        raise OutOfMemory(n)
    while m >= floor:
        try:
            with guard.forward_pass(m), _lock(model):
                return attempt(model, m), "cpu", m, "shorter"
        except Exception as e:  # noqa: BLE001
            if not is_oom(e):
                raise
        m //= 2
    raise OutOfMemory(floor)


def run(key: str, device: str, attempt: Callable[[Transformer, int], T], n_tokens: int) -> T:
    """`run_with_fallback` for work whose input cannot be shortened (a lab run over a
    fixed set of tokens): the result alone."""
    return run_with_fallback(key, device, n_tokens, attempt, shorter=False)[0]


def run_padded(key: str, device: str, texts: Sequence[str], max_tokens: int,
               analysis: Callable[[Transformer, list, list, int, str], T]) -> T:
    """`run` of a padded batch: each text encoded and cut to `max_tokens`, then
    `analysis(model, ids, tokens, pad_id, pad_token)` (the masks page's padding view and the
    residual page's BatchNorm view read the same batch)."""
    model, tok = load_model(key, device)
    encs = [encode(tok, model, s) for s in texts]
    ids = [e.ids[:max_tokens] for e in encs]
    tokens = [e.tokens[:max_tokens] for e in encs]
    pad = tok.pad_id if getattr(tok, "pad_id", None) is not None else 0
    return run(key, device, lambda m, _n: analysis(m, ids, tokens, pad, tok.id_to_token(pad)),
               max(len(r) for r in ids))


# ---- the recorded pass -------------------------------------------------------------------------
@dataclass
class Recorded:
    """One recorded pass over the selection's text, as the gate ran it."""

    model: Transformer            # the model that ran (the CPU copy after a GPU fallback)
    tokenizer: Tokenizer
    source: Encoding              # cut to the tokens that ran
    target: Encoding | None       # the decoder input of an encoder-decoder
    trace: Trace
    info: RunInfo


def _cut(enc: Encoding, n: int) -> Encoding:
    """An encoding cut to its first n tokens."""
    return replace(enc, ids=enc.ids[:n], tokens=enc.tokens[:n], offsets=enc.offsets[:n])


def record(key: RunKey, names: list[str] | None,
           budget: int | None = None) -> Recorded:
    """One recorded pass over the text (and the decoder input of an encoder-decoder).

    Before the pass its memory is estimated from the config and the token count; a text
    over the budget is cut to the tokens that fit. Out of memory during the pass: see
    `run_with_fallback`."""
    model, tok = load_model(key.model_key, key.device)
    enc = encode(tok, model, key.text)
    if not enc.ids:
        raise ValueError("The text is empty.")
    tgt = encode(tok, model, key.target or key.text) if model.cfg.arch == "encoder-decoder" else None
    n_tgt = len(tgt.ids) if tgt is not None else None
    n_all = max(len(enc.ids), n_tgt or 0)
    budget = trace_budget_bytes() if budget is None else budget
    kept, need = fit_budget(model, len(enc.ids), n_tgt, names, budget)

    def attempt(m: Transformer, n: int):
        kw = {"tgt_ids": tgt.ids[:n], "tgt_tokens": tgt.tokens[:n]} if tgt is not None else {}
        _, trace = m.run_with_cache(enc.ids[:n], names=names, tokens=enc.tokens[:n], **kw)
        return m, trace

    (model, trace), used, n_run, fallback = run_with_fallback(key.model_key, key.device, kept, attempt)
    info = RunInfo(n_all, n_run, need, budget, trace.nbytes, used, fallback)
    if n_run < n_all:
        enc = _cut(enc, n_run)
        tgt = _cut(tgt, n_run) if tgt is not None else None
    return Recorded(model, tok, enc, tgt, trace, info)

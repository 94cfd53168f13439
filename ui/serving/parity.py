"""Parity badges: our output against transformers' for a model that comes from a Hugging
Face folder (the bundled MiniLM, a "folder:<path>" entry, a model this session loaded),
computed by models/weights/parity.py and cached per (model key, text, target).

The reference transformers models of the last few folders compared are kept (MAX_REFERENCES,
per folder contents, Auto class and dtype), so a new text costs one forward pass, not a
reload. A reference holds no copy of the weights: its parameters are views of the
checkpoint's memory-mapped files, cast on read where the compared dtype differs
(models/weights/parity.py, `shared_reference`), so keeping one costs the server little.
Importing transformers takes seconds the first time, so pages ask for a badge after they
have drawn everything else."""
from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from models.weights import parity

from . import trained

MAX_RESULTS = 256
MAX_REFERENCES = 4
_results: "OrderedDict[tuple[str, str, str], parity.Parity]" = OrderedDict()
_references: "OrderedDict[tuple[Any, ...], Any]" = OrderedDict()   # (folder fingerprint, class, dtype) -> model
_guard = threading.Lock()


def source_of(key: str) -> str | None:
    """The Hugging Face folder a model comes from, else None (toy, custom, trained)."""
    if key == "minilm":
        from models.errors import Refused
        from models.weights.pretrained import minilm_path

        try:
            return str(minilm_path())
        except Refused:
            return None
    if key.startswith("folder:"):
        return key[len("folder:"):]
    if key.startswith("trained:"):
        holder = trained.find(key)
        if holder is not None and holder.kind == "loaded":
            source = holder.card.get("source")
            return source if isinstance(source, str) else None
    return None


def cached(key: str, text: str, target: str = "") -> parity.Parity | None:
    with _guard:
        return _results.get((key, text, target))


def remember(key: str, text: str, target: str, result: parity.Parity) -> None:
    with _guard:
        _results[(key, text, target)] = result
        _results.move_to_end((key, text, target))
        while len(_results) > MAX_RESULTS:
            _results.popitem(last=False)


def _reference_for(source: str, model: Any) -> Any:
    """The transformers model of `source` for `model`'s class and dtype, built once while it
    is among the last MAX_REFERENCES compared (a folder rewritten since is built again)."""
    from .loaded import fingerprint

    key = (fingerprint(source), parity.reference_class(model), str(parity.dtype_of(model)))
    with _guard:
        if key in _references:
            _references.move_to_end(key)
            return _references[key]
    ref = parity.build_reference(source, model)
    with _guard:
        _references[key] = ref
        while len(_references) > MAX_REFERENCES:
            _references.popitem(last=False)
    return ref


def compare(key: str, source: str, model: Any, tok: Any, text: str, target: str = "") -> parity.Parity:
    """The badge of `model` (loaded from `source`) on `text`, computed now and remembered."""
    try:
        ref = _reference_for(source, model)
    except Exception:  # noqa: BLE001 - compare() builds it again and turns the error into its reason
        ref = None
    result = parity.compare(Path(source), model, tok, text, target, reference=ref)
    remember(key, text, target, result)
    return result


def check(key: str, text: str, target: str, device: str) -> parity.Parity | None:
    """The badge of the model `key` on `text` (cached), None for a model not from a folder."""
    hit = cached(key, text, target)
    if hit is not None:
        return hit
    source = source_of(key)
    if source is None:
        return None
    from .gate import load_model

    model, tok = load_model(key, device)
    return compare(key, source, model, tok, text, target)

"""Glassbox checkpoints: weights as safetensors, everything else as JSON. Never pickle.

A checkpoint `name` is two files side by side:
- `name.safetensors`: the model's state dict (tied weights stored once);
- `name.json`: {"format": "glassbox-checkpoint", "version": 1, "config": {...},
  "tokenizer": {...} (see models.tokenizer.tokenizer_from_dict), "meta": {...}}.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch

from ..config import TransformerConfig
from ..tokenizer import Tokenizer, tokenizer_from_dict
from ..transformer import Transformer

FORMAT, VERSION = "glassbox-checkpoint", 1
CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"


def _paths(path: str | Path) -> tuple[Path, Path]:
    p = Path(path)
    stem = p.with_suffix("") if p.suffix in (".safetensors", ".json") else p
    return stem.with_suffix(".safetensors"), stem.with_suffix(".json")


def save_checkpoint(model: Transformer, tokenizer: Tokenizer | None, path: str | Path,
                    meta: dict[str, Any] | None = None) -> Path:
    """Write `path.safetensors` + `path.json`; returns the JSON path. Writes to temporary
    files first and renames, so an interrupted save never leaves a half-written checkpoint."""
    from safetensors.torch import save_file

    weights_path, json_path = _paths(path)
    weights_path.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().cpu().contiguous() for k, v in model.state_dict().items()}
    if model.cfg.output == "logits" and model.cfg.tie_embeddings:
        state.pop("unembed.weight", None)          # tied: stored once, as embed.weight
    doc = {"format": FORMAT, "version": VERSION, "config": model.cfg.to_dict(),
           "tokenizer": tokenizer.to_dict() if tokenizer is not None else None, "meta": meta or {}}
    tmp_w, tmp_j = weights_path.with_suffix(".safetensors.tmp"), json_path.with_suffix(".json.tmp")
    save_file(state, str(tmp_w))
    tmp_j.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp_w.replace(weights_path)
    tmp_j.replace(json_path)
    return json_path


def read_checkpoint_info(path: str | Path) -> dict[str, Any]:
    """The JSON part only (cheap: for catalogues). Raises ValueError if it is not ours."""
    weights_path, json_path = _paths(path)
    try:
        doc = json.loads(json_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{json_path} is not a readable Glassbox checkpoint: {e}") from None
    if doc.get("format") != FORMAT:
        raise ValueError(f"{json_path} is not a Glassbox checkpoint (format {doc.get('format')!r}).")
    if not weights_path.exists():
        raise ValueError(f"{weights_path} is missing (the weights of {json_path.name}).")
    return doc


def load_checkpoint(path: str | Path, device: str | torch.device | None = "cpu") -> tuple[Transformer, Tokenizer | None, dict]:
    """(model, tokenizer, meta) from a checkpoint written by `save_checkpoint`."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    weights_path, _ = _paths(path)
    doc = read_checkpoint_info(path)
    cfg = TransformerConfig.from_dict(doc["config"])
    try:
        state = load_file(str(weights_path))
    except (SafetensorError, OSError, RuntimeError, ValueError) as e:
        raise ValueError(f"{weights_path} is not a readable safetensors file (corrupt or truncated?): {e}") from None
    model = Transformer(cfg, device="cpu")
    if cfg.output == "logits" and cfg.tie_embeddings:
        state["unembed.weight"] = state.get("embed.weight")
    expected = model.state_dict()
    for name, param in expected.items():
        if name not in state or state[name] is None:
            raise ValueError(f"{weights_path.name} is missing {name!r}.")
        if tuple(state[name].shape) != tuple(param.shape):
            raise ValueError(f"{name!r} in {weights_path.name} has shape {tuple(state[name].shape)}, "
                             f"the config needs {tuple(param.shape)}.")
    model.load_state_dict(state, strict=True)
    tok = tokenizer_from_dict(doc["tokenizer"]) if doc.get("tokenizer") else None
    from ..device import pick_device

    return model.to(pick_device(device)).eval(), tok, doc.get("meta", {})


def shipped_checkpoints(folder: Path = CHECKPOINT_DIR) -> list[Path]:
    """JSON files of the checkpoints shipped in models/checkpoints/ (sorted)."""
    return sorted(folder.glob("*.json")) if folder.is_dir() else []

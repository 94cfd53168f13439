"""Glassbox checkpoints: weights as safetensors, everything else as JSON. Never pickle.

A checkpoint `name` is two files side by side:
- `name.safetensors`: the model's state dict (tied weights stored once);
- `name.json`: {"format": "glassbox-checkpoint", "version": 1, "config": {...},
  "tokenizer": {...} (see models.tokenizer.tokenizer_from_dict), "meta": {...}}.

For a download or an upload the two files travel as one zip (`checkpoint_zip`,
`read_checkpoint_zip`).
"""
from __future__ import annotations

import io
import json
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import torch

from ..config import TransformerConfig
from ..tokenizer import Tokenizer, tokenizer_from_dict
from ..transformer import Transformer

FORMAT, VERSION = "glassbox-checkpoint", 1
CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"
MAX_ZIP_MB = 20                        # an uploaded checkpoint zip; its contents may unpack to 4x that


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


# ---- one zip for a download / an upload -------------------------------------------------------
class CheckpointZipError(ValueError):
    """A zip that is not a usable checkpoint. The message is an English sentence;
    `reason` (too_big | not_zip | contents | invalid | no_tokenizer) and `values` (the
    numbers or the inner error in it) let an app say the same in its own language."""

    def __init__(self, reason: str, message: str, **values: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.values = values


def checkpoint_zip(model: Transformer, tokenizer: Tokenizer | None, meta: dict[str, Any], stem: str) -> bytes:
    """A checkpoint (`stem.safetensors` + `stem.json`) as the bytes of one zip."""
    with tempfile.TemporaryDirectory() as tmp:
        json_path = save_checkpoint(model, tokenizer, Path(tmp) / stem, meta)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(json_path, json_path.name)
            z.write(json_path.with_suffix(".safetensors"), f"{stem}.safetensors")
        return buf.getvalue()


def _too_big(n_bytes: int, limit_mb: int) -> CheckpointZipError:
    mb = n_bytes // 2**20
    return CheckpointZipError("too_big", f"The checkpoint is {mb} MB; the limit is {limit_mb} MB.", mb=mb,
                              limit=limit_mb)


def read_checkpoint_zip(data: bytes, limit_mb: int = MAX_ZIP_MB) -> tuple[Transformer, Tokenizer, dict]:
    """(model on the CPU, tokenizer, meta) from the bytes of a zip holding exactly one
    .json and one .safetensors; CheckpointZipError (a ValueError) with a sentence
    otherwise. At most `limit_mb` MB zipped and 4x that unpacked."""
    if len(data) > limit_mb * 2**20:
        raise _too_big(len(data), limit_mb)
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        names = [i for i in z.infolist() if not i.is_dir()]
    except zipfile.BadZipFile:
        raise CheckpointZipError("not_zip", "That file is not a zip archive.") from None
    jsons = [i for i in names if i.filename.endswith(".json")]
    weights = [i for i in names if i.filename.endswith(".safetensors")]
    if len(jsons) != 1 or len(weights) != 1:
        raise CheckpointZipError("contents", "The zip must hold exactly one .json and one .safetensors file.")
    if sum(i.file_size for i in names) > 4 * limit_mb * 2**20:
        raise _too_big(sum(i.file_size for i in names), limit_mb)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "upload.json").write_bytes(z.read(jsons[0]))
        (Path(tmp) / "upload.safetensors").write_bytes(z.read(weights[0]))
        try:
            model, tok, meta = load_checkpoint(Path(tmp) / "upload.json", "cpu")
        except (ValueError, TypeError, KeyError) as e:
            raise CheckpointZipError("invalid", f"Not a valid Glassbox checkpoint: {e}", error=str(e)) from None
    if tok is None:
        raise CheckpointZipError("no_tokenizer", "The checkpoint has no tokenizer, so text cannot be fed to it.")
    return model, tok, meta

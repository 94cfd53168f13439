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
import struct
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any, Callable

import torch

from .. import limits
from ..config import TransformerConfig
from ..errors import Refused
from ..tokenizer import Tokenizer, tokenizer_from_dict
from ..transformer import Transformer
from . import safety
from .safety import Header

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
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:            # a lone surrogate in a vocabulary: escaped, still valid JSON
        raw = json.dumps(doc, ensure_ascii=True, indent=1).encode("ascii")
    tmp_j.write_bytes(raw)
    tmp_w.replace(weights_path)
    tmp_j.replace(json_path)
    return json_path


def _document(raw: bytes | str, name: str) -> dict[str, Any]:
    """The JSON part of a checkpoint, checked to be ours (Refused otherwise)."""
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):      # not JSON or not UTF-8, a number of over 4,300 digits, too deep
        raise Refused("not_json", f"{name} is not readable JSON.", file=name) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Refused("not_checkpoint", f"{name} is not a Glassbox checkpoint.", file=name)
    return doc


def read_checkpoint_info(path: str | Path) -> dict[str, Any]:
    """The JSON part only (cheap: for catalogues). Raises a Refused (a ValueError) if it
    is not ours or its weights file is missing."""
    weights_path, json_path = _paths(path)
    try:
        raw = json_path.read_bytes()
    except OSError:
        raise Refused("not_readable", f"{json_path.name} cannot be read.", file=json_path.name) from None
    doc = _document(raw, json_path.name)
    if not weights_path.exists():
        raise Refused("weights_absent", f"{weights_path.name} is missing (the weights of {json_path.name}).",
                      file=weights_path.name)
    return doc


def _build(doc: dict[str, Any], header: Header, read: Callable[[], dict[str, torch.Tensor]]
           ) -> tuple[Transformer, Tokenizer | None, dict[str, Any]]:
    """A model from a checkpoint document and its weights, checked before anything is
    allocated: the config, its size against the budget, every tensor's name, dtype and
    shape in the header; only then `read()` the tensors and build the model."""
    cfg = TransformerConfig.from_dict(doc.get("config"))
    need = safety.check_model(cfg, "This checkpoint")
    expected = dict(safety.expected_shapes(cfg))
    tied = cfg.output == "logits" and cfg.tie_embeddings
    if tied:
        expected.pop("unembed.weight", None)                      # stored once, as embed.weight
    safety.check_tensors(expected, header)
    safety.check_data_size(header, need)
    tok = _tokenizer(doc.get("tokenizer"), cfg)
    meta = doc.get("meta")
    meta = {str(k): v for k, v in meta.items()} if isinstance(meta, dict) else {}
    try:
        state = read()
    except Exception as e:    # noqa: BLE001 (the safetensors library's own errors): one sentence, the log keeps it
        raise Refused("weights_corrupt", f"{header.name} is not a readable safetensors file (corrupt or truncated?).",
                      file=header.name) from e
    state = {k: v.float() for k, v in state.items() if k in expected}
    if tied:
        state["unembed.weight"] = state["embed.weight"]
    return Transformer.from_state(cfg, state, "cpu"), tok, meta


def _tokenizer(d: Any, cfg: TransformerConfig) -> Tokenizer | None:
    if not d:
        return None
    try:
        tok = tokenizer_from_dict(d)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:    # noqa: BLE001 - a hostile dict can fail anywhere inside, the tokenizers library
        # with a PanicException (a BaseException) too: one sentence
        raise Refused("tokenizer", "The checkpoint's tokenizer cannot be read.") from e
    if tok.vocab_size > cfg.vocab_size:
        raise Refused("tokenizer_vocab", f"The tokenizer has {tok.vocab_size} tokens but the model only "
                      f"{cfg.vocab_size}: they do not belong together.", n_tok=tok.vocab_size, n_model=cfg.vocab_size)
    return tok


def load_checkpoint(path: str | Path, device: str | torch.device | None = "cpu") -> tuple[Transformer, Tokenizer | None, dict]:
    """(model, tokenizer, meta) from a checkpoint written by `save_checkpoint` (checked
    before anything is allocated: see `_build`)."""
    from safetensors.torch import load_file

    from ..device import pick_device

    weights_path, _ = _paths(path)
    doc = read_checkpoint_info(path)
    model, tok, meta = _build(doc, safety.read_header(weights_path), lambda: load_file(str(weights_path)))
    return model.to(pick_device(device)).eval(), tok, meta


def shipped_checkpoints(folder: Path = CHECKPOINT_DIR) -> list[Path]:
    """JSON files of the checkpoints shipped in models/checkpoints/ (sorted)."""
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


# ---- one zip for a download / an upload -------------------------------------------------------
class CheckpointZipError(Refused):
    """A zip that is not a usable checkpoint: a `Refused` whose reason is one of too_big,
    not_zip, contents, no_tokenizer, or the reason of the problem inside (a config, a
    weights file, the budget: see `models/errors.py` and `safety.py`)."""


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


def _member(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """One member's bytes, never more than it claims to hold (`info.file_size`, checked
    against the limits before). A zip bomb's member claims a few bytes and inflates to
    gigabytes: zipfile's read() of a whole member inflates everything before cutting it
    to the claimed size, whereas a read of n bytes inflates at most n. zipfile inflates
    bzip2 and LZMA without any bound, so only stored and deflated members are read."""
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        name = Path(info.filename).name[:80]
        raise CheckpointZipError("zip_method", f"{name} is compressed with a method Glassbox does not unpack (only "
                                 "stored and deflate, the usual zip settings).", file=name)
    with z.open(info) as f:
        return f.read(info.file_size) if info.file_size else b""


def read_checkpoint_zip(data: bytes, limit_mb: int | None = None) -> tuple[Transformer, Tokenizer, dict]:
    """(model on the CPU, tokenizer, meta) from the bytes of a zip holding exactly one
    .json and one .safetensors, read in memory (nothing is written to disk); a
    CheckpointZipError (a ValueError) with a sentence otherwise. At most `limit_mb` MB
    zipped (default: the upload limit, models/limits.py) and 4x that unpacked; the model
    is checked against the server's budget before anything is allocated."""
    limit_mb = int(limits.value("upload_mb")) if limit_mb is None else limit_mb
    if len(data) > limit_mb * 2**20:
        raise _too_big(len(data), limit_mb)
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        names = [i for i in z.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError):
        raise CheckpointZipError("not_zip", "That file is not a zip archive.") from None
    jsons = [i for i in names if i.filename.endswith(".json")]
    weights = [i for i in names if i.filename.endswith(".safetensors")]
    if len(jsons) != 1 or len(weights) != 1:
        raise CheckpointZipError("contents", "The zip must hold exactly one .json and one .safetensors file.")
    if sum(i.file_size for i in names) > 4 * limit_mb * 2**20:
        raise _too_big(sum(i.file_size for i in names), limit_mb)
    json_name, weights_name = (Path(i.filename).name[:80] for i in (jsons[0], weights[0]))
    if jsons[0].file_size > safety.MAX_JSON_BYTES:
        raise CheckpointZipError("not_checkpoint", f"{json_name} is not a Glassbox checkpoint (its JSON part is "
                                 f"over {safety.MAX_JSON_BYTES // 10**6} MB).", file=json_name)
    try:
        doc = _document(_member(z, jsons[0]), json_name)
        raw = _member(z, weights[0])
    except Refused as e:
        raise CheckpointZipError(e.reason, str(e), **e.values) from None
    except (zipfile.BadZipFile, EOFError, NotImplementedError, RuntimeError, ValueError, OSError, zlib.error,
            struct.error):
        raise CheckpointZipError("not_zip", "That file is not a zip archive (its contents cannot be read).") from None
    from safetensors.torch import load as load_bytes

    try:
        model, tok, meta = _build(doc, safety.read_header(raw, weights_name), lambda: load_bytes(raw))
    except Refused as e:
        raise CheckpointZipError(e.reason, str(e), **e.values) from e
    if tok is None:
        raise CheckpointZipError("no_tokenizer", "The checkpoint has no tokenizer, so text cannot be fed to it.")
    return model.eval(), tok, meta

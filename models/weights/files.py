"""Reading a Hugging Face folder's files for the loader (models/weights/pretrained.py):
the safetensors weight files (a single file or shards; never pickle), their checked
headers, the tensors themselves (all at once, or one at a time from the memory-mapped
files: `LazyWeights`), config.json and the tokenizer files."""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Mapping

import torch

from ..errors import Refused
from ..tokenizer import HFTokenizer, Tokenizer
from . import safety
from .keytable import CheckpointError
from .safety import Header


def weight_files(folder: Path) -> list[Path]:
    """The folder's `*.safetensors` files (a single file or shards); a folder with only
    pickled weights (.bin, .pt) is refused: Glassbox never unpickles."""
    files = sorted(f for f in folder.glob("*.safetensors") if f.is_file())
    if not files:
        bins = [f.name for f in folder.glob("*.bin")] + [f.name for f in folder.glob("*.pt*")]
        if bins:
            raise CheckpointError("pickle_only", f"No .safetensors weights in {folder.name}. It has "
                                  f"{', '.join(bins[:3])}: Glassbox never unpickles weights; convert them to "
                                  "safetensors.", folder=folder.name, files=", ".join(bins[:3]))
        raise CheckpointError("no_weights", f"No .safetensors weights in {folder.name}.", folder=folder.name)
    return files


def read_headers(folder: Path) -> list[Header]:
    """The headers of a folder's weight files, checked; no tensor is read."""
    headers = []
    for f in weight_files(folder):
        try:
            headers.append(safety.read_header(f))
        except Refused as e:
            raise CheckpointError(e.reason, str(e), **e.values) from None
    return headers


def read_safetensors(folder: Path) -> dict[str, torch.Tensor]:
    """All tensors of a folder's `*.safetensors` files (a single file or shards)."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    weights: dict[str, torch.Tensor] = {}
    for f in weight_files(folder):
        try:
            weights.update(load_file(str(f)))
        except (SafetensorError, OSError, RuntimeError, ValueError) as e:
            raise CheckpointError("weights_corrupt", f"{f.name} is not a readable safetensors file (corrupt or "
                                  "truncated?).", file=f.name) from e
    return weights


class LazyWeights(Mapping):
    """A folder's tensors (a single file or shards), each read from the memory-mapped file
    when it is asked for: `load_folder` converts one tensor after another into the model's
    dtype and never holds the whole checkpoint beside the model (a 0.5 B bfloat16 folder
    read as float32: a 1 GB copy saved). Reads are serialised (one file handle each)."""

    def __init__(self, folder: Path) -> None:
        from safetensors import safe_open

        self._where: dict[str, Any] = {}
        self._lock = threading.Lock()
        for f in weight_files(folder):
            try:
                handle = safe_open(str(f), framework="pt")
                self._where.update(dict.fromkeys(handle.keys(), (handle, f.name)))
            except Exception as e:  # noqa: BLE001 - SafetensorError, OSError: one sentence
                raise CheckpointError("weights_corrupt", f"{f.name} is not a readable safetensors file (corrupt or "
                                      "truncated?).", file=f.name) from e

    def shapes(self) -> dict[str, tuple[int, ...]]:
        return {k: tuple(h.get_slice(k).get_shape()) for k, (h, _) in self._where.items()}

    def __getitem__(self, key: str) -> torch.Tensor:
        handle, name = self._where[key]
        try:
            with self._lock:
                return handle.get_tensor(key)
        except Exception as e:  # noqa: BLE001
            raise CheckpointError("weights_corrupt", f"{name} is not a readable safetensors file (corrupt or "
                                  "truncated?).", file=name) from e

    def __iter__(self):
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


def read_hf_config(folder: Path) -> dict[str, Any]:
    path = folder / "config.json"
    if not path.is_file():
        raise CheckpointError("no_config", f"{folder.name} has no config.json.", folder=folder.name)
    if path.stat().st_size > safety.MAX_JSON_BYTES:
        raise CheckpointError("config_json", f"{folder.name}/config.json is not a config (over "
                              f"{safety.MAX_JSON_BYTES // 10**6} MB).", folder=folder.name)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError):      # not JSON or not UTF-8, a number of over 4,300 digits, too deep
        raise CheckpointError("config_json", f"{folder.name}/config.json is not valid JSON.",
                              folder=folder.name) from None
    if not isinstance(doc, dict):
        raise CheckpointError("config_not_object", "config.json is not a JSON object of settings.")
    return doc


def load_tokenizer(folder: Path) -> Tokenizer | None:
    """The tokenizer that belongs to a folder: tokenizer.json, else BERT's vocab.txt or
    GPT-2's vocab.json + merges.txt; None when there is none. Files that cannot be read
    as a tokenizer raise a CheckpointError ("tokenizer")."""
    try:
        return _tokenizer_files(folder)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:    # noqa: BLE001 - the tokenizers library raises plain Exception, TypeError and, from
        # Rust, PanicException (a BaseException); bad JSON, bad UTF-8, a directory: one sentence, the log has the rest
        raise CheckpointError("tokenizer", f"The tokenizer files in {folder.name} cannot be read.",
                              folder=folder.name) from e


def _tokenizer_files(folder: Path) -> Tokenizer | None:
    if (folder / "tokenizer.json").exists():
        return HFTokenizer.from_file(folder / "tokenizer.json")
    if (folder / "vocab.txt").exists():
        from tokenizers.implementations import BertWordPieceTokenizer

        lower = True
        if (folder / "tokenizer_config.json").exists():
            lower = json.loads((folder / "tokenizer_config.json").read_text()).get("do_lower_case", True)
        return HFTokenizer(BertWordPieceTokenizer(str(folder / "vocab.txt"), lowercase=lower)._tokenizer)
    if (folder / "vocab.json").exists() and (folder / "merges.txt").exists():
        from tokenizers.implementations import ByteLevelBPETokenizer

        return HFTokenizer(ByteLevelBPETokenizer(str(folder / "vocab.json"), str(folder / "merges.txt"))._tokenizer)
    return None

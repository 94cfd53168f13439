"""The Hugging Face hub, or the mirror HF_ENDPOINT names: where a hub id is downloaded from,
whether it answers, and the download itself (config.json first, then the weights).

Many schools reach huggingface.co slowly or not at all but reach a mirror; huggingface_hub
honours `HF_ENDPOINT` (e.g. https://your-mirror.example). Every function here uses
`endpoint()`, read when it is called and passed explicitly to each download, so the
reachability check and the download always ask the same host. `HF_HUB_OFFLINE=1` skips the
hub altogether. Only config, safetensors weights and tokenizer files are downloaded (never
pickles); a model is sized from its config.json (`check`) before any weight is fetched.
"""
from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import torch

from ..config import TransformerConfig
from . import safety
from .families import config_from_hf
from .files import read_hf_config
from .keytable import CheckpointError

PATTERNS = ["*.json", "*.safetensors", "*.txt"]   # config, weights, tokenizer: never pickles
TIMEOUT_S = 3.0                                   # a reachability check never holds a page longer
DEFAULT = "https://huggingface.co"


def endpoint() -> str:
    """The hub address downloads use: HF_ENDPOINT as set now (a mirror), else huggingface_hub's
    own (read when it was imported), else https://huggingface.co; no trailing slash."""
    env = os.environ.get("HF_ENDPOINT", "").strip()
    if env:
        return env.rstrip("/")
    try:
        from huggingface_hub import constants
    except ImportError:
        return DEFAULT
    return str(constants.ENDPOINT or DEFAULT).rstrip("/")


def host() -> str:
    """The endpoint's host name, for a progress line ("Downloading from …")."""
    return urlsplit(endpoint()).hostname or "?"


def offline() -> bool:
    """HF_HUB_OFFLINE is set: the hub is not to be asked at all."""
    return os.environ.get("HF_HUB_OFFLINE", "0").strip() not in ("0", "", "false", "False")


def reachable(address: str | None = None, timeout: float = TIMEOUT_S) -> bool:
    """Whether the endpoint's host answers a TCP connection on its port (the one the address
    names, else 443 for https and 80 for http) within `timeout` seconds."""
    try:
        url = urlsplit(address or endpoint())
        port = url.port or (80 if url.scheme == "http" else 443)
    except ValueError:                              # a port that is not a number, or out of range
        return False
    if not url.hostname:
        return False
    try:
        with socket.create_connection((url.hostname, port), timeout=timeout):
            return True
    except OSError:
        return False


def offline_error(name: str) -> CheckpointError:
    """The refusal of a hub id this machine cannot download (the UI's sentence: refused_offline)."""
    return CheckpointError("offline", f"{name!r} is neither a local folder nor reachable on the Hugging Face hub "
                           f"(this machine is offline). Download it on a connected machine, e.g. `huggingface-cli "
                           f"download {name} --include '*.json' '*.safetensors' '*.txt' --local-dir "
                           f"./{name.split('/')[-1]}`, and load that folder instead.", name=name[:80])


def refusal(name: str, e: Exception) -> CheckpointError:
    """What a failed hub call means for the user: a gated model (a token is needed), a hub id
    the endpoint does not have, else the offline sentence (network errors, a missing library)."""
    try:
        from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError
    except ImportError:
        return offline_error(name)
    if isinstance(e, GatedRepoError):               # a subclass of RepositoryNotFoundError: first
        return CheckpointError("hub_gated", f"{name!r} is gated on the hub: the server needs the token (HF_TOKEN) "
                               "of an account that accepted its licence.", name=name[:80])
    if isinstance(e, RepositoryNotFoundError):
        return CheckpointError("hub_not_found", f"{host()} has no model {name!r}: check the hub id "
                               "(organisation/name).", name=name[:80], host=host())
    return offline_error(name)


def check(name: str, dtype: torch.dtype = torch.float32) -> tuple[dict[str, Any], TransformerConfig]:
    """A hub model's config.json alone (a few KB), read and checked as a folder's is: its
    family supported, its size in `dtype` within the server's budget (ModelTooBig
    otherwise), before any weight is downloaded. CheckpointError("offline") when the
    endpoint is not reachable, "hub_gated" or "hub_not_found" when it answers but will not
    serve the model."""
    if offline() or not reachable():
        raise offline_error(name)
    try:
        from huggingface_hub import hf_hub_download

        path = Path(hf_hub_download(name, "config.json", endpoint=endpoint(), etag_timeout=5))
    except Exception as e:  # network errors, unknown or gated repos, a missing hub library
        raise refusal(name, e) from e
    hf_config = read_hf_config(path.parent)
    cfg = config_from_hf(hf_config)
    safety.check_model(cfg, "This model", dtype.itemsize)
    return hf_config, cfg


def download(name: str, tqdm_class: Any = None) -> Path:
    """The local folder of a hub model's config, safetensors weights and tokenizer, from
    `endpoint()` (huggingface_hub's cache is reused); `tqdm_class` (a tqdm subclass) sees the
    progress. Call `check` first."""
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(name, allow_patterns=PATTERNS, endpoint=endpoint(), etag_timeout=5,
                                      tqdm_class=tqdm_class))
    except Exception as e:  # network errors, unknown or gated repos, a missing hub library
        raise refusal(name, e) from e

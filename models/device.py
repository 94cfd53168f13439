"""Choosing where the model runs (CUDA, Apple's MPS, or the CPU), and building a skeleton on the meta device."""
from __future__ import annotations

import torch
from torch import nn

DEVICE_CHOICES = ("auto", "cpu", "cuda", "mps")


def available_devices() -> list[str]:
    """Devices usable on this machine, fastest first; 'cpu' is always last."""
    out = []
    if torch.cuda.is_available():
        out.append("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        out.append("mps")
    return out + ["cpu"]


def pick_device(preference: str | torch.device | None = "auto") -> torch.device:
    """'auto' (or None) takes the fastest available device; a named device must exist."""
    if isinstance(preference, torch.device):
        preference = str(preference)
    if preference in (None, "auto"):
        return torch.device(available_devices()[0])
    kind = preference.split(":")[0]
    if kind not in DEVICE_CHOICES:
        raise ValueError(f"Unknown device {preference!r}: choose one of {', '.join(DEVICE_CHOICES)}.")
    if kind not in available_devices():
        raise ValueError(f"The device {preference!r} was requested but is not available on this machine "
                         f"(available: {', '.join(available_devices())}).")
    return torch.device(preference)


def embedding(num: int, dim: int) -> nn.Embedding:
    """nn.Embedding(num, dim), except that inside `torch.device("meta")` (a skeleton: shapes,
    no values) its own N(0, 1) draw is skipped: on the meta device torch computes that draw in
    a Python reference that imports torch._dynamo, 2.4-3.8 s once per process (most of a
    server's first model load). On a real device nothing changes, random stream included."""
    meta = torch.get_default_device().type == "meta"
    return nn.Embedding(num, dim, _weight=torch.empty(num, dim) if meta else None)

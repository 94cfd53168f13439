"""Choosing where the model runs: CUDA, Apple's MPS, or the CPU."""
from __future__ import annotations

import torch

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

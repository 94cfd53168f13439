"""What the "Tokens from anything" page's Images section reads (lab/patches.py):

- `vits`: the shipped pair of small ViTs (learned positions, none), loaded once per process;
- `scores`: held-out accuracy of both ViTs beside the majority class and a logistic
  regression on the same pixels (computed once per process);
- `held_out`: the held-out digits;
- `picture`: an uploaded file read into grey levels (or the BadImage's reason).
"""
from __future__ import annotations

import numpy as np
import streamlit as st
import torch

import lab.patches
from lab.patches import STEMS


@st.cache_resource(show_spinner=False)
def vits() -> dict[str, tuple[lab.patches.ViT, dict]] | None:
    """{"learned": (model, meta), "none": (model, meta)}, or None when a file is missing."""
    try:
        return {pos: lab.patches.load_vit(stem) for pos, stem in STEMS.items()}
    except (OSError, ValueError):
        return None


@st.cache_data(show_spinner=False)
def held_out() -> tuple[np.ndarray, np.ndarray]:
    return lab.patches.held_out()


@st.cache_data(show_spinner=False)
def scores() -> dict[str, float]:
    """Held-out accuracy: both ViTs, the logistic regression, the majority class."""
    models = vits()
    images, labels = held_out()
    out = dict(lab.patches.baselines())
    if models is not None:
        for pos, (model, _) in models.items():
            out[f"vit_{pos}"] = lab.patches.accuracy(model, images, labels)
    return out


@st.cache_data(show_spinner=False, max_entries=8)
def picture(data: bytes) -> tuple[np.ndarray | None, tuple[int, int] | None, str | None, dict]:
    """(grey image, original (w, h), None, {}) or (None, None, reason, values) for a bad file."""
    try:
        image, size = lab.patches.read_image(data)
    except lab.patches.BadImage as e:
        return None, None, e.reason, e.values
    return image, size, None, {}


@st.cache_resource(show_spinner=False)
def random_front(p: int) -> lab.patches.PatchEmbed:
    """A seeded random patch projection for a patch size the trained ViT does not use."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        return lab.patches.PatchEmbed(p, 32)

"""What the "Tokens from anything" page's Images section reads (lab/patches.py):

- `vits`: the three shipped small ViTs (learned positions, none, 2-D sin-cos), loaded once per
  process and never changed (a ViT trained in a session lives in that session's state);
- `scores`: held-out accuracy of the three ViTs beside the majority class and a logistic
  regression on the same pixels (computed once per process);
- `held_out`: the held-out digits;
- `picture`: an uploaded file read into grey levels (or the BadImage's reason);
- `hub_vit`: a Hugging Face ViT folder (or a hub id, fetched when this machine reaches the
  hub) as our own ViT, shared by the sessions that name it (read-only: inference only);
- `photo`: an uploaded file as the RGB picture the Hugging Face ViT's processor reads.
"""
from __future__ import annotations

import numpy as np
import streamlit as st
import torch

import lab.patches
import lab.vit_hub
from lab.patches import STEMS
from models.errors import Refused


@st.cache_resource(show_spinner=False)
def vits() -> dict[str, tuple[lab.patches.ViT, dict]] | None:
    """{"learned": (model, meta), "none": ..., "sincos2d": ...}, or None when a file is missing."""
    try:
        return {pos: lab.patches.load_vit(stem) for pos, stem in STEMS.items()}
    except (OSError, ValueError):
        return None


@st.cache_data(show_spinner=False)
def held_out() -> tuple[np.ndarray, np.ndarray]:
    return lab.patches.held_out()


@st.cache_data(show_spinner=False)
def scores() -> dict[str, float]:
    """Held-out accuracy: the three ViTs, the logistic regression, the majority class."""
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


def hub_vit(source: str, hub_name: bool) -> tuple[lab.vit_hub.HubViT | None, str | None]:
    """(the ViT, None) or (None, the refusal's sentence in the UI language) for a folder
    (read again when one of its files changed) or a hub id (`hub_name`: lab/vit_hub.py `fetch`,
    its config checked before the weights are downloaded, and only when the hub answers;
    offline it is refused with the sentence of the sidebar's loader)."""
    from pathlib import Path

    stamp = 0.0
    if not hub_name:
        for name in ("config.json", lab.vit_hub.WEIGHTS, lab.vit_hub.PROCESSOR):
            try:
                stamp = max(stamp, (Path(source).expanduser() / name).stat().st_mtime)
            except OSError:
                pass
    vit, refused = loaded_hub_vit(source, hub_name, stamp)
    if refused is None:
        return vit, None
    from ..refusals import say

    return None, say(refused, log=False)                 # in this session's language (the cache is shared)


@st.cache_resource(show_spinner=False, max_entries=2)
def loaded_hub_vit(source: str, hub_name: bool, stamp: float):
    """`hub_vit`'s work, once per (source, files' time): (the ViT, None) or (None, the Refused).
    The model is only read (inference), so sessions share it."""
    from pathlib import Path

    try:
        folder = lab.vit_hub.fetch(source) if hub_name else Path(source).expanduser()
        return lab.vit_hub.load_folder(folder), None
    except Refused as e:
        return None, e


@st.cache_data(show_spinner=False, max_entries=4)
def photo(data: bytes):
    """(RGB PIL image, None, {}) or (None, the BadImage's reason, values)."""
    try:
        return lab.vit_hub.read_photo(data), None, {}
    except lab.patches.BadImage as e:
        return None, e.reason, e.values

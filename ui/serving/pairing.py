"""What the "Tokens from anything" page's Pairing (CLIP-style) section reads (lab/pairing.py):

- `towers`: the shipped pair of towers and their meta, loaded once per process;
- `scores`: held-out zero-shot accuracy in both caption languages beside chance and a logistic
  regression on the same pixels (computed once per process);
- `words`: the cosine similarity of every English caption with every Chinese one;
- `held_out`: the held-out digits;
- `picture`: an uploaded file read into grey levels (or the BadImage's reason).
"""
from __future__ import annotations

import numpy as np
import streamlit as st

import lab.pairing
import lab.patches


@st.cache_resource(show_spinner=False)
def towers() -> tuple[lab.pairing.Towers, dict] | None:
    """(model, meta), or None when a file is missing or does not match."""
    try:
        return lab.pairing.load()
    except (OSError, ValueError):
        return None


@st.cache_data(show_spinner=False)
def held_out() -> tuple[np.ndarray, np.ndarray]:
    return lab.pairing.held_out()


@st.cache_data(show_spinner=False)
def scores() -> dict[str, float]:
    """Held-out accuracy: zero-shot by the English and by the Chinese captions, the baselines."""
    out = dict(lab.pairing.baselines())
    loaded = towers()
    if loaded is not None:
        images, labels = held_out()
        for lang in lab.pairing.LANGS:
            out[f"zs_{lang}"] = lab.pairing.accuracy(loaded[0], images, labels, lang)
    return out


@st.cache_data(show_spinner=False)
def words() -> np.ndarray | None:
    loaded = towers()
    return None if loaded is None else lab.pairing.word_agreement(loaded[0])


@st.cache_data(show_spinner=False, max_entries=8)
def picture(data: bytes) -> tuple[np.ndarray | None, str | None, dict]:
    """(grey image, None, {}) or (None, reason, values) for a bad file."""
    try:
        image, _ = lab.patches.read_image(data)
    except lab.patches.BadImage as e:
        return None, e.reason, e.values
    return image, None, {}

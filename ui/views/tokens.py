"""Tokens from anything: how a model's input becomes a sequence of tokens, one section per kind
of input. Only the open section runs (a radio bound to `?tk_view=`):

- text (`tokens_text`): the reader's sentence cut into characters, UTF-8 bytes, WordPiece and
  byte-level BPE learned on the verse corpus, merge by merge;
- images (`tokens_patches`): a picture cut into patches, the small shipped ViTs, a Hugging
  Face ViT on the reader's photo;
- sound (`tokens_sound`): a waveform as Whisper's log-mel frames and 20 ms tokens, and a small
  audio Transformer's attention over them;
- pairing (`tokens_pairing`): two towers trained contrastively on digits and their words.

A section module exposes `section(sel)`; adding one is a name in SECTIONS, its label
(`tk_sec_<name>` in ui/strings/tokens.py) and an entry in SECTION_VIEWS.
"""
from __future__ import annotations

import streamlit as st

from ..i18n import t
from ..links import choice
from ..sidebar import Selection
from . import tokens_pairing, tokens_patches, tokens_sound, tokens_text

SECTIONS = ("text", "images", "sound", "pairing")
# the section views, by section: each is called with the sidebar's selection
SECTION_VIEWS = {
    "text": tokens_text.section,
    "images": tokens_patches.section,
    "sound": tokens_sound.section,
    "pairing": tokens_pairing.section,
}


def render(sel: Selection) -> None:
    """The tokens page."""
    st.title(t("tk_title"))
    st.markdown(t("tk_intro"))
    section = choice(st.radio, t("tk_section"), SECTIONS, param="tk_view", default=SECTIONS[0], horizontal=True,
                     labels={s: t(f"tk_sec_{s}") for s in SECTIONS})
    SECTION_VIEWS[section](sel)

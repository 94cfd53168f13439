"""Tokens from anything: how a model's input becomes a sequence of tokens, one section per kind
of input. Only the open section runs (a radio bound to `?tk_view=`):

- text (`tokens_text`): the reader's sentence cut into characters, UTF-8 bytes, WordPiece and
  byte-level BPE learned on the verse corpus, merge by merge.

A section module exposes `section(sel)`; adding one is a name in SECTIONS, its label
(`tk_sec_<name>` in ui/strings/tokens.py) and an entry in SECTION_VIEWS.
"""
from __future__ import annotations

import streamlit as st

from ..i18n import t
from ..links import choice
from ..sidebar import Selection
from . import tokens_patches, tokens_text

SECTIONS = ("text", "images")
# the section views, by section: each is called with the sidebar's selection
SECTION_VIEWS = {
    "text": tokens_text.section,
    "images": tokens_patches.section,
}


def render(sel: Selection) -> None:
    """The tokens page."""
    st.title(t("tk_title"))
    st.markdown(t("tk_intro"))
    section = choice(st.radio, t("tk_section"), SECTIONS, param="tk_view", default=SECTIONS[0], horizontal=True,
                     labels={s: t(f"tk_sec_{s}") for s in SECTIONS})
    SECTION_VIEWS[section](sel)

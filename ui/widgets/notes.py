"""A short "common explanation vs what the model shows" note, placed beside the view
that computes the evidence (the course notes repeat some explanations that the numbers
on the page contradict; the note names the explanation and points at the number)."""
from __future__ import annotations

import streamlit as st

from ..i18n import t


def misconception(key: str, common: str, shown: str) -> None:
    """A bordered note (CSS class `st-key-mis_<key>`): the common explanation, then what
    the model on this page shows. Both texts are markdown from ui/strings, with numbers
    already formatted in."""
    with st.container(border=True, key=f"mis_{key}"):
        st.markdown(f":material/lightbulb: **{t('mis_common')}** {common}\n\n**{t('mis_shown')}** {shown}")

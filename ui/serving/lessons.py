"""The lessons the Lessons page offers: the shipped lesson files (lessons/*.toml) read and
checked by lab.lessons against the registered step kinds (ui/lessons), cached."""
from __future__ import annotations

import streamlit as st

import lab.lessons

from ..lessons import specs


@st.cache_data(max_entries=1, show_spinner=False, ttl=60)
def shipped() -> tuple[dict[str, lab.lessons.Lesson], list[lab.lessons.LessonError]]:
    """The lesson files of lessons/ (read again at most once a minute, so a file a teacher
    drops in the folder appears without a restart)."""
    return lab.lessons.shipped(specs())

"""The lessons the Lessons page offers: the shipped lesson files (lessons/*.toml) read and
checked by lab.lessons against the registered step kinds (ui/lessons), cached."""
from __future__ import annotations

import streamlit as st

from lab import lessons as LL

from ..lessons import specs


@st.cache_data(max_entries=1, show_spinner=False, ttl=60)
def shipped() -> tuple[dict[str, LL.Lesson], list[LL.LessonError]]:
    """The lesson files of lessons/ (read again at most once a minute, so a file a teacher
    drops in the folder appears without a restart)."""
    return LL.shipped(specs())

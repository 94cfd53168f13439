"""A section folded away until it is opened, whose content costs nothing while it is closed.

Streamlit runs and sends everything inside an `st.expander`, closed or not, on every run.
The attention page's export buttons and explanations and the sidebar's "Load a model"
panel (on every page) were a sixth of a cached page run's server CPU (py-spy, issue 37),
for sections a visitor rarely opens. `folded` is an expander that tracks whether it is open
(opening or closing it reruns the app, or the fragment it is in) and hands its container
back only while it is open: the caller builds the content then, and not otherwise.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import streamlit as st


def folded(label: str, *, key: str, keep: Iterable[str] = (), **kwargs: Any) -> Any:
    """The expander `label` (state kept under `key`): its container while it is open, None
    while it is closed. `keep`: keys of widgets inside it whose values outlive a closing
    (Streamlit forgets a widget's value after a run that did not draw it)."""
    box = st.expander(label, key=key, on_change="rerun", **kwargs)
    if box.open:
        return box
    for name in keep:
        if name in st.session_state:
            st.session_state[name] = st.session_state[name]      # held as the session's own value
    return None

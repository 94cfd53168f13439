"""Beyond softmax: section 'recurrent' (TO BE WRITTEN by the helper that owns it)."""
from __future__ import annotations

import streamlit as st

from ..shell import Selection


def render(sel: Selection, src) -> None:
    raise NotImplementedError("section recurrent")

"""The lessons the Lessons page offers, and the steps they show, cached:

- `shipped`: the lesson files of lessons/*.toml read and checked by lab.lessons against
  the registered step kinds (ui/lessons);
- `step_shown`: what one step shows (its figure, facts and answer), built once per model,
  text, step, language and look and shared by every session that shows it: a class of 30
  following its teacher on one text builds each step's figure once, not 30 times.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

import lab.lessons

from ..lessons import KINDS, Shown, StepContext, specs
from ..sidebar import Selection
from .figures import share


@st.cache_resource(max_entries=1, show_spinner=False, ttl=60)
def shipped() -> tuple[dict[str, lab.lessons.Lesson], list[lab.lessons.LessonError]]:
    """The lesson files of lessons/ (read again at most once a minute, so a file a teacher
    drops in the folder appears without a restart). One object for every session and run
    (lessons are frozen dataclasses, only read): as `st.cache_data` every call unpickled a
    copy of all eight lessons, a twentieth of a student's server CPU in class mode."""
    return lab.lessons.shipped(specs())


@st.cache_resource(max_entries=128, show_spinner=False)
def _shared_step(sel: Selection, kind: str, params: tuple[tuple[str, Any], ...], language: str, palette: str,
                 scale: float, _model: Any, _tokenizer: Any) -> Shown:
    # st.cache_resource: one object for every session, no copy on a hit (a Shown is only read
    # after it is built: its figure is serialised by st.plotly_chart, its facts fill sentences).
    # Concurrent first calls with one key wait for one build. language, palette and scale
    # are in the key because the kind's words and colours read them from the session.
    shown = KINDS[kind].run(StepContext(sel, _model, _tokenizer), dict(params))
    share(shown.figure)                    # serialised once for every session (figures.share)
    return shown


def step_shown(sel: Selection, kind: str, params: Mapping[str, Any], model: Any, tokenizer: Any,
               language: str, palette: str, scale: float) -> Shown:
    """What a step of `kind` with `params` shows for the sidebar's model and text: shared
    between sessions where the kind allows it (`Kind.shared`), computed for this session
    alone where it does not."""
    if not KINDS[kind].shared:
        return KINDS[kind].run(StepContext(sel, model, tokenizer), params)
    return _shared_step(sel, kind, tuple(sorted(params.items())), language, palette, scale, model, tokenizer)

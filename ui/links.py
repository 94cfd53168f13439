"""URL-bound widgets and the notices of link values a page could not use.

Bound widgets (`bind="query-params"`) put their value in the URL, so a teacher's link
reproduces the view. The URL holds the widget's displayed label, so bound widgets use
labels that do not depend on the UI language (model names, numbers, "English"/"中文"),
except page-level view choices, whose labels follow the language that the same link
also carries. An invalid value in a link (`?layer=999`, `?model=nope`) makes Streamlit
fall back to the default silently; `bound()` notices it and the page says so
(`show_notices`). The sidebar (ui/sidebar.py), the presenter toggle (ui/presenter.py),
the pages and the widgets all draw their link-bound controls with these.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Collection, Mapping, Sequence

import streamlit as st
from streamlit.runtime.state.session_state_proxy import get_session_state

from .i18n import LANGUAGES, lang, t
from .markup import md_code, md_escape

_NOTICES = "_url_notices"


def bound(widget: Callable[..., Any], label: str, *args: Any, key: str, url_default: str,
          renamed: Collection[str] = (), **kwargs: Any) -> Any:
    """A widget bound to the URL parameter `key`; an invalid or adjusted link value is
    recorded as a notice (shown by `show_notices`). `renamed`: link values that name the
    widget's value in another language (a model's names): changing them is no notice."""
    asked = st.query_params.get(key)
    if asked is not None and not readable(widget, asked):
        forget_link_value(key)
        notice(key, asked)
        asked = None                    # said once: the widget below starts from its default
    value = widget(label, *args, key=key, bind="query-params", **kwargs)
    now = st.query_params.get(key)
    if asked is not None and now != asked and asked not in renamed and not (now is None and asked == url_default):
        notes = st.session_state.setdefault(_NOTICES, [])
        notes.append((key, asked, now))
    return value


def readable(widget: Callable[..., Any], asked: str) -> bool:
    """Whether a link's value can be given to `widget`: a number widget (number_input,
    slider) needs a finite number; other widgets check their own values."""
    if getattr(widget, "__name__", "") not in ("number_input", "slider"):
        return True
    try:
        return math.isfinite(float(asked))
    except ValueError:
        return False


def forget_link_value(key: str) -> None:
    """Remove `key` from the link before its widget is drawn, and from the link values
    Streamlit seeds widgets from on a session's first run: Streamlit parses those itself,
    and an integer number_input given ?x=1e309 raises OverflowError inside Streamlit
    (Streamlit 1.67 catches ValueError, TypeError and IndexError there, not OverflowError)."""
    with get_session_state().query_params() as qp:
        qp.remove_param(key)
        qp.set_initial_query_params_from_current()


def clamp_link_value(key: str, low: float, high: float, integer: bool = False) -> None:
    """A link's number outside [low, high] is held at the nearest end (`?pe_k_temp=99` ->
    20), said once by `show_notices`; Streamlit alone would drop it for the default. Call
    before the widget `key` is drawn."""
    asked = st.query_params.get(key)
    try:
        value = float(asked) if asked is not None else math.nan
    except ValueError:
        return                          # not a number: bound() reports it as invalid
    if not math.isfinite(value) or low <= value <= high:
        return
    held = min(max(value, low), high)
    shown = str(int(held)) if integer else str(float(held))
    with get_session_state().query_params() as qp:
        qp[key] = shown
        qp.set_initial_query_params_from_current()
    st.session_state.pop(key, None)
    notice(key, asked, shown)


def index_slider(label: str, n: int, key: str, disabled: bool = False) -> int:
    """A URL-bound 0..n-1 slider (none when n == 1: returns 0); clamps a value left from
    another model. Views that do not use it show it disabled (a widget that is not drawn
    loses its state)."""
    if n <= 1:
        return 0
    if key in st.session_state and not 0 <= st.session_state[key] < n:
        st.session_state[key] = min(max(int(st.session_state[key]), 0), n - 1)
    return bound(st.slider, label, 0, n - 1, key=key, url_default="0", disabled=disabled)


def choice(widget: Callable[..., Any], label: str, options: Sequence[str], *, param: str, default: str,
           labels: Mapping[str, str], url: bool = True, **kwargs: Any) -> str:
    """A radio/selectbox whose labels follow the UI language while its state and its
    URL parameter hold language-independent ids (`?view=metrics`).

    Streamlit keeps a bound widget's *label* in the URL and loses the displayed choice
    when the labels change, so the canonical value lives in session state under
    `_<param>`, the widget is keyed per language, and the URL is written by hand.
    `set_choice` changes it from a callback."""
    state = f"_{param}"
    if state not in st.session_state:
        asked = st.query_params.get(param) if url else None
        if asked is not None and asked not in options:
            notice(param, asked)
        st.session_state[state] = asked if asked in options else default
    if st.session_state[state] not in options:
        st.session_state[state] = default
    wkey = f"{param}__{lang()}"

    def sync() -> None:
        st.session_state[state] = st.session_state[wkey]

    widget(label, list(options), index=list(options).index(st.session_state[state]), key=wkey,
           format_func=lambda o: labels.get(o, o), on_change=sync, **kwargs)
    value = st.session_state[state]
    if url:
        if value == default:
            if param in st.query_params:
                del st.query_params[param]
        elif st.query_params.get(param) != value:
            st.query_params[param] = value
    return value


def stack_choice(stacks: Sequence[Any], label: str, param: str, horizontal: bool = True) -> str:
    """The stack a view shows: the only one of a single-stack model (no widget), else a
    URL-bound radio over an encoder-decoder's stacks (`models.trace.Stack` values)."""
    values = [str(getattr(s, "value", s)) for s in stacks]
    if len(values) == 1:
        return values[0]
    return choice(st.radio, label, values, param=param, default=values[0], horizontal=horizontal,
                  labels={v: t(f"stack_{v}") for v in values})


def set_choice(param: str, value: str) -> None:
    """Change a `choice` from a callback (its per-language widgets start over from it).
    The widget on screen is set too: its id is its key, so without a new value the
    browser would keep showing its old choice (and send it back at the next click)."""
    st.session_state[f"_{param}"] = value
    for code in LANGUAGES.values():
        st.session_state.pop(f"{param}__{code}", None)
    st.session_state[f"{param}__{lang()}"] = value


def notice(key: str, asked: str, now: str | None = None) -> None:
    """Record that the link's `key` had the value `asked`, which the page could not use
    (`now`: the value used instead, None: the default); `show_notices` says so."""
    st.session_state.setdefault(_NOTICES, []).append((key, asked, now))


def show_notices() -> None:
    """Show (once) the link parameters that were invalid or adjusted in this run."""
    for key, asked, now in st.session_state.pop(_NOTICES, []):
        # link values are anybody's text: shown as typed, never as markdown or HTML
        value = md_code(asked[:80] + ("…" if len(asked) > 80 else ""))
        if now is None:
            st.warning(t("url_invalid", param=md_escape(key), value=value), icon=":material/link_off:")
        else:
            st.info(t("url_adjusted", param=md_escape(key), value=value, now=md_code(now)),
                    icon=":material/link:")

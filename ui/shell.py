"""The app shell: URL-bound widgets with notices, and the shared sidebar.

Bound widgets (`bind="query-params"`) put their value in the URL, so a teacher's link
reproduces the view. The URL holds the widget's displayed label, so bound widgets use
labels that do not depend on the UI language (model names, numbers, "English"/"中文"),
except page-level view choices, whose labels follow the language that the same link
also carries. An invalid value in a link (`?layer=999`, `?model=nope`) makes Streamlit
fall back to the default silently; `bound()` notices it and the page says so.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import streamlit as st

from .i18n import LANGUAGES, describe_entry, lang, t

EXAMPLE_TEXT = "The students watched the model read their sentence, and every head chose where to look."
_NOTICES = "_url_notices"


def bound(widget: Callable[..., Any], label: str, *args: Any, key: str, url_default: str, **kwargs: Any) -> Any:
    """A widget bound to the URL parameter `key`; an invalid or adjusted link value is
    recorded as a notice (shown by `show_notices`)."""
    asked = st.query_params.get(key)
    value = widget(label, *args, key=key, bind="query-params", **kwargs)
    now = st.query_params.get(key)
    if asked is not None and now != asked and not (now is None and asked == url_default):
        notes = st.session_state.setdefault(_NOTICES, [])
        notes.append((key, asked, now))
    return value


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
            st.session_state.setdefault(_NOTICES, []).append((param, asked, None))
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


def set_choice(param: str, value: str) -> None:
    """Change a `choice` from a callback (its per-language widgets start over from it)."""
    st.session_state[f"_{param}"] = value
    for code in LANGUAGES.values():
        st.session_state.pop(f"{param}__{code}", None)


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


@dataclass(frozen=True)
class Selection:
    """What the sidebar chose; pages read it with `current()`."""

    model_key: str
    model_label: str
    text: str
    target: str
    device: str
    random_weights: bool
    arch: str


def sidebar() -> Selection:
    """The shared sidebar (language, model, text, device). Runs in app.py before pages."""
    from models import zoo

    from models.device import available_devices

    from . import trained

    catalogue = zoo.catalogue()                      # reads each entry's config once per run
    mine = [zoo.Entry(h.key, h.label, "trained", h.card.get("description", ""), True, config=h.config)
            for h in trained.session_models()]
    entries = [e for e in catalogue if e.available] + mine
    labels = {e.key: e.label for e in entries}
    wanted = trained.take_selection()
    if wanted in labels:
        st.session_state["model"] = wanted
    with st.sidebar:
        bound(st.radio, "Language · 语言", list(LANGUAGES), key="lang", url_default="English", horizontal=True)
        key = bound(st.selectbox, t("model"), list(labels), key="model", url_default=entries[0].label,
                    format_func=labels.get)
        entry = next(e for e in entries if e.key == key)
        st.caption(describe(entry))
        text = bound(st.text_area, t("text"), EXAMPLE_TEXT, key="text", url_default=EXAMPLE_TEXT,
                     help=t("text_help"), height=110)
        target = ""
        if entry.config is not None and entry.config.arch == "encoder-decoder":
            target = bound(st.text_input, t("target_text"), "", key="target", url_default="", help=t("target_help"))
        devices = available_devices()                # fastest first: the default
        device = bound(st.selectbox, t("device"), devices, key="device", url_default=devices[0])
        unavailable = [e for e in catalogue if not e.available]
        if unavailable:
            with st.expander(t("model_unavailable")):
                for e in unavailable:
                    st.caption(f"**{md_escape(e.label)}**: {md_escape(e.reason)}")
    sel = Selection(key, entry.label, text or "", target or "", device, entry.is_random,
                    entry.config.arch if entry.config is not None else "")
    st.session_state["_selection"] = sel
    return sel


def describe(entry: Any) -> str:
    """A catalogue entry's description in the UI language (markdown-safe)."""
    return md_escape(describe_entry(entry.key, entry.description))


def current() -> Selection:
    """The sidebar's selection for this run (app.py renders the sidebar first)."""
    sel = st.session_state.get("_selection")
    if sel is None:  # a page run without app.py (AppTest of a page file alone)
        sel = sidebar()
    return sel


def md_code(text: str) -> str:
    """Any text as a markdown code span, shown exactly as typed: no markdown, HTML or
    autolinks are processed inside, and the fence is longer than any run of backticks
    in the text so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}"


def md_escape(text: str) -> str:
    """Token or user text made safe for st.markdown: HTML-escaped and with markdown
    syntax characters backslash-escaped, so it shows literally."""
    out = text
    for ch in "\\`*_{}[]()#+-.!|~$":          # backslash first, so later escapes are not doubled
        out = out.replace(ch, "\\" + ch)
    return html.escape(out, quote=False)        # < > & as entities: raw HTML never reaches the page

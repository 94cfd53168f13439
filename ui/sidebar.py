"""The shared sidebar and what it chose: `Selection` (model, text, target, device), drawn by
app.py before every page (`admit` first lets the browser session in) and read by the
pages with `current()`; the catalogue entries' descriptions and refusals in the UI
language (the sidebar's caption, the home page's cards)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from models.device import available_devices
from models.errors import Refused
from models.tokenizer import cjk_share, minilm_tokenizer
from models.weights import zoo
from server import sessions

from . import model_names, presenter, serving
from .examples import EXAMPLE_TEXT, EXAMPLE_TEXTS, example_follows_language
from .i18n import LANGUAGES, STRINGS, hold_language, lang, t
from .links import bound
from .markup import md_escape
from .refusals import say
from .serving import trained
from .widgets import model_loader


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


def admit(boot: Any = None) -> None:
    """Let this browser session in, or (the server is full: GLASSBOX_MAX_SESSIONS) say
    so and stop. `boot`: the start-up placeholder to clear first."""
    try:
        sessions.admit(st.session_state)
    except Refused as e:
        if boot is not None:
            boot.empty()
        st.warning(say(e), icon=":material/group:")
        st.stop()


def sidebar() -> Selection:
    """The shared sidebar (language, model, text, device, presenter mode and palette
    from ui/presenter.py). Runs in app.py before pages."""
    catalogue = zoo.catalogue()                      # reads each entry's config once per run
    entries = trained.entries(catalogue)
    labels = {e.key: e.label for e in entries}       # keys only until the language is known
    wanted = trained.take_selection()
    pending = st.session_state.pop("_sidebar_pending", None) or {}     # a class's model and sentence (lessons)
    wanted = pending.get("model") or wanted
    if wanted in labels:
        st.session_state["model"] = wanted
    for name in ("text", "target"):
        if isinstance(pending.get(name), str):
            st.session_state[name] = pending[name]
    with st.sidebar:
        hold_language(bound(st.radio, "Language · 语言", list(LANGUAGES), key="lang", url_default="English",
                            horizontal=True))
        labels = model_names.labels(entries)         # names in the UI language (the link holds the name)
        names = model_names.follow_link("model", entries, labels)
        key = bound(st.selectbox, t("model"), list(labels), key="model", url_default=labels[entries[0].key],
                    format_func=labels.get, renamed=names)
        entry = next(e for e in entries if e.key == key)
        st.caption(describe(entry))
        example_follows_language(entry, applied=isinstance(pending.get("text"), str))
        text = bound(st.text_area, t("text"), EXAMPLE_TEXT, key="text", url_default=EXAMPLE_TEXT,
                     help=t("text_help"), height=110, renamed=set(EXAMPLE_TEXTS.values()))
        if lang() == "zh" and entry.key == "minilm" and (text or "").strip() == EXAMPLE_TEXT:
            st.caption(t("sb_example_english"))     # why a Chinese screen reads an English sentence
        target = ""
        if entry.config is not None and entry.config.arch == "encoder-decoder":
            target = bound(st.text_input, t("target_text"), "", key="target", url_default="", help=t("target_help"))
        suggest_char_encoder(entry, text or "", labels)
        devices = available_devices()                # fastest first: the default
        device = bound(st.selectbox, t("device"), devices, key="device", url_default=devices[0])
        model_loader.sidebar(entry, text or "", target or "", device)   # parity badge, "Load a model"
        presenter.controls()                         # presenter mode and the palette (?present=1, ?palette=)
        unavailable = [e for e in catalogue if not e.available]
        if unavailable:
            with st.expander(t("model_unavailable")):
                for e in unavailable:
                    st.caption(t("label_value", label=f"**{md_escape(model_names.label(e))}**",
                                 value=unavailable_reason(e)))
    sel = Selection(key, labels[key], text or "", target or "", device, entry.is_random,
                    entry.config.arch if entry.config is not None else "")
    st.session_state["_selection"] = sel
    return sel


CHAR_ENCODER = "toy:verse-mlm"


def suggest_char_encoder(entry, text: str, labels: dict[str, str]) -> None:
    """Under MiniLM with a mostly Chinese text (>= 50% CJK characters), which its
    WordPiece vocabulary reads largely as [UNK]: a note and a button that switches to the
    shipped character-level encoder (verse-mlm), whose vocabulary has every character.
    Not for a text MiniLM reads whole (the lessons' Chinese example uses only characters it knows)."""
    if entry.key != "minilm" or CHAR_ENCODER not in labels or cjk_share(text) < 0.5 or not minilm_unknowns(text):
        return
    st.caption(t("sb_char_encoder_note"))
    st.button(t("sb_char_encoder_switch", model=md_escape(labels[CHAR_ENCODER])), key="sb_char_encoder",
              on_click=st.session_state.__setitem__, args=("model", CHAR_ENCODER), icon=":material/translate:")


@st.cache_resource(show_spinner=False)
def _minilm_tokenizer():
    return minilm_tokenizer()


def minilm_unknowns(text: str) -> bool:
    """Whether MiniLM's vocabulary reads some of `text` as [UNK] (True when it cannot tell)."""
    try:
        tok = _minilm_tokenizer()
    except ValueError:
        return True
    return tok.unk_id in tok.encode(text[:serving.MAX_CHARS]).ids


def describe_entry(entry) -> str:
    """A catalogue entry's description in the UI language (models/weights/zoo.py has
    English; a shipped toy checkpoint is described from its card)."""
    if f"desc_{entry.key}" in STRINGS:
        return t(f"desc_{entry.key}")
    card = entry.card
    if entry.kind == "lm" and isinstance(card.get(f"description_{lang()}"), str):
        return card[f"description_{lang()}"]
    if entry.kind == "toy" and f"tr_task_{entry.task}" in STRINGS:
        try:
            return t("desc_toy", task=t(f"tr_task_{card['task']}"), pe=model_names.pe_name(card["positional"]),
                     post=t("desc_toy_post") if card.get("norm_position") == "post" else "",
                     steps=card["steps"], n=card["train_len"], acc=f"{card['accuracy']:.1%}")
        except (KeyError, TypeError, ValueError):
            pass
    return entry.description


def unavailable_reason(entry: Any, markdown: bool = True) -> str:
    """Why a catalogue entry is not available here, in the UI language: its refusal's
    sentence (models/weights/zoo.py carries the reason id and its values, so no English
    exception text reaches a Chinese screen). Markdown-safe, or plain (`markdown=False`)."""
    refusal = getattr(entry, "refusal", None)
    if refusal is not None:
        return say(refusal, log=False, markdown=markdown)
    if lang() != "en":
        return t("refused_unexpected")
    return md_escape(entry.reason) if markdown else entry.reason


def describe(entry: Any) -> str:
    """A catalogue entry's description in the UI language (markdown-safe)."""
    return md_escape(describe_entry(entry))


def current() -> Selection:
    """The sidebar's selection for this run (app.py renders the sidebar first)."""
    sel = st.session_state.get("_selection")
    if sel is None:  # a page run without app.py (AppTest of a page file alone)
        sel = sidebar()
    return sel

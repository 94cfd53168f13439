"""The app shell: URL-bound widgets with notices, and the shared sidebar.

Bound widgets (`bind="query-params"`) put their value in the URL, so a teacher's link
reproduces the view. The URL holds the widget's displayed label, so bound widgets use
labels that do not depend on the UI language (model names, numbers, "English"/"中文"),
except page-level view choices, whose labels follow the language that the same link
also carries. An invalid value in a link (`?layer=999`, `?model=nope`) makes Streamlit
fall back to the default silently; `bound()` notices it and the page says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Collection, Mapping, Sequence

import streamlit as st

from models.errors import Refused

from . import serving
from .i18n import LANGUAGES, STRINGS, lang, t
from .examples import EXAMPLE_TEXT, EXAMPLE_TEXTS, example_follows_language
from .markup import md_code, md_escape
from .refusals import say

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
    from streamlit.runtime.state.session_state_proxy import get_session_state

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
    from streamlit.runtime.state.session_state_proxy import get_session_state

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
    from .serving import sessions

    try:
        sessions.admit()
    except Refused as e:
        if boot is not None:
            boot.empty()
        st.warning(say(e), icon=":material/group:")
        st.stop()


def sidebar() -> Selection:
    """The shared sidebar (language, model, text, device, presenter mode and palette
    from ui/presenter.py). Runs in app.py before pages."""
    from models.device import available_devices
    from models.weights import zoo

    from . import model_names, presenter
    from .serving import trained
    from .widgets import model_loader

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
        bound(st.radio, "Language · 语言", list(LANGUAGES), key="lang", url_default="English", horizontal=True)
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
    from models.tokenizer import cjk_share

    if entry.key != "minilm" or CHAR_ENCODER not in labels or cjk_share(text) < 0.5 or not minilm_unknowns(text):
        return
    st.caption(t("sb_char_encoder_note"))
    st.button(t("sb_char_encoder_switch", model=md_escape(labels[CHAR_ENCODER])), key="sb_char_encoder",
              on_click=st.session_state.__setitem__, args=("model", CHAR_ENCODER), icon=":material/translate:")


@st.cache_resource(show_spinner=False)
def _minilm_tokenizer():
    from models.tokenizer import minilm_tokenizer

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
    from .model_names import pe_name

    if f"desc_{entry.key}" in STRINGS:
        return t(f"desc_{entry.key}")
    card = entry.card
    if entry.kind == "lm" and isinstance(card.get(f"description_{lang()}"), str):
        return card[f"description_{lang()}"]
    if entry.kind == "toy" and f"tr_task_{entry.task}" in STRINGS:
        try:
            return t("desc_toy", task=t(f"tr_task_{card['task']}"), pe=pe_name(card["positional"]),
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


# ---- what a page needs before it can draw -----------------------------------------------------
def require_model(sel: Selection):
    """(model, tokenizer) of the selection; shows progress on the first load and stops
    the page with a message (never a traceback) when it cannot load."""
    try:
        if serving.is_loaded(sel.model_key, sel.device):
            return serving.load_model(sel.model_key, sel.device)
        with st.status(t("loading_model", model=sel.model_label), expanded=False) as status:
            progress = st.progress(10)
            model, tok = serving.load_model(sel.model_key, sel.device)
            progress.progress(100)
            status.update(label=t("loaded_model", model=sel.model_label), state="complete")
        return model, tok
    except Exception as e:      # noqa: BLE001 - a model that cannot load leaves a sentence, never a traceback
        st.error(t("load_failed", model=md_escape(sel.model_label), error=explain(e)))
        st.stop()


def explain(e: BaseException) -> str:
    """A failure as one sentence for the page: a refusal in the UI language; one of our
    own checks' sentences (a plain ValueError) as it is; anything else, the general
    sentence (its details go to the server's log, never a traceback on screen)."""
    if isinstance(e, Refused) or not isinstance(e, ValueError):
        return say(e)
    return md_escape(str(e))


def require_text(sel: Selection) -> None:
    """Empty or whitespace-only text: a friendly prompt, not an error."""
    if not sel.text.strip():
        show_notices()
        st.info(t("empty_text"), icon=":material/edit:")
        st.stop()


def require_data(sel: Selection, load):
    """`load(model_key, device, text, target)` (a cached recorded pass whose result has
    tokens, truncated, n_tokens_before, unk_fraction and run), with the notes every page
    shows: memory (budget cut, out-of-memory fallback), truncation, many unknown tokens,
    random weights. Stops the page with a message (never a traceback) when it cannot run."""
    data = run_or_stop(load, sel)
    if data.truncated:
        st.info(t("truncated", n=data.n_tokens_before, kept=data.run.n_asked if data.run else len(data.tokens)),
                icon=":material/content_cut:")
    if data.unk_fraction >= 0.2:
        st.warning(t("many_unk", pct=data.unk_fraction), icon=":material/help:")
    if sel.random_weights:
        st.caption(t("random_weights").capitalize())
    return data


def run_or_stop(loader, sel: Selection):
    """`loader(model, device, text, target)` (a cached recorded pass), its memory notes
    shown (budget cut, out-of-memory fallback); a pass that cannot run stops the page with
    a message, never a traceback."""
    try:
        data = loader(sel.model_key, sel.device, sel.text, sel.target)
    except serving.TraceBudgetError as e:
        st.error(t("mem_budget_refused", need=f"{e.need / 1e6:,.0f}", budget=f"{e.budget / 1e6:,.0f}"),
                 icon=":material/memory:")
        st.stop()
    except serving.OutOfMemory as e:
        st.error(t("mem_out_of_memory", n=e.n), icon=":material/memory:")
        st.stop()
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        st.stop()
    show_run_notes(data.run, sel.device)
    return data


def show_run_notes(info: serving.RunInfo | None, device: str) -> None:
    """What the memory budget or an out-of-memory error changed about this pass."""
    if info is None:
        return
    if info.budget_cut:
        st.warning(t("mem_budget_cut", n=info.n_asked, need=f"{info.need_bytes / 1e6:,.0f}",
                     budget=f"{info.budget_bytes / 1e6:,.0f}", kept=info.n_kept), icon=":material/memory:")
    if info.fallback is not None and info.device != device:
        st.warning(t("mem_fallback_cpu", device=md_escape(device.upper())), icon=":material/memory:")
    if info.fallback == "shorter":
        st.warning(t("mem_fallback_shorter", n=info.n_asked, kept=info.n_kept), icon=":material/memory:")


def internals_page(sel: Selection, title: str, intro: str, load):
    """The top of a page that reads the FFN / residual-stream internals: title, model, the
    toy task's example button, text, `load`'s cached data (`serving.internals`, with the
    notes of require_data) and the intro. Returns (data, model)."""
    st.title(title)
    model, _ = require_model(sel)
    task_example_button(sel)
    require_text(sel)
    data = require_data(sel, load)
    st.markdown(intro)
    return data, model


def task_example(key: str) -> tuple[str, str | None] | None:
    """(text, decoder text or None) of the fixed example of the toy task a model reads
    (models.training.tasks), e.g. "abcd=dcba" for reverse. None for other models."""
    task = serving.task_of(key)
    if not task:
        return None
    try:
        from models.training.tasks import get_task

        ex = get_task(task).probe()
        return ex.text, ex.tgt_text
    except (ImportError, ValueError):
        return None


def use_text(text: str, target: str | None) -> None:
    """Put `text` (and a decoder text) in the sidebar: a button's callback."""
    st.session_state["text"] = text
    if target is not None:
        st.session_state["target"] = target


def task_example_button(sel: Selection) -> None:
    """For a toy checkpoint: a button that puts its task's example in the sidebar (the
    sidebar's example sentence is mostly unknown characters to a toy vocabulary). Call it
    outside fragments, so that the sidebar reruns too."""
    ex = task_example(sel.model_key)
    if ex is None or (ex[0] == sel.text and (ex[1] is None or ex[1] == sel.target)):
        return
    shown = ex[0] if ex[1] is None else f"{ex[0]} → {ex[1]}"
    st.button(t("use_task_example", text=md_code(shown)), key="use_task_example", on_click=use_text, args=ex,
              icon=":material/science:")

"""Look up the UI's strings in English and Chinese; the strings themselves live in ui/strings/.

`t(key, **fmt)` looks a string up in the current language (the sidebar's bound `lang`
widget), falling back to English. `STRINGS` (key -> {"en", "zh"}) and `FORMULAS`
(key -> LaTeX, for st.latex) merge the tables of every module in ui/strings/: one per
page, one per shared widget, and common.py for what the sidebar, the link notices, the page notes and several
pages share.
A formula with words in it (\text{...}) has its Chinese form under `<key>_zh`: `formula(key)`.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from . import strings

# the language widget's options: fixed labels (they are what the URL stores)
LANGUAGES = {"English": "en", "中文": "zh"}


def string_modules() -> list[ModuleType]:
    """Every module of ui/strings/, in name order."""
    names = sorted(info.name for info in pkgutil.iter_modules(strings.__path__))
    return [importlib.import_module(f"{strings.__name__}.{name}") for name in names]


def merge(modules: Iterable[ModuleType]) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """The STRINGS and the FORMULAS of `modules`, each in one dict; a key defined twice raises."""
    merged: tuple[dict[str, dict[str, str]], dict[str, str]] = ({}, {})
    for module in modules:
        name = module.__name__.rsplit(".", 1)[-1]
        for mine, theirs in zip(merged, (getattr(module, "STRINGS", {}), getattr(module, "FORMULAS", {}))):
            twice = sorted(set(mine) & set(theirs))
            if twice:
                raise RuntimeError(f"ui/strings/{name}.py redefines {', '.join(twice)}")
            mine.update(theirs)
    return merged


STRINGS, FORMULAS = merge(string_modules())


_HELD = "_glassbox_language"     # the run's language code, an attribute of its ScriptRunContext


def lang() -> str:
    """Current language code ('en' or 'zh'), from the sidebar's bound widget.

    Once the sidebar has drawn that widget, the code is held for the rest of the run and
    for the fragment runs after it (`hold_language`): a page's run asks for it hundreds of
    times (every `t`), and each read of `st.session_state` goes through Streamlit's proxy,
    lock and widget-key mapping, a tenth of the server's CPU in a page change (py-spy)."""
    held = getattr(get_script_run_ctx(suppress_warning=True), _HELD, None)
    return held or LANGUAGES.get(st.session_state.get("lang", "English"), "en")


def hold_language(choice: str | None) -> None:
    """Hold `choice` (a LANGUAGES label, as the widget returns it) as the language of this
    run and of the fragment runs that follow it; None lets go (app.py, first thing in every
    full run: the language can only change in a full run, where the sidebar holds it again)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        setattr(ctx, _HELD, LANGUAGES.get(choice) if choice is not None else None)


def formula(key: str) -> str:
    """The LaTeX of FORMULAS[key] in the current language (`<key>_zh` where the words differ)."""
    return FORMULAS.get(f"{key}_{lang()}", FORMULAS[key])


def t(key: str, **fmt: object) -> str:
    """The string `key` in the current language, formatted with `fmt`."""
    entry = STRINGS[key]
    text = entry.get(lang()) or entry["en"]
    return text.format(**fmt) if fmt else text


def count_words(n: int) -> str:
    """A parameter count as a reader of the UI language says it: 494 M / 4.94 亿, 1.24 B / 12.4 亿."""
    big, mid = (1e8, 1e4) if lang() == "zh" else (1e9, 1e6)
    if n >= big:
        return t("ml_count_big", x=f"{n / big:.3g}")
    if n >= mid:
        return t("ml_count_mid", x=f"{n / mid:.3g}")
    return f"{n:,}"

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


def lang() -> str:
    """Current language code ('en' or 'zh'), from the sidebar's bound widget."""
    return LANGUAGES.get(st.session_state.get("lang", "English"), "en")


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

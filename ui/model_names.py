"""A model's name in the UI language, wherever the app names a model (the sidebar's picker,
the catalogue, buttons, chart titles, lesson sentences); the names of its settings
(`setting_text`) and of the places in it that charts label (`site_label`: "L0 mlp").

Names come from ui/strings/model_names.py (`mn_<catalogue key>`), else from a checkpoint's
card (`label`, `label_zh`), else, for a shipped toy checkpoint in Chinese, from its task and
positional scheme. A link may name a model in either language, or by the name it had
before (`aliases`): `follow_link` rewrites such a link to the name shown now, so a teacher's
English link opens the same model in the Chinese UI. A bound selectbox stores the *name* it
showed, so after a language switch `follow_link` also hands the widget its model again
(under the new name); otherwise the browser's old name would match no option and the picker
would fall back to its first model.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import streamlit as st

from .i18n import STRINGS, lang


def _s(key: str, code: str, **fmt: Any) -> str:
    entry = STRINGS[key]
    text = entry.get(code) or entry["en"]
    return text.format(**fmt) if fmt else text


def pe_name(positional: str, code: str | None = None) -> str:
    """A positional scheme's short name ("learned", "可学习位置编码")."""
    key = f"pe_name_{positional}"
    return _s(key, code or lang()) if key in STRINGS else positional


def label_in(entry: Any, code: str) -> str:
    """The name of a catalogue entry (models.weights.zoo.Entry) in language `code`."""
    key = getattr(entry, "key", "")
    card: Mapping[str, Any] = getattr(entry, "card", None) or {}
    if f"mn_{key}" in STRINGS:
        return _s(f"mn_{key}", code)
    if key.startswith("folder:"):
        name = key[len("folder:"):].rstrip("/").rsplit("/", 1)[-1] or key[len("folder:"):]
        return _s("mn_folder", code, name=name)
    if code != "en" and isinstance(card.get(f"label_{code}"), str):
        return card[f"label_{code}"]
    if (code != "en" and getattr(entry, "kind", "") == "toy" and key.startswith("toy:")
            and f"tr_task_{card.get('task')}" in STRINGS):
        return _s("mn_toy", code, task=_s(f"tr_task_{card['task']}", code),
                  pe=pe_name(str(card.get("positional", "")), code),
                  post=_s("mn_toy_post", code) if card.get("norm_position") == "post" else "")
    return entry.label


def label(entry: Any) -> str:
    """The name of a catalogue entry in the UI language."""
    return label_in(entry, lang())


def label_of(key: str) -> str:
    """The name of the model with this catalogue key (or a session's model) in the UI language."""
    from .serving import entry

    found = entry(key)
    return label(found) if found is not None else key


def labels(entries: Iterable[Any]) -> dict[str, str]:
    """key -> name in the UI language, in the entries' order."""
    return {e.key: label(e) for e in entries}


def random_label(entry: Any) -> str:
    """The name, with "random weights" for an entry of random weights."""
    name = label(entry)
    return _s("mn_random", lang(), model=name) if getattr(entry, "is_random", False) else name


# a setting's value (models.config) -> the string key that names it; a value without one is shown as it is
_SETTING_KEYS = {"arch": "arch_{}", "positional": "pos_{}", "attention": "mk_kind_{}", "norm": "bn_axis_{}",
                 "norm_position": "norm_{}", "activation": "act_{}", "output": "out_{}", "qk_norm": "card_qk_norm_{}",
                 "sinusoidal_layout": "pek_layout_{}"}


def setting_text(field: str, value: object) -> str:
    """A configuration value as the UI names it ("rmsnorm" -> "RMSNorm（均方根归一化）",
    True -> "是"); numbers and values without a name as they are."""
    text = str(value)
    key = _SETTING_KEYS.get(field, "").format(text)
    if key in STRINGS:
        return _s(key, lang())
    if text in ("True", "False", "none"):
        return _s(f"setting_{text.lower()}", lang())
    return text


_SITE = re.compile(r"^(?:(enc|dec) )?(?:L(\d+) )?(\w+)$")


def site_label(label: str) -> str:
    """A place in the model as lab/ names it ("embed", "L0 attn", "L3", "L1 ln2", "ln_final",
    "dec L0 mlp") in the UI language ("嵌入", "第 0 层注意力", ...); unknown labels as they are."""
    code = lang()
    if code == "en":
        return label
    m = _SITE.match(label)
    if m is None:
        return label
    stack, layer, name = m.groups()
    if layer is None and name.startswith("L") and name[1:].isdigit():
        key, layer = "site_layer", name[1:]
    else:
        key = f"site_{name}"
    if key not in STRINGS or (layer is None) == ("{i}" in STRINGS[key]["en"]):
        return label
    text = _s(key, code, i=layer) if layer is not None else _s(key, code)
    return _s(f"site_{stack}", code, site=text) if stack else text


def site_labels(labels: Iterable[str]) -> list[str]:
    return [site_label(x) for x in labels]


def aliases(entry: Any) -> set[str]:
    """Every name a link may use for `entry`: both languages and the catalogue's own."""
    return {entry.label, label_in(entry, "en"), label_in(entry, "zh")}


def follow_link(param: str, entries: Iterable[Any], shown: Mapping[str, str]) -> set[str]:
    """Call before the bound model selectbox `param` is drawn (`shown`: key -> the names it
    shows now). A link naming a model by another of its names (the other language, a former
    name) is rewritten to the name shown now, so the widget starts from it and no notice says
    it was invalid; after a language switch the widget is given its model again. Returns
    every name of the model the widget holds (a link value to rename quietly)."""
    entries = [e for e in entries if e.key in shown]
    seen = f"_{param}_names_lang"
    if param in st.session_state:
        held = st.session_state[param]
        if st.session_state.get(seen, lang()) != lang() and held in shown:
            # decoded with the last run's names, given back: the browser gets the new name
            st.session_state[param] = held
        st.session_state[seen] = lang()
        return next((aliases(e) for e in entries if e.key == held), set())   # the link follows the widget
    st.session_state[seen] = lang()
    asked = st.query_params.get(param)
    entry = next((e for e in entries if asked is not None and asked in aliases(e)), None)
    if entry is None or asked == shown[entry.key]:
        return set()                    # no link, the name shown now, or an unknown name (bound() says so)
    from streamlit.runtime.state.session_state_proxy import get_session_state

    with get_session_state().query_params() as qp:
        qp[param] = shown[entry.key]
        qp.set_initial_query_params_from_current()
    return aliases(entry)

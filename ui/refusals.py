"""Refusals shown in the user's language; their details go to the server's log.

Everything a user gives the app (a file, a link, a setting) can be refused. `models/`
raises a `Refused` with a reason id and the values its sentence names; `say(e)` turns it
into the sentence of `refused_<reason>` in the UI language, with every value escaped
(file and tensor names are anybody's text). Anything else, an error Glassbox did not
foresee, becomes one general sentence: never a traceback, a temporary path or a Python
type name on screen. Both are logged in full.
"""
from __future__ import annotations

import logging

from models.errors import Refused

from .i18n import STRINGS, t
from .markup import md_escape

LOG = logging.getLogger("glassbox")


def say(e: BaseException, log: bool = True, markdown: bool = True) -> str:
    """The sentence for `e` in the UI language, safe for markdown (`markdown=False`: plain
    text, for a caller that escapes it, such as a markdown table). `log=False`: a refusal
    said again at every run (why a catalogue model is unavailable) is not logged each time."""
    if isinstance(e, Refused):
        if log:
            LOG.info("refused (%s): %s", e.reason, e)
        key = f"refused_{e.reason}"
        if key in STRINGS:
            values = {k: md_escape(_word(k, v)) if markdown else _word(k, v) for k, v in e.values.items()}
            try:
                return t(key, **values)
            except (KeyError, IndexError, ValueError):
                LOG.warning("the string %s does not take the values %s", key, sorted(values))
    LOG.warning("refused without a known reason: %r", e, exc_info=e)
    return t("refused_unexpected")


def _word(name: str, value: object) -> str:
    """A value as shown: the name of a config setting ("what") in the UI language."""
    if name == "what" and f"refused_what_{value}" in STRINGS:
        return t(f"refused_what_{value}")
    return str(value)

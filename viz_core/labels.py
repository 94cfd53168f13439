"""Token labels that are safe and visible in plotly text.

Plotly renders a subset of HTML in tick labels and hover text (``<b>``, ``<br>``,
``<a>``) and treats ``$...$`` as LaTeX, and Streamlit markdown would run ``<style>``.
A token is user text, so every label goes through :func:`escape_labels` before
plotly or markdown sees it. Invisible tokens (spaces, newlines, zero-width
characters) are made visible, otherwise a student sees a blank tick and cannot
tell what the model read.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence

MAX_LABEL_CHARS = 24

# Characters with a conventional visible symbol.
_SYMBOLS = {"\n": "⏎", "\r": "␍", "\t": "⇥"}
# Unicode categories that render as nothing (or as a box): control, format
# (zero-width space/joiners, BOM, bidi marks), line/paragraph separators,
# private use, surrogates, unassigned.
_INVISIBLE = {"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"}


def _codepoint(ch: str) -> str:
    return f"⟨U+{ord(ch):04X}⟩"


def _visible(token: str) -> str:
    """Replace characters that would not show up on screen; no escaping yet."""
    if token == "":
        return "∅"
    if token.isspace() or all(unicodedata.category(c) == "Mn" for c in token):
        # The whole token is blank (e.g. " ", "  ", "\u3000") or only combining
        # marks, which would glue onto the neighbouring label: name every char.
        return "".join(
            "␣" if c == " " else _SYMBOLS.get(c) or _codepoint(c) for c in token
        )
    out = []
    for c in token:
        if c in _SYMBOLS:
            out.append(_SYMBOLS[c])
        elif unicodedata.category(c) in _INVISIBLE:
            out.append(_codepoint(c))
        else:
            out.append(c)
    return "".join(out)


def visible_label(token: str, max_chars: int = MAX_LABEL_CHARS) -> str:
    """One token made visible and truncated, NOT escaped: for places that escape
    themselves (st.dataframe cells, markdown after its own escaping)."""
    text = _visible(str(token))
    return text[: max_chars - 1] + "…" if len(text) > max_chars else text


def escape_label(token: str, max_chars: int = MAX_LABEL_CHARS) -> str:
    """Escape one token for plotly; see :func:`escape_labels`."""
    # Truncate before escaping, so an entity like "&lt;" is never cut in half.
    text = visible_label(token, max_chars)
    # html.escape handles & < > " '; "$" is escaped too because plotly renders a
    # label that starts and ends with "$" as LaTeX.
    return html.escape(text, quote=True).replace("$", "&#36;")


def escape_labels(tokens: Sequence[str], max_chars: int = MAX_LABEL_CHARS) -> list[str]:
    """Return display-safe labels for a list of n tokens (same length, same order).

    Each token is made visible (empty -> "∅", all-whitespace " " -> "␣", "\\n" ->
    "⏎", "\\t" -> "⇥", zero-width / control characters -> "⟨U+200B⟩"), truncated
    to ``max_chars`` characters with "…", then HTML-escaped, so that a token such
    as ``<script>alert(1)</script>`` is shown literally and never interpreted.
    """
    if isinstance(tokens, str):
        raise ValueError("escape_labels expects a list of tokens, not a single string.")
    return [escape_label(t, max_chars) for t in tokens]


def position_label(i: int, label: str) -> str:
    """``label`` (already made visible or escaped) prefixed by its position, ``"3·the"``:
    the one spelling of the position·token label; the helpers below all build theirs here."""
    return f"{i}·{label}"


def numbered(labels: Sequence[str], start: int = 0) -> list[str]:
    """Labels already made visible or escaped, each prefixed by its position (from ``start``)."""
    return [position_label(i, label) for i, label in enumerate(labels, start)]


def position_labels(tokens: Sequence[str], max_chars: int = MAX_LABEL_CHARS) -> list[str]:
    """Return escaped labels prefixed by their position, e.g. ``"3·the"``.

    Two identical tokens then stay distinct wherever labels are used as keys.
    """
    return numbered(escape_labels(tokens, max_chars))


def plain_label(i: int, token: str, max_chars: int = MAX_LABEL_CHARS) -> str:
    """One '3·the' label in plain text (made visible, not HTML-escaped): widgets, markdown
    that escapes itself, dataframe cells."""
    return position_label(i, visible_label(token, max_chars))


def plain_labels(tokens: Sequence[str], start: int = 0) -> list[str]:
    """'3·the' labels for widgets (plain text there: made visible, not HTML-escaped)."""
    return numbered([visible_label(tok) for tok in tokens], start)

"""Controls that name a position or a token: a URL-bound position picker (the last
position by default: the next-token prediction) and a box where a token is typed (a
token the vocabulary does not hold is refused with a sentence). Used by the attribution
page's views."""
from __future__ import annotations

import streamlit as st

import viz_core as vz
from lab.attribution import token_id
from models.errors import Refused

from ..i18n import t
from ..links import bound, choice
from ..refusals import say

REFUSED = -1            # what typed_token returns for a token it refused


def position_choice(tokens: list[str], param: str = "pos") -> int:
    """A URL-bound choice of position (`?pos=3`), the last one by default."""
    labels = vz.position_labels(tokens)
    options = [str(i) for i in range(len(tokens))]
    return int(choice(st.selectbox, t("at_position"), options, param=param, default=options[-1],
                      labels=dict(zip(options, labels))))


def typed_token(tok, label: str, param: str, help_key: str) -> int | None:
    """A URL-bound box for one token: its id, None while empty, REFUSED (after saying
    why) when the vocabulary has no such single token."""
    text = bound(st.text_input, label, "", key=param, url_default="", help=t(help_key)) or ""
    if not text:
        return None
    try:
        return token_id(tok, text)
    except Refused as e:
        st.warning(say(e), icon=":material/spellcheck:")
        return REFUSED


def token_label(tok, i: int) -> str:
    """Token `i` as shown (printable; escape it before markdown)."""
    return vz.visible_label(tok.token_text(i))

"""The example sentence a page opens on, in each language, and when it follows the
reader's language (the sidebar calls `example_follows_language`)."""
from __future__ import annotations

from typing import Any

import streamlit as st

from .i18n import lang

EXAMPLE_TEXT = "The students watched the model read their sentence, and every head chose where to look."
# The example in each language, for a lesson that has no text of its own (ui/views/lessons.py)
# and for the pages, where the model reads it (`example_follows_language`).
# The Chinese one uses only characters of MiniLM's WordPiece vocabulary (it holds about 240 Han
# characters; every other one reads as [UNK]), so the MiniLM lessons see every token, and the
# character models (verse-lm, pe64) read it as well.
EXAMPLE_TEXTS = {"en": EXAMPLE_TEXT, "zh": "天上有明月，水中也有明月，我心中也有明月。"}
_EXAMPLE_FOR = "_example_for"     # (language, model) the sidebar last chose the example sentence for


def example_follows_language(entry: Any, applied: bool = False) -> None:
    """The example sentence follows the reader's language where the model reads it: in
    Chinese, a model trained on Chinese (a shipped language model whose characters cover
    the Chinese example: verse-lm, verse-mlm, the pe64 set) starts on the Chinese example;
    in English every model on the English one. MiniLM (trained on English) keeps the English
    example in Chinese, and says why under the text box. Only a text the app chose (one of the
    examples) is replaced, and only when the language or the model changes, so what the
    reader typed, a link's own text, a lesson's or a class's text (`applied`: set this run
    from a lesson or a class; a class keeps its text in either language) always stays."""
    now = (lang(), entry.key)
    before = st.session_state.get(_EXAMPLE_FOR)
    st.session_state[_EXAMPLE_FOR] = now
    if before == now or applied or "class" in st.query_params:
        return
    have = st.session_state["text"] if "text" in st.session_state else st.query_params.get("text", EXAMPLE_TEXT)
    want = EXAMPLE_TEXTS[lang()]
    if not isinstance(have, str) or have.strip() == want or have.strip() not in EXAMPLE_TEXTS.values():
        return
    if lang() != "en" and not (entry.kind == "lm" and reads_without_unknowns(entry.key, want)):
        return
    st.session_state["text"] = want


@st.cache_data(max_entries=64, show_spinner=False)
def reads_without_unknowns(model_key: str, text: str) -> bool:
    """Whether a shipped checkpoint's vocabulary reads `text` with no unknown token (read from
    its card's tokenizer, without loading the model; False when it cannot tell)."""
    from models.tokenizer import tokenizer_from_dict
    from models.weights.checkpoint import CHECKPOINT_DIR, read_checkpoint_info

    if not model_key.startswith("toy:"):
        return False
    try:
        doc = read_checkpoint_info(CHECKPOINT_DIR / f"{model_key[len('toy:'):]}.json")
        tok = tokenizer_from_dict(doc["tokenizer"])
        return tok.unk_id not in tok.encode(text).ids
    except (ValueError, KeyError, TypeError):
        return False

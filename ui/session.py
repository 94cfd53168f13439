"""Loading the selected model and its trace for a page, with progress and clear errors."""
from __future__ import annotations

import streamlit as st

from .i18n import t
from .loaders import AttentionData, attention_data, is_loaded, load_model
from .shell import Selection, md_escape, show_notices


def require_model(sel: Selection):
    """(model, tokenizer) of the selection; shows progress on the first load and stops
    the page with a message (never a traceback) when it cannot load."""
    try:
        if is_loaded(sel.model_key, sel.device):
            return load_model(sel.model_key, sel.device)
        with st.status(t("loading_model", model=sel.model_label), expanded=False) as status:
            progress = st.progress(10)
            model, tok = load_model(sel.model_key, sel.device)
            progress.progress(100)
            status.update(label=t("loaded_model", model=sel.model_label), state="complete")
        return model, tok
    except (ValueError, OSError, RuntimeError) as e:
        st.error(t("load_failed", model=sel.model_label, error=md_escape(str(e))))
        st.stop()


def require_text(sel: Selection) -> None:
    """Empty or whitespace-only text: a friendly prompt, not an error."""
    if not sel.text.strip():
        show_notices()
        st.info(t("empty_text"), icon=":material/edit:")
        st.stop()


def require_data(sel: Selection, load):
    """`load(model_key, device, text, target)` (a cached loader whose result has tokens,
    truncated, n_tokens_before and unk_fraction), with the notes every page shows:
    truncation, many unknown tokens, random weights. Stops the page with a message (never
    a traceback) when the pass fails."""
    try:
        data = load(sel.model_key, sel.device, sel.text, sel.target)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=md_escape(str(e))))
        st.stop()
    if data.truncated:
        st.info(t("truncated", n=data.n_tokens_before, kept=len(data.tokens)), icon=":material/content_cut:")
    if data.unk_fraction >= 0.2:
        st.warning(t("many_unk", pct=data.unk_fraction), icon=":material/help:")
    if sel.random_weights:
        st.caption(t("random_weights").capitalize())
    return data


def require_attention(sel: Selection) -> AttentionData:
    """The cached attention patterns of the selection, with the usual notes."""
    return require_data(sel, attention_data)

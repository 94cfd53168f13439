"""Loading the selected model and its trace for a page, with progress and clear errors."""
from __future__ import annotations

import streamlit as st

from .i18n import t
from .loaders import AttentionData, OutOfMemory, RunInfo, TraceBudgetError, attention_data, is_loaded, load_model
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


def require_attention(sel: Selection) -> AttentionData:
    """The cached attention patterns of the selection, with the usual notes."""
    return require_data(sel, attention_data)


def run_or_stop(loader, sel: Selection):
    """`loader(model, device, text, target)` (a cached recorded pass), its memory notes
    shown (budget cut, out-of-memory fallback); a pass that cannot run stops the page with
    a message, never a traceback."""
    try:
        data = loader(sel.model_key, sel.device, sel.text, sel.target)
    except TraceBudgetError as e:
        st.error(t("mem_budget_refused", need=f"{e.need / 1e6:,.0f}", budget=f"{e.budget / 1e6:,.0f}"),
                 icon=":material/memory:")
        st.stop()
    except OutOfMemory as e:
        st.error(t("mem_out_of_memory", n=e.n), icon=":material/memory:")
        st.stop()
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=md_escape(str(e))))
        st.stop()
    show_run_notes(data.run, sel.device)
    return data


def show_run_notes(info: RunInfo | None, device: str) -> None:
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

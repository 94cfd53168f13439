"""What a page requires before it draws: the selected model loaded (`require_model`), a
text (`require_text`), the recorded pass with the notes every page shows (`require_data`,
`run_or_stop`: memory budget, truncation, unknown tokens, random weights), a failure as
one sentence (`explain`), the top of the internals pages (`internals_page`) and a toy
checkpoint's task example (`task_example`, `task_example_button`). Each stops the page
with a message, never a traceback."""
from __future__ import annotations

import streamlit as st

from models.errors import Refused

from . import serving
from .i18n import t
from .links import show_notices
from .markup import md_code, md_escape
from .refusals import say
from .sidebar import Selection


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
    """`load(RunKey)` (a cached recorded pass whose result has
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
    """`loader(RunKey)` (a cached recorded pass, keyed by the selection), its memory notes
    shown (budget cut, out-of-memory fallback); a pass that cannot run stops the page with
    a message, never a traceback."""
    try:
        data = loader(serving.RunKey.of(sel))
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

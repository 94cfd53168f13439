"""The masks page's "MLM vs causal LM" tab: the two pre-training objectives on the reader's
sentence, with the two shipped character models (verse-mlm, verse-lm): what the masked model
predicts at a hidden character (it reads both sides), what the causal model predicts there
from the characters before it, and the masked model's answer when the character is not
hidden (the pre-training / fine-tuning mismatch). Numbers from lab/objectives.py through
ui/serving/masks.py."""
from __future__ import annotations

import streamlit as st

from .. import model_names, serving
from ..i18n import t
from ..links import bound, show_notices
from ..markup import markdown_table, md_code, md_escape
from ..page import explain
from ..serving.masks import CLM, MAX_CHARS, MLM, objectives
from ..sidebar import Selection
from ..widgets.notes import misconception


def _label(key: str) -> str | None:
    """The shipped model's name in the UI language, or None when it is not available here."""
    entry = serving.entry(key)
    return model_names.label(entry) if entry is not None and entry.available else None


def _char(c: str) -> str:
    """A character as a code span (token text, in either language); a space and a backtick,
    which a code span cannot show, are named."""
    return t("ob_space") if c.isspace() else "U+0060" if c == "`" else f"`{c}`"


def view(sel: Selection) -> None:
    st.markdown(t("ob_intro"))
    mlm, clm = _label(MLM), _label(CLM)
    if mlm is None or clm is None:
        st.info(t("ob_missing"), icon=":material/info:")
        return
    text = sel.text[:MAX_CHARS]
    if len(text) < 2:
        st.info(t("ob_short"), icon=":material/edit:")
        return
    position = int(bound(st.slider, t("ob_position"), 1, len(text) - 1, min(len(text) - 1, len(text) // 2),
                         key="ob_pos", url_default=str(min(len(text) - 1, len(text) // 2))))
    show_notices()
    try:
        r = objectives(text, position, sel.device)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    masked, shown, causal = r["masked"], r["shown"], r["causal"]
    st.markdown(t("ob_reads", mlm=md_escape(mlm), clm=md_escape(clm), context=md_code(masked.context),
                  prefix=md_code(causal.context), actual=_char(masked.actual)))
    rows = [[str(i + 1), _char(a), f"{p:.3f}", _char(b), f"{q:.3f}"]
            for i, ((a, p), (b, q)) in enumerate(zip(masked.top, causal.top))]
    st.markdown(markdown_table([t("ob_col_rank"), t("ob_col_mlm"), t("ob_col_p"), t("ob_col_clm"), t("ob_col_p")],
                               rows, markup=True))
    st.caption(t("ob_actual", actual=_char(masked.actual), mlm=f"{masked.actual_prob:.3f}",
                 clm=f"{causal.actual_prob:.3f}"))
    misconception("ob_mismatch", t("ob_mis_common"),
                  t("ob_mis_shown", actual=_char(masked.actual), hidden=f"{masked.actual_prob:.3f}",
                    shown=f"{shown.actual_prob:.3f}"))

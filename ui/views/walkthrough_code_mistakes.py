"""The walk-through's section 8: common mistakes in hand-written attention code, each run on
the walked layer's own q, k and v (every head and token) against the model's output
(lab/code_mistakes.py; cached in ui/serving/walkthrough.py). The right code comes first and
matches the model, so each row's difference is that mistake's alone; each mistake's code,
wrong and right, with what it does to the numbers."""
from __future__ import annotations

import math

import streamlit as st

from lab.code_mistakes import unsupported
from lab.walkthrough import walk_stack

from .. import model_names
from ..i18n import t
from ..markup import markdown_table, md_escape
from ..page import explain
from ..serving.gate import load_model
from ..serving.run_key import RunKey
from ..serving.walkthrough import Controls, MistakesRun, code_mistakes
from ..sidebar import Selection

MINILM, DECODER = "minilm", "toy:verse-lm"     # models the section rewrites exactly: an encoder, a decoder


# each mistake as code: (wrong, right); our own lines, PyTorch as tutorials write it
CODE = {
    "scale_after_softmax": ("weights = torch.softmax(q @ k.transpose(-2, -1), dim=-1) / math.sqrt(d_k)",
                            "weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)"),
    "split_without_transpose": ("q = q.view(batch, n_heads, n, d_k)",
                                "q = q.view(batch, n, n_heads, d_k).transpose(1, 2)"),
    "mask_inverted": ("allowed = torch.triu(torch.ones(n, n, dtype=torch.bool))",
                      "allowed = torch.tril(torch.ones(n, n, dtype=torch.bool))"),
    "mask_fill_dropped": ("scores.masked_fill(~allowed, float(\"-inf\"))",
                          "scores = scores.masked_fill(~allowed, float(\"-inf\"))"),
    "sqrt_d_model": ("scores = q @ k.transpose(-2, -1) / math.sqrt(d_model)",
                     "scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)"),
    "head_width_split_twice": ("scale = (k.size(-1) // n_heads) ** -0.5",
                               "scale = k.size(-1) ** -0.5"),
    "scale_never_applied": ("self.norm_fact = 1 / math.sqrt(d_k)\nscores = q @ k.transpose(-2, -1)",
                            "self.norm_fact = 1 / math.sqrt(d_k)\nscores = (q @ k.transpose(-2, -1)) * self.norm_fact"),
}


def section(sel: Selection, c: Controls) -> None:
    st.subheader(t("cm_title"))
    st.markdown(t("cm_intro", layer=c.layer))
    model, _ = load_model(sel.model_key, sel.device)
    reason = unsupported(model.cfg, walk_stack(model.cfg, c.stack))
    if reason is not None:
        st.info(t(f"cm_unsupported_{reason}", models=t("cm_models", a=md_escape(model_names.label_of(MINILM)), b=md_escape(model_names.label_of(DECODER)))),
                icon=":material/code_off:")
        return
    try:
        r = code_mistakes(RunKey.of(sel), c.stack, c.layer)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    st.markdown(markdown_table([t("cm_col_code"), t("cm_col_max"), t("cm_col_rel"), t("cm_col_sum")],
                               [[t(f"cm_name_{o.mistake or 'right'}"), f"{o.max_abs:.3g}", f"{o.relative:.1%}",
                                 f"{o.weights_sum:.3f}"] for o in r.outcomes], markup=True))
    st.caption(t("cm_table_caption", layer=c.layer, right=f"{r.outcomes[0].max_abs:.1e}"))
    for o in r.outcomes[1:]:
        with st.expander(t(f"cm_name_{o.mistake}")):
            wrong, right = CODE[o.mistake]
            st.markdown(t("cm_wrong"))
            st.code(wrong, language="python")
            st.markdown(t("cm_right"))
            st.code(right, language="python")
            st.markdown(what_it_does(o.mistake, r, o.max_abs, o.weights_sum))
    st.caption(t("cm_loud"))


def what_it_does(mistake: str, r: MistakesRun, max_abs: float, weights_sum: float) -> str:
    """The mistake's effect in words, with this layer's numbers."""
    split = max(1, r.d_head // r.n_heads)                   # what k.size(-1) // n_heads gives on split keys
    values = dict(dk=r.d_head, d=r.d_model, h=r.n_heads, split=split, sum=f"{weights_sum:.3f}",
                  root=f"{math.sqrt(r.d_head):.3g}",
                  small=f"{math.sqrt(r.d_model / r.d_head):.3g}", large=f"{math.sqrt(r.d_head / split):.3g}")
    text = t(f"cm_does_{mistake}", **values)
    if mistake in ("mask_inverted", "mask_fill_dropped"):
        # the English sentences start with their space; Chinese ones follow without one
        text += t("cm_mask_here_causal" if r.causal else "cm_mask_here_full", diff=f"{max_abs:.3g}",
                  decoder=md_escape(model_names.label_of(DECODER)))
    return text


"""Compare two inputs: the same layer for text A (the sidebar's text) and text B, and
the difference A - B. Used by the FFN, residual-stream and attention pages.

Both texts run through the same cached loaders. The difference is position by
position, so both texts must have the same number of tokens; otherwise the page says
so (and how to fix it) instead of aligning tokens that do not correspond.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

import viz_core as vz

from lab import attention

from ..figure_words import attention_terms
from ..i18n import t
from ..links import bound
from ..markup import md_escape
from ..model_names import site_labels
from ..serving import attention_data, internals
from ..serving.run_key import RunKey
from ..sidebar import Selection
from . import figure_export

HEIGHT = 420


def text_b(sel: Selection) -> str | None:
    """The text-B box (bound to the URL as `text_b`); None while it is empty."""
    value = bound(st.text_input, t("ab_text_b"), "", key="text_b", url_default="", help=t("ab_text_b_help"))
    st.caption(t("ab_text_a", text=md_escape(sel.text[:200])))
    if not (value or "").strip():
        st.info(t("ab_empty"), icon=":material/edit:")
        return None
    return value


def aligned(tokens_a: list[str], tokens_b: list[str]) -> list[int] | None:
    """Differing positions, or None (with the note shown) when the lengths differ (the
    A/B pairing: every position-by-position comparison, activation patching included)."""
    try:
        diff = vz.differing_positions(tokens_a, tokens_b)
    except ValueError:
        st.warning(t("ab_lengths", a=len(tokens_a), b=len(tokens_b)), icon=":material/straighten:")
        return None
    if diff:
        shown = ", ".join(f"{i}: {vz.visible_label(tokens_a[i])} → {vz.visible_label(tokens_b[i])}" for i in diff[:8])
        st.caption(t("ab_differs", n=len(diff), where=md_escape(shown)))
    else:
        st.caption(t("ab_same_tokens"))
    return diff


def _ab_title(which: str) -> str:
    return {"a": t("ab_a"), "b": t("ab_b"), "d": t("ab_diff")}[which]


def _internals_pair(sel: Selection):
    """The internals of text A and text B (same token count), or None after the widget or
    the note that says why there is nothing to compare yet."""
    b_text = text_b(sel)
    if b_text is None:
        return None
    a = internals(RunKey.of(sel))
    b = internals(RunKey(sel.model_key, sel.device, b_text, sel.target))
    return None if aligned(a.tokens, b.tokens) is None else (a, b)


def ffn_ab(sel: Selection, layer: int) -> None:
    """The same FFN layer's activations for A and B (the neurons most active in
    either), and A - B."""
    pair = _internals_pair(sel)
    if pair is None:
        return
    a, b = pair
    xa, xb = a.post[layer], b.post[layer]                                          # [pos, d_ff]
    neurons = vz.top_neurons(np.concatenate([xa, xb, xa - xb]), k_per_token=4,
                             max_neurons=max(1, min(32, 128 * 64 // len(a.tokens))))   # the heatmap's cell limit
    za, zb = xa[:, neurons], xb[:, neurons]
    scale = float(np.percentile(np.abs(np.concatenate([za, zb])), 99)) or 1.0   # as activation_heatmap
    words = {"token": t("term_token"), "neuron": t("term_neuron"), "activation": t("term_activation")}
    figs = [vz.activation_heatmap(za, a.tokens, neurons, title=_ab_title("a"), zmax=scale, terms=words),
            vz.activation_heatmap(zb, b.tokens, neurons, title=_ab_title("b"), zmax=scale, terms=words),
            vz.activation_heatmap(vz.difference(za, zb), a.tokens, neurons, title=_ab_title("d"), terms=words)]
    for fig, key in zip(figs, ["ab_ffn_a", "ab_ffn_b", "ab_ffn_diff"]):   # tokens x neurons: full width each
        figure_export.chart(fig, key=key, width="stretch")
    st.caption(t("ab_ffn_caption", layer=layer, n=len(neurons)))


def residual_ab(sel: Selection) -> None:
    """How far apart the two streams are, ||x_A - x_B||, at every step and position."""
    pair = _internals_pair(sel)
    if pair is None:
        return
    a, b = pair
    dist = np.linalg.norm(vz.difference(a.stream, b.stream), axis=-1)               # [n, pos]
    fig = vz.value_heatmap(dist, site_labels(a.labels), a.tokens, title=t("ab_resid_title"), value_name="‖A − B‖")
    figure_export.chart(fig, key="ab_resid", width="stretch")
    st.caption(t("ab_resid_caption"))


def attention_ab(sel: Selection, stack: str, layer: int, head: int, combine: str) -> None:
    """One head (or the mean/max over heads: combine 'mean' | 'max') for A and B, and A - B."""
    b_text = text_b(sel)
    if b_text is None:
        return
    da = attention_data(RunKey.of(sel))
    db = attention_data(RunKey(sel.model_key, sel.device, b_text, sel.target))
    (q_tok, k_tok), (qb, kb) = da.tokens_of(stack), db.tokens_of(stack)
    if aligned(k_tok, kb) is None or (len(q_tok) != len(qb) and aligned(q_tok, qb) is None):
        return

    def shown(d) -> np.ndarray:
        m = d.patterns[stack][layer]
        m = m[head] if combine == "one" else attention.aggregate_heads(m, combine)
        return np.where(d.masks[stack], m, np.nan).astype(np.float32)

    pa, pb = shown(da), shown(db)
    what = t("head_what", head=head) if combine == "one" else t(f"combine_{combine}")
    terms = attention_terms()
    figs = [vz.head_heatmap(pa, q_tok, k_tok, title=f"{_ab_title('a')} · L{layer} {what}", clickable=False,
                            terms=terms, square=False),
            vz.head_heatmap(pb, qb, kb, title=f"{_ab_title('b')} · L{layer} {what}", clickable=False,
                            terms=terms, square=False),
            vz.matrix_heatmap(vz.difference(pa, pb), row_labels=q_tok, col_labels=k_tok, title=_ab_title("d"),
                              row_name=t("term_query"), col_name=t("term_key"), colorbar_title="A − B",
                              terms=terms)]
    # two per row: three maps side by side leave too little room for the key labels
    keys = ["ab_attn_a", "ab_attn_b", "ab_attn_diff"]
    for row in (figs[:2], figs[2:]):
        cols = st.columns(2)
        for col, fig in zip(cols, row):
            with col:
                vz.fit_height(fig, HEIGHT)
                figure_export.chart(fig, key=keys.pop(0), width="stretch")
        if len(row) == 1:
            cols[1].caption(t("ab_attn_caption"))

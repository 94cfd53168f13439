"""Beyond softmax, section 'mixer': an MLP-Mixer layer beside attention on the page's
q, k, v (lab/mixer.py): attention's weights computed from the input, the Mixer's fixed
token-mixing matrix, and a seeded shuffle of the input that moves the first along with
the tokens and leaves the second as it is (numbers measured, not asserted)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

import viz_core as vz
from lab import mixer
from lab.beyond import QKV
from viz_core.labels import position_label

from ..figure_words import weight_terms
from ..i18n import FORMULAS, t
from ..links import bound, choice, show_notices
from ..serving.beyond import compared
from ..sidebar import Selection
from ..widgets import figure_export


def terms() -> dict[str, str]:
    return weight_terms()


def render(sel: Selection, src: QKV) -> None:
    st.header(t("bxm_mix_title"))
    st.markdown(t("bxm_mix_intro"))
    st.latex(FORMULAS["bxm_mixer"])
    st.info(t("bxm_mix_notes"), icon=":material/report:")
    if src.n < 2:
        st.info(t("bxm_mix_one"), icon=":material/info:")
        return
    c1, c2, c3 = st.columns([4, 2, 2])
    with c1:
        mixing = choice(st.radio, t("bxm_mix_kind"), mixer.MIXINGS, param="bxm_mix", default="fit", horizontal=True,
                        labels={m: t(f"bxm_mix_{m}") for m in mixer.MIXINGS})
    with c2:
        shuffled = bound(st.toggle, t("bxm_shuffle"), key="bxm_shuffle", url_default="False")
    with c3:
        seed = bound(st.number_input, t("bxm_perm_seed"), 0, 1_000_000, 0, 1, key="bxm_pseed", url_default="0")
    show_notices()                  # link values these controls could not use
    r = compared(src.q, src.k, src.v, mixing, bool(shuffled), int(seed))
    st.caption(t("bxm_mix_fit_note") if mixing == "fit" else t("bxm_mix_random_note", n=src.n))
    shown = [position_label(p, src.tokens[p]) for p in r.perm]          # original position · token
    left, right = st.columns(2)
    with left:
        figure_export.chart(vz.head_heatmap(r.attention, shown, shown, title=t("bxm_mix_attn_title"), clickable=False,
                                            terms=terms(), square=False), key="bxm_mix_attention", width="stretch")
        st.caption(t("bxm_mix_attn_note"))
    with right:
        if mixing == "fit":
            fig = vz.head_heatmap(r.token_mixing, shown, shown, title=t("bxm_mix_tok_title"), clickable=False,
                                  terms=terms(), square=False)
        else:
            fig = vz.matrix_heatmap(r.token_mixing, row_labels=shown, col_labels=shown, title=t("bxm_mix_tok_title"),
                                    row_name=t("term_query"), col_name=t("term_key"), colorbar_title=t("wt_term_value"))
        figure_export.chart(fig, key="bxm_mix_tokens", width="stretch")
    if not shuffled:
        st.info(t("bxm_mix_unshuffled"), icon=":material/shuffle:")
    else:
        st.caption(t("bxm_mix_order"))
    numbers(r)
    if src.softmax is not None:
        with st.expander(t("bxm_mix_model_weights")):
            figure_export.chart(vz.head_heatmap(src.softmax, src.tokens, src.tokens, clickable=False, terms=terms()),
                                key="bxm_mix_model", width="stretch")


def numbers(r: mixer.MixerVsAttention) -> None:
    st.markdown(f"**{t('bxm_mix_numbers')}**")
    rows = [(t("bxm_mix_attn_moved"), r.attn_moved), (t("bxm_mix_attn_changed"), r.attn_changed),
            (t("bxm_mix_attn_out"), r.attn_out_moved), (t("bxm_mix_mixer_out"), r.mixer_out_moved),
            (t("bxm_mix_channel"), r.channel_moved)]
    st.dataframe(pd.DataFrame(rows, columns=[t("bxm_mix_col_what"), t("bxm_mix_col_value")]), hide_index=True,
                 width="stretch", column_config={t("bxm_mix_col_value"): st.column_config.NumberColumn(format="%.3e")})
    st.markdown(t("bxm_mix_same", moved=r.attn_moved, mixer=r.mixer_out_moved, channel=r.channel_moved))

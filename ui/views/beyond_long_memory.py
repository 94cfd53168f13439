"""Beyond softmax, section 'long': Transformer-XL's segment recurrence (cache, reach per layer,
the four relative-score terms), Infini-attention's compressive memory and LongNet's mixed
dilated patterns, on the page's q, k, v (`lab/long_memory.py`; figures `viz_core/long_memory.py`)."""
from __future__ import annotations

import numpy as np
import streamlit as st

import lab.long_memory
import viz_core as vz
import viz_core.long_memory

from ..i18n import FORMULAS, t
from ..links import bound, choice
from ..markup import md_escape
from ..serving.beyond import LENGTHS, dilated, infini, xl
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.beyond import beside_softmax, computed, fmt, labels

PARTS = ("xl", "infini", "longnet")


def render(sel: Selection, src) -> None:
    st.markdown(t("bxl_intro"))
    part = choice(st.radio, t("bxl_part"), PARTS, param="bxl_part", default="xl", horizontal=True,
                  labels={p: t(f"bxl_part_{p}") for p in PARTS})
    {"xl": xl_view, "infini": infini_view, "longnet": longnet_view}[part](sel, src)


def segment_input(key: str, default: int) -> int:
    return int(bound(st.number_input, t("bxl_segment"), 1, 100_000, default, 1, key=key, url_default=str(default)))


# --------------------------------------------------------------------------- Transformer-XL


def query_slider(n: int) -> int:
    """The query whose score terms are drawn (default: the last position)."""
    if "bxl_query" in st.session_state and not 0 <= st.session_state["bxl_query"] < n:
        st.session_state["bxl_query"] = n - 1
    if n <= 1:
        return 0
    return int(bound(st.slider, t("bxl_query"), 0, n - 1, n - 1, key="bxl_query", url_default=str(n - 1)))


def xl_view(sel: Selection, src) -> None:
    st.markdown(t("bxl_xl_intro"))
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        segment = segment_input("bxl_seg", 3)
    with c2:
        layers = int(bound(st.slider, t("bxl_layers"), 1, 24, 6, key="bxl_layers", url_default="6"))
    with c3:
        qi = query_slider(src.n)
    with c4:
        seed = int(bound(st.number_input, t("bxl_seed"), 0, 1_000_000, 0, 1, key="bxl_seed", url_default="0"))
    r = computed(xl, src.q, src.k, src.v, segment, layers, seed)
    if r is None:
        return
    if segment >= src.n:
        st.info(t("bxl_one_segment", segment=segment, n=src.n), icon=":material/info:")
        st.metric(t("bxl_xl_plain"), fmt(float(np.abs(r.out - r.plain).max())))
    else:
        st.markdown(t("bxl_xl_segments", k=r.n_segments, segment=r.segment))
    reach = lab.long_memory.xl_mask(src.n, r.segment)
    beside_softmax(src, r.weights, t("bxl_weights"), "bxl_xl", normalised=True, blank=~reach,
                   blank_word=t("bxl_unread"))
    keys = np.flatnonzero(reach[qi])
    names = [t(f"bxl_term_{x}") for x in "abcd"]
    st.markdown(f"**{t('bxl_terms_title', q=md_escape(labels(src)[qi]))}**")
    fig = viz_core.long_memory.long_terms_chart(dict(zip(names, r.terms[:, qi, keys])), [labels(src)[j] for j in keys],
                                                total=r.terms[:, qi, keys].sum(0),
                                                words={"key": t("term_key"), "score": t("bxl_score"),
                                                       "total": t("bxl_term_sum")})
    figure_export.chart(fig, key="bxl_terms", width="stretch")
    st.markdown(f"**{t('bxl_reach_title', n=r.reach_n, segment=r.segment)}**")
    fig = viz_core.long_memory.long_reach_chart(r.reach, r.reach_alone, r.reach_n,
                                                words={"layer": t("bxl_layers_axis"), "reach": t("bxl_reached"),
                                                       "with": t("bxl_with"), "without": t("bxl_without")})
    figure_export.chart(fig, key="bxl_reach", width="stretch")
    st.latex(FORMULAS["bxl_xl"])


# --------------------------------------------------------------------------- Infini-attention


def infini_view(sel: Selection, src) -> None:
    st.markdown(t("bxl_infini_intro"))
    c1, c2 = st.columns(2)
    with c1:
        segment = segment_input("bxl_iseg", 4)
    with c2:
        beta = bound(st.slider, t("bxl_beta"), -6.0, 6.0, 0.0, 0.1, key="bxl_beta", url_default="0.0")
    if segment >= src.n:
        st.info(t("bxl_one_segment", segment=segment, n=src.n), icon=":material/info:")
    r = computed(infini, src.q, src.k, src.v, segment, float(beta))
    if r is None:
        return
    m1, m2 = st.columns(2)
    m1.metric(t("bxl_gate"), f"{r.gate:.3f}")
    m2.metric(t("bxl_mem_err"), fmt(r.memory_err))
    beside_softmax(src, r.weights, t("bxl_weights"), "bxl_infini", normalised=True, blank=r.weights == 0,
                   blank_word=t("bxl_unread"))
    left, right = st.columns(2)
    d, dv = src.d, src.v.shape[1]
    with left:
        st.markdown(f"**{t('bxl_memory')}**")
        fig = vz.matrix_heatmap(r.memory, row_labels=[str(i) for i in range(d)], col_labels=[str(j) for j in range(dv)],
                             row_name=" ", col_name=t("bxr_dim"), colorbar_title=t("bxr_value"))
        fig.update_layout(height=360)
        figure_export.chart(fig, key="bxl_memory", width="stretch")
    with right:
        st.markdown(f"**{t('bxl_bytes_title')}**")
        mem, kv = lab.long_memory.infini_bytes(LENGTHS, d, dv)
        fig = viz_core.long_memory.long_lines_chart(LENGTHS, {t("bxl_bytes_mem"): mem, t("bxl_bytes_kv"): kv},
                                                    x_title=t("bxl_length"), y_title=t("bxl_bytes"))
        figure_export.chart(fig, key="bxl_bytes", width="stretch")
    st.markdown(t("bxl_mem_size", d=d, dv=dv, numbers=d * dv + d, kv=(d + dv) * src.n, n=src.n))
    st.latex(FORMULAS["bxl_infini"])


# --------------------------------------------------------------------------- LongNet


def longnet_view(sel: Selection, src) -> None:
    st.markdown(t("bxl_longnet_intro"))
    text = bound(st.text_input, t("bxl_pairs"), "4:1, 8:2, 16:4", key="bxl_pairs", url_default="4:1, 8:2, 16:4",
                 help=t("bxl_pairs_help"), max_chars=200)
    got = computed(dilated, src.q, src.k, src.v, str(text))
    if got is None:
        return
    d, err, mix, dense = got
    if d.too_long:
        st.info(t("bxl_too_long", pairs=", ".join(f"{w}:{r}" for w, r in d.too_long), n=src.n), icon=":material/info:")
    if d.uncovered:
        st.info(t("bxl_uncovered", positions=", ".join(map(str, d.uncovered[:20])) + ("…" if len(d.uncovered) > 20
                                                                                       else "")),
                icon=":material/info:")
    st.metric(t("bxl_mix_err"), fmt(err))
    st.markdown(f"**{t('bxl_pattern')}**")
    fig = viz_core.long_memory.long_pattern_chart(d.patterns, [f"{w}:{r}" for w, r in d.pairs], labels(src),
                                                  words={"query": t("term_query"), "key": t("term_key"),
                                                         "none": t("bxl_unread")})
    figure_export.chart(fig, key="bxl_pattern", width="stretch")
    beside_softmax(src, d.weights, t("bxl_weights"), "bxl_longnet", normalised=True, blank=~d.patterns.any(0),
                   blank_word=t("bxl_unread"))
    st.markdown(f"**{t('bxl_keys_title')}**")
    pairs = ", ".join(f"{w}:{r}" for w, r in d.pairs)
    fig = viz_core.long_memory.long_lines_chart(LENGTHS, {t("bxl_mix", pairs=pairs): mix, t("bxl_dense"): dense},
                                                x_title=t("bxl_length"), y_title=t("bxl_keys"))
    figure_export.chart(fig, key="bxl_keys", width="stretch")
    st.caption(t("bxl_keys_note"))
    st.latex(FORMULAS["bxl_longnet"])

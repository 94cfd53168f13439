"""Beyond softmax, section 'recurrent': retention's three forms, gated retention, RWKV's WKV
and a selective state-space step on the page's q, k, v (`lab/recurrent.py`), each beside the
model's softmax weights, with the state it carries and the recurrence-vs-sum difference."""
from __future__ import annotations

import numpy as np
import streamlit as st

import viz_core as vz
from lab import recurrent
from viz_core.residual import lines_chart

from ..i18n import FORMULAS, t
from ..links import bound, choice, index_slider
from ..serving.beyond import gated, retention, rwkv, ssm
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception
from ..widgets.beyond import beside_softmax, computed, fmt, labels

FORMS = ("retention", "gated", "rwkv", "ssm")


def render(sel: Selection, src) -> None:
    st.markdown(t("bxr_intro"))
    form = choice(st.radio, t("bxr_form"), FORMS, param="bxr_form", default="retention", horizontal=True,
                  labels={f: t(f"bxr_form_{f}") for f in FORMS})
    if src.softmax is not None and not src.causal:
        st.caption(t("bxr_causal_note"))
    {"retention": retention_view, "gated": gated_view, "rwkv": rwkv_view, "ssm": ssm_view}[form](src)


# --------------------------------------------------------------------------- shared pieces


def state_panel(src, norms: np.ndarray, final: np.ndarray, kind: str, key: str, *, n_state: int = 0,
                rows: list[str] | None = None) -> None:
    """The state's norm per position, the final state as a heatmap, and its size against a KV cache."""
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('bxr_state_norm')}**")
        fig = lines_chart({t("bxr_series_state"): (labels(src), norms)}, y_name=t("bxr_norm_axis"))
        fig.update_layout(showlegend=False)
        figure_export.chart(fig, key=f"bxr_{key}_norms", width="stretch")
    with right:
        title = t("bxr_rwkv_state") if kind == "rwkv" else t("bxr_state_final")
        st.markdown(f"**{title}**")
        r = rows or [str(i) for i in range(final.shape[0])]
        fig = vz.matrix_heatmap(final, row_labels=r, col_labels=[str(j) for j in range(final.shape[1])],
                                row_name=" ", col_name=t("bxr_dim"), colorbar_title=t("bxr_value"))
        fig.update_layout(height=360)
        figure_export.chart(fig, key=f"bxr_{key}_state", width="stretch")
    n, d, dv = src.n, src.d, src.v.shape[1]
    shape = {"rwkv": f"3 × {dv}", "ssm": f"{dv} × {n_state}"}.get(kind, f"{d} × {dv}")
    numbers = recurrent.state_numbers(kind, n, d, dv, n_state)
    st.markdown(t("bxr_state_size", shape=shape, numbers=numbers, kv=recurrent.state_numbers("kv", n, d, dv),
                  step=d + dv, n=n)
                + " " + t("bxr_break_even", n=-(-numbers // (d + dv))))


# --------------------------------------------------------------------------- the four forms


def retention_view(src) -> None:
    st.markdown(t("bxr_ret_intro"))
    c1, c2 = st.columns(2)
    with c1:
        gamma = bound(st.slider, t("bxr_gamma"), 0.5, 1.0, 0.95, 0.005, key="bxr_gamma", url_default="0.95",
                      format="%.3f")
    with c2:
        chunk = bound(st.number_input, t("bxr_chunk"), 1, 4096, 4, 1, key="bxr_chunk", url_default="4")
    if int(chunk) >= src.n:
        st.info(t("bxr_chunk_long", chunk=int(chunk), n=src.n), icon=":material/info:")
    r = computed(retention, src.q, src.k, src.v, float(gamma), int(chunk))
    if r is None:
        return
    m1, m2, m3 = st.columns(3)
    m1.metric(t("bxr_err_rec"), fmt(r.err_recurrent))
    m2.metric(t("bxr_err_chunk"), fmt(r.err_chunkwise))
    m3.markdown(t("bxr_chunks", n=src.n, chunks=r.n_chunks, chunk=r.chunk))
    beside_softmax(src, r.weights, t("bxr_implied_ret"), "bxr_ret")
    state_panel(src, r.state_norms, r.final_state, "retention", "ret")
    d = int(src.q.shape[-1])
    misconception("bxr_speed", t("bxr_mis_speed_common"),
                  t("bxr_mis_speed_shown", state=d * d, d=d, kv=2 * src.n * d, n=src.n))
    st.latex(FORMULAS["bxr_retention"])
    st.latex(FORMULAS["bxr_chunkwise"])


def seed_input() -> int:
    return int(bound(st.number_input, t("bxr_seed"), 0, 1_000_000, 0, 1, key="bxr_seed", url_default="0"))


def gated_view(src) -> None:
    st.markdown(t("bxr_gated_intro"))
    c1, c2 = st.columns(2)
    with c1:
        bias = bound(st.slider, t("bxr_gbias"), -4.0, 8.0, 2.0, 0.1, key="bxr_gbias", url_default="2.0")
    with c2:
        seed = seed_input()
    g = computed(gated, src.q, src.k, src.v, float(bias), seed)
    if g is None:
        return
    st.metric(t("bxr_err"), fmt(g.err))
    st.markdown(f"**{t('bxr_gammas')}**")
    fig = lines_chart({t("bxr_series_gamma"): (labels(src), g.gammas)}, y_name=t("bxr_gamma_axis"))
    fig.update_layout(height=260, showlegend=False, yaxis_range=[0, 1.02])
    figure_export.chart(fig, key="bxr_gates", width="stretch")
    beside_softmax(src, g.weights, t("bxr_implied_ret"), "bxr_gated")
    state_panel(src, g.state_norms, g.final_state, "gated", "gated")
    st.latex(FORMULAS["bxr_gated"])


def rwkv_view(src) -> None:
    st.markdown(t("bxr_rwkv_intro"))
    c1, c2 = st.columns(2)
    with c1:
        bonus = bound(st.slider, t("bxr_u"), -3.0, 3.0, 0.5, 0.1, key="bxr_u", url_default="0.5")
    with c2:
        channel = index_slider(t("bxr_channel"), src.d, "bxr_ch")
    r = computed(rwkv, src.k, src.v, float(bonus), int(channel))
    if r is None:
        return
    st.metric(t("bxr_err"), fmt(r.err))
    beside_softmax(src, r.matrix, t("bxr_rwkv_matrix", ch=r.channel, w=float(r.w[r.channel])), "bxr_rwkv",
                   normalised=True)
    state_panel(src, r.state_norms, r.state, "rwkv", "rwkv", rows=["a", "b", "p"])
    st.latex(FORMULAS["bxr_rwkv"])


def ssm_view(src) -> None:
    st.markdown(t("bxr_ssm_intro"))
    c1, c2, c3 = st.columns(3)
    with c1:
        n_state = bound(st.slider, t("bxr_state_n"), 1, 32, 8, key="bxr_state", url_default="8")
    with c2:
        channel = index_slider(t("bxr_channel"), src.v.shape[1], "bxr_ch")
    with c3:
        seed = seed_input()
    s = computed(ssm, src.q, src.k, src.v, int(n_state), int(channel), seed)
    if s is None:
        return
    st.metric(t("bxr_err"), fmt(s.err))
    st.caption(t("bxr_ssm_checked", k=len(s.checked), d=src.v.shape[1]))
    beside_softmax(src, s.matrix, t("bxr_ssm_matrix", ch=s.channel), "bxr_ssm")
    st.markdown(f"**{t('bxr_ssm_delta', ch=s.channel)}**")
    fig = lines_chart({"Δ": (labels(src), s.delta[:, s.channel])}, y_name=t("bxr_delta_axis"))
    fig.update_layout(height=260, showlegend=False)
    figure_export.chart(fig, key="bxr_delta", width="stretch")
    state_panel(src, s.state_norms, s.final_state, "ssm", "ssm", n_state=int(n_state))
    st.latex(FORMULAS["bxr_ssm"])

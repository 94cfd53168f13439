"""The positional-encoding lab: schemes side by side, their properties, and their effect
on attention in the toy checkpoints trained once per scheme (ui/views/positional_checkpoints.py).

Numbers come from lab/positional.py, which calls models/positional.py (the functions the
model itself calls) or reads a model's weights (learned tables, T5 bias tables); figures
come from viz_core.positional. Computations are cached by plain values (`st.cache_data`,
ui/serving/positional.py), models by the run gate (ui/serving, `st.cache_resource`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import lab.positional
import viz_core.positional
from models.config import POSITIONALS, STOCK_BASE
from models.trace import Stack
from models.weights import zoo

from .. import model_names
from ..figure_words import bias_grid, pe_words, scheme_label
from ..i18n import FORMULAS, formula, t
from ..links import bound, choice, show_notices
from ..markup import md_escape
from ..serving.positional import (lm_set, relative_table, scheme_checkpoints, similarity, table_figure, trained_rows,
                                  vector_table)
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception
from . import (positional_checkpoints, positional_length_curve, positional_naive_positions, positional_qk_geometry,
               positional_rope_cost)

BASE_SECTIONS = ("tables", "naive", "shift", "rope", "cost", "bias")
DEFAULT_SCHEMES = ("sinusoidal", "learned", "rope")
MAX_LEN, MAX_DIM = 1024, 1024
GRID_CAP = 64            # positions shown in the per-head small multiples


@dataclass(frozen=True)
class Size:
    """Sequence length, dimension and base of the computed tables."""

    n: int
    d: int
    base: float


@dataclass(frozen=True)
class TableControls:
    """What the tables section's controls chose."""

    schemes: tuple[str, ...]       # from models.config.POSITIONALS, in the order picked
    size: Size
    learned_key: str | None        # the catalogue entry whose learned table is shown
    kind: str                      # cosine | dot


def render(sel: Selection) -> None:
    """The positional-encoding lab. It reads its own models (a catalogue entry per
    scheme, the toy checkpoints), not the sidebar's selection."""
    st.title(t("pe_title"))
    st.caption(t("pe_intro"))
    # controls and views are one fragment: moving a slider reruns only the lab
    page_body(sel)


# ---- sources of weights ----------------------------------------------------------------------
def sources(positional: str) -> dict[str, str]:
    """Available catalogue entries with this positional scheme: key -> label. Trained
    models first (pretrained, then shipped toys), random-weight presets last."""
    order = {"pretrained": 0, "toy": 1, "folder": 2, "custom": 3}
    entries = [e for e in zoo.catalogue() if e.available and e.config is not None
               and e.config.positional == positional]
    entries.sort(key=lambda e: order.get(e.kind, 9))
    return {e.key: model_names.random_label(e) for e in entries}


def is_random(key: str) -> bool:
    return key.startswith("custom:")


def odd_dim_message(scheme: str, d: int) -> None:
    st.warning(t("pe_odd_dim", scheme=scheme_label(scheme), d=d, lo=max(2, d - 1), hi=d + 1),
               icon=":material/warning:")


# ---- controls ------------------------------------------------------------------------------------
def sections() -> tuple[str, ...]:
    """The lab's sections; those about the toy checkpoints only when they are shipped;
    "train short, test long" with the positional LMs; the query–key geometry when a
    trained model is there to read."""
    return (BASE_SECTIONS + (positional_checkpoints.SECTIONS if scheme_checkpoints() else ())
            + (("length",) if lm_set() else ()) + (("geometry",) if positional_qk_geometry.models() else ()))


def section_control() -> str:
    secs = sections()
    return choice(st.radio, t("pe_section"), secs, param="pe_view", default="tables", horizontal=True,
                  labels={s: t(f"pe_sec_{s}") for s in secs})


def size_controls() -> Size:
    """Sequence length, dimension and base, bounded (an odd dimension is allowed here and
    answered with a message where a scheme needs pairs)."""
    c1, c2, c3 = st.columns(3)
    with c1:
        n = bound(st.slider, t("pe_length"), 2, MAX_LEN, 64, key="pe_n", url_default="64")
    with c2:
        d = bound(st.number_input, t("pe_dim"), 2, MAX_DIM, 64, 1, key="pe_d", url_default="64",
                  help=t("pe_dim_help"))
    with c3:
        base = bound(st.number_input, t("pe_base"), 2.0, 1.0e7, STOCK_BASE, key="pe_base", url_default=str(STOCK_BASE),
                     format="%g")
    show_notices()                      # a link value out of range was clamped: say so
    return Size(int(n), int(d), float(base))


def table_controls() -> TableControls:
    """Schemes, sizes, the learned table's model and the similarity."""
    schemes = st.multiselect(t("pe_schemes"), list(POSITIONALS), default=list(DEFAULT_SCHEMES), key="pe_schemes",
                             format_func=scheme_label)
    size = size_controls()
    if not schemes:
        return TableControls((), size, None, "cosine")
    learned_key = None
    if "learned" in schemes and (opts := sources("learned")):
        learned_key = st.selectbox(t("pe_learned_source"), list(opts), format_func=opts.get, key="pe_learned_src")
    kind = choice(st.radio, t("pe_similarity"), ("cosine", "dot"), param="pe_sim", default="cosine",
                  horizontal=True, labels={k: t(f"pe_sim_{k}") for k in ("cosine", "dot")})
    return TableControls(tuple(schemes), size, learned_key, kind)


# ---- the page body ---------------------------------------------------------------------------------
@st.fragment
def page_body(sel: Selection) -> None:
    """Section choice and the chosen section (a fragment: controls rerun only this)."""
    section = section_control()
    show_notices()
    if section == "tables":
        tables_section(table_controls())
    elif section == "naive":
        positional_naive_positions.section()
    elif section == "shift":
        shift_section()
    elif section == "rope":
        rope_section()
    elif section == "cost":
        positional_rope_cost.section(sel)
    elif section == "bias":
        bias_section()
    elif section == "geometry":
        positional_qk_geometry.section(sel)
    elif section == "length":
        positional_length_curve.section()
    else:
        positional_checkpoints.section(section)


def tables_section(c: TableControls) -> None:
    if not c.schemes:
        st.info(t("pe_none_schemes"), icon=":material/touch_app:")
        return
    n, d, base = c.size.n, c.size.d, c.size.base
    lw = tuple(pe_words().items())

    st.subheader(t("pe_tables_title"))
    st.caption(t("pe_tables_caption"))
    cols = st.columns(len(c.schemes))
    drawn: list[str] = []
    for col, s in zip(cols, c.schemes):
        with col:
            st.markdown(f"**{scheme_label(s)}**")
            if s == "none":
                st.info(t("pe_no_table_none"))
            elif s in ("alibi", "relative"):
                st.info(t("pe_no_table_bias", scheme=scheme_label(s)))
            elif s in ("sinusoidal", "rope") and d % 2:
                odd_dim_message(s, d)
            elif s == "learned" and c.learned_key is None:
                st.info(t("pe_no_learned"))
            else:
                key = c.learned_key if s == "learned" else ""
                figure_export.chart(table_figure(s, n, d, base, key, "", lw), key=f"pe_table_{s}", width="stretch")
                if s == "learned":
                    learned_notes(vector_table(s, n, d, base, key), key, n)
                drawn.append(s)
    if not drawn:
        return
    if "sinusoidal" in drawn:
        wl = vector_table("sinusoidal", n, d, base).wavelengths
        misconception("pe_wavelength", t("pe_mis_wavelength_common"),
                      t("pe_mis_wavelength_shown", base=base, d=d, w0=wl[0], a=d - 2, b=d - 1, wl=wl[-1]))

    st.subheader(t("pe_sim_title"))
    st.caption(t("pe_sim_caption"))
    sims = {s: similarity(s, n, d, base, c.learned_key if s == "learned" else "", c.kind) for s in drawn}
    cols = st.columns(len(c.schemes))
    for col, s in zip(cols, c.schemes):
        if s in sims:
            with col:
                fig = viz_core.positional.matrix(sims[s], title=scheme_label(s), x_name=t("pe_w_position"),
                                y_name=t("pe_w_position"), value_name=t(f"pe_sim_{c.kind}"))
                figure_export.chart(fig, key=f"pe_sim_{s}", width="stretch")

    st.subheader(t("pe_curve_title"))
    series = {scheme_label(s): (np.arange(n), lab.positional.similarity_by_distance(sim)) for s, sim in sims.items()}
    figure_export.chart(viz_core.positional.curves(series, x_name=t("pe_w_distance"), y_name=t(f"pe_sim_{c.kind}")),
             key="pe_curves", width="stretch")
    formulas(c.schemes)


def learned_notes(vt: lab.positional.VectorTable, key: str, n: int) -> None:
    """Which model the learned table is, how many rows it has and how many were trained."""
    label = sources("learned")[key]
    st.caption(t("pe_table_width", model=md_escape(label), rows=vt.rows, d=vt.table.shape[1]))
    if vt.rows < n:
        st.info(t("pe_table_short", model=md_escape(label), rows=vt.rows, last=n - 1), icon=":material/straighten:")
    if is_random(key):
        st.caption(t("pe_random_note", model=md_escape(label)))
    trained = trained_rows(key)
    if trained is not None and trained < vt.rows:
        st.caption(t("pe_trained_rows", trained=trained, rows=vt.rows))
    misconception("pe_copies", t("pe_mis_copies_common"),
                  t("pe_mis_copies_shown", rows=vt.rows, copies=-(-4096 // vt.rows)))


# ---- sinusoidal shift -------------------------------------------------------------------------------
def shift_section() -> None:
    size = size_controls()
    st.caption(t("pe_shift_intro"))
    st.latex(FORMULAS["pe_shift"])
    if size.d % 2:
        odd_dim_message("sinusoidal", size.d)
        return
    c1, c2 = st.columns(2)
    with c1:
        k = bound(st.slider, t("pe_shift_k"), 0, MAX_LEN, 5, key="pe_k", url_default="5")
    with c2:
        pos = bound(st.slider, t("pe_shift_pos"), 0, MAX_LEN, 10, key="pe_pos", url_default="10")
    demo = lab.positional.sinusoidal_shift(size.n, size.d, int(k), int(pos), size.base)
    show = min(size.d, 16)
    left, right = st.columns([2, 3])
    with left:
        fig = viz_core.positional.matrix(demo.matrix[:show, :show], title=t("pe_shift_matrix", k=k, n=show),
                        x_name=t("pe_w_dimension"), y_name=t("pe_w_dimension"), value_name="M_k")
        figure_export.chart(fig, key="pe_shift_m", width="stretch")
    with right:
        omega = demo.omega
        fig = viz_core.positional.rotation_arrows(
            demo.points, panel_titles=[t("pe_shift_pair", i=i, w=omega[i], a=k * omega[i]) for i in demo.pairs],
            arrow_names=[t("pe_arrow_before"), t("pe_arrow_rotated"), t("pe_arrow_target")],
            dashed=[False, False, True], title=t("pe_shift_arrows", pos=pos, pos2=pos + k))
        figure_export.chart(fig, key="pe_shift_arrows", width="stretch")
    st.success(t("pe_shift_check", n=demo.checked, d=size.d, err=demo.error), icon=":material/check:")
    shift_notes(size, int(k), int(pos))
    formulas(["sinusoidal"])


def shift_notes(size: Size, k: int, pos: int) -> None:
    """sin(a + b) written out on pair 0, and why positions stay distinct (every value from lab.positional)."""
    at = {p: (lab.positional.sinusoidal_entry(p, 0, size.d, size.base).value,
              lab.positional.sinusoidal_entry(p, 1, size.d, size.base).value) for p in (pos, k, pos + k)}
    (s_pos, c_pos), (s_k, c_k) = at[pos], at[k]
    misconception("pe_addition", t("pe_mis_addition_common"),
                  t("pe_mis_addition_shown", pos=pos, k=k, after=at[pos + k][0], before=s_pos,
                    sum=s_pos * c_k + c_pos * s_k))
    wl = lab.positional.vector_table("sinusoidal", 2, size.d, size.base).wavelengths
    misconception("pe_unique", t("pe_mis_unique_common"),
                  t("pe_mis_unique_shown", pos=pos, s=s_pos, c=c_pos, c2=-c_pos, wl=wl[-1],
                    gap=lab.positional.neighbour_gap(pos, size.d, size.base)))


# ---- RoPE ------------------------------------------------------------------------------------------
def rope_section() -> None:
    size = size_controls()
    st.caption(t("pe_rope_intro"))
    if size.d % 2:
        odd_dim_message("rope", size.d)
        return
    c1, c2 = st.columns(2)
    with c1:
        seed = bound(st.number_input, t("pe_rope_seed"), 0, 10_000, 0, 1, key="pe_seed", url_default="0")
    with c2:
        gap = bound(st.slider, t("pe_rope_gap"), 0, 16, 2, key="pe_gap", url_default="2")
    demo = lab.positional.rope_demo(size.n, size.d, int(seed), int(gap), size.base)
    # q at m (solid) and k at n = m - gap (dashed), for three m: each pair turns rigidly,
    # so the angle between q and k (hence q·k) is the same at every m
    ms = demo.positions
    names = [name for m in ms for name in (t("pe_rope_q_at", m=m), t("pe_rope_k_at", n=m - gap))]
    fig = viz_core.positional.rotation_arrows(demo.points, panel_titles=[t("pe_rope_freq", i=i, theta=demo.theta[i])
                                                        for i in demo.freqs],
                             arrow_names=names, dashed=[False, True] * len(ms),
                             colors=[c for j in range(len(ms)) for c in (viz_core.positional.PALETTE[j],) * 2],
                             title=t("pe_rope_arrows", gap=gap))
    figure_export.chart(fig, key="pe_rope_arrows", width="stretch")
    offsets = np.asarray(demo.offsets)
    series = {t("pe_rope_query_at", m=m): (offsets, demo.scores[i]) for i, m in enumerate(demo.queries)}
    figure_export.chart(viz_core.positional.curves(series, title=t("pe_rope_scores"), x_name=t("pe_w_offset"),
                                                   y_name=t("pe_w_score"),
                       overlap=True),
             key="pe_rope_scores", width="stretch")
    st.success(t("pe_rope_check", err=demo.error), icon=":material/check:")
    misconception("pe_rope", t("pe_mis_rope_common"), t("pe_mis_rope_shown", err=demo.error))
    formulas(["rope"])


# ---- ALiBi and relative ---------------------------------------------------------------------------
def bias_section() -> None:
    c1, c2 = st.columns(2)
    with c1:
        n = bound(st.slider, t("pe_length"), 2, MAX_LEN, 32, key="pe_bn", url_default="32")
    with c2:
        heads = bound(st.slider, t("pe_heads"), 1, 32, 8, key="pe_heads", url_default="8")
    show_notices()
    shown = min(n, GRID_CAP)
    slopes, bias = lab.positional.alibi(int(heads), shown)
    head_names = [t("pe_w_head", h=h) for h in range(heads)]
    left, right = st.columns([1, 2])
    with left:
        st.markdown(f"**{t('pe_alibi_title')}**")
        figure_export.chart(viz_core.positional.bars(slopes, head_names, log_y=True, y_name=t("pe_w_slope")),
                            key="pe_alibi_slopes",
                 width="stretch")
        st.caption(t("pe_alibi_caption"))
    with right:
        figure_export.chart(bias_grid(bias, t("pe_alibi_bias", n=shown)), key="pe_alibi_grid", width="stretch")
        if shown < n:
            st.caption(t("pe_grid_capped", n=shown, total=n))
    st.divider()
    opts = sources("relative")
    if not opts:
        st.info(t("pe_no_relative"))
    else:
        relative_view(opts, n, shown)
    formulas(["alibi", "relative"])


def relative_view(opts: dict[str, str], n: int, shown: int) -> None:
    """A model's learned T5 bias: its buckets, the bias per head, the bias per offset."""
    c1, c2 = st.columns(2)
    with c1:
        key = st.selectbox(t("pe_relative_source"), list(opts), format_func=opts.get, key="pe_rel_src")
    stacks = [s.value for s in Stack.blocks_of(zoo.get(key).config.arch)]
    with c2:
        if len(stacks) > 1:
            stack = st.radio(t("pe_stack"), stacks, key="pe_rel_stack", horizontal=True,
                             format_func=lambda s: t(f"pe_stack_{s}"))
        else:                            # a single stack is the model itself
            stack = stacks[0]
    rt = relative_table(key, stack)
    view = lab.positional.relative_view(rt, n, shown)
    label = opts[key]
    left, right = st.columns([1, 2])
    with left:
        fig = viz_core.positional.matrix(view.buckets,
                                         title=t("pe_bucket_title", direction=t("pe_bidirectional" if rt.bidirectional
                                                                            else "pe_causal")),
                        center=None, value_name=t("pe_w_bucket"),
                        x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"))
        figure_export.chart(fig, key="pe_buckets", width="stretch")
        st.caption(t("pe_bucket_caption", maxd=rt.max_distance))
    with right:
        figure_export.chart(bias_grid(view.bias, t("pe_rel_bias", model=label, n=shown)), key="pe_rel_grid",
                 width="stretch")
        if is_random(key):
            st.caption(t("pe_random_note", model=md_escape(label)))
    series = {t("pe_w_head", h=h): (view.offsets, view.curves[:, h]) for h in range(view.curves.shape[1])}
    figure_export.chart(viz_core.positional.curves(series, title=t("pe_rel_curve"), x_name=t("pe_w_rel_offset"),
                                                   y_name=t("pe_w_bias")),
             key="pe_rel_curve", width="stretch")
    if rt.bidirectional and n > 1:
        left_b, right_b = view.curves[view.offsets == -1][0], view.curves[view.offsets == 1][0]
        h = int(np.argmax(np.abs(right_b - left_b)))
        misconception("pe_direction", t("pe_mis_direction_common"),
                      t("pe_mis_direction_shown", model=md_escape(label), h=h, left=left_b[h], right=right_b[h]))


# ---- formulas -----------------------------------------------------------------------------------------
def formulas(schemes) -> None:
    """The formula, a short explanation and worked numbers (computed now) per scheme."""
    w = lab.positional.worked_numbers()
    with st.expander(t("pe_formulas"), expanded=False):
        for s in schemes:
            st.markdown(t(f"pe_ex_{s}"))
            st.latex(formula(f"pe_{s}"))
            if s == "sinusoidal":
                st.markdown(t("pe_ex_worked", v0=w.sin_pos10[0], v1=w.sin_pos10[1], deg=w.sin_10_degrees))
                with st.container(key="pe_calc"):
                    calculator()
            elif s == "rope":
                st.markdown(t("pe_ex_rope_worked", deg=w.rope_degrees))
            elif s == "alibi":
                st.markdown(t("pe_ex_alibi_worked", h=8, s0=w.alibi_slope, b=w.alibi_bias))
            elif s == "relative":
                b = w.buckets
                st.markdown(t("pe_ex_relative_worked", b7=b[0], b8=b[1], b20=b[2], b200=b[3]))


def calculator() -> None:
    """PE(pos, dim) for any position and any (even) d_model, and the course notes'
    table (d_model = 512, pos = 10) in radians beside the degree-mode values."""
    c1, c2, c3 = st.columns(3)
    with c1:
        pos = int(st.number_input(t("pe_your_pos"), 0, 10**9, 10, key="pe_ex_pos"))
    with c2:
        d = int(st.number_input(t("pe_your_d"), 2, 16_384, 64, 2, key="pe_ex_d", help=t("pe_your_d_help")))
    if d % 2:
        odd_dim_message("sinusoidal", d)
        return
    start = {} if "pe_ex_dim" in st.session_state else {"value": 0}    # no default once the state holds one
    if st.session_state.get("pe_ex_dim", 0) > d - 1:
        st.session_state["pe_ex_dim"] = d - 1                            # a narrower table: its last dimension
    with c3:
        dim = int(st.number_input(t("pe_your_dim"), min_value=0, max_value=d - 1, key="pe_ex_dim", **start))
    e = lab.positional.sinusoidal_entry(pos, dim, d)
    st.markdown(t("pe_ex_yours", pos=pos, dim=dim, fn=e.fn, two_i=e.two_i, d=d, angle=e.angle, value=e.value) + " "
                + t("pe_ex_yours_degrees", fn=e.fn, angle=e.angle, deg=e.degrees))
    e2 = lab.positional.sinusoidal_entry(pos + 1, dim, d)
    misconception("pe_evenodd", t("pe_mis_evenodd_common"),
                  t("pe_mis_evenodd_shown", dim=dim, fn=e.fn, pos=pos, fn2=e2.fn, pos2=pos + 1))
    misconception("pe_vocab", t("pe_mis_vocab_common"), t("pe_mis_vocab_shown", pos=pos, dim=dim, value=e.value))
    misconception("pe_source", t("pe_mis_source_common"), t("pe_mis_source_shown"))
    radii = lab.positional.exponent_mistake_radii(pos, d)
    misconception("pe_exponent", t("pe_mis_exponent_common"),
                  t("pe_mis_exponent_shown", pos=pos, d=d, lo=f"{radii.min():.4f}", hi=f"{radii.max():.4f}",
                    bad=int((abs(radii - 1) > 1e-3).sum()), pairs=len(radii)))
    npos, nd, _ = lab.positional.NOTES_EXAMPLE
    rows = lab.positional.notes_example()
    st.markdown(t("pe_notes_title", pos=npos, d=nd))
    st.dataframe(pd.DataFrame({
        "PE": [f"PE({npos}, {r_dim})" for r_dim in lab.positional.NOTES_EXAMPLE[2]],
        t("pe_notes_formula"): [f"{r.fn}({npos} / 10000^({r.two_i}/{nd}))" for r in rows],
        t("pe_notes_angle"): [r.angle for r in rows],
        t("pe_notes_rad"): [r.value for r in rows],
        t("pe_notes_deg"): [r.degrees for r in rows]}), hide_index=True, width="stretch", key="pe_notes_table",
        column_config={c: st.column_config.NumberColumn(format="%.4f")
                       for c in (t("pe_notes_angle"), t("pe_notes_rad"), t("pe_notes_deg"))})
    st.caption(t("pe_notes_caption"))

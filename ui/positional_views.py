"""Streamlit glue for the positional-encoding lab: controls, cached computations, views.

Numbers come from models/positional.py (the functions the model itself calls) or from a
model's weights (learned tables, T5 bias tables, the toy checkpoints); figures come from
viz_core.positional. Computations are cached by plain values (`st.cache_data`), models
by the run gate (`ui/serving`, `st.cache_resource`).
"""
from __future__ import annotations

import math

import numpy as np
import streamlit as st
import torch

import viz_core.positional as vp
from models import positional as P
from lab import positional as E
from models.config import POSITIONALS
from models.training.tasks import get_task
from models.weights import zoo

from . import serving
from .i18n import FORMULAS, t
from .markup import md_escape
from .shell import bound, choice, show_notices

BASE_SECTIONS = ("tables", "shift", "rope", "bias")
CHECKPOINT_SECTIONS = ("attention", "extrapolation", "shifttest")
DEFAULT_SCHEMES = ("sinusoidal", "learned", "rope")
MAX_LEN, MAX_DIM = 1024, 1024
GRID_CAP = 64            # positions shown in the per-head small multiples
DEVICE = "cpu"           # the lab's models are small; the tables are read on CPU


def words() -> dict[str, str]:
    """Words inside figures, in the UI language."""
    return {"position": t("pe_w_position"), "dimension": t("pe_w_dimension"), "value": t("pe_w_value"),
            "wavelength": t("pe_w_wavelength"), "table_end": t("pe_w_table_end", n="{n}"),
            "no_wavelength": t("pe_w_no_wavelength")}


def scheme_label(s: str) -> str:
    return t(f"pe_scheme_{s}")


# ---- sources of weights ----------------------------------------------------------------------
def sources(positional: str) -> dict[str, str]:
    """Available catalogue entries with this positional scheme: key -> label. Trained
    models first (pretrained, then shipped toys), random-weight presets last."""
    order = {"pretrained": 0, "toy": 1, "folder": 2, "custom": 3}
    entries = [e for e in zoo.catalogue() if e.available and e.config is not None
               and e.config.positional == positional]
    entries.sort(key=lambda e: order.get(e.kind, 9))
    return {e.key: e.label + (" · random" if e.is_random else "") for e in entries}


def _is_random(key: str) -> bool:
    return key.startswith("custom:")


@st.cache_data(max_entries=8, show_spinner=False)
def learned_table(key: str, n: int) -> tuple[np.ndarray, int]:
    """The first n rows of a model's learned table [n, d] (NaN rows past its end) and
    the number of rows the table has."""
    model, _ = serving.load_model(key, DEVICE)
    weight = model.stack_module("encoder").pos_embed.weight.detach().float().cpu().numpy()   # [max_len, d]
    rows = weight.shape[0]
    out = np.full((n, weight.shape[1]), np.nan, dtype=np.float32)
    out[: min(n, rows)] = weight[:n]
    return out, rows


@st.cache_data(max_entries=16, show_spinner=False)
def trained_rows(key: str) -> int | None:
    """Positions a shipped toy checkpoint saw in training (its task's longest training
    example), or None when unknown (pretrained tables saw every row)."""
    entry = serving.entry(key)
    if entry is None or entry.kind != "toy" or entry.task is None:
        return None
    task = get_task(entry.task)
    return E.positions_used(task, int(entry.card.get("train_len") or task.train_len))


@st.cache_data(max_entries=8, show_spinner=False)
def relative_table(key: str, stack: str) -> tuple[np.ndarray, bool, int]:
    """(T5 bias table [buckets, heads], bidirectional, max_distance) of a model's stack."""
    model, _ = serving.load_model(key, DEVICE)
    mod = model.stack_module(stack)
    return (mod.rel_bias.weight.detach().float().cpu().numpy(), not mod.is_decoder,
            model.cfg.relative_max_distance)


# ---- cached numbers and figures ------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def vector_table(scheme: str, n: int, d: int, base: float, key: str = "") -> tuple[np.ndarray, np.ndarray | None, int | None]:
    """(table [n, d'] with NaN past a learned table's end, wavelengths [d'] or None,
    the learned table's row count or None)."""
    if scheme == "sinusoidal":
        return P.sinusoidal(n, d, base).numpy(), P.sinusoidal_wavelengths(d, base).numpy(), None
    if scheme == "rope":
        wave = (2 * math.pi / P.rope_inv_freq(d, base)).numpy()
        return P.rope_unit_table(n, d, base).numpy(), np.concatenate([wave, wave]).astype(np.float32), None
    if scheme == "learned":
        table, rows = learned_table(key, n)
        return table, None, rows
    raise ValueError(f"{scheme} has no position vectors.")


@st.cache_data(max_entries=32, show_spinner=False)
def table_figure(scheme: str, n: int, d: int, base: float, key: str, title: str, lang_words: tuple):
    table, wave, rows = vector_table(scheme, n, d, base, key)
    return vp.pe_table(table, wavelengths=wave, table_end=rows if rows is not None and rows < n else None,
                       title=title, terms=dict(lang_words))


@st.cache_data(max_entries=32, show_spinner=False)
def similarity(scheme: str, n: int, d: int, base: float, key: str, kind: str) -> np.ndarray:
    table, _, _ = vector_table(scheme, n, d, base, key)
    ok = np.isfinite(table).all(axis=1)
    sim = np.full((n, n), np.nan, dtype=np.float32)
    if ok.any():
        sub = P.position_similarity(torch.from_numpy(table[ok]), kind).numpy()
        sim[np.ix_(ok, ok)] = sub
    return sim


def _odd_dim_message(scheme: str, d: int) -> None:
    st.warning(t("pe_odd_dim", scheme=scheme_label(scheme), d=d, lo=max(2, d - 1), hi=d + 1),
               icon=":material/warning:")


# ---- controls ------------------------------------------------------------------------------------
def sections() -> tuple[str, ...]:
    """The lab's sections; those about the toy checkpoints only when they are shipped."""
    from . import positional_checkpoint_views as cv

    return BASE_SECTIONS + (CHECKPOINT_SECTIONS if cv.scheme_checkpoints() else ())


def section_control() -> str:
    secs = sections()
    return choice(st.radio, t("pe_section"), secs, param="pe_view", default="tables", horizontal=True,
                  labels={s: t(f"pe_sec_{s}") for s in secs})


def size_controls() -> tuple[int, int, float]:
    """Sequence length, dimension and base, bounded (an odd dimension is allowed here and
    answered with a message where a scheme needs pairs)."""
    c1, c2, c3 = st.columns(3)
    with c1:
        n = bound(st.slider, t("pe_length"), 2, MAX_LEN, 64, key="pe_n", url_default="64")
    with c2:
        d = bound(st.number_input, t("pe_dim"), 2, MAX_DIM, 64, 1, key="pe_d", url_default="64",
                  help=t("pe_dim_help"))
    with c3:
        base = bound(st.number_input, t("pe_base"), 2.0, 1.0e7, 10000.0, key="pe_base", url_default="10000.0",
                     format="%g")
    show_notices()                      # a link value out of range was clamped: say so
    return int(n), int(d), float(base)


# ---- the page body ---------------------------------------------------------------------------------
@st.fragment
def lab() -> None:
    """Section choice and the chosen section (a fragment: controls rerun only this)."""
    section = section_control()
    show_notices()
    if section == "tables":
        tables_section()
    elif section == "shift":
        shift_section()
    elif section == "rope":
        rope_section()
    elif section == "bias":
        bias_section()
    else:
        from . import positional_checkpoint_views as cv
        {"attention": cv.attention_section, "extrapolation": cv.extrapolation_section,
         "shifttest": cv.shift_test_section}[section]()


def _learned_source() -> str | None:
    opts = sources("learned")
    if not opts:
        return None
    return st.selectbox(t("pe_learned_source"), list(opts), format_func=opts.get, key="pe_learned_src")


def tables_section() -> None:
    schemes = st.multiselect(t("pe_schemes"), list(POSITIONALS), default=list(DEFAULT_SCHEMES), key="pe_schemes",
                             format_func=scheme_label)
    n, d, base = size_controls()
    if not schemes:
        st.info(t("pe_none_schemes"), icon=":material/touch_app:")
        return
    learned_key = _learned_source() if "learned" in schemes else None
    kind = choice(st.radio, t("pe_similarity"), ("cosine", "dot"), param="pe_sim", default="cosine",
                  horizontal=True, labels={k: t(f"pe_sim_{k}") for k in ("cosine", "dot")})
    lw = tuple(words().items())

    st.subheader(t("pe_tables_title"))
    st.caption(t("pe_tables_caption"))
    cols = st.columns(len(schemes))
    drawn: list[str] = []
    for col, s in zip(cols, schemes):
        with col:
            st.markdown(f"**{scheme_label(s)}**")
            if s == "none":
                st.info(t("pe_no_table_none"))
            elif s in ("alibi", "relative"):
                st.info(t("pe_no_table_bias", scheme=scheme_label(s)))
            elif s in ("sinusoidal", "rope") and d % 2:
                _odd_dim_message(s, d)
            elif s == "learned" and learned_key is None:
                st.info(t("pe_no_learned"))
            else:
                key = learned_key if s == "learned" else ""
                st.plotly_chart(table_figure(s, n, d, base, key or "", "", lw),
                                key=f"pe_table_{s}", width="stretch")
                if s == "learned":
                    _, rows = learned_table(key, n)
                    label = sources("learned")[key]
                    width = vector_table(s, n, d, base, key)[0].shape[1]
                    st.caption(t("pe_table_width", model=md_escape(label), rows=rows, d=width))
                    if rows < n:
                        st.info(t("pe_table_short", model=md_escape(label), rows=rows, last=n - 1),
                                icon=":material/straighten:")
                    if _is_random(key):
                        st.caption(t("pe_random_note", model=md_escape(label)))
                    trained = trained_rows(key)
                    if trained is not None and trained < rows:
                        st.caption(t("pe_trained_rows", trained=trained, rows=rows))
                drawn.append(s)
    if not drawn:
        return

    st.subheader(t("pe_sim_title"))
    st.caption(t("pe_sim_caption"))
    sims = {s: similarity(s, n, d, base, learned_key if s == "learned" else "", kind) for s in drawn}
    cols = st.columns(len(schemes))
    for col, s in zip(cols, schemes):
        if s in sims:
            with col:
                fig = vp.matrix(sims[s], title=scheme_label(s), x_name=t("pe_w_position"),
                                y_name=t("pe_w_position"), value_name=t(f"pe_sim_{kind}"))
                st.plotly_chart(fig, key=f"pe_sim_{s}", width="stretch")

    st.subheader(t("pe_curve_title"))
    series = {}
    for s, sim in sims.items():
        valid = int(np.isfinite(np.diag(sim)).sum())        # < n past a learned table's end
        y = np.full(n, np.nan, dtype=np.float32)              # no pairs are measured beyond it
        if valid:
            y[:valid] = P.by_distance(torch.from_numpy(sim[:valid, :valid]))[1].numpy()
        dist = torch.arange(n)
        series[scheme_label(s)] = (dist.numpy(), y)
    st.plotly_chart(vp.curves(series, x_name=t("pe_w_distance"), y_name=t(f"pe_sim_{kind}")),
                    key="pe_curves", width="stretch")
    formulas(schemes)


# ---- sinusoidal shift -------------------------------------------------------------------------------
def shift_section() -> None:
    n, d, base = size_controls()
    st.caption(t("pe_shift_intro"))
    st.latex(FORMULAS["pe_shift"])
    if d % 2:
        _odd_dim_message("sinusoidal", d)
        return
    c1, c2 = st.columns(2)
    with c1:
        k = bound(st.slider, t("pe_shift_k"), 0, MAX_LEN, 5, key="pe_k", url_default="5")
    with c2:
        pos = bound(st.slider, t("pe_shift_pos"), 0, MAX_LEN, 10, key="pe_pos", url_default="10")
    m = P.sinusoidal_shift_matrix(k, d, base)
    pe = P.sinusoidal(max(n, pos) + k + 1, d, base)
    moved = pe[: pe.shape[0] - k] @ m.T                                  # M_k · PE(p) for every p
    err = float((moved - pe[k:]).abs().max())
    show = min(d, 16)
    left, right = st.columns([2, 3])
    with left:
        fig = vp.matrix(m[:show, :show].numpy(), title=t("pe_shift_matrix", k=k, n=show),
                        x_name=t("pe_w_dimension"), y_name=t("pe_w_dimension"), value_name="M_k")
        st.plotly_chart(fig, key="pe_shift_m", width="stretch")
    with right:
        pairs_idx = sorted({0, 1, d // 4, d // 2 - 1} & set(range(d // 2)))
        omega = base ** (-np.arange(0, d, 2) / d)
        before, after, target = pe[pos].numpy(), (m @ pe[pos]).numpy(), pe[pos + k].numpy()
        pts = np.stack([np.stack([before[[2 * i, 2 * i + 1]], after[[2 * i, 2 * i + 1]],
                                  target[[2 * i, 2 * i + 1]]]) for i in pairs_idx])      # [pairs, 3, 2]
        fig = vp.rotation_arrows(
            pts, panel_titles=[t("pe_shift_pair", i=i, w=omega[i], a=k * omega[i]) for i in pairs_idx],
            arrow_names=[t("pe_arrow_before"), t("pe_arrow_rotated"), t("pe_arrow_target")],
            dashed=[False, False, True], title=t("pe_shift_arrows", pos=pos, pos2=pos + k))
        st.plotly_chart(fig, key="pe_shift_arrows", width="stretch")
    st.success(t("pe_shift_check", n=moved.shape[0], d=d, err=err), icon=":material/check:")
    formulas(["sinusoidal"])


# ---- RoPE ------------------------------------------------------------------------------------------
def rope_section() -> None:
    n, d, base = size_controls()
    st.caption(t("pe_rope_intro"))
    if d % 2:
        _odd_dim_message("rope", d)
        return
    c1, c2 = st.columns(2)
    with c1:
        seed = bound(st.number_input, t("pe_rope_seed"), 0, 10_000, 0, 1, key="pe_seed", url_default="0")
    with c2:
        gap = bound(st.slider, t("pe_rope_gap"), 0, 16, 2, key="pe_gap", url_default="2")
    g = torch.Generator().manual_seed(int(seed))
    q, k = torch.randn(d, generator=g), torch.randn(d, generator=g)
    # q at m (solid) and k at n = m - gap (dashed), for three m: each pair turns rigidly,
    # so the angle between q and k (hence q·k) is the same at every m
    ms = [gap + s for s in (0, 3, 7)]
    qp = P.rope_rotate_pairs(q, ms, base).numpy()                            # [m, d/2, 2]
    kp = P.rope_rotate_pairs(k, [m - gap for m in ms], base).numpy()
    freq_idx = sorted({0, 1, d // 8, d // 2 - 1} & set(range(d // 2)))
    theta = P.rope_inv_freq(d, base).numpy()
    arrows = np.stack([x for j in range(len(ms)) for x in (qp[j], kp[j])])   # [2m, d/2, 2]
    pts = np.transpose(arrows[:, freq_idx, :], (1, 0, 2))                    # [freq, 2m, 2]
    names = [name for m in ms for name in (t("pe_rope_q_at", m=m), t("pe_rope_k_at", n=m - gap))]
    fig = vp.rotation_arrows(pts, panel_titles=[t("pe_rope_freq", i=i, theta=theta[i]) for i in freq_idx],
                             arrow_names=names, dashed=[False, True] * len(ms),
                             colors=[c for j in range(len(ms)) for c in (vp.PALETTE[j],) * 2],
                             title=t("pe_rope_arrows", gap=gap))
    st.plotly_chart(fig, key="pe_rope_arrows", width="stretch")

    span = min(n - 1, 64)
    offsets = list(range(-span, span + 1))
    queries = sorted({0, n // 2, n - 1, min(n - 1, 2 * span)})
    scores = P.rope_scores(q, k, queries, offsets, base).numpy()           # [Q, O]
    err = float(np.abs(scores - scores[:1]).max())
    series = {t("pe_rope_query_at", m=m): (np.asarray(offsets), scores[i]) for i, m in enumerate(queries)}
    st.plotly_chart(vp.curves(series, title=t("pe_rope_scores"), x_name=t("pe_w_offset"), y_name=t("pe_w_score"),
                              overlap=True),
                    key="pe_rope_scores", width="stretch")
    st.success(t("pe_rope_check", err=err), icon=":material/check:")
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
    slopes = P.alibi_slopes(int(heads))
    left, right = st.columns([1, 2])
    with left:
        st.markdown(f"**{t('pe_alibi_title')}**")
        st.plotly_chart(vp.bars(slopes.numpy(), [t("pe_w_head", h=h) for h in range(heads)], log_y=True,
                                y_name=t("pe_w_slope")), key="pe_alibi_slopes", width="stretch")
        st.caption(t("pe_alibi_caption"))
    with right:
        bias = P.alibi_bias(slopes, shown).numpy()
        st.plotly_chart(vp.matrix_grid(bias, panel_titles=[t("pe_w_head", h=h) for h in range(heads)],
                                       title=t("pe_alibi_bias", n=shown), value_name=t("pe_w_bias"),
                                       x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"), cols=4,
                                       panel_height=170),
                        key="pe_alibi_grid", width="stretch")
        if shown < n:
            st.caption(t("pe_grid_capped", n=shown, total=n))

    st.divider()
    opts = sources("relative")
    if not opts:
        st.info(t("pe_no_relative"))
        formulas(["alibi", "relative"])
        return
    c1, c2 = st.columns(2)
    with c1:
        key = st.selectbox(t("pe_relative_source"), list(opts), format_func=opts.get, key="pe_rel_src")
    entry_cfg = zoo.get(key).config
    with c2:
        stacks = ("encoder", "decoder") if entry_cfg.arch == "encoder-decoder" else (
            "decoder" if entry_cfg.arch == "decoder" else "encoder",)
        stack = st.radio(t("pe_stack"), stacks, key="pe_rel_stack", horizontal=True,
                         format_func=lambda s: t(f"pe_stack_{s}")) if len(stacks) > 1 else stacks[0]
    table, bidirectional, max_distance = relative_table(key, stack)
    buckets = P.relative_bucket_map(n, bidirectional=bidirectional, num_buckets=table.shape[0],
                                    max_distance=max_distance).numpy()
    label = opts[key]
    left, right = st.columns([1, 2])
    with left:
        fig = vp.matrix(buckets, title=t("pe_bucket_title", direction=t("pe_bidirectional" if bidirectional
                                                                       else "pe_causal")),
                        center=None, cmap="viridis", value_name=t("pe_w_bucket"),
                        x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"))
        st.plotly_chart(fig, key="pe_buckets", width="stretch")
        st.caption(t("pe_bucket_caption", maxd=max_distance))
    with right:
        bias = P.relative_bias(torch.from_numpy(table), shown, bidirectional=bidirectional,
                               max_distance=max_distance).numpy()                     # [head, q, k]
        st.plotly_chart(vp.matrix_grid(bias, panel_titles=[t("pe_w_head", h=h) for h in range(bias.shape[0])],
                                       title=t("pe_rel_bias", model=label, n=shown), value_name=t("pe_w_bias"),
                                       x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"), cols=4,
                                       panel_height=170),
                        key="pe_rel_grid", width="stretch")
        if _is_random(key):
            st.caption(t("pe_random_note", model=md_escape(label)))
    span = min(n - 1, 160)
    rel = torch.arange(-span, span + 1)
    b = P.relative_bucket(rel, bidirectional, table.shape[0], max_distance).numpy()
    series = {t("pe_w_head", h=h): (rel.numpy(), table[b, h]) for h in range(table.shape[1])}
    st.plotly_chart(vp.curves(series, title=t("pe_rel_curve"), x_name=t("pe_w_rel_offset"), y_name=t("pe_w_bias")),
                    key="pe_rel_curve", width="stretch")
    formulas(["alibi", "relative"])


# ---- formulas -----------------------------------------------------------------------------------------
def formulas(schemes) -> None:
    """The formula, a short explanation and worked numbers (computed now) per scheme."""
    with st.expander(t("pe_formulas"), expanded=False):
        for s in schemes:
            if s == "none":
                st.markdown(t("pe_ex_none"))
                st.latex(FORMULAS["pe_none"])
            elif s == "sinusoidal":
                st.markdown(t("pe_ex_sinusoidal"))
                st.latex(FORMULAS["pe_sinusoidal"])
                pe = P.sinusoidal(11, 2)
                st.markdown(t("pe_ex_worked", v0=float(pe[10, 0]), v1=float(pe[10, 1]),
                              deg=math.sin(math.radians(10))))
                c1, c2 = st.columns(2)
                with c1:
                    pos = st.number_input(t("pe_your_pos"), 0, 100_000, 10, key="pe_ex_pos")
                with c2:
                    dim = st.number_input(t("pe_your_dim"), 0, 63, 0, key="pe_ex_dim")
                d = 64
                value = float(P.sinusoidal(int(pos) + 1, d)[int(pos), int(dim)])
                two_i = int(dim) - int(dim) % 2
                st.markdown(t("pe_ex_yours", pos=int(pos), dim=int(dim), fn="sin" if dim % 2 == 0 else "cos",
                              two_i=two_i, d=d, angle=int(pos) / 10000 ** (two_i / d), value=value))
            elif s == "learned":
                st.markdown(t("pe_ex_learned"))
                st.latex(FORMULAS["pe_learned"])
            elif s == "rope":
                st.markdown(t("pe_ex_rope"))
                st.latex(FORMULAS["pe_rope"])
                st.markdown(t("pe_ex_rope_worked", deg=math.degrees(float(P.rope_angles(4, 64)[3, 0]))))
            elif s == "alibi":
                st.markdown(t("pe_ex_alibi"))
                st.latex(FORMULAS["pe_alibi"])
                sl = P.alibi_slopes(8)
                st.markdown(t("pe_ex_alibi_worked", h=8, s0=float(sl[0]), b=float(P.alibi_bias(sl, 6)[0, 5, 0])))
            elif s == "relative":
                st.markdown(t("pe_ex_relative"))
                st.latex(FORMULAS["pe_relative"])
                b = P.relative_bucket(torch.tensor([-7, -8, -20, -200])).tolist()
                st.markdown(t("pe_ex_relative_worked", b7=b[0], b8=b[1], b20=b[2], b200=b[3]))

"""The positional-encoding lab's sections about the toy checkpoints trained once per
scheme (`<task>-<scheme>` in models/weights/checkpoints/): attention side by side on the
same probe, permutation equivariance without positions, length extrapolation, shift test.
Not a page: ui/views/positional.py shows these sections (`SECTIONS`, `section`).

Every number is a real run of the shipped checkpoints (lab/checkpoints.py, through the
run gate's `serving.run_held`), cached by plain values in ui/serving/positional.py; figures
from viz_core/positional.py and viz_core/checkpoints.py; the knobs panel is
ui/widgets/positional_knobs.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import lab.checkpoints
import lab.positional
import viz_core.checkpoints
import viz_core.positional
from lab.attention import head_entropy
from lab.pe_knobs import Knobs
from models.errors import Refused
from models.training.tasks import get_task

from ..figure_words import scheme_label
from ..i18n import STRINGS, t
from ..links import bound, choice
from ..markup import md_escape
from ..refusals import say
from ..serving.positional import (FACTORS, STOCK, extrapolation, model_of, permutation, probe_attention,
                                  scheme_checkpoints, shift)
from ..widgets import figure_export
from ..widgets import positional_knobs
from ..widgets.notes import misconception

SECTIONS = ("attention", "extrapolation", "shifttest")
LN2 = float(np.log(2))                     # head_entropy is in nats; the entropy chart is in bits


@dataclass(frozen=True)
class ProbeControls:
    """What the attention section's controls chose."""

    task: str
    length: int                    # the probe's input length
    layer: int
    head: int | None               # None: the mean of heads


def section(name: str) -> None:
    """One of SECTIONS."""
    {"attention": attention_section, "extrapolation": extrapolation_section, "shifttest": shift_test_section}[name]()


def task_control(param: str = "pe_task") -> tuple[str, dict[str, dict]]:
    available = scheme_checkpoints()
    names = list(available)
    default = "reverse" if "reverse" in names else names[0]
    task = choice(st.radio, t("pe_task"), names, param=param, default=default, horizontal=True,
                  labels={n: t(f"pe_task_{n}") if f"pe_task_{n}" in STRINGS else n for n in names})
    return task, available[task]


def knob_panel(task, cards: dict[str, dict], eval_len: int | None = None) -> Knobs:
    """The positional knobs for this task's checkpoints, as a cache key."""
    return positional_knobs.panel(cards, task.train_len, eval_len)


# ---- attention side by side ----------------------------------------------------------------------
def probe_controls() -> tuple[ProbeControls, dict[str, dict]]:
    """Task, probe length, layer and head (the cards of the task's checkpoints beside)."""
    task_name, cards = task_control()
    task = get_task(task_name)
    some = model_of(next(iter(cards.values()))["key"]).cfg
    c1, c2, c3 = st.columns(3)
    with c1:
        length = bound(st.slider, t("pe_probe_len"), task.min_len, 4 * task.train_len, task.train_len,
                       key="pe_probe_len", url_default=str(task.train_len))
    with c2:
        layer = bound(st.slider, t("pe_layer"), 0, some.n_layers - 1, some.n_layers - 1, key="pe_layer",
                      url_default=str(some.n_layers - 1)) if some.n_layers > 1 else 0
    with c3:
        heads = ["mean", *map(str, range(some.n_heads))]
        head = choice(st.selectbox, t("pe_head"), heads, param="pe_head", default="mean",
                      labels={"mean": t("pe_head_mean"), **{h: t("pe_w_head", h=h) for h in heads[1:]}})
    return ProbeControls(task_name, int(length), int(layer), None if head == "mean" else int(head)), cards


def attention_section() -> None:
    c, cards = probe_controls()
    task = get_task(c.task)
    knobs = knob_panel(task, cards, c.length)
    ex = task.probe(c.length)
    st.caption(t("pe_probe", text=md_escape(ex.text), n=len(ex.ids), train=task.train_len))
    mats, titles, rows = [], [], []
    entropy: dict[str, np.ndarray] = {}
    stock_entropy: dict[str, np.ndarray] = {}
    for s, card in cards.items():
        key = card["key"]
        if not lab.checkpoints.fits(model_of(key).cfg, len(ex.ids)):
            mats.append(np.full((len(ex.ids), len(ex.ids)), np.nan, dtype=np.float32))
            titles.append(t("pe_beyond_short", scheme=scheme_label(s)))
            rows.append({t("pe_col_scheme"): scheme_label(s), t("pe_col_train_acc"): card.get("accuracy"),
                         t("pe_col_ideal"): None, t("pe_col_best"): t("pe_beyond_table")})
            continue
        pattern, mask, _ = probe_attention(key, c.task, c.length, knobs)
        entropy[scheme_label(s)] = head_entropy(pattern[c.layer:c.layer + 1], mask=mask) / LN2
        if knobs != STOCK:
            stock_entropy[scheme_label(s)] = head_entropy(probe_attention(key, c.task, c.length)[0][
                c.layer:c.layer + 1], mask=mask) / LN2
        sc = lab.checkpoints.probe_scores(task, ex, pattern, mask, c.layer, c.head)
        mats.append(sc.shown)
        titles.append(scheme_label(s))
        best = t("label_value", label=t("pe_w_head", h=sc.best_head), value=f"{sc.best:.2f}")
        rows.append({t("pe_col_scheme"): scheme_label(s), t("pe_col_train_acc"): card.get("accuracy"),
                     t("pe_col_ideal"): sc.ideal, t("pe_col_best"): best})
    fig = viz_core.positional.matrix_grid(np.stack(mats), panel_titles=titles, center=None, cols=3,
                         value_name=t("pe_w_weight"), tick_labels=list(ex.tokens), panel_height=300,
                         x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"),
                         title=t("pe_attn_title", layer=c.layer))
    figure_export.chart(fig, key="pe_attn_grid", width="stretch")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="pe_attn_table",
                 column_config={t("pe_col_train_acc"): st.column_config.NumberColumn(format="percent"),
                                t("pe_col_ideal"): st.column_config.NumberColumn(format="%.3f")})
    st.caption(t("pe_attn_caption"))
    if entropy:
        figure_export.chart(viz_core.checkpoints.entropy_chart(entropy, stock=stock_entropy or None,
                                                               words=positional_knobs.words(),
                                  title=t("pek_entropy_title", layer=c.layer)), key="pe_entropy", width="stretch")
        st.caption(t("pek_entropy_caption"))
    if "none" in cards:
        st.divider()
        permutation_view(c.task, cards)


def permutation_view(task_name: str, cards: dict[str, dict]) -> None:
    st.subheader(t("pe_perm_title"))
    st.markdown(t("pe_perm_intro"))
    c1, c2 = st.columns(2)
    with c1:
        seed = bound(st.number_input, t("pe_perm_seed"), 0, 1000, 1, 1, key="pe_perm_seed", url_default="1")
    res = permutation(cards["none"]["key"], task_name, int(seed))
    n_heads = res.scores.shape[0]
    with c2:
        h = bound(st.slider, t("pe_head"), 0, n_heads - 1, 0, key="pe_perm_head", url_default="0") \
            if n_heads > 1 else 0
    task = get_task(task_name)
    tokens = list(task.probe().tokens)
    shuffled = [tokens[p] for p in res.perm]
    back = res.undone(h)
    st.caption(t("pe_perm_order", text=md_escape("".join(shuffled[1:]))))
    cols = st.columns([1, 1, 1.25])
    top = float(max(res.full[h].max(), res.full_shuffled[h].max()))
    panels = [(res.full[h], tokens, t("pe_perm_orig")), (res.full_shuffled[h], shuffled, t("pe_perm_shuffled")),
              (back, tokens, t("pe_perm_undone"))]
    for i, (col, (m, ticks, title)) in enumerate(zip(cols, panels)):
        with col:
            figure_export.chart(viz_core.positional.matrix(m, title=title, center=None, tick_labels=ticks,
                               x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"),
                               value_name=t("pe_w_weight"), height=380, zrange=(0.0, top),
                               showscale=i == 2),   # one scale for the three, drawn once
                     key=f"pe_perm_{i}", width="stretch")
    st.success(t("pe_perm_result", score=res.score_error, full=res.full_error), icon=":material/check:")
    misconception("pe_shuffle", t("pe_mis_shuffle_common"),
                  t("pe_mis_shuffle_shown", raw=float(np.abs(res.full_shuffled - res.full).max()),
                    full=res.full_error, masked=res.pattern_error))
    st.markdown(t("pe_perm_causal", masked=res.pattern_error, rows=", ".join(map(str, res.fixed_rows)),
                  rows_err=res.fixed_rows_error))
    table = []
    for s, card in cards.items():
        r = permutation(card["key"], task_name, int(seed))
        table.append({t("pe_col_scheme"): scheme_label(s), t("pe_col_score_err"): r.score_error,
                      t("pe_col_full_err"): r.full_error, t("pe_col_masked_err"): r.pattern_error})
    st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch", key="pe_perm_table",
                 column_config={c: st.column_config.NumberColumn(format="%.2e") for c in
                                (t("pe_col_score_err"), t("pe_col_full_err"), t("pe_col_masked_err"))})
    st.caption(t("pe_perm_table_caption"))


# ---- length extrapolation ---------------------------------------------------------------------------
def why_not(row: dict) -> str:
    """Why a length could not be measured (lab.checkpoints.extrapolation's row), in the UI language."""
    if row.get("refused"):
        reason, values = row["refused"]
        return say(Refused(reason, row["reason"], **values))
    return md_escape(row["reason"])


def extrapolation_section() -> None:
    task_name, cards = task_control()
    task = get_task(task_name)
    c1, c2 = st.columns(2)
    with c1:
        n = bound(st.select_slider, t("pe_extra_n"), [64, 128, 256, 512], 256, key="pe_extra_n", url_default="256")
    with c2:
        metric = choice(st.radio, t("pe_extra_metric"), ("accuracy", "token_accuracy"), param="pe_metric",
                        default="accuracy", horizontal=True,
                        labels={"accuracy": t("pe_extra_exact"), "token_accuracy": t("pe_extra_tokens")})
    st.caption(t("pe_extra_intro", train=task.train_len))
    knobs = knob_panel(task, cards, int(task.train_len * max(FACTORS)))
    results: dict[str, list[dict]] = {}
    todo = [s for s, c in cards.items()]
    progress = st.progress(0.0, text=t("pe_extra_running"))
    for i, s in enumerate(todo):
        results[s] = extrapolation(cards[s]["key"], task_name, int(n), metric == "token_accuracy", knobs)
        progress.progress((i + 1) / len(todo), text=t("pe_extra_running"))
    progress.empty()
    acc = {scheme_label(s): [np.nan if r[metric] is None else r[metric] for r in rs] for s, rs in results.items()}
    y_name = t("pe_extra_exact" if metric == "accuracy" else "pe_extra_tokens")
    figure_export.chart(viz_core.positional.extrapolation_chart(FACTORS, acc,
                                                                title=t("pe_extra_title",
                                                                        task=t(f"pe_task_{task_name}"), metric=y_name),
                                    x_name=t("pe_extra_x"), y_name=y_name),
             key="pe_extra_chart", width="stretch")
    lengths = [r["length"] for r in next(iter(results.values()))]
    table = []
    for s, rs in results.items():
        row = {t("pe_col_scheme"): scheme_label(s)}
        for f, r in zip(FACTORS, rs):
            col = t("pe_extra_col", f=f"{f:g}", n=r["length"])
            row[col] = f"{r[metric]:.1%}" if r[metric] is not None else t("pe_beyond_table")
        table.append(row)
    st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch", key="pe_extra_table")
    notes = []
    for s, rs in results.items():
        for r in rs:
            if r["accuracy"] is None:
                notes.append(f"- {scheme_label(s)}, ×{r['factor']:g}: {why_not(r)}")
    if notes:
        st.info(t("pe_extra_beyond") + "\n" + "\n".join(notes), icon=":material/straighten:")
    if "learned" in cards:
        cfg = model_of(cards["learned"]["key"]).cfg
        trained = lab.checkpoints.positions_used(task, task.train_len)
        st.caption(t("pe_extra_learned", trained=trained, rows=cfg.max_len,
                     need=", ".join(str(lab.checkpoints.positions_used(task, L)) for L in lengths)))
    st.caption(t("pe_extra_caption", n=n))
    st.caption(t("pe_extra_strict"))
    if "sinusoidal" in results:
        length_note(task, results["sinusoidal"], metric, model_of(cards["sinusoidal"]["key"]).cfg.d_model)


def length_note(task, rows: list[dict], metric: str, d: int) -> None:
    """Where sinusoidal positions stop working: past the training length, measured above."""
    done = [r for r in rows if r[metric] is not None]
    if len(done) < 2:
        return
    first, last = done[0], done[-1]
    misconception("length", t("pe_mis_length_common"), t(
        "pe_mis_length_shown", train=task.train_len, pos=lab.checkpoints.positions_used(task, task.train_len),
        metric=t("pe_extra_exact" if metric == "accuracy" else "pe_extra_tokens"), a1=first[metric],
        f=last["factor"], n=last["length"], af=last[metric], gap=lab.positional.neighbour_gap(10_000, d),
        gap0=lab.positional.neighbour_gap(0, d)))


# ---- shift test ---------------------------------------------------------------------------------------
def shift_test_section() -> None:
    task_name, cards = task_control()
    task = get_task(task_name)
    ex = task.probe()
    # filler candidates: the probe's own symbols (no specials, not the "=" separator)
    symbols = sorted({tok for tok in ex.tokens if len(tok) == 1 and tok.strip() and tok != "="})
    c1, c2 = st.columns(2)
    with c1:
        k = bound(st.slider, t("pe_shift_filler_k"), 0, 64, 8, key="pe_fk", url_default="8")
    with c2:
        filler = st.selectbox(t("pe_filler"), symbols, key="pe_filler")
    st.caption(t("pe_shifttest_intro", text=md_escape(ex.text), k=k, filler=md_escape(filler)))
    results, diffs, titles, rows = {}, [], [], []
    for s, card in cards.items():
        cfg = model_of(card["key"]).cfg
        n_layers = cfg.n_layers
        if not lab.checkpoints.fits(cfg, len(ex.ids) + k):
            rows.append({t("pe_col_scheme"): scheme_label(s), t("pe_col_score_change"): None,
                         **{t("pe_col_tv", layer=i): None for i in range(n_layers)},
                         t("pe_col_note"): t("pe_beyond_table")})
            continue
        r = shift(card["key"], task_name, int(k), filler)
        results[s] = r
        diffs.append(r.first_layer_change())                                  # masked pairs grey
        titles.append(scheme_label(s))
        rows.append({t("pe_col_scheme"): scheme_label(s), t("pe_col_score_change"): r.score_change,
                     **{t("pe_col_tv", layer=i): v for i, v in enumerate(r.pattern_change)}, t("pe_col_note"): ""})
    if not results:
        st.info(t("pe_beyond_table"))
        return
    figure_export.chart(viz_core.positional.bars(np.array([results[s].score_change for s in results], dtype=np.float32),
                     [scheme_label(s) for s in results], title=t("pe_shift_bars"), y_name=t("pe_col_score_change"),
                     text_fmt=".1e"),
             key="pe_shift_bars", width="stretch")
    fig = viz_core.positional.matrix_grid(np.stack(diffs), panel_titles=titles, center=None, cmap="blues", cols=3,
                         value_name="|Δ|", tick_labels=list(ex.tokens), panel_height=280, title=t("pe_shift_maps"),
                         x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"))
    figure_export.chart(fig, key="pe_shift_grid", width="stretch")
    df = pd.DataFrame(rows)
    st.dataframe(df, hide_index=True, width="stretch", key="pe_shift_table",
                 column_config={c: st.column_config.NumberColumn(format="%.2e") for c in df.columns[1:-1]})
    st.markdown(t("pe_shifttest_caption"))

"""Step kinds of the "positions" lesson: the permutation test on a toy checkpoint without
positions, sinusoidal and learned position tables and their similarity by distance,
RoPE's rotation and its relative scores, ALiBi's bias per head, and train short / test
long on the shipped toy checkpoints.

Everything reuses the positional page's cached functions (ui/serving/positional.py: every
toy run goes through the serving gate there), lab/positional.py and lab/checkpoints.py;
the lesson's own numbers are in lab/lesson_positions.py.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import streamlit as st

import lab.checkpoints
import lab.positional
import viz_core.positional
from lab import lesson_positions
from lab.lessons import Param
from models.config import POSITIONALS, STOCK_BASE
from models.training.tasks import get_task

from .. import serving
from ..figure_words import bias_grid, pe_words, scheme_label
from ..model_names import label_of
from ..i18n import t
from ..serving import positional
from . import Shown, StepContext, kind

TASK = Param("task", "choice", default="copy", choices=("copy", "reverse"))
SEED = 1                                  # the positional page's default shuffle
N_EVAL = 64                               # examples per length in the lesson's extrapolation check
SCHEME_OPTIONS = tuple(f"pe_{s}" for s in POSITIONALS) + ("pe_nothing",)


def cards(task: str) -> dict[str, dict]:
    """The task's shipped checkpoints by scheme (a sentence when none are shipped)."""
    found = positional.scheme_checkpoints().get(task)
    if not found:
        raise ValueError(t("lk_pe_no_checkpoints", task=task))
    return found


@kind("permutation", params=(TASK, Param("scheme", "choice", default="sinusoidal", choices=POSITIONALS[1:])),
      facts={"score_error": "num", "other_error": "num", "other": "text", "n_tokens": "int", "model": "text"},
      question="choice", options=("perm_same", "perm_changed"))
def permutation(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    found = cards(p["task"])
    none = positional.permutation(found["none"]["key"], p["task"], SEED)
    other = positional.permutation(found[p["scheme"]]["key"], p["task"], SEED) if p["scheme"] in found else None
    mats = np.stack([none.full[0], none.full_shuffled[0], none.undone(0)]).astype(np.float32)
    fig = viz_core.positional.matrix_grid(mats,
                                          panel_titles=[t("pe_perm_orig"), t("pe_perm_shuffled"), t("pe_perm_undone")],
                         title=t("lk_perm_title", model=label_of(found["none"]["key"])), value_name=t("pe_w_weight"),
                         center=None, cmap="viridis", cols=3, x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"),
                         panel_height=300)
    facts = {"score_error": none.score_error, "other_error": other.score_error if other else float("nan"),
             "other": scheme_label(p["scheme"]), "n_tokens": len(none.perm), "model": label_of(found["none"]["key"])}
    same = lesson_positions.permuted_exactly(none.score_error, none.scores)
    return Shown(fig, facts, answer="perm_same" if same else "perm_changed", page="positional",
                 params={"pe_view": "attention", "pe_task": p["task"]})


def learned_source(ctx: StepContext) -> str:
    """The reader's model when it learns its positions, else the shipped toy that does."""
    return ctx.sel.model_key if ctx.cfg.positional == "learned" else "toy:copy-learned"


@kind("pe_table", params=(Param("scheme", "choice", default="sinusoidal", choices=("sinusoidal", "learned", "rope")),
                          Param("n", "int", default=64, lo=4, hi=512), Param("d", "int", default=64, lo=4, hi=512)),
      facts={"n": "int", "d": "int", "source": "text", "min_wave": "num", "max_wave": "num", "rows": "int"})
def pe_table(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    scheme, n, d = p["scheme"], p["n"], p["d"]
    key = learned_source(ctx) if scheme == "learned" else ""
    vt = positional.vector_table(scheme, n, d, STOCK_BASE, key)
    title = t("lk_pe_table_title", scheme=scheme_label(scheme), n=n - 1)
    fig = positional.table_figure(scheme, n, d, STOCK_BASE, key, title, tuple(pe_words().items()))
    waves = vt.wavelengths if vt.wavelengths is not None else np.array([np.nan])
    facts = {"n": n, "d": vt.table.shape[1], "source": label_of(key) if key else "-", "min_wave": float(np.min(waves)),
             "max_wave": float(np.max(waves)), "rows": vt.rows or n}
    return Shown(fig, facts, page="positional", params={"pe_view": "tables", "pe_n": str(n), "pe_d": str(d)})


@kind("pe_distance", params=(Param("n", "int", default=64, lo=4, hi=512), Param("d", "int", default=64, lo=4, hi=512)),
      facts={"source": "text", "sin_1": "num", "sin_10": "num", "learned_1": "num", "learned_10": "num"})
def pe_distance(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    n, d = p["n"], p["d"]
    key = learned_source(ctx)
    curves = {s: lab.positional.similarity_by_distance(positional.similarity(s, n, d, STOCK_BASE, k, "cosine"))
              for s, k in (("sinusoidal", ""), ("learned", key))}
    series = {scheme_label(s): (np.arange(n), c) for s, c in curves.items()}
    fig = viz_core.positional.curves(series, title=t("lk_pe_distance_title", n=n), x_name=t("pe_w_distance"),
                    y_name=t("pe_sim_cosine"))
    facts = {"source": label_of(key), "sin_1": lesson_positions.at_distance(curves["sinusoidal"], 1),
             "sin_10": lesson_positions.at_distance(curves["sinusoidal"], 10),
             "learned_1": lesson_positions.at_distance(curves["learned"], 1),
             "learned_10": lesson_positions.at_distance(curves["learned"], 10)}
    return Shown(fig, facts, page="positional", params={"pe_view": "tables", "pe_n": str(n), "pe_d": str(d)})


@kind("rope", params=(Param("view", "choice", default="scores", choices=("arrows", "scores")),
                      Param("gap", "int", default=2, lo=0, hi=16)),
      facts={"gap": "int", "error": "num", "n_queries": "int", "positions": "text"},
      question="choice", options=("rope_same", "rope_changes"))
def rope(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    gap = p["gap"]
    demo = lab.positional.rope_demo(64, 64, 0, gap)
    if p["view"] == "arrows":
        names = [x for m in demo.positions for x in (t("pe_rope_q_at", m=m), t("pe_rope_k_at", n=m - gap))]
        fig = viz_core.positional.rotation_arrows(
            demo.points, panel_titles=[t("pe_rope_freq", i=i, theta=demo.theta[i]) for i in demo.freqs],
            arrow_names=names, dashed=[False, True] * len(demo.positions),
            colors=[c for j in range(len(demo.positions)) for c in (viz_core.positional.PALETTE[j],) * 2],
            title=t("pe_rope_arrows", gap=gap))
    else:
        offsets = np.asarray(demo.offsets)
        fig = viz_core.positional.curves(
            {t("pe_rope_query_at", m=m): (offsets, demo.scores[i]) for i, m in enumerate(demo.queries)},
            title=t("pe_rope_scores"), x_name=t("pe_w_offset"), y_name=t("pe_w_score"), overlap=True)
    facts = {"gap": gap, "error": demo.error, "n_queries": len(demo.queries),
             "positions": ", ".join(str(m) for m in demo.queries)}
    same = lesson_positions.permuted_exactly(demo.error, demo.scores)
    return Shown(fig, facts, answer="rope_same" if same else "rope_changes", page="positional",
                 params={"pe_view": "rope", "pe_gap": str(gap)})


@kind("alibi", params=(Param("n", "int", default=16, lo=2, hi=64),),
      facts={"n_heads": "int", "steep": "num", "gentle": "num", "steep_10": "num", "gentle_10": "num",
             "model": "text"})
def alibi(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    key = ctx.sel.model_key if ctx.cfg.positional == "alibi" else "toy:copy-alibi"
    heads = serving.load_model(key, "cpu")[0].cfg.n_heads
    slopes, bias = lab.positional.alibi(heads, p["n"])
    fig = bias_grid(bias, t("lk_alibi_title", model=label_of(key), n=p["n"]))
    facts = {"n_heads": heads, "steep": float(slopes.max()), "gentle": float(slopes.min()),
             "steep_10": 10 * float(slopes.max()), "gentle_10": 10 * float(slopes.min()),
             "model": label_of(key)}
    return Shown(fig, facts, page="positional", params={"pe_view": "bias", "pe_heads": str(heads)})


@st.cache_data(max_entries=32, show_spinner=False)
def two_lengths(key: str, task_name: str, n: int) -> list[dict]:
    """A checkpoint's exact-match accuracy at its training length and at twice it
    (lab.checkpoints.extrapolation, the positional page's experiment at these two lengths)."""
    model = positional.model_of(key)
    task = get_task(task_name)
    return serving.run_held(model, lambda m: lab.checkpoints.extrapolation(task, m, (1.0, 2.0), n=n),
                            2 * task.train_len)


@kind("extrapolation", params=(TASK,),
      facts={"train_len": "int", "test_len": "int", "best": "text", "best_acc": "num", "worst_train": "num",
             "n_working": "int", "n_schemes": "int"},
      question="choice", options=SCHEME_OPTIONS)
def extrapolation(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    task = get_task(p["task"])
    rows = {s: two_lengths(c["key"], p["task"], N_EVAL) for s, c in cards(p["task"]).items()}
    res = lesson_positions.extrapolation_at(rows, 2.0)
    acc = {scheme_label(s): [np.nan if r["accuracy"] is None else r["accuracy"] for r in rs]
           for s, rs in rows.items()}
    fig = viz_core.positional.extrapolation_chart((1.0, 2.0), acc,
                                                  title=t("lk_extra_title", task=t(f"pe_task_{p['task']}"), n=N_EVAL),
                                 x_name=t("pe_extra_x"), y_name=t("pe_extra_exact"))
    trained = [a for a in res.train.values() if a is not None]
    facts = {"train_len": task.train_len, "test_len": 2 * task.train_len, "best": scheme_label(res.best),
             "best_acc": res.best_accuracy, "worst_train": min(trained) if trained else float("nan"),
             "n_working": sum(a is not None and a >= lesson_positions.WORKS for a in res.longer.values()),
             "n_schemes": len(rows)}
    return Shown(fig, facts, answer=f"pe_{res.winner}", page="positional",
                 params={"pe_view": "extrapolation", "pe_task": p["task"], "pe_extra_n": str(N_EVAL)})

"""Step kinds of the lesson "watch a model learn": the lesson trains its own tiny model on a
toy task (reverse, or induction) and its steps read that one run: the loss curve, one
head's attention at the start, half-way and at the end, every snapshot on a slider, and
the score of the task's pattern rising over training.

The run is the Training page's: `models.training.trainer.train(..., gate=run_held)` in a
background thread (the probe snapshots go through the run gate), with the short recipes
of `lab.lesson_training`. Runs are kept by (task, seed, steps) for the whole server, so a
class that opens the lesson trains it once, and in the reader's session, so a rerun or a
move between steps never loses it nor trains it again. A step that needs the run before
it exists says so and trains it with a progress bar; clicking on meanwhile lets the
thread finish, and the next step waits for the same run.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import streamlit as st

import viz_core as vz
from lab import lesson_training
from lab.lessons import Param
from models import limits
from models.training.trainer import TrainRun, train
from viz_core.figure import add_title

from ..figure_words import weight_terms
from ..i18n import t
from ..markup import md_code, md_escape
from ..model_names import pe_name
from ..serving import run_held
from . import Shown, StepContext, kind

SESSION = "_lt_runs"                 # session: (task, seed, steps) -> finished TrainRun
MAX_RUNS = 8                         # runs the server keeps (a class shares them)
SLOTS = threading.BoundedSemaphore(int(limits.value("training_runs")))
RUN = (Param("task", "choice", default="reverse", choices=tuple(lesson_training.RECIPES)),
       Param("seed", "int", default=0, lo=0, hi=1000),
       Param("steps", "int", default="auto", lo=20, hi=1000, auto=True))
AT = Param("at", "choice", default="end", choices=lesson_training.AT)


@dataclass(eq=False)
class Job:
    run: TrainRun
    thread: threading.Thread | None = field(default=None, repr=False)
    failure: BaseException | None = None


_JOBS: OrderedDict[tuple, Job] = OrderedDict()
_LOCK = threading.Lock()


def run_key(p: Mapping[str, Any]) -> tuple[str, int, int]:
    recipe = lesson_training.RECIPES[p["task"]]
    return p["task"], int(p["seed"]), int(recipe.steps if p["steps"] == "auto" else p["steps"])


def _worker(job: Job) -> None:
    import torch

    with SLOTS:
        before = torch.get_num_threads()
        torch.set_num_threads(1)          # a toy model gains nothing from more (see ui/views/training.py)
        try:
            r = job.run
            train(r.task, r.config, r.settings, stop=None, run=r, gate=run_held)
        except Exception as e:  # noqa: BLE001 - the page says it in one sentence
            job.run.state, job.failure = "failed", e
        finally:
            torch.set_num_threads(before)


def job(key: tuple[str, int, int]) -> Job:
    """The server's run for `key`, started when there is none (or the last one failed)."""
    with _LOCK:
        j = _JOBS.get(key)
        if j is None or j.run.state == "failed":
            task_id, seed, steps = key
            task, cfg, settings = lesson_training.RECIPES[task_id].build(seed, steps)
            j = Job(TrainRun(task, cfg, settings, task.probe()))
            j.thread = threading.Thread(target=_worker, args=(j,), daemon=True, name=f"glassbox-lesson-{task_id}")
            _JOBS[key] = j
            j.thread.start()
            while len(_JOBS) > MAX_RUNS:
                old = next((k for k, v in _JOBS.items() if v.run.finished), None)
                if old is None:
                    break
                del _JOBS[old]
        _JOBS.move_to_end(key)
        return j


def trained_run(p: Mapping[str, Any], training_step: bool = False) -> TrainRun:
    """The finished run the step reads; trains it first (with progress) when needed."""
    key = run_key(p)
    mine = st.session_state.setdefault(SESSION, {})
    if key in mine:
        return mine[key]
    j = job(key)
    if not j.run.finished:
        if not training_step:
            st.info(t("lt_needs_run"), icon=":material/model_training:")
        wait(j.run)
    if j.run.state != "done":
        with _LOCK:
            if _JOBS.get(key) is j:
                del _JOBS[key]
        raise ValueError(t("lt_failed", error=md_escape(str(j.failure or j.run.error))))
    mine[key] = j.run
    return j.run


def wait(run: TrainRun) -> None:
    """A progress bar (step, loss, accuracy) until the run finishes."""
    bar = st.progress(0.0, text=t("lt_starting"))
    while not run.finished:
        n = run.settings.steps
        loss = f"{run.loss[-1]:.3f}" if run.loss else "–"
        acc = f"{run.accuracy[-1]:.0%}" if run.accuracy else "–"
        bar.progress(min(1.0, run.step / n), text=t("lt_progress", step=run.step, steps=n, loss=loss, acc=acc,
                                                        s=f"{run.seconds:.1f}"))
        time.sleep(0.25)
    bar.empty()


# ---- what the steps read -----------------------------------------------------------------------
def snaps(run: TrainRun) -> tuple[list[int], list[np.ndarray]]:
    stack = run.probe_stack
    return [s.step for s in run.snapshots], [s.patterns[stack].astype(np.float32) for s in run.snapshots]


@st.cache_data(max_entries=16, show_spinner=False)
def _facts(key: tuple, _run: TrainRun) -> tuple[lesson_training.LossDrop, lesson_training.Strongest, dict, dict,
                                                lesson_training.Forming]:
    steps, patterns = snaps(_run)
    probe = _run.probe
    drop = lesson_training.fastest_drop(_run.steps, _run.loss, _run.settings.steps)
    best = lesson_training.strongest(patterns[-1], probe.ids, probe.answer)
    hist = lesson_training.history(patterns, probe.ids, probe.answer)
    return (drop, best, hist, lesson_training.chance(probe.ids, probe.answer),
            lesson_training.forms_at(steps, hist[best.pattern]))


def facts_of(p: Mapping[str, Any], run: TrainRun):
    return _facts(run_key(p), run)


def _label(task: str) -> str:
    return t(f"tr_task_{task}")


def _caption(p: Mapping[str, Any], run: TrainRun) -> str:
    return t("lt_caption", task=_label(run.task.name), steps=run.step, s=f"{run.seconds:.1f}", seed=p["seed"],
             acc=f"{run.final_accuracy:.0%}")


def _heat(pattern: np.ndarray, tokens: list[str], title: str):
    causal = np.tril(np.ones(pattern.shape, bool))
    fig = vz.head_heatmap(np.where(causal, pattern, np.nan).astype(np.float32), tokens, tokens, title=title,
                          clickable=False, square=False, terms=weight_terms())
    vz.fit_height(fig, min(560, 220 + 24 * len(tokens)))
    return fig


def _curves(run: TrainRun, marker: int | None = None):
    return vz.training_curves(run.steps, run.loss, run.eval_steps, run.accuracy, run.lr,
                              total_steps=run.settings.steps, marker_step=marker,
                              terms={"loss": t("tr_loss"), "accuracy": t("tr_accuracy"), "lr": t("tr_lr_short"),
                                     "step": t("tr_step")})


# ---- the kinds ---------------------------------------------------------------------------------
@kind("train_task", params=RUN, facts={"task": "text", "probe": "text", "n_symbols": "int", "vocab": "int",
                                       "n_answer": "int"})
def train_task(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    task, cfg, _ = lesson_training.RECIPES[p["task"]].build(p["seed"], run_key(p)[2])
    probe = task.probe()
    fig = _heat(task.ideal_for(probe), list(probe.tokens), t("lt_ideal_title", task=_label(task.name)))
    facts = {"task": _label(task.name), "probe": probe.text, "n_symbols": len(task.symbols),
             "vocab": task.tokenizer.vocab_size, "n_answer": probe.answer.stop - probe.answer.start}
    return Shown(fig, facts, page="training",
                 caption=t("lt_model_caption", layers=cfg.n_layers, heads=cfg.n_heads, d=cfg.d_model,
                           pe=md_escape(pe_name(cfg.positional)), probe=md_code(probe.text)))


# the kinds that read a finished run are not shared between sessions (Kind.shared): they wait
# for this session's run with a progress bar and keep it in this session's state
@kind("train_run", params=RUN, facts={"steps": "int", "seconds": "num", "first_loss": "num", "ln_vocab": "num",
                                      "vocab": "int", "last_loss": "num", "accuracy": "num", "snapshots": "int"},
      shared=False)
def train_run(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    run = trained_run(p, training_step=True)
    vocab = run.task.tokenizer.vocab_size
    facts = {"steps": run.step, "seconds": run.seconds, "first_loss": run.loss[0],
             "ln_vocab": lesson_training.ln_vocab(vocab),
             "vocab": vocab, "last_loss": run.loss[-1], "accuracy": run.final_accuracy,
             "snapshots": len(run.snapshots)}
    return Shown(_curves(run), facts, page="training", caption=_caption(p, run))


@kind("train_loss_drop", params=RUN, facts={"step": "int", "steps": "int", "loss_before": "num", "loss_after": "num",
                                            "rate": "num"},
      question="choice", options=tuple(f"lt_{x}" for x in lesson_training.PHASES),
      shared=False)
def train_loss_drop(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    run = trained_run(p)
    drop = facts_of(p, run)[0]
    facts = {"step": drop.step, "steps": run.settings.steps, "loss_before": drop.loss_before,
             "loss_after": drop.loss_after, "rate": drop.rate}
    return Shown(_curves(run, marker=drop.step), facts, answer=f"lt_{drop.phase}", page="training",
                 caption=_caption(p, run))


@kind("train_attention", params=(*RUN, AT), facts={"step": "int", "head": "text", "pattern": "text", "score": "num",
                                                  "chance": "num", "loss": "num", "accuracy": "num"},
      shared=False)
def train_attention(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    run = trained_run(p)
    _, best, hist, chance, _ = facts_of(p, run)
    steps, patterns = snaps(run)
    i = lesson_training.at_index(len(steps), p["at"])
    snap = run.snapshots[i]
    head = t("lk_head_name", layer=best.layer, head=best.head)
    fig = _heat(patterns[i][best.layer, best.head], list(run.probe.tokens),
                t("lt_head_at", head=head, step=steps[i]))
    score = lesson_training.pattern_scores(patterns[i], run.probe.ids,
                                           run.probe.answer)[best.pattern][best.layer, best.head]
    facts = {"step": steps[i], "head": head, "pattern": t(f"lk_opt_lt_{best.pattern}"), "score": float(score),
             "chance": chance[best.pattern], "loss": snap.loss if np.isfinite(snap.loss) else run.loss[0],
             "accuracy": snap.accuracy}
    return Shown(fig, facts, page="training", caption=_caption(p, run))


@kind("train_pattern", params=RUN, facts={"head": "text", "pattern": "text", "score": "num", "chance": "num",
                                          "runner_up": "text", "runner_score": "num"},
      question="choice", options=tuple(f"lt_{x}" for x in lesson_training.PATTERNS),
      shared=False)
def train_pattern(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    run = trained_run(p)
    _, best, _, chance, _ = facts_of(p, run)
    _, patterns = snaps(run)
    head = t("lk_head_name", layer=best.layer, head=best.head)
    fig = _heat(patterns[-1][best.layer, best.head], list(run.probe.tokens),
                t("lt_head_at", head=head, step=run.snapshots[-1].step))
    second = sorted((v, k) for k, v in best.scores.items() if k != best.pattern)[-1]
    facts = {"head": head, "pattern": t(f"lk_opt_lt_{best.pattern}"), "score": best.score,
             "chance": chance[best.pattern], "runner_up": t(f"lk_opt_lt_{second[1]}"), "runner_score": second[0]}
    return Shown(fig, facts, answer=f"lt_{best.pattern}", page="training", caption=_caption(p, run))


@kind("train_scrub", params=RUN, facts={"head": "text", "snapshots": "int", "every": "int", "start": "num",
                                        "end": "num", "pattern": "text"},
      shared=False)
def train_scrub(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    run = trained_run(p)
    _, best, hist, _, _ = facts_of(p, run)
    steps, patterns = snaps(run)
    head = t("lk_head_name", layer=best.layer, head=best.head)
    causal = np.tril(np.ones(patterns[0].shape[-2:], bool))
    frames = [np.where(causal, x[best.layer, best.head], np.nan)[None] for x in patterns]
    toks = list(run.probe.tokens)
    fig = vz.attention_over_steps(frames, steps, toks, toks, start=0, titles=[t("lt_head", head=head)],
                                  terms={"play": t("tr_play"), "pause": t("tr_pause"), "step": t("tr_step"),
                                         "query": t("term_query"), "key": t("term_key")}, height=460)
    facts = {"head": head, "snapshots": len(steps), "every": run.settings.snapshot_every,
             "start": float(hist[best.pattern][0]), "end": float(hist[best.pattern][-1]),
             "pattern": t(f"lk_opt_lt_{best.pattern}")}
    return Shown(fig, facts, page="training", caption=_caption(p, run))


@kind("train_detector", params=RUN, facts={"pattern": "text", "start": "num", "end": "num", "chance": "num",
                                           "form_step": "int", "drop_step": "int"},
      question="choice", options=tuple(f"lt_{x}" for x in lesson_training.TIMING))
def train_detector(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    run = trained_run(p)
    drop, best, hist, chance, forming = facts_of(p, run)
    steps, _ = snaps(run)
    names = {k: t(f"lk_opt_lt_{k}") for k in lesson_training.PATTERNS}
    fig = vz.detector_curves(steps, {names[k]: hist[k] for k in lesson_training.PATTERNS}, run.steps, run.loss,
                             chance={names[k]: chance[k] for k in lesson_training.PATTERNS}, marker_step=forming.step,
                             terms={"loss": t("tr_loss"), "step": t("tr_step")})
    fig = add_title(fig, t("lt_detector_title"), margin_t=70)
    answer = lesson_training.timing(forming.step, drop.step, 2 * run.settings.snapshot_every)
    facts = {"pattern": names[best.pattern], "start": forming.start, "end": forming.end,
             "chance": chance[best.pattern], "form_step": forming.step, "drop_step": drop.step}
    return Shown(fig, facts, answer=f"lt_{answer}", page="training", caption=_caption(p, run))


@kind("train_all_heads", params=(*RUN, AT), facts={"n_heads": "int", "n_learned": "int", "step": "int",
                                                  "pattern": "text", "head": "text"})
def train_all_heads(ctx: StepContext, p: Mapping[str, Any]) -> Shown:
    run = trained_run(p)
    _, best, _, chance, _ = facts_of(p, run)
    steps, patterns = snaps(run)
    i = lesson_training.at_index(len(steps), p["at"])
    scores = lesson_training.pattern_scores(patterns[i], run.probe.ids, run.probe.answer)
    top = np.nanmax(np.stack([np.nan_to_num(v - chance[k], nan=-1.0) for k, v in scores.items()]), axis=0)
    fig = vz.model_view(patterns[i], tile_px=128, terms={"tile": t("term_tile")})
    vz.mark_tile(fig, best.layer, best.head)
    fig = add_title(fig, t("lt_all_heads_title", step=steps[i]))
    facts = {"n_heads": int(top.size), "n_learned": int((top > 0.25).sum()), "step": steps[i],
             "pattern": t(f"lk_opt_lt_{best.pattern}"), "head": t("lk_head_name", layer=best.layer, head=best.head)}
    return Shown(fig, facts, page="training", caption=_caption(p, run))

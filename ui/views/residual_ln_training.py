"""The residual page's *Training: Pre-LN vs Post-LN* view: the shipped four-run experiment
(pre/post × warm-up or not: loss curves, the gradient norm of every layer at a chosen step),
why Post-LN wants a warm-up, and the gradient on the residual path computed live: for the
shipped reverse twins (trained or initial weights) and for the loaded model on the reader's
text, the part the identity carries against the part through each sub-layer
(lab/ln_training.py, ui/serving/ln_training.py)."""
from __future__ import annotations

import math

import numpy as np
import streamlit as st

import viz_core as vz
from lab import ln_training
from models.training.tasks import get_task

from .. import serving
from ..i18n import FORMULAS, t
from ..links import choice
from ..markup import markdown_table, md_escape
from ..model_names import site_label
from ..page import explain
from ..serving import ln_training as cached
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

PAIR = ("toy:reverse-sinusoidal", "toy:reverse-sinusoidal-postln")    # the shipped twins (recipes/toys.py)
TASK = "reverse"


def norm_name(norm_position: str) -> str:
    return t("lnt_pre") if norm_position == "pre" else t("lnt_post")


def run_name(run: ln_training.Run) -> str:
    return t("lnt_run_warm", norm=norm_name(run.norm_position), w=run.warmup) if run.warmup else \
        t("lnt_run", norm=norm_name(run.norm_position))


def layer_name(label: str) -> str:
    return t("lnt_head") if label == "head" else site_label(label)


def fmt(x: float) -> str:
    return "–" if not math.isfinite(x) else f"{x:.3g}"


def view(sel: Selection, cfg) -> None:
    st.markdown(t("lnt_intro"))
    try:
        res = cached.results()
    except ValueError as e:
        st.error(t("lnt_missing", error=explain(e)))
    else:
        experiment(res)
    residual_path(sel, cfg)


# ---- the shipped experiment ----------------------------------------------------------------------
def experiment(res: ln_training.Results) -> None:
    m = res.meta
    st.markdown(t("lnt_setup", layers=m["model"]["n_layers"], d=m["model"]["d_model"], heads=m["model"]["n_heads"],
                  steps=m["steps"], lr=m["lr"], seed=m["seed"], warmup=m["warmup"], command=m["command"]))
    runs = sorted(res.runs, key=lambda r: (r.norm_position != "pre", r.warmup))
    curves = {run_name(r): (np.arange(1, r.loss.size + 1), ln_training.smooth(r.loss)) for r in runs}
    fig = vz.positional.curves(curves, title=t("lnt_loss_title", w=ln_training.WINDOW), x_name=t("lnt_step"),
                               y_name=t("lnt_loss_axis"))
    fig.update_yaxes(type="log")
    left, right = st.columns([3, 2])
    with left:
        figure_export.chart(fig, key="lnt_loss", width="stretch")
    with right:
        # the schedule depends on the warm-up only: one line for each
        lrs = {(t("lnt_lr_warm", w=r.warmup) if r.warmup else t("lnt_lr_none")): (np.arange(1, r.lr.size + 1), r.lr)
               for r in runs if r.norm_position == "pre"}
        figure_export.chart(vz.positional.curves(lrs, title=t("lnt_lr_title"), x_name=t("lnt_step"),
                                                 y_name=t("lnt_lr_title"), height=300), key="lnt_lr", width="stretch")
    k = len(get_task(TASK).symbols)         # what a model that learned nothing spreads its guess over
    rows = []
    for r in runs:
        s = ln_training.summary(r)
        rows.append([run_name(r), str(s.learned_at) if s.learned_at else t("lnt_never"), fmt(s.final_loss),
                     f"{s.final_accuracy:.1%}", t(f"lnt_state_{r.state}")])
    st.markdown(markdown_table([t("lnt_col_run"), t("lnt_col_learned", x=ln_training.LEARNED), t("lnt_col_final"),
                                t("lnt_col_acc"), t("lnt_col_state")], rows))
    st.caption(t("lnt_uniform", k=k, u=math.log(k)))
    st.markdown(t("lnt_why"))
    gradient_norms(res, runs)
    warmup_note(res)


def gradient_norms(res: ln_training.Results, runs: list[ln_training.Run]) -> None:
    st.subheader(t("lnt_grad_head"))
    steps = sorted(set.intersection(*(set(r.grad_steps) for r in runs)))
    options = [str(s) for s in steps]
    step = int(choice(st.radio, t("lnt_grad_pick"), options, param="lnt_step", default=options[-1], horizontal=True,
                      labels={"0": t("lnt_grad_init")}))
    shown = [r for r in runs if step or not r.warmup]          # step 0: with and without warm-up are the same weights
    series = {run_name(r) if step else norm_name(r.norm_position):
              ([layer_name(x) for x in r.grad_labels], r.grad_norms[r.grad_steps.index(step)]) for r in shown}
    figure_export.chart(vz.lines_chart(series, title=t("lnt_grad_title", step=step), y_name=t("lnt_grad_axis"),
                                       log_y=True), key="lnt_grads", width="stretch")
    st.caption(t("lnt_grad_caption", n=res.meta.get("grad_batch", "?")))
    first = next((s for s in steps if s > 0), None)
    if first is not None:
        pre0, post0, postw = res.run("pre", False), res.run("post", False), res.run("post", True)
        st.markdown(t("lnt_why_here", r0=ln_training.mean_block(post0, 0) / ln_training.mean_block(pre0, 0),
                      s=first, v=ln_training.first_over_last(post0, first),
                      vp=ln_training.first_over_last(pre0, first), vw=ln_training.first_over_last(postw, first),
                      last=steps[-1], vl=ln_training.first_over_last(post0, steps[-1])))


def warmup_note(res: ln_training.Results) -> None:
    out = {}
    for r in res.runs:
        s = ln_training.summary(r)
        at = t("lnt_learned_at", x=ln_training.LEARNED, step=s.learned_at) if s.learned_at else \
            t("lnt_not_learned", x=ln_training.LEARNED)
        out[(r.norm_position, bool(r.warmup))] = (fmt(s.final_loss), at)
    misconception("ln_warmup", t("lnt_mis_warm_common"), t(
        "lnt_mis_warm_shown", lr=res.meta["lr"], w=res.meta["warmup"],
        post0=out["post", False][0], post0_at=out["post", False][1], postw=out["post", True][0],
        postw_at=out["post", True][1], pre0=out["pre", False][0], pre0_at=out["pre", False][1],
        prew=out["pre", True][0], prew_at=out["pre", True][1]))


# ---- the gradient on the residual path, live -------------------------------------------------------
def grad_chart(g: ln_training.ResidualGrad, title: str, key: str) -> None:
    labels = [site_label(x) for x in g.labels]
    series = {t("lnt_total"): (labels, g.total), t("lnt_identity"): (labels, g.identity),
              t("lnt_branch"): (labels, g.branch)}
    values = np.concatenate([g.total, g.identity, g.branch])
    values = values[values > 0]
    wide = values.size > 0 and values.max() / values.min() > 10
    figure_export.chart(vz.lines_chart(series, title=title, y_name=t("lnt_res_axis"), log_y=bool(wide)),
                        key=key, width="stretch")
    st.caption(t("lnt_res_caption", loss=g.loss, n=g.n_predicted, depth=g.depth_ratio))


def residual_path(sel: Selection, cfg) -> None:
    st.subheader(t("lnt_res_head"))
    st.markdown(t("lnt_res_intro"))
    st.latex(FORMULAS["lnt_jacobians"])
    twins = [serving.entry(k) for k in PAIR]
    if all(e is not None and e.available for e in twins):
        weights = choice(st.radio, t("lnt_weights"), ("trained", "initial"), param="lnt_w", default="trained",
                         horizontal=True, labels={w: t(f"lnt_weights_{w}") for w in ("trained", "initial")})
        try:
            (pre, text), (post, _) = (cached.twin_gradients(k, sel.device, TASK, weights == "initial") for k in PAIR)
        except (ValueError, RuntimeError) as e:
            st.error(t("run_failed", error=explain(e)))
        else:
            layers = len({x.split()[0] for x in pre.labels})
            st.caption(t("lnt_twins", text=md_escape(text), layers=layers))
            cols = st.columns(2)
            for col, g, name, key in ((cols[0], pre, "lnt_pre", "lnt_res_pre"),
                                      (cols[1], post, "lnt_post", "lnt_res_post")):
                with col:
                    grad_chart(g, t("lnt_res_title", model=t(name)), key)
            carried(pre, post)
    else:
        st.info(t("lnt_twins_missing"), icon=":material/info:")
    loaded_model(sel, cfg)


def carried(pre: ln_training.ResidualGrad, post: ln_training.ResidualGrad) -> None:
    series = {t("lnt_pre"): ([site_label(x) for x in pre.labels[:-1]], pre.carried),
              t("lnt_post"): ([site_label(x) for x in post.labels[:-1]], post.carried)}
    figure_export.chart(vz.lines_chart(series, title=t("lnt_carried_title"), y_name=t("lnt_carried_axis")),
                        key="lnt_carried", width="stretch")
    st.caption(t("lnt_carried_caption", pre_lo=pre.carried.min(), pre_hi=pre.carried.max(),
                 post_lo=post.carried.min(), post_hi=post.carried.max()))
    misconception("ln_plus_one", t("lnt_mis_plus_common"), t(
        "lnt_mis_plus_shown", pre=float(np.median(pre.carried)), post_lo=post.carried.min(),
        post_hi=post.carried.max(), pre_depth=pre.depth_ratio, post_depth=post.depth_ratio))


def loaded_model(sel: Selection, cfg) -> None:
    st.subheader(t("lnt_text_head"))
    if cfg.arch != "decoder" or cfg.output != "logits":
        st.info(t("lnt_text_unavailable"), icon=":material/info:")
        return
    try:
        out = cached.text_gradients(RunKey.of(sel))
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    if out is None:
        st.info(t("lnt_text_short"), icon=":material/short_text:")
        return
    g, n = out
    st.caption(t("lnt_text_caption", model=md_escape(sel.model_label), where=t(f"norm_{g.norm_position}"), n=n))
    grad_chart(g, t("lnt_res_title", model=sel.model_label), "lnt_res_text")

"""The attribution page's activation patching: text A (the sidebar's, clean) and text B
(corrupted, the A/B widget's box, ui/widgets/compare.py), one site patched from A into B
at every layer and position, the recovered fraction as a heatmap.

The sweep runs through ui/serving/attribution.py (every batched pass through the run
gate, the result kept per pair); its progress shows while it runs.
"""
from __future__ import annotations

import streamlit as st

import viz_core as vz
from lab import patching
from models.errors import Refused
from viz_core.colors import DIVERGING

from ..i18n import t
from ..links import choice
from ..markup import md_code, md_escape
from ..page import explain
from ..refusals import say
from ..serving import attribution
from ..sidebar import Selection
from ..widgets import compare, figure_export
from ..widgets.tokens import REFUSED, position_choice, token_label, typed_token

SITES = patching.SITES
# a sweep larger than this (multiply-adds, lab.patching.sweep_size: ~10 s on a 2-core CPU) waits for a click
AUTO_WORK = 2e11


def render_view(sel: Selection, model, tok) -> None:
    if model.cfg.arch == "encoder-decoder":
        st.info(say(Refused("patching_two_stacks", "")), icon=":material/info:")
        return
    text_b = compare.text_b(sel)
    if text_b is None:
        return
    pair = attribution.patch_pair(sel.model_key, sel.device, sel.text, text_b)
    if compare.aligned(pair.a.tokens, pair.b.tokens) is None:
        return
    metrics = patching.metrics_for(model)
    c1, c2, c3 = st.columns([3, 3, 3])
    with c1:
        site = choice(st.radio, t("at_site"), SITES, param="psite", default="resid",
                      labels={s: t(f"at_site_{s}") for s in SITES})
    with c2:
        kind = choice(st.radio, t("at_metric"), metrics, param="pmetric", default=metrics[0],
                      labels={m: t(f"at_metric_{m}") for m in metrics})
    with c3:
        position = position_choice(list(pair.a.tokens), param="ppos")
    metric = metric_of(kind, position, pair, tok)
    if metric is None:
        return
    progress = None
    if attribution.cached_sweep(sel.model_key, sel.device, sel.text, text_b, site, metric) is None:
        runs, work = patching.sweep_size(model, site, len(pair.a.ids))
        if work > AUTO_WORK and not st.button(t("at_sweep_start", runs=runs, n=len(pair.a.ids)), key="sweep_start",
                                               icon=":material/play_arrow:"):
            st.info(t("at_sweep_big", runs=runs, n=len(pair.a.ids), gmacs=f"{work / 1e9:,.0f}"),
                    icon=":material/hourglass_empty:")
            return
        bar = st.progress(0.0, text=t("at_sweep_running"))

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=t("at_sweep_progress", done=done, total=total))
    try:
        sweep, seconds = attribution.patching_sweep(sel.model_key, sel.device, sel.text, text_b, site, metric, progress)
    except Refused as e:
        st.warning(say(e), icon=":material/block:")
        return
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    finally:
        if progress is not None:
            bar.empty()
    show_sweep(sweep, seconds, pair, site, kind)


def metric_of(kind: str, position: int, pair: attribution.PatchPair, tok) -> patching.Metric | None:
    """The metric the controls describe; its tokens default to A's and B's top predictions."""
    if kind == "hidden":
        return patching.Metric("hidden", position)
    a_top, b_top = int(pair.top_a[position, 0]), int(pair.top_b[position, 0])
    b_alt = b_top if b_top != a_top else int(pair.top_b[position, 1])
    st.caption(t("at_pair_tops", pos=position, a=md_code(token_label(tok, a_top)),
                 b=md_code(token_label(tok, b_top))))
    if kind == "kl":
        return patching.Metric("kl", position)
    c1, c2 = st.columns(2)
    with c1:
        token = typed_token(tok, t("at_metric_token"), "ptok", "at_metric_token_help")
    other = None
    if kind == "logit_diff":
        with c2:
            other = typed_token(tok, t("at_metric_other"), "ptok_b", "at_metric_other_help")
    if REFUSED in (token, other):
        return None
    token = a_top if token is None else token
    if kind == "prob":
        return patching.Metric("prob", position, token)
    other = b_alt if other is None else other
    if other == token:
        st.info(t("at_same_tokens"), icon=":material/info:")
        return None
    return patching.Metric("logit_diff", position, token, other)


def show_sweep(sweep: patching.Sweep, seconds: float, pair: attribution.PatchPair, site: str, kind: str) -> None:
    m = st.columns(3)
    m[0].metric(t("at_metric_a"), f"{sweep.clean:.4g}")
    m[1].metric(t("at_metric_b"), f"{sweep.corrupted:.4g}")
    m[2].metric(t("at_runs"), f"{sweep.runs}", help=t("at_runs_help", passes=sweep.passes, s=f"{seconds:.2f}"))
    recovered = sweep.recovered
    if not (abs(sweep.clean - sweep.corrupted) > 0):
        st.info(t("at_nothing_to_recover"), icon=":material/info:")
    rows = [t("at_row_final") if r == "final" else r for r in sweep.rows]
    heads = site == "head"
    cols = [f"H{h}" for h in range(recovered.shape[1])] if heads else list(pair.b.tokens)
    fig = vz.value_heatmap(recovered.astype("float32"), rows, cols, title=t(f"at_sweep_title_{site}"),
                           value_name=t("at_recovered"), cmap=DIVERGING, zmin=-1.0, zmax=1.0, col_tokens=not heads)
    figure_export.chart(fig, key="patch_map", width="stretch")
    st.caption(t("at_sweep_caption", metric=t(f"at_metric_{kind}"), runs=sweep.runs, passes=sweep.passes,
                 s=f"{seconds:.2f}"))
    if site == "resid":
        st.caption(t("at_sweep_resid_rows"))
    st.caption(t("at_pair_texts", a=md_escape(" ".join(pair.a.tokens)[:200]), b=md_escape(" ".join(pair.b.tokens)[:200])))

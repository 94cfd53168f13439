"""The walk-through's section 9, before attention (lab/before_attention.py): the older score
functions on the walked head's own q and keys, self-attention without weights on the input
embeddings beside the walked head, a GRU encoder–decoder against a Transformer on the copy
task (recipes/before_attention.py, evaluated live), and Vaswani et al.'s Table 1 with this
text's n and the model's d. Cached work in ui/serving/before_attention.py."""
from __future__ import annotations

import math

import numpy as np
import streamlit as st

import viz_core as vz
from lab import before_attention
from viz_core.labels import plain_label
from viz_core.residual import lines_chart

from ..i18n import t
from ..markup import markdown_table, md_escape
from ..page import explain
from ..serving import before_attention as serving
from ..serving.gate import load_model
from ..serving.run_key import RunKey
from ..serving.walkthrough import Controls, walk
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception

FORMULA = {"additive": "v·tanh(W₁q + W₂k)", "dot": "q·k", "general": "q W kᵀ", "scaled": "q·k / √d"}
KERNEL = 3
COLOURS = ("#d62728", "#1f77b4")      # GRU, Transformer


def section(sel: Selection, c: Controls, q_tok: list[str], k_tok: list[str]) -> None:
    st.subheader(t("ba_title"))
    st.markdown(t("ba_intro"))
    model, _ = load_model(sel.model_key, sel.device)
    key = RunKey.of(sel)
    try:
        w = walk(key, c.stack, c.layer, c.head, c.query)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    score_part(w, c, q_tok, k_tok)
    raw_part(key, c, q_tok, model.cfg.d_model)
    context_part()
    cost_part(len(k_tok), model.cfg.d_model)


def _f(x: float, digits: int = 3) -> str:
    return f"{x:.{digits}g}"


def score_part(w, c: Controls, q_tok: list[str], k_tok: list[str]) -> None:
    st.markdown(t("ba_scores"))
    dh = len(w.q)
    allowed = np.asarray(w.mask, dtype=bool)
    st.markdown(t("ba_scores_text", q=md_escape(plain_label(c.query, q_tok[c.query])), layer=c.layer, head=c.head,
                  m=int(allowed.sum()), dh=dh, seed=before_attention.SEED))
    rows = before_attention.score_rows(w.q, w.keys, allowed, w.scale)
    table = []
    for r in rows:
        finite = r.scores[allowed]
        table.append([t(f"ba_fn_{r.kind}"), FORMULA[r.kind], t(f"ba_params_{r.kind}"),
                      f"{finite.min():.3g} … {finite.max():.3g}", f"{r.max_weight:.3f}", f"{r.entropy:.3f}",
                      plain_label(r.top, k_tok[r.top])])
    st.markdown(markdown_table([t("ba_col_fn"), t("ba_col_formula"), t("ba_col_params"), t("ba_col_range"),
                                t("ba_col_max"), t("ba_col_entropy"), t("ba_col_top")], table))
    weights = np.stack([np.where(allowed, r.weights, np.nan) for r in rows]).astype(np.float32)
    fig = vz.head_heatmap(weights, [t(f"ba_fn_{r.kind}") for r in rows], k_tok, title=t("ba_scores_chart"),
                          clickable=False, square=False,
                          terms={"query": t("ba_term_function"), "key": t("term_key"), "weight": t("term_weight"),
                                 "masked": t("term_masked")})
    vz.fit_height(fig, 300)
    figure_export.chart(fig, key="ba_scores_chart", width="stretch")
    scaled = rows[-1].weights
    err = float(np.nanmax(np.abs(scaled - np.asarray(w.weights))))
    if w.bias is None and w.softcap is None:
        st.caption(t("ba_scores_check", err=f"{err:.1e}"))
    else:
        st.caption(t("ba_scores_bias", err=f"{err:.3g}"))
    dot = rows[1]
    values = dict(dot=f"{dot.max_weight:.3f}", scaled=f"{scaled.max():.3f}", h_dot=f"{dot.entropy:.3f}",
                  h_scaled=f"{rows[-1].entropy:.3f}")
    if abs(w.scale * math.sqrt(dh) - 1) < 1e-6:
        st.markdown(t("ba_scaling_here", sqrt=_f(math.sqrt(dh)), **values))
    else:                                   # T5 (no scaling), a config's own scale, a temperature
        st.markdown(t("ba_scaling_other", scale=_f(w.scale), inv=_f(dh ** -0.5), **values))
    p = before_attention.seeded(dh)
    add, d = rows[0].scores[allowed], rows[1].scores[allowed]
    misconception("additive", t("ba_mis_additive_common"),
                  t("ba_mis_additive_shown", bound=_f(float(np.abs(p.v).sum())), lo=_f(add.min()), hi=_f(add.max()),
                    dlo=_f(d.min()), dhi=_f(d.max())))
    sweep_part(int(allowed.sum()), dh)


def sweep_part(n_keys: int, dh: int) -> None:
    st.markdown(t("ba_sweep"))
    n = max(n_keys, 2)
    widths = tuple(sorted({4, 16, 64, 256, 1024, dh}))
    nq = 64
    pts = before_attention.scaling_sweep(n, widths, n_queries=nq)
    st.markdown(t("ba_sweep_text", nq=nq, n=n, seed=before_attention.SEED, dh=dh))
    st.markdown(markdown_table(
        [t("ba_sw_d"), t("ba_sw_mean"), t("ba_sw_std"), t("ba_sw_max_dot"), t("ba_sw_max_scaled"), t("ba_sw_h_dot"),
         t("ba_sw_h_scaled")],
        [[f"{p.d}" + (" ←" if p.d == dh else ""), f"{p.dot_mean:+.3f}", f"{p.dot_std:.2f}", f"{p.max_dot:.3f}",
          f"{p.max_scaled:.3f}", f"{p.entropy_dot:.3f}", f"{p.entropy_scaled:.3f}"] for p in pts]))
    st.caption(t("ba_sw_caption", uniform=f"{math.log(n):.3f}"))


def raw_part(key: RunKey, c: Controls, q_tok: list[str], d: int) -> None:
    st.markdown(t("ba_raw"))
    if c.stack == "cross":
        st.info(t("ba_raw_cross"))
        return
    try:
        r = serving.raw_attention(key, c.stack, c.layer, c.head)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    n = len(q_tok)
    st.markdown(t("ba_raw_text", n=n, d=d, layer=c.layer, head=c.head))
    left, right = st.columns(2)
    terms = {"query": t("term_query"), "key": t("term_key"), "weight": t("term_weight"), "masked": t("term_masked")}
    with left:
        raw = np.where(r.allowed, r.raw.weights, np.nan).astype(np.float32)
        figure_export.chart(vz.head_heatmap(raw, q_tok, q_tok, title=t("ba_raw_chart"), clickable=False, terms=terms),
                            key="ba_raw_chart", width="stretch")
    with right:
        model = np.where(r.allowed, r.pattern, np.nan).astype(np.float32)
        figure_export.chart(vz.head_heatmap(model, q_tok, q_tok, title=t("ba_model_chart", layer=c.layer, head=c.head),
                                            clickable=False, terms=terms),
                            key="ba_model_chart", width="stretch")
    st.markdown(t("ba_raw_facts", asym=f"{r.raw.asymmetry:.1e}", self_top=f"{r.raw.self_top:.0%}",
                  diag=f"{r.raw.diagonal:.3f}", uniform=f"{r.raw.uniform:.3f}",
                  model_diag=f"{float(np.diag(r.pattern).mean()):.3f}"))


def context_part() -> None:
    st.markdown(t("ba_gru"))
    try:
        gru, gru_meta, tf, _ = serving.copy_models()
        lengths, g, tr = serving.copy_curves()
    except (OSError, ValueError, KeyError):
        st.info(t("ba_gru_missing", command=before_attention.COMMAND))
        return
    params = lambda m: f"{sum(p.numel() for p in m.parameters()):,}"     # noqa: E731
    st.markdown(t("ba_gru_text", hidden=gru_meta["hidden"], max_len=before_attention.MAX_LEN, command=before_attention.COMMAND,
                  gru_params=params(gru), tf_params=params(tf), n=serving.EVAL_N))
    xs = [t("ba_gru_x", n=n) for n in lengths]
    fig = lines_chart({t("ba_gru_name"): (xs, np.asarray(g)), t("ba_tf_name"): (xs, np.asarray(tr))},
                      title=t("ba_gru_chart"), y_name=t("ba_gru_y"))
    fig.update_yaxes(range=[-0.03, 1.03])
    for trace, colour in zip(fig.data, COLOURS):
        trace.line.color = trace.marker.color = colour
    figure_export.chart(fig, key="ba_gru_chart", width="stretch")
    short = 0                                   # the shortest length, and the first where the GRU is below half
    long = next((i for i, a in enumerate(g) if a < 0.5), len(g) - 1)
    st.markdown(t("ba_gru_facts", short=lengths[short], long=lengths[long], g_short=f"{g[short]:.0%}",
                  g_long=f"{g[long]:.0%}", t_short=f"{tr[short]:.0%}", t_long=f"{tr[long]:.0%}",
                  bits=f"{lengths[long] * math.log2(10):.0f}", hidden=gru_meta["hidden"]))
    st.caption(t("ba_gru_caption", seed=serving.EVAL_SEED))


def cost_part(n: int, d: int) -> None:
    st.markdown(t("ba_cost"))
    rows = before_attention.cost_table(n, d, KERNEL)
    st.markdown(t("ba_cost_text", n=n, d=d, k=KERNEL, r=KERNEL))
    st.markdown(markdown_table(
        [t("ba_cost_col_layer"), t("ba_cost_col_complexity"), t("ba_cost_col_sequential"), t("ba_cost_col_path"),
         t("ba_cost_col_ops"), t("ba_cost_col_steps"), t("ba_cost_col_hops")],
        [[t(f"ba_layer_{x.layer}"), x.complexity, x.sequential, x.path, f"{x.ops:,.0f}", f"{x.steps:,}", f"{x.hops:,}"]
         for x in rows]))
    sa, rnn = rows[0].ops, rows[1].ops
    st.markdown(t("ba_cost_compare", sa=f"{sa:,.0f}", rnn=f"{rnn:,.0f}", n=n, d=d,
                  which=t("ba_cheaper" if sa < rnn else "ba_dearer")))
    misconception("rnn", t("ba_mis_rnn_common"), t("ba_mis_rnn_shown", n=n))

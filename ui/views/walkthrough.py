"""The Q/K/V walk-through: one head, one query, every number, from the attention input
to the layer's attention output.

The arithmetic is lab/walkthrough.py `walk_head` (recomputed from the layer's weights,
checked against the model's own attention output; the pass runs through the gate,
cached in ui/serving/walkthrough.py); the KV-cache sizes come from lab/kv.py; figures from viz_core.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
import lab.walkthrough
import viz_core.walkthrough
from lab import kv
from lab.walkthrough import HeadWalk
from models.trace import Stack
from viz_core.figure import HIGHLIGHT
from viz_core.labels import plain_label

from ..i18n import FORMULAS, t
from ..links import index_slider, show_notices, stack_choice
from ..markup import md_escape
from ..page import explain, require_model, require_text
from ..serving.walkthrough import MAX_TOKENS, Controls, token_lists, walk
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception
from . import (walkthrough_before_attention, walkthrough_code_mistakes, walkthrough_flash, walkthrough_fused,
               walkthrough_scaling)

NEG_INF = "−∞"


def render(sel: Selection) -> None:
    """The walk-through page."""
    st.title(t("wt_title"))
    st.markdown(t("wt_intro"))
    model, _ = require_model(sel)
    require_text(sel)
    cfg = model.cfg
    stack = choose_stack(cfg.arch)
    q_tok, k_tok, n_all = token_lists(RunKey.of(sel), stack)
    if n_all > max(len(q_tok), len(k_tok)):
        st.info(t("truncated", n=n_all, kept=MAX_TOKENS), icon=":material/content_cut:")
    c = controls(stack, cfg, q_tok, k_tok)
    show_notices()
    w = walk_or_explain(sel, c)
    if c.stack == "cross":
        misconception("cross", t("wt_mis_cross_common"), t("wt_mis_cross_shown", nq=len(q_tok), nk=len(k_tok)))
        misconception("cross_mask", t("wt_mis_cross_mask_common"),
                      t("wt_mis_cross_mask_shown", q=md_escape(plain_label(c.query, q_tok[c.query])),
                        seen=int(w.mask.sum()), m=len(w.mask)))
    qkv_section(w, q_tok, k_tok, cfg)
    steps_section(w, q_tok, k_tok, cfg)
    output_section(w, cfg)
    numbers_section(w, q_tok, k_tok)
    neuron_section(w, q_tok, k_tok, c.key)
    kv_section(cfg)
    with st.container(key="sc_section"):
        walkthrough_scaling.section(sel, c, q_tok, k_tok)
    with st.container(key="fa_section"):
        walkthrough_flash.section(sel, c, q_tok, k_tok)
    with st.container(key="fu_section"):
        walkthrough_fused.section(sel, c)
    with st.container(key="cm_section"):
        walkthrough_code_mistakes.section(sel, c)
    with st.container(key="ba_section"):
        walkthrough_before_attention.section(sel, c, q_tok, k_tok)


def _pick(label: str, tokens: list[str], key: str, default: int) -> int:
    """A token picker (position labels "3·the"); a position left from a longer text is clamped."""
    n = len(tokens)
    index = {"index": min(default, n - 1)}
    if key in st.session_state:
        if not 0 <= st.session_state[key] < n:
            st.session_state[key] = n - 1
        index = {}
    return int(st.selectbox(label, list(range(n)), key=key, **index,
                            format_func=lambda i: plain_label(i, tokens[i], 30)))


def choose_stack(arch: str) -> str:
    """The attention walked: the one stack, or encoder / decoder / cross of an encoder-decoder."""
    stack = stack_choice(Stack.attention_maps(arch), t("wt_stack"), "wt_stack")
    if stack == "cross":
        st.caption(t("wt_cross"))
    return stack


def controls(stack: str, cfg, q_tokens: list[str], k_tokens: list[str]) -> Controls:
    """Layer, head, query and key pickers."""
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        layer = index_slider(t("wt_layer"), cfg.n_layers, "wt_layer")
    with c2:
        head = index_slider(t("wt_head"), cfg.n_heads, "wt_head")
    with c3:
        query = _pick(t("wt_query"), q_tokens, "wt_query", min(2, len(q_tokens) - 1))
    with c4:
        key = _pick(t("wt_key"), k_tokens, "wt_key", min(1, len(k_tokens) - 1))
    return Controls(stack, layer, head, query, key)


def _num(v: float) -> float | str:
    return NEG_INF if v == -np.inf else float(v)


def qkv_section(w: HeadWalk, q_tokens: list[str], k_tokens: list[str], cfg) -> None:
    st.subheader(t("wt_qkv", head=w.head))
    source = "wt_input_cross" if w.cross else f"wt_input_{cfg.norm_position}"
    if not w.cross and w.layer == 0 and not cfg.first_attn_norm and cfg.norm_position != "output":   # ModernBERT
        source = "wt_input_no_norm"
    st.markdown(t("wt_qkv_text", input=t(source),
                  dh=w.q_all.shape[1]))
    if w.qk_norm != "none":                              # Qwen3, Gemma 3 (per head), OLMo 2 (all heads)
        st.caption(t("wt_qk_norm", how=t(f"wt_qk_norm_{w.qk_norm}")))
    if w.rope:
        st.caption(t("wt_rope"))
    if cfg.kv_heads != cfg.n_heads:
        shared = [h for h, g in enumerate(kv.kv_groups(cfg.n_heads, cfg.kv_heads)) if g == w.kv_head]
        st.caption(t("wt_gqa", head=w.head, kv=w.kv_head, shared=", ".join(map(str, shared))))
    q = w.q_rot if w.rope else w.q_all
    k = w.k_rot if w.rope else w.k_all
    cols = st.columns(3)
    for col, name, m, tokens in zip(cols, ("Q", "K", "V"), (q, k, w.v_all), (q_tokens, k_tokens, k_tokens)):
        with col:
            fig = vz.matrix_heatmap(m.astype(np.float32), row_labels=tokens,
                                    col_labels=[str(i) for i in range(m.shape[1])], title=name,
                                    row_name=t("wt_term_token"), col_name=t("wt_term_dim"),
                                    colorbar_title=t("wt_term_value"), max_ticks=8)
            figure_export.chart(fig, key=f"wt_{name}", width="stretch")
    cos, rel = lab.walkthrough.key_value_difference(w)
    misconception("kv", t("wt_mis_kv_common"), t("wt_mis_kv_shown", cos=cos, rel=rel))


def steps_section(w: HeadWalk, q_tokens: list[str], tokens: list[str], cfg) -> None:
    """One row per key (tokens = the key tokens)."""
    q_label = plain_label(w.query, q_tokens[w.query])
    st.subheader(t("wt_steps", q=md_escape(q_label)))
    bias = "" if w.cross else {"alibi": t("wt_bias_alibi"), "relative": t("wt_bias_relative")}.get(cfg.positional, "")
    st.markdown(t("wt_steps_text", sqrt=float(np.sqrt(w.q.shape[0])), bias=bias))
    st.latex(FORMULAS["wt_score"])
    if w.softcap is not None:                            # Gemma 2
        st.caption(t("wt_softcap", c=f"{w.softcap:g}"))
    table = {
        t("wt_col_pos"): np.arange(len(tokens)),
        t("wt_col_key"): [vz.visible_label(s) for s in tokens],
        t("wt_col_dot"): w.dots,
        t("wt_col_scaled"): w.scaled,
    }
    if w.bias is not None:
        table[t("wt_col_bias")] = w.bias
    table[t("wt_col_mask")] = [t("wt_mask_yes") if m else t("wt_mask_no") for m in w.mask]
    table[t("wt_col_score")] = [f"{v:.6g}" if np.isfinite(v) else NEG_INF for v in w.masked]
    table[t("wt_col_weight")] = w.weights
    table[t("wt_col_model")] = w.model_pattern
    left, right = st.columns([3, 2])
    with left:
        st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch", key="wt_steps_table",
                     height=min(600, 38 + 35 * len(tokens)),
                     column_config={t("wt_col_weight"): st.column_config.NumberColumn(format="%.6f"),
                                    t("wt_col_model"): st.column_config.NumberColumn(format="%.6f")})
    with right:
        weights = np.where(w.mask, w.weights, np.nan).astype(np.float32)
        figure_export.chart(vz.query_bars(weights, tokens, top_k=min(12, int(w.mask.sum())),
                               title=t("wt_weights_chart", q=q_label),
                               terms={"key": t("term_key"), "weight": t("term_weight")}),
                 key="wt_weights", width="stretch")


def output_section(w: HeadWalk, cfg) -> None:
    H, dh = w.z_heads.shape
    st.subheader(t("wt_sum"))
    st.markdown(t("wt_sum_text", dh=dh, H=H, hd=H * dh, d=w.out.shape[0]))
    figure_export.chart(viz_core.walkthrough.vector_figure({t("wt_z", head=w.head): w.z},
                                                           terms={"dim": t("wt_term_dim"),
                                                                     "value": t("wt_term_value")}),
             key="wt_z", width="stretch")
    fig = vz.matrix_heatmap(w.z_heads.astype(np.float32), row_labels=[f"H{h}" for h in range(H)],
                            col_labels=[str(i) for i in range(dh)], title=t("wt_heads"), row_name=t("wt_head"),
                            col_name=t("wt_term_dim"), colorbar_title=t("wt_term_value"), max_ticks=16)
    fig.add_shape(type="rect", xref="x", yref="y", x0=-0.5, x1=dh - 0.5, y0=w.head - 0.5, y1=w.head + 0.5,
                  line=dict(color=HIGHLIGHT, width=2))
    vz.fit_height(fig, int(np.clip(120 + 26 * H, 220, 520)))
    figure_export.chart(fig, key="wt_heads", width="stretch")
    st.latex(FORMULAS["wt_out"])
    hook = w.checked_against.rsplit(".", 1)[-1]          # the last part of the name (the hook point)
    rows = {t("wt_row_head", head=w.head): w.head_out, t("wt_row_ours"): w.out}
    how = ([t("wt_how_out_norm")] if w.out_norm else []) + \
        ([t("wt_how_multiplier", m=f"{w.multiplier:g}")] if w.multiplier != 1.0 else [])
    if how:                                  # sandwich / output placement, Granite: what reaches the stream
        rows[t("wt_row_added", how=" ".join(how))] = w.added
    rows[t("wt_row_model", hook=hook)] = w.model_out
    figure_export.chart(viz_core.walkthrough.vector_figure(rows, title=t("wt_out", hook=hook),
                              terms={"dim": t("wt_term_dim"), "value": t("wt_term_value")}),
             key="wt_out", width="stretch")
    if w.error < w.tolerance:          # 1e-4 in float32; relative to the dtype's precision in bfloat16/float16
        st.success(t("wt_check_ok", err=w.error, hook=hook), icon=":material/check_circle:")
    else:
        st.error(t("wt_check_bad", err=w.error, hook=hook))


def numbers_section(w: HeadWalk, q_tokens: list[str], k_tokens: list[str]) -> None:
    """The query token's own vectors, and every array of the walk as JSON."""
    with st.expander(t("wt_numbers")):
        st.markdown(t("wt_numbers_text"))
        words = {"dim": t("wt_term_dim"), "value": t("wt_term_value")}
        figure_export.chart(viz_core.walkthrough.vector_figure({"x": w.x[w.query]}, terms=words), key="wt_x",
                            width="stretch")
        rows = {"x·W_Q + b_Q": w.q_all[w.query]}
        if w.rope:
            rows["RoPE(q)"] = w.q
        figure_export.chart(viz_core.walkthrough.vector_figure(rows, terms=words), key="wt_q", width="stretch")
        st.download_button(t("wt_download"), walk_json(w, q_tokens, k_tokens),
                           f"glassbox_walk_L{w.layer}_H{w.head}_q{w.query}.json",
                           "application/json", key="wt_download")


def walk_json(w: HeadWalk, q_tokens: list[str], k_tokens: list[str]) -> str:
    out = {"query_tokens": q_tokens, "key_tokens": k_tokens}
    for name, value in vars(w).items():
        if isinstance(value, np.ndarray):
            value = np.where(np.isneginf(value), None, value).tolist() if value.dtype.kind == "f" else value.tolist()
        out[name] = value
    return json.dumps(out, ensure_ascii=False)


def neuron_section(w: HeadWalk, q_tokens: list[str], k_tokens: list[str], key: int) -> None:
    nv = lab.walkthrough.neuron_view(w, key)
    st.subheader(t("wt_neuron", q=md_escape(plain_label(w.query, q_tokens[w.query])),
                   k=md_escape(plain_label(key, k_tokens[key]))))
    st.markdown(t("wt_neuron_text", dot=nv["dot"], score=_num(nv["score"]), weight=nv["weight"]))
    a = lab.walkthrough.agreement(nv["products"])
    dims = lambda pairs: ", ".join(f"{i} ({v:+.3g})" for i, v in pairs) or "—"
    st.caption(t("wt_neuron_agree", agree=dims(a["agree"]), disagree=dims(a["disagree"]), plus=f"{a['plus']:+.4g}",
                 minus=f"{a['minus']:+.4g}", dot=f"{nv['dot']:.4g}", d=len(nv["products"])))
    if not w.mask[key]:
        st.info(t("wt_neuron_masked"))
    figure_export.chart(viz_core.walkthrough.vector_figure({"q": nv["q"], "k": nv["k"], "q ⊙ k": nv["products"],
                                                            "v": nv["v"],
                               "p · v": nv["weighted_v"]},
                              terms={"dim": t("wt_term_dim"), "value": t("wt_term_value")}),
             key="wt_neuron", width="stretch")


def kv_section(cfg) -> None:
    st.subheader(t("wt_kv"))
    st.markdown(t("wt_kv_text", kind=cfg.attention_kind, H=cfg.n_heads, G=cfg.kv_heads))
    if cfg.arch == "encoder":
        st.caption(t("wt_kv_encoder"))
    figure_export.chart(viz_core.walkthrough.kv_sharing_figure(kv.kv_groups(cfg.n_heads, cfg.kv_heads),
                                  terms={"query_head": t("wt_term_qh"), "kv_head": t("wt_term_kvh")}),
             key="wt_kv_diagram", width="stretch")
    c1, c2 = st.columns(2)
    with c1:
        context = int(st.number_input(t("wt_kv_context"), min_value=1, max_value=1_048_576, value=4096, step=1024,
                                      key="wt_kv_context"))
    with c2:
        nbytes = int(st.radio(t("wt_kv_bytes"), [2, 4], index=0, horizontal=True, key="wt_kv_bytes",
                              format_func=lambda b: {2: "2 (fp16/bf16)", 4: "4 (fp32)"}[b]))
    rows, bars, this = [], {}, None
    for g in kv.kv_head_options(cfg.n_heads):
        kb = kv.kv_cache_bytes(cfg, context, n_kv_heads=g, bytes_per_value=nbytes)
        kind = kv.attention_kind(cfg.n_heads, g)
        name = f"{kind} ({g})" + (f" {t('wt_kv_this')}" if g == cfg.kv_heads else "")
        if g == cfg.kv_heads:
            this = name
        rows.append({t("wt_kv_col_kind"): name, t("wt_kv_col_kv"): g, t("wt_kv_col_token"): f"{kb.per_token:,} B",
                     t("wt_kv_col_total"): f"{kb.total / 2**20:,.2f} MiB"})
        bars[name] = kb.total / 2**20
    left, right = st.columns([1, 1])
    with left:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="wt_kv_table")
        st.caption(t("wt_kv_formula", L=cfg.n_layers, dh=cfg.head_dim))
    with right:
        figure_export.chart(viz_core.walkthrough.kv_cache_chart(bars, selected=this,
                                                                terms={"bytes": t("wt_term_cache")}),
                 key="wt_kv_chart", width="stretch")


def walk_or_explain(sel: Selection, c: Controls) -> HeadWalk:
    """The walk, or a sentence (never a traceback) when the model cannot read the text."""
    try:
        return walk(RunKey.of(sel), c.stack, c.layer, c.head, c.query)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        st.stop()

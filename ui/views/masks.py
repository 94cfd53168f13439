"""The masks lab: the composer, the gallery, padding, cost, the receptive field, the
applied mask (the model computing with it) and attention without softmax.

Masks come from models/masks.py (the builders the model uses); the numbers about them
and the model runs with them from lab/masks.py and lab/variants.py (runs through the
gate, cached in ui/serving/masks.py); figures from viz_core.masks. Only the open tab runs.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
import lab.masks
import models.masks
import viz_core.masks
from lab import variants
from lab.positional import shuffle
from models.trace import Stack
from viz_core.labels import plain_label, plain_labels

from ..figure_words import mask_terms
from ..i18n import FORMULAS, STRINGS, formula, lang, t
from ..links import index_slider, show_notices, stack_choice
from ..page import explain, require_model, require_text
from ..serving.masks import cost_curves, lab_tokens, masked_run, padded_batch
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception
from . import masks_block_sparse, masks_objectives

TABS = ("compose", "gallery", "padding", "cost", "blocks", "reach", "variants", "objectives")


@dataclass(frozen=True)
class Controls:
    """What the page's controls chose (the composer's parts are the plain dicts that
    models.masks.compose takes, kept apart)."""

    stack: str         # self | encoder | decoder (the self-attention the mask replaces)
    layer: int
    head: int
    tab: str           # the open tab (TABS)


def render(sel: Selection) -> None:
    """The masks page."""
    st.title(t("mk_title"))
    st.markdown(t("mk_intro"))
    model, _ = require_model(sel)
    require_text(sel)
    show_notices()
    cfg = model.cfg
    stack = choose_stack(cfg.arch)
    tokens, n_all = lab_tokens(RunKey.of(sel), stack)
    if n_all > len(tokens):
        st.info(t("mk_truncated", kept=len(tokens), n=n_all), icon=":material/content_cut:")
    parts = composer(tokens)
    run = run_or_explain(sel, stack, parts_key(parts))
    c, tabs = controls(stack, cfg.n_layers, cfg.n_heads)
    # only the open tab runs (a head switch in "Compose & apply" does not rebuild the gallery)
    with tabs[TABS.index(c.tab)]:
        if c.tab == "compose":
            compose_view(run, tokens, parts, sel.model_label, c)
        elif c.tab == "gallery":
            gallery(tokens, parts)
        elif c.tab == "padding":
            padding_view(sel, cfg.arch, c)
        elif c.tab == "cost":
            cost_view(parts)
        elif c.tab == "blocks":
            masks_block_sparse.view(tokens, stack, run.composed, [p["kind"] for p in parts])
        elif c.tab == "reach":
            reach_view(run.composed, tokens, cfg.n_layers, next((p["window"] for p in parts if "window" in p), 2))
        elif c.tab == "variants":
            variants_view(run, tokens, c, cfg.n_heads)
        else:
            with st.container(key="ob_view"):
                masks_objectives.view(sel)


def controls(stack: str, n_layers: int, n_heads: int) -> tuple[Controls, list]:
    """The layer and head sliders and the tabs (the open one is `Controls.tab`)."""
    c1, c2 = st.columns(2)
    with c1:
        layer = index_slider(t("mk_layer"), n_layers, "mk_layer")
    with c2:
        head = index_slider(t("mk_head"), n_heads, "mk_head")
    # keyed per language: the tabs remember their label
    tabs = st.tabs([t(f"mk_tab_{k}") for k in TABS], key=f"mk_tab__{lang()}", on_change="rerun")
    tab = next((k for k, tb in zip(TABS, tabs) if tb.open), TABS[0])
    return Controls(stack, layer, head, tab), tabs


def choose_stack(arch: str) -> str:
    """The self-attention the composed mask replaces."""
    stack = stack_choice(Stack.blocks_of(arch), t("mk_stack"), "mk_stack")
    if stack == "decoder":
        st.caption(t("mk_encdec_decoder_note"))
    return stack


# ---- the composer ---------------------------------------------------------------------------
def _num(label: str, lo: int, hi: int, default: int, key: str) -> int:
    """A bounded integer input; a value left from a longer text is clamped into range."""
    hi = max(lo, hi)
    if key in st.session_state:
        if not lo <= st.session_state[key] <= hi:
            st.session_state[key] = min(max(int(st.session_state[key]), lo), hi)
        value = {}                     # the state holds it (a default too would be ignored, with a warning)
    else:
        value = {"value": min(max(default, lo), hi)}
    return int(st.number_input(label, min_value=lo, max_value=hi, step=1, key=key, **value))


def _shuffle_order(n: int) -> None:
    seed = int(st.session_state.get("_mk_shuffles", 0)) + 1
    st.session_state["_mk_shuffles"] = seed
    st.session_state["mk_order"] = " ".join(str(i) for i in shuffle(n, seed))          # a seeded permutation


# the composer's parameters each part kind takes (models.masks.part)
PART_ARGS = {"local": ("window",), "longformer": ("window", "global_tokens"),
             "bigbird": ("window", "global_tokens", "n_random", "seed"), "dilated": ("dilation", "dilated_window"),
             "strided": ("stride",), "prefix": ("prefix_len",)}


def composer(tokens: list[str]) -> list[dict]:
    """Pattern choice and bounded parameters; returns the parts for models.masks.compose
    (an XLNet order that is not a permutation is refused with a sentence and left out)."""
    n = len(tokens)
    kinds = st.multiselect(t("mk_parts"), list(models.masks.PART_KINDS), default=["local"], key="mk_parts",
                           format_func=lambda k: t(f"mk_kind_{k}"))
    need = {a for k in kinds for a in PART_ARGS.get(k, ())}
    params: dict = {}
    cols = itertools.cycle(st.columns(4))
    if "window" in need:
        with next(cols):
            params["window"] = _num(t("mk_window"), 1, max(1, n - 1), 2, "mk_window")
    if "dilation" in need:
        with next(cols):
            params["dilation"] = _num(t("mk_dilation"), 1, max(1, n - 1), 2, "mk_dilation")
        with next(cols):
            params["dilated_window"] = _num(t("mk_dilated_window"), 0, n, 0, "mk_dilated_window") or None
    if "stride" in need:
        with next(cols):
            params["stride"] = _num(t("mk_stride"), 1, n, min(4, n), "mk_stride")
    if "global_tokens" in need:
        with next(cols):
            default = {"default": [0]}
            if "mk_global" in st.session_state:
                kept = [g for g in st.session_state["mk_global"] if g < n]
                if kept != st.session_state["mk_global"]:
                    st.session_state["mk_global"] = kept
                default = {}
            params["global_tokens"] = tuple(st.multiselect(t("mk_global"), list(range(n)), key="mk_global", **default,
                                                           format_func=lambda p: plain_label(p, tokens[p])))
    if "n_random" in need:
        with next(cols):
            params["n_random"] = _num(t("mk_random"), 0, n, min(2, n), "mk_random")
        with next(cols):
            params["seed"] = _num(t("mk_seed"), 0, 10_000, 0, "mk_seed")
    if "prefix_len" in need:
        with next(cols):
            params["prefix_len"] = _num(t("mk_prefix_len"), 0, n, min(2, n), "mk_prefix_len")
    parts = [{"kind": kind, **{a: params[a] for a in PART_ARGS.get(kind, ())}} for kind in kinds]
    if set(kinds) & set(lab.masks.XLNET_KINDS):
        order = xlnet_order(n)
        parts = [dict(p, order=order) if p["kind"] in lab.masks.XLNET_KINDS else p for p in parts
                 if p["kind"] not in lab.masks.XLNET_KINDS or order]
    return parts


def xlnet_order(n: int) -> list[int] | None:
    """The factorisation order typed by the user, or None (with a sentence) if invalid."""
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    with left:
        value = {} if "mk_order" in st.session_state else {"value": " ".join(str(i) for i in reversed(range(n)))}
        text = st.text_input(t("mk_order", last=n - 1), key="mk_order", max_chars=1000, **value)
    with right:
        st.button(t("mk_order_shuffle"), key="mk_shuffle", on_click=_shuffle_order, args=(n,))
    try:
        return models.masks.parse_order(text, n)
    except ValueError as e:
        st.warning(t("mk_order_bad", error=explain(e)), icon=":material/shuffle:")
        return None


def parts_key(parts: list[dict]) -> str:
    """Parts as a plain string (the cache key of everything computed from them)."""
    return json.dumps([{k: (list(v) if isinstance(v, tuple) else v) for k, v in p.items()} for p in parts],
                      sort_keys=True)


def show_mask(mask: np.ndarray, tokens: list[str], title: str, key: str) -> None:
    figure_export.chart(viz_core.masks.mask_figure(mask, tokens, title=title, terms=mask_terms()), key=key,
                        width="stretch")


def stats_lines(mask: np.ndarray) -> None:
    """Density and pairs of the mask; a warning for queries with nothing to attend to."""
    stats = lab.masks.mask_stats(mask)
    st.markdown(t("mk_stats", density=stats.density, pairs=stats.pairs, total=stats.total,
                  lo=int(stats.per_query.min()), hi=int(stats.per_query.max())))
    if stats.empty:
        st.warning(t("mk_empty", rows=", ".join(str(r) for r in stats.empty)), icon=":material/block:")


# ---- the model with the mask ---------------------------------------------------------------------
def trained_note(run: lab.masks.MaskedRun) -> None:
    changed = run.n_changed
    if changed == 0:
        st.success(t("mk_same_as_trained"), icon=":material/check:")
        return
    trained = t(f"mk_kind_{run.kind}") if f"mk_kind_{run.kind}" in STRINGS else run.kind
    trained += " + " + t("mk_kind_causal") if run.decoder and run.kind != "prefix" else ""
    st.info(t("mk_differs", trained=trained,
              n=changed, total=run.used.size), icon=":material/warning:")
    if run.n_future:
        st.warning(t("mk_sees_future", n=run.n_future), icon=":material/fast_forward:")


def compose_view(run: lab.masks.MaskedRun, tokens: list[str], parts: list[dict], model_label: str, c: Controls) -> None:
    """The composed mask, its numbers, and the model computing with it."""
    if not parts:
        st.caption(t("mk_none"))
    left, right = st.columns([3, 2], gap="large")
    with left:
        show_mask(run.composed, tokens, t("mk_composed"), "mk_composed")
    with right:
        stats_lines(run.composed)
        figure_export.chart(viz_core.masks.per_query_bars(run.composed.sum(-1), tokens, terms=mask_terms()),
                            key="mk_per_query",
                 width="stretch")
    compose_notes(parts, len(tokens))
    st.subheader(t("mk_apply", model=model_label))
    st.markdown(t("mk_apply_how"))
    trained_note(run)
    st.caption(t("mk_layer_head", layer=c.layer, head=c.head))
    applied_view(run, tokens, c.layer, c.head)


def compose_notes(parts: list[dict], n: int) -> None:
    """Two masks added instead of combined (two of the chosen parts, or the first with the causal
    triangle), and what an XLNet token sees (its rank in the order), from lab.masks.gallery."""
    g = lab.masks.gallery(parts, n)
    kinds = [p["kind"] for p in parts][:2]
    kinds += [k for k in ("causal", "local") if k not in kinds][:2 - len(kinds)]
    a, b = g[kinds[0]], g[kinds[1]]
    misconception("mk_add", t("mk_mis_add_common"),
                  t("mk_mis_add_shown", a=t(f"mk_kind_{kinds[0]}"), b=t(f"mk_kind_{kinds[1]}"), n=n,
                    two=int((~a & ~b).sum()), allowed=int((a & b).sum()), total=n * n))
    order = next((p["order"] for p in parts if p["kind"] in lab.masks.XLNET_KINDS), None)
    if order:
        content = g["xlnet_content"]
        misconception("mk_xlnet", t("mk_mis_xlnet_common"),
                      t("mk_mis_xlnet_shown", first=order[0], last=order[-1], seen_first=int(content[order[0]].sum()),
                        seen_last=int(content[order[-1]].sum())))


def weight_terms() -> dict[str, str]:
    """Words of a weights heatmap whose masked cells are blocked."""
    return {"query": t("term_query"), "key": t("term_key"), "masked": t("mk_term_blocked"), "weight": t("term_weight")}


def weights_map(pattern: np.ndarray, mask: np.ndarray, q_tok: list[str], k_tok: list[str], **kw):
    """Attention weights [q, k], the masked cells grey (NaN)."""
    shown = np.where(mask, pattern, np.nan).astype(np.float32)
    return vz.head_heatmap(shown, q_tok, k_tok, clickable=False, terms=weight_terms(), **kw)


def applied_view(run: lab.masks.MaskedRun, tokens: list[str], layer: int, head: int) -> None:
    """scores -> masked scores (−∞) -> softmax -> how the output moved."""
    scores = run.scores[layer, head]
    mask = run.recorded_mask
    pattern = run.patterns[layer, head]
    c1, c2 = st.columns(2)
    with c1:
        st.markdown(f"**{t('mk_step_scores')}**")
        figure_export.chart(vz.matrix_heatmap(scores, row_labels=tokens, col_labels=tokens, row_name=t("term_query"),
                                   col_name=t("term_key"), colorbar_title=t("fa_term_score")),
                 key="mk_scores", width="stretch")
    with c2:
        st.markdown(f"**{t('mk_step_masked')}**")
        figure_export.chart(viz_core.masks.masked_scores_figure(scores, mask, tokens, terms=mask_terms()),
                            key="mk_masked",
                 width="stretch")
    c3, c4 = st.columns(2)
    with c3:
        st.markdown(f"**{t('mk_step_softmax')}**")
        figure_export.chart(weights_map(pattern, mask, tokens, tokens, square=False), key="mk_softmax", width="stretch")
        dev = run.row_deviation(layer, head)
        st.caption(t("mk_rows_ok", dev=dev) if dev is not None else "")
    with c4:
        st.markdown(f"**{t('mk_step_output')}**")
        change = run.change                                                   # [L, n]
        fig = vz.head_heatmap(change.astype(np.float32), [f"L{i}" for i in range(change.shape[0])], tokens,
                              clickable=False, cmap="blues", square=False,
                              terms={"query": t("mk_term_layers"), "key": t("mk_term_position"),
                                     "weight": t("mk_term_change")})
        vz.fit_height(fig, int(np.clip(160 + 30 * change.shape[0], 300, 560)))
        figure_export.chart(fig, key="mk_change", width="stretch")
        st.caption(t("mk_output_caption"))
    st.latex(formula("mk_masked_softmax"))


# ---- gallery ----------------------------------------------------------------------------------------
def gallery(tokens: list[str], parts: list[dict]) -> None:
    n = min(len(tokens), 16)
    toks = tokens[:n]
    st.caption(t("mk_gallery_caption", n=n))
    cols = st.columns(3)
    g = lab.masks.gallery(parts, n)
    for i, (kind, m) in enumerate(g.items()):
        with cols[i % 3]:
            figure_export.chart(viz_core.masks.mask_figure(m, toks, title=t(f"mk_kind_{kind}"), terms=mask_terms(),
                                                           height=330),
                     key=f"mk_gallery_{kind}", width="stretch")
    st.markdown(t("mk_ex_kinds"))
    misconception("mk_sparse", t("mk_mis_sparse_common"),
                  t("mk_mis_sparse_shown", pairs=int(g["strided"].sum()), total=n * n, n=n))


# ---- padding ----------------------------------------------------------------------------------------
def padding_view(sel: Selection, arch: str, c: Controls) -> None:
    st.markdown(t("mk_padding_intro"))
    if arch == "encoder-decoder":
        st.info(t("mk_padding_encdec"), icon=":material/info:")
        return
    text2 = st.text_input(t("mk_text2"), t("mk_text2_default"), key="mk_text2", max_chars=400)
    if not text2.strip():
        st.info(t("mk_empty_text2"), icon=":material/edit:")
        return
    try:
        data = padded_batch(sel.model_key, sel.device, sel.text, text2, c.layer)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    cols = st.columns(2)
    for i, col in enumerate(cols):
        with col:
            n_real = data.lengths[i]
            st.markdown(f"**{t('mk_row', i=i + 1, n=n_real, pad=data.n - n_real)}**")
            figure_export.chart(viz_core.masks.mask_figure(data.mask[i], data.tokens[i],
                                    title=t("mk_row_mask", i=i + 1, layer=c.layer), terms=mask_terms()),
                     key=f"mk_pad_mask_{i}", width="stretch")
            figure_export.chart(weights_map(data.pattern[i, c.head], data.mask[i], data.tokens[i], data.tokens[i],
                                 title=t("mk_row_pattern", i=i + 1, layer=c.layer, head=c.head)),
                     key=f"mk_pad_pattern_{i}", width="stretch")
            if n_real < data.n:
                st.caption(t("mk_pad_weights", w=data.pad_weight(i, c.head)) + " " + t("mk_pad_queries"))
    padded = [i for i in range(len(cols)) if data.lengths[i] < data.n]
    if padded:
        i = padded[0]
        misconception("mk_convention", t("mk_mis_convention_common"),
                      t("mk_mis_convention_shown", i=i + 1, pad=data.n - data.lengths[i], w=data.pad_weight(i, c.head)))


# ---- cost -------------------------------------------------------------------------------------------
def cost_view(parts: list[dict]) -> None:
    st.markdown(t("mk_cost_intro"))
    raw = cost_curves(parts_key(parts))
    names = {"full": t("mk_cost_full"), "composed": t("mk_cost_composed")}
    curves = {names.get(k) or t(f"mk_kind_{k}"): v for k, v in raw.items()}
    figure_export.chart(viz_core.masks.cost_chart(lab.masks.COST_LENGTHS, curves, terms=mask_terms()), key="mk_cost",
                        width="stretch")
    table = pd.DataFrame({t("mk_cost_table_n"): lab.masks.COST_LENGTHS, **curves})
    st.dataframe(table, hide_index=True, width="stretch", key="mk_cost_table")
    (n1, n2), (p1, p2) = lab.masks.COST_LENGTHS[:2], raw["full"][:2]
    misconception("mk_cost", t("mk_mis_cost_common"), t("mk_mis_cost_shown", n1=n1, n2=n2, p1=p1, p2=p2, r=p2 / p1))


# ---- receptive field ----------------------------------------------------------------------------------
def reach_view(mask: np.ndarray, tokens: list[str], n_layers: int, window: int) -> None:
    st.markdown(t("mk_reach_intro"))
    # up to the model's own depth (a 24-layer model: 24), at least 12
    layers = _num(t("mk_reach_layers"), 1, max(12, n_layers), max(2, n_layers), "mk_reach_layers")
    reach = lab.masks.reach(mask, layers)
    c1, c2 = st.columns([3, 2])
    with c1:
        show_mask(reach.maps[-1], tokens, t("mk_reach_map", l=layers), "mk_reach_map")
    with c2:
        figure_export.chart(viz_core.masks.coverage_chart(reach.maps, terms=mask_terms()), key="mk_coverage",
                            width="stretch")
        need = reach.layers_needed
        st.success(t("mk_reach_closure", l=need)) if need <= layers else st.info(t("mk_reach_more", l=need))
        st.latex(FORMULAS["mk_reach"])
    st.markdown(f"**{t('mk_reach_compare', n=len(tokens))}**")
    rows = [{t("mk_reach_col_pattern"): reach_label(r), t("mk_reach_col_pairs"): r.pairs,
             t("mk_reach_col_layers"): r.layers, t("mk_reach_col_all"): t("mk_yes") if r.reaches_all else t("mk_no")}
            for r in lab.masks.reach_comparison(len(tokens), window, mask)]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="mk_reach_table")


def reach_label(row: lab.masks.ReachRow) -> str:
    """A compared pattern's name with its window or stride."""
    if row.pattern == "composed":
        return t("mk_cost_composed")
    return t(f"mk_reach_{row.pattern}", **{"w" if row.pattern == "local" else "s": row.size})


def _tall(fig):
    """Three maps side by side: the same height, cells need not be square."""
    fig.update_layout(height=460)
    return fig


def variants_view(run: lab.masks.MaskedRun, tokens: list[str], c: Controls, n_heads: int) -> None:
    st.markdown(t("mk_variants_intro"))
    # softmax: the model's own weights and head output (with its position bias, if any)
    q, k, v, soft_w, soft_out = run.own_head(c.layer, c.head)
    c1, c2 = st.columns(2)
    with c1:
        causal = st.toggle(t("mk_linear_causal"), value=bool(run.decoder), key="mk_linear_causal")
    with c2:
        default_gamma = float(variants.retention_gammas(n_heads)[c.head])
        gamma = st.slider(t("mk_gamma"), 0.5, 1.0, round(default_gamma, 3), step=0.001, key="mk_gamma",
                          format="%.3f")
    cmp = variants.compare_with_softmax(q, k, v, soft_out, causal=causal, gamma=gamma)
    top = st.columns(2)
    with top[0]:
        st.markdown(f"**{t('mk_v_softmax')}**")
        figure_export.chart(_tall(weights_map(soft_w, run.own_mask, tokens, tokens, square=False)), key="mk_v_soft",
                 width="stretch")
    with top[1]:
        st.markdown(f"**{t('mk_v_linear')}**")
        figure_export.chart(_tall(vz.head_heatmap(cmp.linear, tokens, tokens, clickable=False, terms=weight_terms(),
                                       square=False)), key="mk_v_lin", width="stretch")
    bottom = st.columns(2)
    with bottom[0]:
        st.markdown(f"**{t('mk_v_retention')}**")
        figure_export.chart(_tall(vz.matrix_heatmap(cmp.retention, row_labels=tokens, col_labels=tokens,
                                         row_name=t("term_query"), col_name=t("term_key"),
                                         colorbar_title=t("wt_term_value"))),
                 key="mk_v_ret", width="stretch")
    with bottom[1]:
        st.markdown(f"**{t('mk_v_similarity')}**")
        st.dataframe(pd.DataFrame({t("mk_v_col_pos"): plain_labels(tokens),
                                   t("mk_v_col_linear"): cmp.linear_similarity,
                                   t("mk_v_col_retention"): cmp.retention_similarity}),
                     hide_index=True, width="stretch", key="mk_v_table", height=min(420, 38 + 35 * len(tokens)))
    st.caption(t("mk_v_recurrent", d=cmp.d_head, err=cmp.recurrent_error))
    st.latex(FORMULAS["mk_linear"])
    st.latex(FORMULAS["mk_retention"])


def run_or_explain(sel: Selection, stack: str, parts_json: str) -> lab.masks.MaskedRun:
    """The masked run, or a sentence (never a traceback) when the model cannot read the text."""
    try:
        return masked_run(RunKey.of(sel), stack, parts_json)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        st.stop()

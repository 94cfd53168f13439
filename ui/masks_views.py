"""Streamlit glue for the masks lab: the composer, the gallery, padding, cost, the
receptive field, the applied mask (the model computing with it) and attention
without softmax. Masks come from models.masks (the builders the model uses), figures
from viz_core.masks, model runs from models.attention_lab.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import streamlit as st
import torch

import viz_core as vz
from lab import masking as MK
from lab import variants as V
from models import masks as M
from viz_core import masks as vm

from . import serving
from .i18n import FORMULAS, lang, t
from .markup import md_escape
from .shell import Selection, choice, index_slider

MAX_TOKENS = 64          # masks are read cell by cell; longer texts are cut
COST_LENGTHS = (16, 32, 64, 128, 256, 512, 1024)
XLNET = ("xlnet_content", "xlnet_query")
TABS = ("compose", "gallery", "padding", "cost", "reach", "variants")


def tab_key() -> str:
    """The tabs' state key; per language, because the tabs remember their label."""
    return f"mk_tab__{lang()}"


def terms() -> dict[str, str]:
    """Words inside the mask figures, in the UI language."""
    out = {w: t(f"mk_term_{w}") for w in ("allowed", "blocked", "empty", "length", "pairs", "reached", "keys")}
    out.update(query=t("term_query"), key=t("term_key"), layer=t("mk_term_layers"))
    return out


# ---- tokens ---------------------------------------------------------------------------------
@st.cache_data(max_entries=16, show_spinner=False)
def lab_tokens(key: str, device: str, text: str, target: str, stack: str) -> tuple[list[str], int]:
    """(tokens the lab works on, tokens in the text) for one stack's self-attention."""
    model, tok = serving.load_model(key, device)
    enc = serving.encode(tok, model, (target or text) if stack == "decoder" else text)
    return enc.tokens[:MAX_TOKENS], len(enc.tokens)


def stack_choice(arch: str) -> str:
    if arch != "encoder-decoder":
        return "self"
    stack = choice(st.radio, t("mk_stack"), ("encoder", "decoder"), param="mk_stack", default="encoder",
                   labels={s: t(f"stack_{s}") for s in ("encoder", "decoder")}, horizontal=True)
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
    gen = torch.Generator().manual_seed(seed)
    st.session_state["mk_order"] = " ".join(str(i) for i in torch.randperm(n, generator=gen).tolist())


def composer(tokens: list[str]) -> list[dict]:
    """Pattern choice and bounded parameters; returns the parts for models.masks.compose
    (an XLNet order that is not a permutation is refused with a sentence and left out)."""
    n = len(tokens)
    kinds = st.multiselect(t("mk_parts"), list(M.PART_KINDS), default=["local"], key="mk_parts",
                           format_func=lambda k: t(f"mk_kind_{k}"))
    need = set(kinds)
    params: dict = {}
    cols = st.columns(4)
    i = 0

    def col():
        nonlocal i
        c = cols[i % 4]
        i += 1
        return c

    if need & {"local", "longformer", "bigbird"}:
        with col():
            params["window"] = _num(t("mk_window"), 1, max(1, n - 1), 2, "mk_window")
    if "dilated" in need:
        with col():
            params["dilation"] = _num(t("mk_dilation"), 1, max(1, n - 1), 2, "mk_dilation")
        with col():
            w = _num(t("mk_dilated_window"), 0, n, 0, "mk_dilated_window")
            params["dilated_window"] = w or None
    if "strided" in need:
        with col():
            params["stride"] = _num(t("mk_stride"), 1, n, min(4, n), "mk_stride")
    if need & {"longformer", "bigbird"}:
        with col():
            default = {"default": [0]}
            if "mk_global" in st.session_state:
                kept = [g for g in st.session_state["mk_global"] if g < n]
                if kept != st.session_state["mk_global"]:
                    st.session_state["mk_global"] = kept
                default = {}
            params["global_tokens"] = tuple(st.multiselect(t("mk_global"), list(range(n)), key="mk_global", **default,
                                                           format_func=lambda p: f"{p}·{vz.visible_label(tokens[p])}"))
    if "bigbird" in need:
        with col():
            params["n_random"] = _num(t("mk_random"), 0, n, min(2, n), "mk_random")
        with col():
            params["seed"] = _num(t("mk_seed"), 0, 10_000, 0, "mk_seed")
    if "prefix" in need:
        with col():
            params["prefix_len"] = _num(t("mk_prefix_len"), 0, n, min(2, n), "mk_prefix_len")
    parts = []
    for kind in kinds:
        p = {"kind": kind}
        if kind in ("local", "longformer", "bigbird"):
            p["window"] = params["window"]
        if kind in ("longformer", "bigbird"):
            p["global_tokens"] = params["global_tokens"]
        if kind == "bigbird":
            p.update(n_random=params["n_random"], seed=params["seed"])
        if kind == "dilated":
            p.update(dilation=params["dilation"], dilated_window=params["dilated_window"])
        if kind == "strided":
            p["stride"] = params["stride"]
        if kind == "prefix":
            p["prefix_len"] = params["prefix_len"]
        parts.append(p)
    if need & set(XLNET):
        order = xlnet_order(n)
        parts = [dict(p, order=order) if p["kind"] in XLNET else p for p in parts if p["kind"] not in XLNET or order]
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
        return M.parse_order(text, n)
    except ValueError as e:
        st.warning(t("mk_order_bad", error=md_escape(str(e))), icon=":material/shuffle:")
        return None


def parts_key(parts: list[dict]) -> str:
    """Parts as a plain string (the cache key of everything computed from them)."""
    return json.dumps([{k: (list(v) if isinstance(v, tuple) else v) for k, v in p.items()} for p in parts],
                      sort_keys=True)


def show_mask(mask: np.ndarray, tokens: list[str], title: str, key: str) -> None:
    st.plotly_chart(vm.mask_figure(mask, tokens, title=title, terms=terms()), key=key, width="stretch")


def stats_line(mask: np.ndarray) -> None:
    stats = M.mask_stats(torch.from_numpy(mask))
    per = stats["per_query"]
    st.markdown(t("mk_stats", density=stats["density"], pairs=stats["pairs"], total=mask.size, lo=min(per),
                  hi=max(per)))


def empty_note(mask: np.ndarray) -> None:
    rows = M.empty_rows(torch.from_numpy(mask))
    if rows:
        st.warning(t("mk_empty", rows=", ".join(str(r) for r in rows)), icon=":material/block:")


# ---- the model with the mask ---------------------------------------------------------------------
@st.cache_data(max_entries=12, show_spinner=False)
def masked_run(key: str, device: str, text: str, target: str, stack: str, parts_json: str) -> MK.MaskedRun:
    """The model run twice on the (cut) text: with the composed mask (empty rows keep
    themselves) and with its own mask (lab.masking.masked_run, through the run gate)."""
    model, tok = serving.load_model(key, device)
    ids = serving.encode(tok, model, text).ids[:MAX_TOKENS]
    tgt_ids = None
    if model.cfg.arch == "encoder-decoder":
        tgt_ids = serving.encode(tok, model, target or text).ids[:MAX_TOKENS]
    parts = json.loads(parts_json)
    # out of memory on a GPU: the CPU copy of the model (the gate's fallback)
    return serving.run(key, device, lambda m, _n: MK.masked_run(m, ids, parts, tgt_ids=tgt_ids, stack=stack),
                       len(tgt_ids if stack == "decoder" else ids))


def layer_head(n_layers: int, n_heads: int) -> tuple[int, int]:
    c1, c2 = st.columns(2)
    with c1:
        layer = index_slider(t("mk_layer"), n_layers, "mk_layer")
    with c2:
        head = index_slider(t("mk_head"), n_heads, "mk_head")
    return layer, head


def trained_note(run: dict) -> None:
    composed, trained = run.used, run.trained
    changed = int((composed != trained).sum())
    if changed == 0:
        st.success(t("mk_same_as_trained"), icon=":material/check:")
        return
    st.info(t("mk_differs", trained=run.kind + (" + causal" if run.decoder and run.kind != "prefix" else ""),
              n=changed, total=composed.size), icon=":material/warning:")
    if run.decoder:
        future = int(np.triu(composed, 1).sum())
        if future:
            st.warning(t("mk_sees_future", n=future), icon=":material/fast_forward:")


def compose_view(run: MK.MaskedRun, tokens: list[str], parts: list[dict], model_label: str, layer: int, head: int) -> None:
    """The composed mask, its numbers, and the model computing with it."""
    if not parts:
        st.caption(t("mk_none"))
    left, right = st.columns([3, 2], gap="large")
    with left:
        show_mask(run.composed, tokens, t("mk_composed"), "mk_composed")
    with right:
        stats_line(run.composed)
        empty_note(run.composed)
        st.plotly_chart(vm.per_query_bars(run.composed.sum(-1), tokens, terms=terms()), key="mk_per_query",
                        width="stretch")
    st.subheader(t("mk_apply", model=model_label))
    st.markdown(t("mk_apply_how"))
    trained_note(run)
    st.caption(t("mk_layer_head", layer=layer, head=head))
    applied_view(run, tokens, layer, head)


def applied_view(run: MK.MaskedRun, tokens: list[str], layer: int, head: int) -> None:
    """scores -> masked scores (−∞) -> softmax -> how the output moved."""
    scores = run.scores[layer, head]
    mask = run.recorded_mask
    pattern = run.patterns[layer, head]
    c1, c2 = st.columns(2)
    with c1:
        st.markdown(f"**{t('mk_step_scores')}**")
        st.plotly_chart(vz.matrix_heatmap(scores, row_labels=tokens, col_labels=tokens, row_name=t("term_query"),
                                          col_name=t("term_key")), key="mk_scores", width="stretch")
    with c2:
        st.markdown(f"**{t('mk_step_masked')}**")
        st.plotly_chart(vm.masked_scores_figure(scores, mask, tokens, terms=terms()), key="mk_masked",
                        width="stretch")
    c3, c4 = st.columns(2)
    with c3:
        st.markdown(f"**{t('mk_step_softmax')}**")
        shown = np.where(mask, pattern, np.nan).astype(np.float32)
        st.plotly_chart(vz.head_heatmap(shown, tokens, tokens, clickable=False, square=False,
                                        terms={"query": t("term_query"), "key": t("term_key"),
                                               "masked": t("mk_term_blocked"), "weight": t("term_weight")}),
                        key="mk_softmax", width="stretch")
        dev = float(np.abs(pattern.sum(-1) - 1).max())
        st.caption(t("mk_rows_ok", dev=dev) if not (pattern[~mask] != 0).any() else "")
    with c4:
        st.markdown(f"**{t('mk_step_output')}**")
        change = run.change                                                   # [L, n]
        fig = vz.head_heatmap(change.astype(np.float32), [f"L{i}" for i in range(change.shape[0])], tokens,
                              clickable=False, cmap="blues", square=False,
                              terms={"query": t("mk_term_layers"), "key": t("mk_term_position"),
                                     "weight": t("mk_term_change")})
        fig.update_layout(height=int(np.clip(160 + 30 * change.shape[0], 300, 560)))
        st.plotly_chart(fig, key="mk_change", width="stretch")
        st.caption(t("mk_output_caption"))
    st.latex(FORMULAS["mk_masked_softmax"])


# ---- gallery ----------------------------------------------------------------------------------------
def gallery(tokens: list[str], parts: list[dict]) -> None:
    n = min(len(tokens), 16)
    toks = tokens[:n]
    st.caption(t("mk_gallery_caption", n=n))
    chosen = {p["kind"]: p for p in parts}
    # the chosen XLNet order only if it is an order of exactly these tokens
    order = next((p["order"] for p in parts if p["kind"] in XLNET), None)
    if order is None or len(order) != n:
        order = list(reversed(range(n)))
    cols = st.columns(3)
    for i, kind in enumerate(M.PART_KINDS):
        args = {k: v for k, v in chosen.get(kind, {}).items() if k != "kind"}
        if kind in XLNET:
            args["order"] = order
        if "global_tokens" in args:
            args["global_tokens"] = [g for g in args["global_tokens"] if g < n]
        m = M.part(kind, n, **args).numpy()
        with cols[i % 3]:
            st.plotly_chart(vm.mask_figure(m, toks, title=t(f"mk_kind_{kind}"), terms=terms(), height=330),
                            key=f"mk_gallery_{kind}", width="stretch")
    st.markdown(t("mk_ex_kinds"))


# ---- padding ----------------------------------------------------------------------------------------
@st.cache_data(max_entries=8, show_spinner=False)
def padded_batch(key: str, device: str, text: str, text2: str, layer: int) -> MK.PaddedRun:
    """Two texts as one padded batch through the model (single-stack models)."""
    model, tok = serving.load_model(key, device)
    encs = [serving.encode(tok, model, s) for s in (text, text2)]
    ids = [e.ids[:MAX_TOKENS] for e in encs]
    tokens = [e.tokens[:MAX_TOKENS] for e in encs]
    pad = tok.pad_id if getattr(tok, "pad_id", None) is not None else 0
    return serving.run(key, device, lambda m, _n: MK.padded_run(m, ids, tokens, pad, tok.id_to_token(pad), layer),
                       max(len(r) for r in ids))


def padding_view(sel: Selection, arch: str, layer: int, head: int) -> None:
    st.markdown(t("mk_padding_intro"))
    if arch == "encoder-decoder":
        st.info(t("mk_padding_encdec"), icon=":material/info:")
        return
    text2 = st.text_input(t("mk_text2"), t("mk_text2_default"), key="mk_text2", max_chars=400)
    if not text2.strip():
        st.info(t("mk_empty_text2"), icon=":material/edit:")
        return
    try:
        data = padded_batch(sel.model_key, sel.device, sel.text, text2, layer)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=md_escape(str(e))))
        return
    cols = st.columns(2)
    for i, col in enumerate(cols):
        with col:
            n_real = data.lengths[i]
            st.markdown(f"**{t('mk_row', i=i + 1, n=n_real, pad=data.n - n_real)}**")
            st.plotly_chart(vm.mask_figure(data.mask[i], data.tokens[i],
                                           title=t("mk_row_mask", i=i + 1, layer=layer), terms=terms()),
                            key=f"mk_pad_mask_{i}", width="stretch")
            p = data.pattern[i, head]
            shown = np.where(data.mask[i], p, np.nan).astype(np.float32)
            st.plotly_chart(vz.head_heatmap(shown, data.tokens[i], data.tokens[i], clickable=False,
                                            title=t("mk_row_pattern", i=i + 1, layer=layer, head=head),
                                            terms={"query": t("term_query"), "key": t("term_key"),
                                                   "masked": t("mk_term_blocked"), "weight": t("term_weight")}),
                            key=f"mk_pad_pattern_{i}", width="stretch")
            if n_real < data.n:
                st.caption(t("mk_pad_weights", w=float(p[:n_real, n_real:].max())) + " " + t("mk_pad_queries"))


# ---- cost -------------------------------------------------------------------------------------------
@st.cache_data(max_entries=32, show_spinner=False)
def cost_curves(parts_json: str) -> dict[str, list[int]]:
    parts = json.loads(parts_json)
    curves = {"full": [n * n for n in COST_LENGTHS]}
    for p in parts:
        curves[p["kind"]] = M.cost_curve([p], COST_LENGTHS)
    if len(parts) > 1:
        curves["composed"] = M.cost_curve(parts, COST_LENGTHS)
    return curves


def cost_view(parts: list[dict]) -> None:
    st.markdown(t("mk_cost_intro"))
    raw = cost_curves(parts_key(parts))
    names = {"full": t("mk_cost_full"), "composed": t("mk_cost_composed")}
    curves = {names.get(k) or t(f"mk_kind_{k}"): v for k, v in raw.items()}
    st.plotly_chart(vm.cost_chart(COST_LENGTHS, curves, terms=terms()), key="mk_cost", width="stretch")
    table = pd.DataFrame({t("mk_cost_table_n"): COST_LENGTHS, **curves})
    st.dataframe(table, hide_index=True, width="stretch", key="mk_cost_table")


# ---- receptive field ----------------------------------------------------------------------------------
def reach_view(mask: np.ndarray, tokens: list[str], n_layers: int, window: int) -> None:
    st.markdown(t("mk_reach_intro"))
    layers = _num(t("mk_reach_layers"), 1, 12, max(2, n_layers), "mk_reach_layers")
    reach = M.receptive_field(torch.from_numpy(mask), layers).numpy()
    c1, c2 = st.columns([3, 2])
    with c1:
        show_mask(reach[-1], tokens, t("mk_reach_map", l=layers), "mk_reach_map")
    with c2:
        st.plotly_chart(vm.coverage_chart(reach, terms=terms()), key="mk_coverage", width="stretch")
        need = M.layers_to_closure(torch.from_numpy(mask))
        st.success(t("mk_reach_closure", l=need)) if need <= layers else st.info(t("mk_reach_more", l=need))
        st.latex(FORMULAS["mk_reach"])
    st.markdown(f"**{t('mk_reach_compare', n=len(tokens))}**")
    st.dataframe(pd.DataFrame(reach_comparison(len(tokens), window, parts_mask=mask)), hide_index=True,
                 width="stretch", key="mk_reach_table")


def reach_comparison(n: int, window: int, parts_mask: np.ndarray) -> list[dict]:
    """Causal sparse patterns on n tokens: pairs, layers until nothing new is reached, and
    whether every token then reaches every earlier one (the strided pattern is the Sparse
    Transformer's: a local block of `stride` keys plus every stride-th key)."""
    stride = max(1, int(np.ceil(np.sqrt(n))))
    causal = M.causal(n)
    rows = []
    for name, part in ((t("mk_reach_local", w=window), {"kind": "local", "window": window}),
                       (t("mk_reach_dilated", s=stride), {"kind": "dilated", "dilation": stride}),
                       (t("mk_reach_strided", s=stride), {"kind": "strided", "stride": stride}),
                       (t("mk_cost_composed"), None)):
        m = torch.from_numpy(parts_mask) if part is None else M.compose(n, [part, {"kind": "causal"}])
        closure = M.receptive_field(m, max(1, n))[-1]
        rows.append({t("mk_reach_col_pattern"): name, t("mk_reach_col_pairs"): int(m.sum()),
                     t("mk_reach_col_layers"): M.layers_to_closure(m),
                     t("mk_reach_col_all"): t("mk_yes") if bool(closure[causal].all()) else t("mk_no")})
    return rows


def _tall(fig):
    """Three maps side by side: the same height, cells need not be square."""
    fig.update_layout(height=460)
    return fig


def variants_view(run: MK.MaskedRun, tokens: list[str], layer: int, head: int, n_heads: int) -> None:
    st.markdown(t("mk_variants_intro"))
    G = run.own_k.shape[2]
    g = head // (n_heads // G)
    q = torch.from_numpy(run.own_q[layer, :, head]).double()
    k = torch.from_numpy(run.own_k[layer, :, g]).double()
    v = torch.from_numpy(run.own_v[layer, :, g]).double()
    mask = run.own_mask
    c1, c2 = st.columns(2)
    with c1:
        causal = st.toggle(t("mk_linear_causal"), value=bool(run.decoder), key="mk_linear_causal")
    with c2:
        default_gamma = float(V.retention_gammas(n_heads)[head])
        gamma = st.slider(t("mk_gamma"), 0.5, 1.0, round(default_gamma, 3), step=0.001, key="mk_gamma",
                          format="%.3f")
    # softmax: the model's own weights and head output (with its position bias, if any)
    soft_w, soft_out = run.own_patterns[layer, head], torch.from_numpy(run.own_z[layer, :, head]).double()
    lin_out, lin_w = V.linear_attention(q, k, v, causal=causal)
    ret_out, ret_w = V.retention(q, k, v, gamma)
    words = {"query": t("term_query"), "key": t("term_key"), "masked": t("mk_term_blocked"), "weight": t("term_weight")}
    top = st.columns(2)
    with top[0]:
        st.markdown(f"**{t('mk_v_softmax')}**")
        shown = np.where(mask, soft_w, np.nan).astype(np.float32)
        st.plotly_chart(_tall(vz.head_heatmap(shown, tokens, tokens, clickable=False, terms=words, square=False)),
                        key="mk_v_soft", width="stretch")
    with top[1]:
        st.markdown(f"**{t('mk_v_linear')}**")
        st.plotly_chart(_tall(vz.head_heatmap(lin_w.numpy().astype(np.float32), tokens, tokens, clickable=False,
                                              terms=words, square=False)), key="mk_v_lin", width="stretch")
    bottom = st.columns(2)
    with bottom[0]:
        st.markdown(f"**{t('mk_v_retention')}**")
        st.plotly_chart(_tall(vz.matrix_heatmap(ret_w.numpy().astype(np.float32), row_labels=tokens,
                                                col_labels=tokens, row_name=t("term_query"), col_name=t("term_key"))),
                        key="mk_v_ret", width="stretch")

    def cos(a: torch.Tensor, b: torch.Tensor) -> np.ndarray:
        return torch.nn.functional.cosine_similarity(a, b, dim=-1).numpy()

    with bottom[1]:
        similarity_table(tokens, cos(lin_out, soft_out), cos(ret_out, soft_out))
    rec_err = float((V.retention_recurrent(q, k, v, gamma) - ret_out).abs().max())
    st.caption(t("mk_v_recurrent", d=q.shape[-1], err=rec_err))
    st.latex(FORMULAS["mk_linear"])
    st.latex(FORMULAS["mk_retention"])


def similarity_table(tokens: list[str], linear: np.ndarray, retention: np.ndarray) -> None:
    st.markdown(f"**{t('mk_v_similarity')}**")
    st.dataframe(pd.DataFrame({t("mk_v_col_pos"): [f"{i}·{vz.visible_label(s)}" for i, s in enumerate(tokens)],
                               t("mk_v_col_linear"): linear, t("mk_v_col_retention"): retention}),
                 hide_index=True, width="stretch", key="mk_v_table", height=min(420, 38 + 35 * len(tokens)))


def run_or_explain(sel: Selection, stack: str, parts_json: str) -> MK.MaskedRun:
    """The masked run, or a sentence (never a traceback) when the model cannot read the text."""
    try:
        return masked_run(sel.model_key, sel.device, sel.text, sel.target, stack, parts_json)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=md_escape(str(e))))
        st.stop()

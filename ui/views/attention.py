"""The attention explorer: every head of every layer, one head up close, lines, head
metrics, rollout, A/B and export.

Everything numeric comes from the cached `AttentionData` (ui/serving/cache.py: the
model's recorded patterns); figures come from viz_core (the all-heads image and the
in-browser viewer's payload are cached in ui/serving/attention.py). Clicks are stored in session
state by `on_select` callbacks (a click changes the figure, which resets the chart's
own selection on the rerun).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
from lab import attention, sizes
from lab.memory import format_formula
from models.trace import Stack
from viz_core import colors
from viz_core.attention_html import standalone_html
from viz_core.figure import text_scale

from .. import serving
from ..figure_words import attention_terms
from ..i18n import FORMULAS, STRINGS, formula, t
from ..links import choice, index_slider, set_choice, show_notices, stack_choice
from ..markup import md_escape
from ..page import require_data, require_model, require_text, use_text
from ..serving import AttentionData, config_json, trace_npz
from ..serving.attention import instant_payload, instant_payload_json, model_view_figure
from ..serving import browser
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import attention_canvas, compare, figure_export
from ..widgets.folded import folded
from ..widgets.notes import misconception

# the instant view first and by default: every head drawn in the browser from one payload, so
# a head switch costs no server run and a class's first screen builds no plotly figure
# (docs/benchmarks.md, protocol_load); the heads view is the plotly one, with cell details
VIEWS = ("instant", "heads", "lines", "metrics", "rollout", "compare")
COMBINE = ("one", "mean", "max")
METRICS = ("entropy", "mean_distance", "attn_to_first", "attn_to_last", "sparsity")
TOP_K = 10
HEATMAP_HEIGHT = 600


def terms() -> dict[str, str]:
    """Words inside figures, in the UI language."""
    return attention_terms()


@dataclass(frozen=True)
class Controls:
    """What the row of controls chose."""

    view: str          # instant | heads | lines | metrics | rollout | compare
    stack: str         # self | encoder | decoder | cross
    layer: int
    head: int
    combine: str       # one | mean | max (the head view and A/B)


def render(sel: Selection) -> None:
    """The attention page."""
    st.title(t("attn_title"))
    model, _ = require_model(sel)
    require_text(sel)
    data = require_data(sel, serving.attention_data)       # ui/serving/cache.py
    # controls and views are one fragment: switching head, layer or view reruns only them
    explorer(data, sel, model.cfg.n_layers, model.cfg.n_heads, model.cfg.arch)
    memory_caption(data, model.cfg)
    explanations()
    heads_notes(data, model.cfg)


def controls(n_layers: int, n_heads: int, arch: str) -> Controls:
    """The row of view controls."""
    view = choice(st.radio, t("view"), VIEWS, param="view", default="instant", horizontal=True,
                  labels={v: t(f"view_{v}") for v in VIEWS})
    c1, c2, c3, c4 = st.columns([3, 2, 2, 4])
    with c1:
        stack = stack_choice(Stack.attention_maps(arch), t("stack"), "stack", horizontal=False)
        if stack == "self":
            st.caption(t("label_value", label=t("stack"), value=t("stack_self")))
    with c2:
        # in the instant view the browser chooses the head; the sliders (and the URL) follow it
        layer = index_slider(t("rollout_layer") if view == "rollout" else t("layer"), n_layers, "layer",
                             disabled=view == "instant")
    with c3:
        head = index_slider(t("head"), n_heads, "head", disabled=view in ("rollout", "instant"))
    with c4:
        combine = choice(st.radio, t("combine"), COMBINE, param="combine", default="one", horizontal=True,
                         labels={c: t(f"combine_{c}") for c in COMBINE}, disabled=view not in ("heads", "compare"))
    return Controls(view, stack, layer, head, combine)


def shown_matrix(data: AttentionData, c: Controls) -> np.ndarray:
    """The [q, k] map the head view shows: one head, or the mean/max over heads."""
    layer = data.patterns[c.stack][c.layer]                           # [H, q, k]
    return layer[c.head] if c.combine == "one" else attention.aggregate_heads(layer, c.combine)


def _with_mask(p: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Masked cells become NaN so the figures draw them grey and say "masked"."""
    return np.where(mask, p, np.nan).astype(np.float32)


@st.fragment
def explorer(data: AttentionData, sel: Selection, n_layers: int, n_heads: int, arch: str) -> None:
    """The page body below the title: controls, the chosen view, export. A fragment, so
    a head switch or a click reruns this part only (not the sidebar, not the model)."""
    c = controls(n_layers, n_heads, arch)
    show_notices()
    if c.view == "heads":
        heads_view(data, c, sel)
    elif c.view == "lines":
        lines_view(data, c)
    elif c.view == "metrics":
        metrics_view(data, c, sel)
    elif c.view == "compare":
        compare.attention_ab(sel, c.stack, c.layer, c.head, c.combine)
    elif c.view == "instant":
        instant_view(c, sel)
    else:
        rollout_view(data, c, sel)
    if c.view != "instant":
        attention_canvas.forget_start()
    export_section(data, c, sel)


# ---- the heads view --------------------------------------------------------------------
def _on_tile() -> None:
    cells = vz.selected_customdata(st.session_state.get("model_view"))
    if cells:
        st.session_state["layer"], st.session_state["head"] = cells[0][0], cells[0][1]
        set_choice("combine", "one")


def _on_cell() -> None:
    cells = vz.selected_customdata(st.session_state.get("head_map"))
    if cells:
        st.session_state["cell"] = (cells[0][:2], st.session_state.get("_cell_sig"))


def heads_view(data: AttentionData, c: Controls, sel: Selection) -> None:
    st.markdown(f"**{t('model_view_title')}**")
    fig = model_view_figure(RunKey.of(sel), c.stack, colors.palette(),
                            text_scale(), t("term_tile"))
    if c.combine == "one":
        vz.mark_tile(fig, c.layer, c.head)
    figure_export.chart(fig, key="model_view", on_select=_on_tile, selection_mode="points", width="stretch")
    st.caption(t("model_view_caption"))
    head_panel(data, c, sel)


def _title(c: Controls) -> str:
    what = t("head_what", head=c.head) if c.combine == "one" else t(f"combine_{c.combine}")
    return t("head_title", layer=c.layer, what=what)


@st.fragment
def head_panel(data: AttentionData, c: Controls, sel: Selection) -> None:
    """One head as a heatmap; a click on a cell opens that query's detail beside it.
    A fragment: clicking reruns only this panel."""
    q_tok, k_tok = data.tokens_of(c.stack)
    shown = _with_mask(shown_matrix(data, c), data.masks[c.stack])
    sig = (sel.model_key, sel.text, sel.target, c.stack)
    st.session_state["_cell_sig"] = sig
    stored = st.session_state.get("cell")
    cell = stored[0] if stored and stored[1] == sig and stored[0][0] < len(q_tok) else None
    left, right = st.columns([5, 3], gap="medium")
    with left:
        # cells need not be square: the map fills the column instead of floating in it
        fig = vz.head_heatmap(shown, q_tok, k_tok, title=_title(c), selected=cell, terms=terms(), square=False)
        vz.fit_height(fig, HEATMAP_HEIGHT)     # taller for many tokens, or on a projector
        figure_export.chart(fig, key="head_map", on_select=_on_cell, selection_mode="points", width="stretch")
    with right:
        if cell is None:
            st.info(t("click_cell"))
        else:
            detail_panel(shown[cell[0]], cell[0], q_tok[cell[0]], k_tok)


def detail_panel(row: np.ndarray, q: int, q_token: str, k_tok: list[str]) -> None:
    """One query's weights: bars for the top keys and a table."""
    with st.container(border=True, key="detail_panel"):
        st.markdown(f"**{t('detail_title', pos=q, tok=md_escape(vz.visible_label(q_token)))}**")
        k = min(TOP_K, int(np.isfinite(row).sum()))
        figure_export.chart(vz.query_bars(row, k_tok, top_k=k, title=t("detail_topk", k=k), terms=terms()),
                            key="detail_bars", width="stretch")
        order = [i for i in np.argsort(-np.nan_to_num(row, nan=-1.0), kind="stable")[:k]]
        st.dataframe(pd.DataFrame({t("col_rank"): range(1, k + 1), t("col_key"): [vz.visible_label(k_tok[i]) for i in order],
                                   t("col_pos"): order, t("col_weight"): [float(row[i]) for i in order]}),
                     hide_index=True, width="stretch", key="detail_table")
        st.caption(t("detail_sum", s=float(np.nansum(row)), masked=int(np.isnan(row).sum())))


# ---- instant: every head drawn in the browser ---------------------------------------------------
INSTANT_LABELS = ("heading", "preview", "hint", "query", "key", "weight", "masked", "pinned", "reset", "grid",
                  "map", "lines", "lines_too_many", "scale", "error", "loading", "zoom")


def instant_labels(language: str | None = None) -> tuple[tuple[str, str], ...]:
    """The viewer's words (templates: the script fills {layer} etc.) in `language`, by
    default the session's; the warm-up, outside any session, names the default ("en")."""
    if language is None:
        return tuple((k, t(f"instant_{k}")) for k in INSTANT_LABELS)
    return tuple((k, STRINGS[f"instant_{k}"][language]) for k in INSTANT_LABELS)


def _on_instant() -> None:
    chosen = attention_canvas.selection("instant_canvas")
    if chosen:
        st.session_state["layer"], st.session_state["head"] = int(chosen["layer"]), int(chosen["head"])
        st.session_state["instant_query"] = chosen.get("query")


def instant_view(c: Controls, sel: Selection) -> None:
    args = (RunKey.of(sel), c.stack, colors.palette(), instant_labels())
    payload = instant_payload(*args)
    attention_canvas.attention_canvas(payload, instant_payload_json(*args), c.layer, c.head, key="instant_canvas",
                                      text_scale=text_scale(), on_select=_on_instant, live=live_box(sel, c.stack))
    if st.session_state.pop(_LIVE_SENT, False):
        st.rerun(scope="app")
    kb = len(payload["data"]) / 1e3          # the cells (base64 of deflated bytes): nearly all of it
    st.caption(t("instant_caption", heads=payload["n_layers"] * payload["n_heads"], kb=f"{kb:,.0f}"))
    q = st.session_state.get("instant_query")
    if q is not None and q < payload["n_q"]:
        where = t("instant_selected_query", q=q, tok=md_escape(payload["q_tokens"][q]))
        st.caption(t("instant_selected", layer=c.layer, head=c.head, query=where))


_LIVE_SENT = "_instant_live_sent"
LIVE_PAGE_BYTES = 90_000         # the live file beside the model: scripts, style and the drawn payload (~60-90 KB)
LIVE_LABELS = ("box", "status", "server", "truncated", "empty", "use", "waiting")


def live_labels() -> tuple[tuple[str, str], ...]:
    return tuple((k, t(f"instant_live_{k}")) for k in LIVE_LABELS)


def _on_live_text() -> None:
    text = attention_canvas.sent_text("instant_canvas")
    if text and text.strip():
        use_text(text, None)                  # the sidebar's text: every page reads it
        st.session_state[_LIVE_SENT] = True   # the view is a fragment: the sidebar needs a whole run


def live_box(sel: Selection, stack: str) -> attention_canvas.Live | None:
    """The live text box when the model has a browser form: automatic for a small model,
    a toggle with the download size for a big one (MiniLM); None otherwise, with why."""
    if stack not in ("self",):
        return None
    how = browser.plan(sel.model_key, sel.device)
    if how.reason is not None:
        st.caption(t("instant_live_none"))
        return None
    if not how.automatic and not st.toggle(t("instant_live_ask", mb=f"{how.size / 1e6:,.0f}"), key="instant_live"):
        return None
    form = browser.form(sel.model_key, sel.device, how.weights)
    st.caption(t("instant_live_exact" if how.exact else "instant_live_float16", mb=f"{form.size / 1e6:,.1f}"))
    return attention_canvas.Live(model_id=form.id, model_bytes=form.data, text=sel.text, labels=live_labels(),
                                 on_text=_on_live_text)


def instant_html(sel: Selection, stack: str) -> str:
    """The standalone HTML export of every head (built when the download is clicked)."""
    payload = instant_payload(RunKey.of(sel), stack, colors.palette(),
                              instant_labels())
    return standalone_html(payload, title=f"Glassbox · {payload['title']}", note=t("export_html_note"))


def live_html(sel: Selection, stack: str, weights: str) -> str:
    """The live export: the file above plus the model in `weights` (its exact weights, or
    int8), so that a reader can type new text at home (built when the download is clicked)."""
    payload = instant_payload(RunKey.of(sel), stack, colors.palette(), instant_labels())
    form = browser.form(sel.model_key, sel.device, weights)
    labels = dict(live_labels())
    return standalone_html(payload, title=f"Glassbox · {payload['title']}", note=t("export_live_note"),
                           model_json=form.data.split(b"\n", 1)[1].decode("utf-8"), text=sel.text,
                           live_labels=labels)


# ---- lines ------------------------------------------------------------------------------
def lines_view(data: AttentionData, c: Controls) -> None:
    q_tok, k_tok = data.tokens_of(c.stack)
    patterns = data.patterns[c.stack][c.layer]                      # [H, q, k]
    n = max(len(q_tok), len(k_tok))
    if n > 64:
        st.info(t("lines_too_long", max=64, n=n))
        return
    heads = st.multiselect(t("lines_heads"), list(range(patterns.shape[0])), default=[c.head], key="line_heads")
    options = [-1, *range(len(q_tok))]
    labels = vz.position_labels(q_tok)
    query = int(choice(st.selectbox, t("lines_query"), [str(o) for o in options], param="query", default="-1",
                       url=False, labels={str(i): t("lines_all") if i < 0 else labels[i] for i in options}))
    if not heads:
        heads = [c.head]
    fig = vz.line_view(patterns, q_tok, k_tokens=k_tok, head_ids=heads, query=None if query < 0 else query,
                       title=t("head_title", layer=c.layer, what=", ".join(f"H{h}" for h in heads)),
                       terms=terms())
    figure_export.chart(fig, key="line_view", width="stretch")
    st.caption(t("ex_lines"))


# ---- metrics ---------------------------------------------------------------------------
def _open_head(layer: int, head: int) -> None:
    st.session_state["layer"], st.session_state["head"] = layer, head
    set_choice("combine", "one")
    set_choice("view", "heads")


def _on_metric_cell() -> None:
    cells = vz.selected_customdata(st.session_state.get("metrics_chart"))
    if cells:
        _open_head(*cells[0][:2])


def _on_metric_row() -> None:
    rows = (st.session_state.get("metrics_table") or {}).get("selection", {}).get("rows", [])
    table = st.session_state.get("_metrics_rows")
    if rows and table is not None:
        _open_head(int(table[rows[0]]["layer"]), int(table[rows[0]]["head"]))


def metric_names(tokens: list[str]) -> dict[str, str]:
    names = {m: t(f"metric_{m}") for m in METRICS}
    names["attn_to_first"] += f" ({tokens[0]})"
    names["attn_to_last"] += f" ({tokens[-1]})"
    return names


def metrics_view(data: AttentionData, c: Controls, sel: Selection) -> None:
    _, k_tok = data.tokens_of(c.stack)
    raw = serving.head_metrics(RunKey.of(sel), c.stack)
    names = metric_names([vz.visible_label(k) for k in k_tok])
    metrics = {names[m]: raw[m] for m in METRICS}
    metric_id = choice(st.selectbox, t("metric"), METRICS, param="metric", default="entropy", labels=names)
    metric = names[metric_id]
    fig = vz.head_metrics_chart(metrics, metric, selected=(c.layer, c.head), terms=terms())
    figure_export.chart(fig, key="metrics_chart", on_select=_on_metric_cell, selection_mode="points",
                        width="stretch")
    rows = attention.metrics_table(raw)
    st.session_state["_metrics_rows"] = rows
    table = pd.DataFrame(rows).rename(columns={m: names[m] for m in METRICS})
    table = table.rename(columns={"layer": t("layer"), "head": t("head")})
    st.dataframe(table, hide_index=True, width="stretch", key="metrics_table", on_select=_on_metric_row,
                 selection_mode="single-row")
    st.caption(t("metrics_click"))
    st.markdown(t("ex_metrics"))
    st.latex(FORMULAS["entropy"])


# ---- rollout -------------------------------------------------------------------------------
def rollout_view(data: AttentionData, c: Controls, sel: Selection) -> None:
    if c.stack == "cross":
        st.info(t("rollout_not_self"))
        return
    q_tok, _ = data.tokens_of(c.stack)
    roll = serving.rollout(RunKey.of(sel), c.stack)   # [L, q, q]
    upto = c.layer
    title = t("label_value", label=t("view_rollout"), value=f"{t('layer')} 0…{upto}")
    fig = vz.head_heatmap(roll[upto], q_tok, q_tok, title=title, clickable=False, terms=terms(), square=False)
    vz.fit_height(fig, HEATMAP_HEIGHT)     # taller for many tokens, or on a projector
    figure_export.chart(fig, key="rollout_map", width="stretch")
    st.markdown(t("ex_rollout"))
    st.latex(FORMULAS["rollout"])


# ---- export ------------------------------------------------------------------------------
def _safe_cell(text: str) -> str:
    """Spreadsheets run cells starting with = + - @ as formulas: quote them."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def matrix_csv(matrix: np.ndarray, q_tok: list[str], k_tok: list[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["query \\ key", *[_safe_cell(f"{i}:{s}") for i, s in enumerate(k_tok)]])
    for i, (name, row) in enumerate(zip(q_tok, matrix)):
        w.writerow([_safe_cell(f"{i}:{name}"), *[f"{v:.6g}" for v in row]])
    return buf.getvalue()


def export_section(data: AttentionData, c: Controls, sel: Selection) -> None:
    if (box := folded(t("view_export"), key="_open_export")) is None:
        return                                # closed: nothing below is built or sent
    q_tok, k_tok = data.tokens_of(c.stack)
    matrix = shown_matrix(data, c)
    stem = f"glassbox_{sel.model_key.replace(':', '-')}_L{c.layer}"
    with box:
        cols = st.columns(4)
        # built only when clicked: a 512-token map is 2.4 MB of CSV and 0.13 s on every rerun otherwise
        cols[0].download_button(t("export_matrix"), lambda: matrix_csv(matrix, q_tok, k_tok), f"{stem}_{c.combine}.csv",
                                "text/csv", key="dl_csv")
        cols[1].download_button(t("export_trace"), lambda: trace_npz(RunKey.of(sel)),
                                f"{stem}_trace.npz", "application/octet-stream", key="dl_npz")
        cols[2].download_button(t("export_config"), config_json(sel.model_key, sel.device), f"{stem}_config.json",
                                "application/json", key="dl_json")
        cols[3].download_button(t("export_html"), lambda: instant_html(sel, c.stack), f"{stem}_all_heads.html",
                                "text/html", key="dl_html")
        how = browser.plan(sel.model_key, sel.device) if c.stack == "self" else None
        if how is not None and how.reason is None:
            live_cols = st.columns(2)
            if how.automatic:                 # the exact weights: built once per server (0.1 s for verse-lm)
                size = browser.form(sel.model_key, sel.device, how.weights).size + LIVE_PAGE_BYTES
                live_cols[0].download_button(t("export_live", mb=f"{size / 1e6:,.1f}"),
                                             lambda: live_html(sel, c.stack, how.weights), f"{stem}_live.html",
                                             "text/html", key="dl_live", help=t("export_live_help"))
            # int8 weights, deflated: under half of float16 (the size counted once per server, the file built on click)
            small = browser.int8_size(sel.model_key, sel.device) + LIVE_PAGE_BYTES
            live_cols[1].download_button(t("export_live_small", mb=f"{small / 1e6:,.1f}"),
                                         lambda: live_html(sel, c.stack, "int8"), f"{stem}_live_int8.html",
                                         "text/html", key="dl_live_small", help=t("export_live_small_help"))
        model, _ = serving.load_model(sel.model_key, sel.device)
        n_names = len(model.hook_names())
        st.caption(t("export_caption", n=n_names) + " " + t("export_png"))


def heads_notes(data: AttentionData, cfg) -> None:
    """Why several heads (how many different strongest keys the heads of a layer pick, their
    Q/K/V weights against one wide head: lab.sizes) and d_v's freedom (the weights' shape)."""
    stack = next(iter(data.patterns))
    p = data.patterns[stack]                                            # [L, H, q, k]
    d_k = cfg.d_head or cfg.d_model // cfg.n_heads
    if cfg.n_heads > 1 and cfg.d_model % cfg.n_heads == 0:
        distinct = attention.distinct_strongest_keys(p)
        w = sizes.single_vs_multi_head(cfg.d_model, cfg.n_heads)
        misconception("at_heads", t("at_mis_heads_common"),
                      t("at_mis_heads_shown", h=cfg.n_heads, u=distinct, dh=cfg.d_model // cfg.n_heads, d=cfg.d_model,
                        multi=w["multi"], single=w["single"]))
    if p.shape[2] > 1:
        rows = p[0, 0]                                                  # layer 0, head 0: [q, k]
        q = int(np.abs(rows - rows[0]).max(-1).argmax())                # the row that differs most from query 0's
        misconception("at_pair", t("at_mis_pair_common"),
                      t("at_mis_pair_shown", q=q, diff=float(np.abs(rows[q] - rows[0]).max())))
    misconception("at_dv", t("at_mis_dv_common"), t("at_mis_dv_shown", nq=p.shape[2], nk=p.shape[3], dk=d_k))


def memory_caption(data: AttentionData, cfg) -> None:
    """What this trace holds in memory, and the formula behind it (lab/memory.py)."""
    if data.run is None:
        return
    n = len(data.tokens)
    mb = data.run.trace_bytes / 1e6
    st.caption(t("mem_caption", trace=f"{mb:,.{1 if mb >= 1 else 3}f}", n=n, kinds=t("mem_kinds_attention"),
                 formula=format_formula(cfg, n), budget=f"{data.run.budget_bytes / 1e6:,.0f}"))


def explanations() -> None:
    if (box := folded(t("explain"), key="_open_explain")) is None:
        return
    with box:
        st.markdown(t("ex_attention"))
        st.latex(FORMULAS["attention"])
        st.markdown(t("ex_rows_sum"))
        st.latex(FORMULAS["rows"])
        st.markdown(t("ex_multihead"))
        st.latex(FORMULAS["multihead"])
        st.markdown(t("ex_mask"))
        st.latex(formula("mask"))

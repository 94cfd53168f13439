"""The model map on the overview page: the current model's architecture drawn from its
config with this text's numbers on it, a token followed through it, or two models side
by side. A click on a part opens the page that shows it, with the layer and head in
the link.

Structure and numbers: lab/model_map.py, from one recorded pass (ui/serving/cache.py
`map_view`); the figure: viz_core/model_map.py. Clicks are stored by the chart's
`on_select` callback and acted on in the next line of the script (`st.switch_page`
cannot run inside a callback).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import viz_core as vz
from lab import model_map
from models import limits
from models.trace import Stack
from server import sessions
from viz_core import model_map as vmap
from viz_core.labels import plain_labels

from .. import model_names, serving
from ..figure_words import words
from ..i18n import t
from ..links import bound, choice, index_slider, set_choice, show_notices, stack_choice
from ..markup import markdown_table, md_escape
from ..page import explain
from ..serving.figures import shared_figure
from ..serving.run_key import RunKey
from ..sidebar import Selection
from . import figure_export
from .notes import misconception

MODES = ("map", "follow", "compare")
DRAW = "_map_draw"                       # this reader asked for the map (a busy server draws it on request)
MAP_PARAMS = ("mview", "mlayer", "mstack", "mstep", "vs")     # a link naming one of these opens the map drawn
GO = "_map_go"                           # a clicked part waiting to be opened: (page, params, choices)
PAGES = {"attention": "app_pages/attention.py", "ffn": "app_pages/ffn.py", "residual": "app_pages/residual.py",
         "positional": "app_pages/positional.py", "generate": "app_pages/generate.py"}
ROOM_PX = 900                            # the main column's width in a 1400 px window with the sidebar open
PE_SECTION = {"rope": "rope", "alibi": "bias", "relative": "bias"}     # positional page sections


def terms() -> dict[str, str]:
    return words("mm_", vmap.MAP_TERMS)


@dataclass(frozen=True)
class Destination:
    """Where a click on the map leads: a page, its link parameters, and the page-level
    view choices to set (`links.choice` keeps those in session state, not the link)."""

    page: str
    params: dict[str, str]
    choices: dict[str, str]


def destination(part: model_map.Part, layer: int, head: int, arch: str) -> Destination:
    """The page that shows `part` (at `layer`, `head`)."""
    if part.kind in ("tokens", "embed", "pos"):
        section = PE_SECTION.get(part.info.get("positional", ""), "tables") if part.kind == "pos" else "tables"
        return Destination(PAGES["positional"], {"pe_view": section}, {"pe_view": section})
    if part.kind == "norm":
        return Destination(PAGES["residual"], {"rview": "norms"}, {"rview": "norms"})
    if part.kind == "add" or part.id == "hidden":
        return Destination(PAGES["residual"], {"rview": "stream"}, {"rview": "stream"})
    if part.kind == "attn":
        choices = {"view": "heads", "combine": "one"}
        if arch == "encoder-decoder":
            choices["stack"] = "cross" if part.id == "cross" else part.stack
        params = {"layer": str(max(layer, 0)), "head": str(max(head, 0)), **choices}
        return Destination(PAGES["attention"], params, choices)
    if part.kind == "ffn":
        return Destination(PAGES["ffn"], {"layer": str(max(layer, 0)), "fview": "activations"},
                           {"fview": "activations"})
    if part.id == "head":
        return Destination(PAGES["residual"], {"rview": "lens"}, {"rview": "lens"})
    return Destination(PAGES["generate"], {}, {})


def _on_click(parts: list[model_map.Part], arch: str, key: str) -> None:
    cells = vz.selected_customdata(st.session_state.get(key))
    if cells and 0 <= cells[0][0] < len(parts):
        idx, layer, head = (list(cells[0]) + [-1, -1])[:3]
        st.session_state[GO] = destination(parts[idx], layer, head, arch)


def follow_clicks() -> None:
    """Open the page a click on the map asked for (the map section's first line: the click
    was stored by the chart's callback before this run started)."""
    go = st.session_state.pop(GO, None)
    if go is None:
        return
    for param, value in go.choices.items():
        set_choice(param, value)
    for param in ("layer", "head"):                   # the sliders start from the link
        st.session_state.pop(param, None)
    # the sidebar's bound widgets (model, text, language, ...) put their own values back
    st.switch_page(go.page, query_params=go.params)


# ---- the section ---------------------------------------------------------------------------------
def section(sel: Selection, model) -> None:
    """The model map with its three modes (`?mview=map|follow|compare`)."""
    follow_clicks()
    st.subheader(t("map_title"))
    st.markdown(t("map_intro"))
    if not drawn():
        return
    mode = choice(st.radio, t("map_mode"), MODES, param="mview", default="map", horizontal=True,
                  labels={m: t(f"map_mode_{m}") for m in MODES})
    view = load(sel)
    if view is None:                                 # no numbers: the structure for a one-token text
        mp = model_map.model_map(model.cfg, 1)
        mode = "map" if mode == "follow" else mode
        st.caption(t("map_structure_only"))
    else:
        mp = view.structure
    if mode == "follow":
        follow_view(view)
    elif mode == "compare":
        compare_view(sel, mp, view)
    else:
        map_view(mp, view, RunKey.of(sel))
    st.caption(t("map_click") + " " + t("map_heads_caption"))


def drawn() -> bool:
    """Whether the map is drawn in this run: always while the server has at most
    GLASSBOX_MAP_SESSIONS sessions (models/limits.py), or once this reader asked for it
    (the button, or a link that names a map setting); otherwise the button, and False."""
    limit, n = int(limits.value("map_sessions")), sessions.count()
    if n <= limit or st.session_state.get(DRAW) or any(p in st.query_params for p in MAP_PARAMS):
        return True
    st.info(t("map_on_request", n=n, limit=limit), icon=":material/groups:")
    st.button(t("map_draw"), key="map_draw", icon=":material/account_tree:",
              on_click=lambda: st.session_state.__setitem__(DRAW, True))
    return False


def load(sel: Selection) -> serving.MapView | None:
    """This text's map data, or None (empty text, or a pass that cannot run: said here;
    the map is then drawn from the config alone)."""
    if not sel.text.strip():
        return None
    try:
        return serving.map_view(RunKey.of(sel))
    except (serving.TraceBudgetError, serving.OutOfMemory, ValueError, RuntimeError) as e:
        st.info(t("map_no_data", error=explain(e)), icon=":material/info:")
        return None


def chart(fig, key: str, mp: model_map.ModelMap) -> None:
    """A map figure whose clicks open the part's page (its own white background: theme=None)."""
    figure_export.chart(fig, key=key, on_select=lambda: _on_click(mp.parts(), mp.arch, key),
             selection_mode="points", theme=None, width="stretch")


def map_view(mp: model_map.ModelMap, view: serving.MapView | None, key: RunKey) -> None:
    layer = index_slider(t("map_layer"), mp.n_layers, "mlayer") if view is not None else 0
    show_notices()                                   # a link's ?mlayer= or ?mview= that was out of range
    # one figure for every session on this pass and layer (ui/serving/figures.py); without
    # numbers the map is the model's structure alone
    fig = shared_figure("model_map", (key if view is not None else key.model_key, layer), lambda: vmap.model_map(
        mp, None if view is None else view.data, layer=layer, terms=terms(), unit_px=vmap.unit_for(ROOM_PX, mp)))
    chart(fig, "model_map", mp)
    if mp.arch == "decoder":
        misconception("map_decoder", t("map_mis_decoder_common"), t("map_mis_decoder_shown", n=mp.n_layers))


# ---- follow one token --------------------------------------------------------------------------------
def _step(delta: int, n: int) -> None:
    st.session_state["mstep"] = int(np.clip(st.session_state.get("mstep", 0) + delta, 0, n - 1))


def stop_labels(stops: list[model_map.Stop]) -> list[str]:
    return [(f"L{s.layer} " if s.layer >= 0 else "") + t(f"map_part_{s.part}") for s in stops]


def follow_view(view: serving.MapView) -> None:
    mp = view.structure
    stacks = [Stack(s.stack) for s in mp.stacks]
    c1, c2 = st.columns([1, 3])
    with c1:
        stack = stack_choice(stacks, t("map_follow_stack"), "mstack") if len(stacks) > 1 else stacks[0].value
    sd = view.data.stack(stack)
    n = len(sd.tokens)
    if st.session_state.get("mtok", 0) >= n:
        st.session_state["mtok"] = n - 1
    with c2:
        labels = plain_labels(sd.tokens)
        pos = st.selectbox(t("map_follow_token"), list(range(n)), index=min(1, n - 1), key="mtok",
                           format_func=labels.__getitem__)
    names = stop_labels(sd.stops)
    b1, b2, b3 = st.columns([1, 1, 6])
    b1.button(t("map_prev"), key="map_prev", on_click=_step, args=(-1, len(names)), icon=":material/skip_previous:")
    b2.button(t("map_next"), key="map_next", on_click=_step, args=(1, len(names)), icon=":material/skip_next:")
    with b3:
        k = index_slider(t("map_stop"), len(names), "mstep")
    show_notices()
    norms = sd.norms[:, pos]
    notes = [""] * len(names)
    for i, st_ in enumerate(sd.stops):                   # where the token attends: its row's entropy
        ent = sd.token_entropy if st_.part == "attn" else sd.cross_token_entropy if st_.part == "cross" else None
        if ent is not None:
            notes[i] = f"{t('mm_entropy')} {float(ent[st_.layer, pos]):.2f}"
    if sd.top_ids is not None and view.top_tokens is not None and sd.stack == Stack.output(mp.arch).value:
        notes[sd.index("head")] = t("map_prediction", tok=vz.visible_label(view.top_tokens[pos]),
                                    p=f"{float(sd.top_probs[pos]):.0%}")
    follow = dict(stack=stack, stops=[(s.part, s.layer) for s in sd.stops], norms=norms, labels=names,
                  notes=notes, start=k)
    chart(vmap.model_map(mp, view.data, follow=follow, terms=terms(), unit_px=vmap.unit_for(ROOM_PX, mp)),
          "model_map", mp)
    st.markdown(t("map_stop_caption", k=k + 1, n=len(names), where=md_escape(names[k]),
                  tok=md_escape(labels[pos]), norm=f"{norms[k]:.4g}"))
    st.caption(t("map_follow_help"))
    figure_export.chart(vmap.norm_path(names, norms, k, layers=[s.layer for s in sd.stops], terms=terms()),
             key="map_path", width="stretch")
    st.caption(t("map_path_caption"))


# ---- two models side by side --------------------------------------------------------------------
def default_partner(cfg, keys: list[str]) -> str:
    """A model that differs a lot: the LLaMA-style preset beside a BERT/GPT-style model,
    the bundled MiniLM (BERT) beside a LLaMA-style one."""
    llama_like = cfg.positional == "rope" or cfg.norm == "rmsnorm"
    for key in (("minilm", "custom:bert") if llama_like else ("custom:llama", "minilm")):
        if key in keys:
            return key
    return keys[0]


def compare_view(sel: Selection, mp_a: model_map.ModelMap, view_a: serving.MapView | None) -> None:
    model_a, _ = serving.load_model(sel.model_key, sel.device)
    entries = [e for e in serving.entries() if e.key != sel.model_key and e.config is not None]
    if not entries:
        return
    labels = model_names.labels(entries)           # the link holds the name: either language opens it
    keys = list(labels)
    first = default_partner(model_a.cfg, keys)
    if st.session_state.get("vs") not in keys:
        st.session_state["vs"] = first
    names = model_names.follow_link("vs", entries, labels)
    key_b = bound(st.selectbox, t("map_vs"), keys, key="vs", url_default=labels[first], format_func=labels.get,
                  renamed=names)
    show_notices()
    entry_b = next(e for e in entries if e.key == key_b)
    view_b = None
    if view_a is not None:
        try:
            view_b = serving.map_view(RunKey(key_b, sel.device, sel.text, sel.target))
        except (serving.TraceBudgetError, serving.OutOfMemory, ValueError, RuntimeError) as e:
            st.info(t("map_no_data", error=explain(e)), icon=":material/info:")
    n = mp_a.stacks[0].n_tokens
    mp_b = view_b.structure if view_b is not None else model_map.model_map(entry_b.config, n)
    diffs = model_map.compare(model_a.cfg, entry_b.config)
    hl = model_map.highlighted(diffs)
    rows = vmap.section_rows(mp_a, mp_b)
    unit = vmap.unit_for(ROOM_PX - 40, mp_a, mp_b)
    left, right = st.columns([len(mp_a.stacks), len(mp_b.stacks)], gap="medium")   # an encoder-decoder: twice
    for col, mp, view, label, key in ((left, mp_a, view_a, sel.model_label, "model_map"),
                                      (right, mp_b, view_b, labels[key_b], "model_map_b")):
        with col:
            fig = vmap.model_map(mp, None if view is None else view.data, highlight=sorted(hl), rows=rows,
                                 title=label, terms=terms(), unit_px=unit)
            chart(fig, key, mp)
    st.markdown(f"**{t('map_diff_title')}**")
    if not diffs:
        st.success(t("map_no_diff"), icon=":material/check:")
        return
    st.markdown(markdown_table([t("map_col_setting"), sel.model_label, labels[key_b]],
                               [[t(f"map_field_{d.field}"), model_names.setting_text(d.field, d.a),
                                 model_names.setting_text(d.field, d.b)] for d in diffs]))

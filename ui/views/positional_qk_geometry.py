"""The positional-encoding lab's "query–key geometry" section (after AttentionViz, Yeh et
al. 2023): one head's queries and keys in one 2-D PCA (lab/qk_geometry.py, figure
viz_core/qk_geometry.py). Part A: one head of one shipped trained model on the user's text
(or a toy task's example); part B: the same head of checkpoints trained alike except
their positional scheme, side by side on the same probe. Not a page: ui/views/positional.py
shows it (`section`).
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

import lab.qk_geometry
import viz_core.qk_geometry
from models.weights import zoo

from .. import model_names, serving
from ..figure_words import scheme_label, words
from ..i18n import STRINGS, lang, t
from ..links import bound, choice, index_slider, show_notices
from ..markup import md_escape
from ..serving.positional import geometry, model_entries, scheme_sets, text_of
from ..sidebar import Selection
from ..widgets import figure_export

MAX_TOP = 64


@dataclass(frozen=True)
class Look:
    """The display choices shared by both parts."""

    color_by: str              # position | token
    normalised: bool
    top_k: int


# ---- which models ---------------------------------------------------------------------------------
def models() -> dict[str, str]:
    """Shipped trained single-stack models: key -> name in the UI language (toy tasks first,
    then LMs, then pretrained)."""
    return model_names.labels(model_entries())


def set_label(name: str) -> str:
    if name == "pe64":
        return t("pe_g_set_pe64")
    return t(f"pe_task_{name}") if f"pe_task_{name}" in STRINGS else name


# ---- the figure ----------------------------------------------------------------------------------------
def figure_words() -> dict[str, str]:
    return words("pe_g_w_", ("query", "key", "position", "token", "pc", "attention", "probe"))


def figure(g: lab.qk_geometry.Geometry, tokens: list[tuple[str, ...]], look: Look, *, title: str = "",
           height: int = 480,
           small: bool = False):
    labels = [tokens[x][p] for x, p in zip(g.text, g.position)]
    return viz_core.qk_geometry.qk_scatter(g.coords, g.kind, g.position, labels, explained=g.explained,
                                           color_by=look.color_by,
                      pairs=g.pair_points(), weights=g.weights, text=g.text, title=title, terms=figure_words(),
                      height=height, colorbar=not small, legend=not small, marker_size=7 if small else 9)


# ---- the section --------------------------------------------------------------------------------------
def section(sel: Selection) -> None:
    st.caption(t("pe_g_intro"))
    look = look_controls()
    one_head(sel, look)
    st.divider()
    side_by_side(sel, look)
    with st.expander(t("pe_g_about"), expanded=False):
        st.markdown(t("pe_g_about_text"))


def look_controls() -> Look:
    c1, c2, c3 = st.columns(3)
    with c1:
        color_by = choice(st.radio, t("pe_g_color"), ("position", "token"), param="pe_gc", default="position",
                          horizontal=True, labels={k: t(f"pe_g_color_{k}") for k in ("position", "token")})
    with c2:
        normalised = bound(st.toggle, t("pe_g_norm"), value=True, key="pe_g_norm", url_default="True",
                           help=t("pe_g_norm_help"))
    with c3:
        top_k = bound(st.slider, t("pe_g_top"), 0, MAX_TOP, 12, key="pe_g_top", url_default="12",
                      help=t("pe_g_top_help"))
    return Look(color_by, bool(normalised), int(top_k))


def one_head(sel: Selection, look: Look) -> None:
    st.subheader(t("pe_g_one_title"))
    opts = models()
    default = "toy:reverse-rope" if "toy:reverse-rope" in opts else next(iter(opts))
    c1, c2 = st.columns([2, 1])
    with c1:
        key = choice(st.selectbox, t("pe_g_model"), list(opts), param="pe_gm", default=default, labels=opts)
    with c2:
        probes = bound(st.slider, t("pe_g_probes"), 0, lab.qk_geometry.MAX_PROBES, 0, key="pe_g_probes",
                       url_default="0",
                       help=t("pe_g_probes_help"))
    cfg = zoo.get(key).config
    c1, c2 = st.columns(2)
    with c1:
        layer = index_slider(t("pe_layer"), cfg.n_layers, "pe_g_layer")
    with c2:
        head = index_slider(t("pe_head"), cfg.n_heads, "pe_g_head")
    show_notices()
    if not serving.task_of(key) and not sel.text.strip():
        st.info(t("empty_text"), icon=":material/edit:")
        return
    texts = text_of(key, sel.text, int(probes))
    if not texts[0][0]:
        st.info(t("empty_text"), icon=":material/edit:")
        return
    g = geometry(key, tuple(x[0] for x in texts), int(layer), int(head), look.normalised, look.top_k)
    st.caption(t("pe_g_text", text=md_escape("".join(texts[0][1]) if serving.task_of(key)
                                            else sel.text[:200]), n=len(texts[0][0])))
    figure_export.chart(figure(g, [x[1] for x in texts], look), key="pe_g_chart", width="stretch")
    facts(g, cfg)
    st.caption(t(f"pe_g_look_{cfg.positional}"))


def facts(g: lab.qk_geometry.Geometry, cfg) -> None:
    """Which vectors, which kv head, the normalisation's numbers, the variance shown."""
    parts = [t("pe_g_fact_rot" if g.rotated else "pe_g_fact_plain")]
    if cfg.kv_heads != cfg.n_heads:
        parts.append(t("pe_g_fact_kv", head=g.head, kv=g.kv_head, n=cfg.n_heads, nkv=cfg.kv_heads))
    if g.normalised:
        parts.append(t("pe_g_fact_norm", c=g.scale))
    parts.append(t("pe_g_fact_var", pct=100 * g.explained_pair))
    if g.token_spread == g.token_spread:                      # NaN: no token repeats
        parts.append(t("pe_g_fact_spread", x=g.token_spread))
    st.caption(("" if lang() == "zh" else " ").join(parts))     # Chinese sentences need no space


def side_by_side(sel: Selection, look: Look) -> None:
    st.subheader(t("pe_g_side_title"))
    sets = scheme_sets()
    if not sets:
        st.info(t("pe_g_no_sets"))
        return
    names = list(sets)
    default = "reverse" if "reverse" in names else names[0]
    c1, c2, c3 = st.columns(3)
    with c1:
        name = choice(st.selectbox, t("pe_g_set"), names, param="pe_gset", default=default,
                      labels={n: set_label(n) for n in names})
    keys = sets[name]
    cfg = zoo.get(next(iter(keys.values()))).config
    with c2:
        layer = index_slider(t("pe_layer"), cfg.n_layers, "pe_g_blayer")
    with c3:
        head = index_slider(t("pe_head"), cfg.n_heads, "pe_g_bhead")
    show_notices()
    st.caption(t("pe_g_side_intro"))
    cols = st.columns(3)
    rows = []
    for i, (scheme, key) in enumerate(keys.items()):
        texts = text_of(key, sel.text, 0)
        if not texts[0][0] or (not serving.task_of(key) and not sel.text.strip()):
            st.info(t("empty_text"), icon=":material/edit:")
            return
        m_cfg = zoo.get(key).config
        with cols[i % 3]:
            if layer >= m_cfg.n_layers or head >= m_cfg.n_heads:
                st.info(t("pe_g_no_head", scheme=scheme_label(scheme)))
                continue
            g = geometry(key, (texts[0][0],), int(layer), int(head), look.normalised, look.top_k)
            figure_export.chart(figure(g, [texts[0][1]], look, title=scheme_label(scheme), height=330, small=True),
                     key=f"pe_g_side_{scheme}", width="stretch")
            st.caption(t(f"pe_g_look_{scheme}"))
        rows.append({t("pe_col_scheme"): scheme_label(scheme), t("pe_g_col_var"): g.explained_pair,
                     t("pe_g_col_spread"): g.token_spread})
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="pe_g_table",
                     column_config={t("pe_g_col_var"): st.column_config.NumberColumn(format="percent"),
                                    t("pe_g_col_spread"): st.column_config.NumberColumn(format="%.3f")})
        st.caption(t("pe_g_table_caption"))

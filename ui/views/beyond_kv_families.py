"""Beyond softmax, section 'memory': bytes a decoder of the selected model's shape holds
to generate its next token, against context length, for MHA, GQA, MQA, YOCO, sliding
window and the constant-state family (numbers: lab/kv_families.py; chart:
viz_core/kv_families.py; strings: ui/strings/beyond_kv_families.py), and the impossible
triangle as a table."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import lab.kv_families
import viz_core.kv_families
from lab.kv import attention_kind, kv_head_options
from models.config import TransformerConfig

from ..figure_words import words
from ..i18n import FORMULAS, t
from ..links import bound, choice, show_notices
from ..serving.beyond import at_context, curves
from ..sidebar import Selection
from ..widgets import figure_export

DTYPES = tuple(lab.kv_families.DTYPE_BYTES)
MAX_CONTEXT = 100_000_000
TRIANGLE = ("mha", "gqa", "window", "yoco", "retention", "rwkv", "mamba")


@dataclass(frozen=True)
class Controls:
    lo: int
    hi: int
    dtype: str
    groups: int
    window: int


def default_groups(n_heads: int, kv_heads: int) -> int:
    """The model's own key/value heads when it is GQA, else the proper divisor of the
    heads nearest √heads (1 when there is none)."""
    if 1 < kv_heads < n_heads:
        return kv_heads
    inner = [g for g in kv_head_options(n_heads) if 1 < g < n_heads]
    return min(inner, key=lambda g: abs(g - math.sqrt(n_heads))) if inner else 1


def controls(cfg: TransformerConfig) -> Controls:
    c1, c2, c3, c4, c5 = st.columns([2, 2, 3, 2, 2])
    with c1:
        lo = bound(st.number_input, t("bxm_ctx_lo"), 0, MAX_CONTEXT, 1, 1, key="bxm_lo", url_default="1")
    with c2:
        hi = bound(st.number_input, t("bxm_ctx_hi"), 0, MAX_CONTEXT, 131_072, 1, key="bxm_hi", url_default="131072")
    with c3:
        dtype = choice(st.radio, t("bxm_dtype"), DTYPES, param="bxm_dtype", default="fp16", horizontal=True,
                       labels={d: t(f"bxm_dtype_{d}") for d in DTYPES})
    with c4:
        g = default_groups(cfg.n_heads, cfg.kv_heads)
        groups = bound(st.number_input, t("bxm_groups"), 0, 4096, g, 1, key="bxm_groups", url_default=str(g))
    with c5:
        window = bound(st.number_input, t("bxm_window"), 0, MAX_CONTEXT, 4096, 1, key="bxm_window",
                       url_default="4096")
    return Controls(int(lo), int(hi), dtype, int(groups), int(window))


def family_name(family: str, cfg: TransformerConfig, c: Controls) -> str:
    return t(f"bxm_fam_{family}", kv=cfg.n_heads if family == "mha" else c.groups, w=c.window)


def render(sel: Selection, cfg: TransformerConfig) -> None:
    st.header(t("bxm_mem_title"))
    st.markdown(t("bxm_mem_intro", layers=cfg.n_layers, heads=cfg.n_heads, dh=cfg.head_dim, kv=cfg.kv_heads,
                  d=cfg.d_model))
    c = controls(cfg)
    show_notices()                  # link values these controls could not use
    if not 1 <= c.lo < c.hi:
        st.warning(t("bxm_bad_range", lo=c.lo, hi=c.hi), icon=":material/swap_horiz:")
        return
    s = lab.kv_families.Settings(lab.kv_families.DTYPE_BYTES[c.dtype], c.groups, c.window)
    why = lab.kv_families.check(cfg, s)
    if why == "window":
        st.warning(t("bxm_bad_window", w=c.window), icon=":material/block:")
        return
    if why == "groups":
        st.info(t("bxm_bad_groups", heads=cfg.n_heads, g=c.groups,
                  options=", ".join(map(str, kv_head_options(cfg.n_heads)))), icon=":material/info:")
    elif c.groups in (1, cfg.n_heads):
        st.info(t("bxm_same_groups", g=c.groups, kind=attention_kind(cfg.n_heads, c.groups)), icon=":material/info:")
    cfg_json = json.dumps(cfg.to_dict(), sort_keys=True)
    fams = curves(cfg_json, c.lo, c.hi, s.bytes_per_value, c.groups, c.window)
    names = {f.family: family_name(f.family, cfg, c) for f in fams}
    terms = words("bxm_term_", viz_core.kv_families.MEMORY_TERMS)
    fig = viz_core.kv_families.memory_chart(fams[0].contexts, {names[f.family]: f.total for f in fams},
                                            {names[f.family]: f.next_token for f in fams},
                                            dashed=tuple(names[f.family] for f in fams if f.constant),
                                            model_max=cfg.max_len if c.lo <= cfg.max_len <= c.hi else None, terms=terms,
                                            title=t("bxm_chart_title"))
    figure_export.chart(fig, key="bxm_memory_chart", width="stretch")
    st.caption(t("bxm_mem_caption"))
    numbers_table(cfg, c, s)
    st.caption(t("bxm_state_note", expand=lab.kv_families.MAMBA_EXPAND,
                 inner=lab.kv_families.MAMBA_EXPAND * cfg.d_model, dstate=lab.kv_families.MAMBA_D_STATE,
                 dconv=lab.kv_families.MAMBA_D_CONV, layers=cfg.n_layers, self_layers=cfg.n_layers // 2,
                 cross=cfg.n_layers - cfg.n_layers // 2))
    with st.expander(t("bxm_formulas")):
        for key, family in (("bxm_kv", "mha"), ("bxm_window", "window"), ("bxm_yoco", "yoco"),
                            ("bxm_retention", "retention"), ("bxm_rwkv", "rwkv"), ("bxm_mamba", "mamba")):
            st.markdown(f"*{t('bxm_formula_kv') if family == 'mha' else family_name(family, cfg, c)}*")
            st.latex(FORMULAS[key])
    triangle(cfg, c)


def numbers_table(cfg: TransformerConfig, c: Controls, s: lab.kv_families.Settings) -> None:
    """The numbers at the longest context asked: bytes the next token adds and bytes held."""
    st.markdown(f"**{t('bxm_table_title', n=f'{c.hi:,}')}**")
    fams = at_context(json.dumps(cfg.to_dict(), sort_keys=True), c.hi, s.bytes_per_value, c.groups, c.window)
    mha = next(f for f in fams if f.family == "mha").total[0]
    rows = [{t("bxm_col_family"): family_name(f.family, cfg, c), t("bxm_col_next"): int(f.next_token[0]),
             t("bxm_col_total", n=f"{c.hi:,}"): int(f.total[0]), t("bxm_col_ratio"): float(f.total[0] / mha),
             t("bxm_col_holds"): t(f"bxm_holds_{f.family}")} for f in fams]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={t("bxm_col_ratio"): st.column_config.NumberColumn(format="%.4g"),
                                t("bxm_col_next"): st.column_config.NumberColumn(format="localized"),
                                t("bxm_col_total", n=f"{c.hi:,}"): st.column_config.NumberColumn(format="localized")})


def triangle(cfg: TransformerConfig, c: Controls) -> None:
    st.subheader(t("bxm_tri_title"))
    st.markdown(t("bxm_tri_intro"))
    rows = [{t("bxm_tri_family"): t("bxm_tri_gqa_name") if f == "gqa" else family_name(f, cfg, c), t("bxm_tri_train"): t(f"bxm_tri_{f}_train"),
             t("bxm_tri_infer"): t(f"bxm_tri_{f}_infer"), t("bxm_tri_gives"): t(f"bxm_tri_{f}_gives")}
            for f in TRIANGLE]
    st.table(pd.DataFrame(rows).set_index(t("bxm_tri_family")))
    st.caption(t("bxm_tri_note"))

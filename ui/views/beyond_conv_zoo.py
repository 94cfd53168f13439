"""The Beyond page's convolution section: every common kind of 1-D convolution at the loaded
model's width on the sidebar's token vectors (parameters counted and by formula, output
length, receptive field by formula and measured with autograd), and Lite Transformer's
half-attention, half-convolution layer against full attention (lab/conv_zoo.py, via
ui/serving/conv_zoo.py)."""
from __future__ import annotations

import streamlit as st

from lab import conv_zoo

from ..i18n import t
from ..links import bound, show_notices
from ..markup import markdown_table
from ..page import explain, require_model
from ..serving.conv_zoo import conv_rows
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets.notes import misconception


def render(sel: Selection) -> None:
    require_model(sel)
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        k = int(bound(st.select_slider, t("cz_kernel"), [1, 3, 5, 7], 3, key="cz_k", url_default="3"))
    with c2:
        dil = int(bound(st.slider, t("cz_dilation"), 1, 8, 2, key="cz_dil", url_default="2"))
    with c3:
        groups = int(bound(st.select_slider, t("cz_groups"), [1, 2, 4, 8], 4, key="cz_groups", url_default="4"))
    with c4:
        layers = int(bound(st.slider, t("cz_layers"), 1, 6, 2, key="cz_layers", url_default="2"))
    show_notices()
    try:
        rows, n, d = conv_rows(RunKey.of(sel), k, dil, groups, layers)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    st.markdown(t("cz_intro", d=d, n=n))
    body = [[t(f"cz_kind_{r.kind}"), f"{r.params:,}", f"{r.formula:,}", f"{n} → {r.out_len}",
             str(r.reach_formula) if r.kind != "transposed" else t("cz_na"),
             f"{len(r.reach)} ({r.reach[0]}–{r.reach[-1]})" if r.reach else "—"] for r in rows]
    st.markdown(markdown_table([t("cz_col_kind"), t("cz_col_params"), t("cz_col_formula"), t("cz_col_len"),
                                t("cz_col_reach"), t("cz_col_measured")], body))
    st.caption(t("cz_table_caption", mid=n // 2, layers=layers, n=n))
    dilated = next(r for r in rows if r.kind == "dilated")
    misconception("conv_reach", t("cz_mis_common"), t("cz_mis_shown", layers=layers,
                                                             reach=dilated.reach[-1] - dilated.reach[0] + 1))
    lsra_section(d, n, k)


def lsra_section(d: int, n: int, k: int) -> None:
    st.subheader(t("cz_lsra_title"))
    if d % 2:
        return
    s = conv_zoo.lsra(d, n, max(k, 3))
    st.markdown(t("cz_lsra_intro", d=d, k=s.kernel, n=n))
    conv_macs = n * s.kernel * (d // 2) + n * (d // 2) ** 2
    rows = [[t("cz_lsra_attn"), f"{s.attn_params:,}", f"{s.attn_macs:,}", str(s.attn_reach)],
            [t("cz_lsra_half_attn"), f"{s.lsra_attn_params:,}", f"{s.lsra_macs - conv_macs:,}", str(s.attn_reach)],
            [t("cz_lsra_half_conv"), f"{s.lsra_conv_params:,}", f"{conv_macs:,}", str(s.conv_reach)],
            [t("cz_lsra_total"), f"{s.lsra_params:,}", f"{s.lsra_macs:,}", str(s.attn_reach)]]
    st.markdown(markdown_table([t("cz_lsra_col_what"), t("cz_lsra_col_params"), t("cz_lsra_col_macs"),
                                t("cz_lsra_col_reach")], rows))
    st.caption(t("cz_lsra_caption", p=s.lsra_params / s.attn_params, m=s.lsra_macs / s.attn_macs))



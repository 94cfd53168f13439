"""The attribution page: beyond attention weights. Direct logit attribution (each
head's and MLP's share of a logit), what one head writes, activation patching between
two texts (ui/views/attribution_patching.py) and head detectors
(ui/views/attribution_detectors.py).

Numbers come from `lab.attribution`, `lab.patching` and `lab.detectors` through the
cached loaders of ui/serving/attribution.py; figures from viz_core.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
from lab.residual import has_unembedding
from models.errors import Refused
from viz_core.colors import DIVERGING

from ..figure_words import head_terms
from ..i18n import formula, t
from ..links import choice, index_slider, set_choice, show_notices
from ..markup import md_code, md_escape
from ..model_names import site_label
from ..page import require_data, require_model, require_text, task_example_button
from ..refusals import say
from ..serving import attribution
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.tokens import REFUSED, position_choice, token_label, typed_token
from . import attribution_detectors, attribution_patching

VIEWS = ("dla", "head", "patching", "detectors")
TOP_K = 10


@dataclass(frozen=True)
class Target:
    """The logit the attribution explains: a token, or the difference of two."""

    position: int
    token: int
    other: int | None


def render(sel: Selection) -> None:
    """The attribution page."""
    st.title(t("at_title"))
    model, tok = require_model(sel)
    task_example_button(sel)
    require_text(sel)
    # a model without an LM head has no logits to attribute: it opens on what applies to it
    view = choice(st.radio, t("at_view"), VIEWS, param="aview",
                  default="dla" if has_unembedding(model) else "detectors", horizontal=True,
                  labels={v: t(f"at_view_{v}") for v in VIEWS})
    show_notices()
    st.markdown(t(f"at_intro_{view}"))
    if view == "dla":
        dla_view(sel, model, tok)
    elif view == "head":
        head_view(sel, model)
    elif view == "patching":
        attribution_patching.render_view(sel, model, tok)
    else:
        attribution_detectors.render_view(sel, model)
    explanations(view)


def terms() -> dict[str, str]:
    return head_terms()


def no_lm_head_note(model) -> bool:
    """Say what applies to a model without an LM head; True when it has one."""
    if has_unembedding(model):
        return True
    st.info(t("at_no_lm_head"), icon=":material/info:")
    return False


# ---- direct logit attribution ----------------------------------------------------------------------------
def dla_view(sel: Selection, model, tok) -> None:
    if not no_lm_head_note(model):
        return
    data = require_data(sel, attribution.attribution_data)
    c1, c2, c3 = st.columns([3, 2, 2])
    with c1:
        position = position_choice(data.tokens)
    with c2:
        token = typed_token(tok, t("at_target"), "tok", "at_target_help")
    with c3:
        other = typed_token(tok, t("at_other"), "tok_b", "at_other_help")
    if REFUSED in (token, other):
        return
    top = attribution.top_predictions(RunKey.of(sel), position)
    st.caption(t("at_top", pos=position, tok=md_escape(vz.visible_label(data.tokens[position])),
                 top=", ".join(f"{md_code(token_label(tok, i))} {p:.1%}" for i, p in top)))
    target = Target(position, top[0][0] if token is None else token, other)
    try:
        att = attribution.logit_attribution(RunKey.of(sel), target.position, target.token,
                                            target.other)
    except Refused as e:
        st.info(say(e), icon=":material/info:")
        return
    what = md_code(token_label(tok, target.token))
    if target.other is not None:
        what = t("at_diff_of", a=what, b=md_code(token_label(tok, target.other)))
    st.markdown(t("at_dla_heading", what=what, pos=position))
    m = st.columns(3)
    m[0].metric(t("at_logit"), f"{att.logit:.4f}")
    m[1].metric(t("at_sum"), f"{att.total:.4f}")
    m[2].metric(t("at_error"), f"{att.error:.1e}")
    st.caption(frozen_caption(att.scales))
    if att.capped is not None:                         # Gemma 2: the shares explain the logit before the cap
        st.caption(t("at_softcapped", c=f"{model.cfg.logit_softcap:g}", logit=att.logit, capped=att.capped))
    heads_chart(att.heads, "dla_heads", t("at_heads_title"))
    if att.cross_heads is not None:
        heads_chart(att.cross_heads, "dla_cross", t("at_cross_title"))
    st.caption(t("at_heads_click"))
    labels, values = parts(att)
    fig = vz.token_bars(values, labels, numbered=False, value_name=t("at_share"), red_positive=True,
                        title=t("at_parts_title"))
    figure_export.chart(fig, key="dla_parts", width="stretch")   # red raises, as above
    largest(att)


def frozen_caption(scales: dict[str, float]) -> str:
    shown = t("card_sep").join(t("label_value", label=md_escape(site_label(k)), value=f"s = {v:.4g}")
                               for k, v in list(scales.items())[:6])
    more = "" if len(scales) <= 6 else f" (+{len(scales) - 6})"
    return t("at_frozen", n=len(scales), scales=shown + more)


def _on_head(chart: str) -> None:
    cells = vz.selected_customdata(st.session_state.get(chart))
    if cells:
        layer, head = int(cells[0][0]), int(cells[0][1])
        st.session_state["layer"], st.session_state["head"] = layer, head
        # the head view's sliders are drawn fresh, which does not write their values to the link: do it here
        st.query_params["layer"], st.query_params["head"] = str(layer), str(head)
        set_choice("aview", "head")


def heads_chart(z: np.ndarray, key: str, title: str) -> None:
    name = t("at_share")
    fig = vz.head_metrics_chart({name: z}, name, cmap=DIVERGING, zmid=0.0, title=title, terms=terms())
    figure_export.chart(fig, key=key, on_select=lambda: _on_head(key), selection_mode="points", width="stretch")


def parts(att) -> tuple[list[str], np.ndarray]:
    """The bar chart's pieces: each MLP, the embeddings, and the biases summed."""
    labels = [t("at_piece_mlp", layer=i) for i in range(len(att.mlps))]
    values = list(att.mlps)
    for kind, v in att.embeddings.items():
        labels.append(t(f"at_part_{kind}"))
        values.append(v)
    labels += [t("at_part_attn_bias"), t("at_part_norm_bias")]
    values += [float(att.attn_bias.sum()), float(sum(att.norm_bias.values()))]
    return labels, np.asarray(values, np.float32)


def piece_label(p) -> str:
    """A piece of lab.attribution in the UI language."""
    if p.kind in ("head", "cross_head"):
        return t(f"at_piece_{p.kind}", layer=p.layer, head=p.head)
    if p.kind == "norm_bias":
        return t("at_piece_norm_bias", norm=site_label(p.norm))
    if p.kind in ("mlp", "attn_bias", "cross_bias"):
        return t(f"at_piece_{p.kind}", layer=p.layer)
    return t(f"at_part_{p.kind}")


def largest(att) -> None:
    rows = att.largest(TOP_K)
    st.dataframe(pd.DataFrame({t("at_col_piece"): [piece_label(p) for p in rows],
                               t("at_share"): [p.value for p in rows]}),
                 hide_index=True, width="stretch", key="dla_table")


# ---- what a head writes --------------------------------------------------------------------------------
def head_view(sel: Selection, model) -> None:
    data = require_data(sel, attribution.attribution_data)
    cfg = model.cfg
    c1, c2, c3, c4 = st.columns([3, 2, 2, 2])
    with c1:
        position = position_choice(data.tokens)
    with c2:
        layer = index_slider(t("layer"), cfg.n_layers, "layer")
    with c3:
        head = index_slider(t("head"), cfg.n_heads, "head")
    cross = False
    if cfg.arch == "encoder-decoder":
        with c4:
            cross = choice(st.radio, t("stack"), ["decoder", "cross"], param="hstack", default="decoder",
                           labels={s: t(f"stack_{s}") for s in ("decoder", "cross")}) == "cross"
    try:
        hw = attribution.head_write(RunKey.of(sel), layer, head, position, cross)
    except Refused as e:
        st.info(say(e), icon=":material/info:")
        return
    keys = data.recorded.source.tokens if cross else data.tokens
    st.markdown(t("at_head_heading", layer=layer, head=head, pos=position,
                  tok=md_code(vz.visible_label(data.tokens[position])), kpos=hw.key,
                  ktok=md_code(vz.visible_label(keys[hw.key])), w=hw.weight))
    tok = data.recorded.tokenizer
    left, right = st.columns(2)
    for col, proj, title, chart in ((left, hw.promoted, t("at_writes_title"), "head_writes"),
                                    (right, hw.ov, t("at_ov_title", kpos=hw.key), "head_ov")):
        with col:
            figure_export.chart(vz.vocab_bars([token_label(tok, i) for i in proj.top_ids], proj.top_scores,
                                              [token_label(tok, i) for i in proj.bottom_ids], proj.bottom_scores,
                                              title=title, terms={"score": t("at_score")}),
                                key=chart, width="stretch")
    st.caption(t("at_via_unembedding") if has_unembedding(model) else t("at_via_embedding"))


# ---- explanations ---------------------------------------------------------------------------------------
def explanations(view: str) -> None:
    with st.expander(t("explain")):
        for key in {"dla": ("dla", "frozen", "logit_diff"), "head": ("head_write", "ov"),
                    "patching": ("patching",), "detectors": ("detectors",)}[view]:
            st.markdown(t(f"at_ex_{key}"))
            st.latex(formula(f"at_{key}"))

"""The FFN page: activations (tokens x neurons), one neuron up close (its activation per
token and the tokens its value vector promotes), the activation function over its
inputs, sparsity per layer, the FFN's share of the parameters, A/B and ablations.
Numbers come from the cached internals (ui/serving/cache.py, lab/ffn.py); figures from
viz_core."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import viz_core as vz
from lab import ffn
from viz_core.labels import plain_labels

from .. import serving
from ..figure_words import ffn_terms
from ..i18n import FORMULAS, STRINGS, formula, t
from ..links import bound, choice, index_slider, show_notices
from ..page import explain, internals_page
from ..serving import InternalsData, neuron_projection, parameters
from ..serving.ffn import mixing
from ..serving.run_key import RunKey
from ..sidebar import Selection
from ..widgets import compare, figure_export, size_calculator
from ..widgets.ablation import ablation_panel
from ..widgets.notes import misconception
from . import ffn_experts, ffn_sharding

VIEWS = ("activations", "function", "size", "sharding", "experts", "compare", "ablation")
ORDERS = ("top", "all")
TOL = 0.01          # |activation| at or below this counts as "near zero" for GELU / SwiGLU
MAX_NEURONS = 48    # columns of the clickable heatmap
TOP_K = 5           # neurons per token in the table


def layer_slider(n_layers: int) -> int:
    """The bound layer slider (shared key with the attention page: a link keeps the layer)."""
    return index_slider(t("layer"), n_layers, "layer")


def neuron_input(d_ff: int) -> int:
    if "neuron" in st.session_state and not 0 <= st.session_state["neuron"] < d_ff:
        st.session_state["neuron"] = min(max(int(st.session_state["neuron"]), 0), d_ff - 1)
    return int(bound(st.number_input, t("ffn_neuron"), 0, d_ff - 1, step=1, key="neuron", url_default="0"))


def _on_cell() -> None:
    cells = vz.selected_customdata(st.session_state.get("ffn_map"))
    if cells:
        st.session_state["neuron"] = int(cells[0][1])


@dataclass(frozen=True)
class Controls:
    """What the row of controls chose."""

    view: str          # activations | function | size | sharding | experts | compare | ablation
    layer: int


def render(sel: Selection) -> None:
    """The feed-forward page."""
    data, model = internals_page(sel, t("ffn_title"), t("ffn_intro"), serving.internals)
    body(data, sel, model.cfg)


def controls(cfg) -> Controls:
    view = choice(st.radio, t("view"), VIEWS, param="fview", default="activations", horizontal=True,
                  labels={v: t(f"ffn_view_{v}") for v in VIEWS})
    c1, c2 = st.columns([3, 2])
    with c1:
        layer = layer_slider(cfg.n_layers)
    with c2:
        st.caption(t("ffn_shape", d=cfg.d_model, ff=cfg.d_ff, ratio=cfg.d_ff / cfg.d_model,
                     act=t(f"act_{cfg.activation}")))
    return Controls(view, layer)


@st.fragment
def body(data: InternalsData, sel: Selection, cfg) -> None:
    """Controls and the chosen view (a fragment: switching views reruns only this)."""
    c = controls(cfg)
    show_notices()
    if c.view == "activations":
        activations_view(data, sel, cfg, c.layer)
    elif c.view == "function":
        function_view(data, sel, cfg, c.layer)
    elif c.view == "size":
        size_view(sel, cfg)
    elif c.view == "sharding":
        ffn_sharding.section(sel, cfg, c.layer)
    elif c.view == "experts":
        ffn_experts.section(sel, cfg, c.layer)
    elif c.view == "compare":
        compare.ffn_ab(sel, c.layer)
    else:
        ablation_panel(sel)


def activations_view(data: InternalsData, sel: Selection, cfg, layer: int) -> None:
    which = choice(st.radio, t("ffn_which"), ("post", "pre"), param="fwhich", default="post", horizontal=True,
                   labels={"post": t("ffn_post"), "pre": t("ffn_pre")})
    acts = (data.post if which == "post" else data.pre)[layer]                          # [pos, d_ff]
    order = choice(st.radio, t("ffn_order"), ORDERS, param="forder", default="top", horizontal=True,
                   labels={o: t(f"ffn_order_{o}") for o in ORDERS})
    if order == "top":
        neurons = vz.top_neurons(acts, k_per_token=max(1, MAX_NEURONS // max(1, len(data.tokens))) + 2,
                                 max_neurons=min(MAX_NEURONS, max(1, 128 * 64 // len(data.tokens))))
        fig = vz.activation_heatmap(acts[:, neurons], data.tokens, neurons,
                                    selected=st.session_state.get("neuron"), terms=ffn_terms(),
                                    title=t("ffn_map_title", layer=layer, n=len(neurons)))
        figure_export.chart(fig, key="ffn_map", on_select=_on_cell, selection_mode="points", width="stretch")
        st.caption(t("ffn_map_caption"))
        with st.expander(t("ffn_topk_table", k=TOP_K)):
            top = np.argsort(-acts, axis=1, kind="stable")[:, :TOP_K]                 # [pos, k] strongest first
            rows = {t("term_token"): plain_labels(data.tokens)}
            for j in range(top.shape[1]):
                rows[f"#{j + 1}"] = [f"n{n} ({acts[i, n]:.3g})" for i, n in enumerate(top[:, j])]
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="ffn_topk")
    else:
        sorted_ids = np.argsort(-np.abs(acts).mean(0), kind="stable")
        fig = vz.matrix_heatmap(acts[:, sorted_ids], row_labels=data.tokens,
                                col_labels=[f"n{i}" for i in sorted_ids], title=t("ffn_all_title", layer=layer),
                                row_name=t("term_token"), col_name=t("term_neuron"),
                                colorbar_title=t("term_activation"), max_ticks=20)
        figure_export.chart(fig, key="ffn_all", width="stretch")
        st.caption(t("ffn_all_caption", n=cfg.d_ff))
    neuron_detail(data, sel, cfg, layer, acts if which == "post" else data.post[layer])


def neuron_detail(data: InternalsData, sel: Selection, cfg, layer: int, post: np.ndarray) -> None:
    """One neuron: its activation on every token, and its value vector read as tokens."""
    with st.container(border=True, key="neuron_detail"):
        c1, c2 = st.columns([1, 3])
        with c1:
            n = neuron_input(cfg.d_ff)
        with c2:
            st.markdown(f"**{t('ffn_neuron_title', layer=layer, n=n)}**")
            st.caption(t("ffn_neuron_help"))
        left, right = st.columns(2)
        with left:
            figure_export.chart(vz.token_bars(post[:, n], data.tokens, title=t("ffn_neuron_acts"),
                                              value_name=t("term_activation")), key="neuron_acts", width="stretch")
        with right:
            proj = neuron_projection(sel.model_key, sel.device, layer, n)
            figure_export.chart(vz.vocab_bars(proj["top"], proj["top_scores"], proj["bottom"], proj["bottom_scores"],
                                              title=t("ffn_promotes"), terms=ffn_terms()),
                                key="neuron_vocab", width="stretch")
            st.caption(t(f"ffn_via_{proj['via']}"))
        st.latex(formula("ffn_kv"))


def function_view(data: InternalsData, sel: Selection, cfg, layer: int) -> None:
    pre = data.pre[layer]
    lo, hi = np.percentile(pre, [0.5, 99.5]) if pre.size else (-3.0, 3.0)
    span = max(abs(float(lo)), abs(float(hi)), 1.0)
    x = np.linspace(-span, span, 201, dtype=np.float32)
    curve = f"act_curve_{cfg.activation}"
    name = t(curve if curve in STRINGS else f"act_{cfg.activation}")
    left, right = st.columns([3, 2])
    with left:
        figure_export.chart(vz.activation_function_figure(pre, x, ffn.activation_curve(cfg.activation, x), name=name,
                                                          terms=ffn_terms()), key="ffn_function", width="stretch")
        st.caption(t("ffn_function_caption", layer=layer, n=pre.size))
    exact = ffn.is_exactly_sparse(cfg.activation)
    frac = vz.ffn_sparsity(data.post, exact=exact, tol=TOL)
    with right:
        figure_export.chart(vz.sparsity_chart(frac, title=t("ffn_sparsity_title"), terms=ffn_terms()),
                            key="ffn_sparsity", width="stretch")
        st.caption(t("ffn_sparsity_exact") if exact else t("ffn_sparsity_near", tol=TOL))
    st.markdown(t("ffn_ex_activation"))
    st.latex(FORMULAS.get(f"ffn_{cfg.activation}", FORMULAS["ffn"]))
    activation_notes(sel, cfg, layer)


def activation_notes(sel: Selection, cfg, layer: int) -> None:
    """The two notes beside the activation: its parameters, and which axis the FFN mixes."""
    model, _ = serving.load_model(sel.model_key, sel.device)
    p = ffn.activation_parameters(model)
    shown = t("ffn_mis_params_gated", gate=p.gate) if p.gate else \
        t("ffn_mis_params_none", act={"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)", "silu": "SiLU"}[p.activation],
          gate=p.gate_if_swiglu)
    misconception("activation", t("ffn_mis_params_common"),
                  shown + (t("ffn_mis_params_dyt", n=p.dyt_alphas) if p.dyt_alphas else ""))
    try:
        m = mixing(RunKey.of(sel), layer)
    except (ValueError, RuntimeError) as e:
        st.error(t("run_failed", error=explain(e)))
        return
    misconception("mixing", t("ffn_mis_mixing_common"),
                  t("ffn_mis_mixing_shown", pos=m.position, layer=layer, here=m.ffn_here, others=m.n - 1,
                    elsewhere=m.ffn_elsewhere, moved=m.attn_moved, n=m.n))


def size_view(sel: Selection, cfg) -> None:
    p = parameters(sel.model_key, sel.device)
    parts, total = p["parts"], p["total"]
    labels = {k: t(f"ffn_part_{k}") for k in parts}
    left, right = st.columns([2, 3])
    with left:
        figure_export.chart(vz.share_chart(parts, labels, title=t("ffn_share_title")), key="ffn_share", width="stretch")
    with right:
        st.metric(t("ffn_share_metric"), f"{parts['ffn'] / total:.1%}")
        blocks = parts["ffn"] + parts["attention"]
        st.metric(t("ffn_share_blocks"), f"{parts['ffn'] / blocks:.1%}" if blocks else "–")
        st.dataframe(pd.DataFrame({t("ffn_col_part"): [labels[k] for k in parts],
                                   t("ffn_col_params"): [f"{v:,}" for v in parts.values()],
                                   t("ffn_col_share"): [f"{v / total:.1%}" for v in parts.values()]}),
                     hide_index=True, width="stretch", key="ffn_share_table")
        st.caption(t("ffn_size_caption", d=cfg.d_model, ff=cfg.d_ff, per=p["ffn_layer"], layers=cfg.n_layers))
    st.markdown(t("ffn_ex_size"))
    model, _ = serving.load_model(sel.model_key, sel.device)
    size_calculator.section(model, sel.model_label)          # any model's size from its shape (lab/sizes.py)

"""The positional knobs panel of the positional-encoding lab: RoPE base θ and scaling
(position interpolation, NTK-aware, YaRN), ALiBi's slopes, T5's buckets and max distance,
the sinusoidal base and layout, and the softmax temperature. Every knob is bound to the
URL (`?pe_k_theta=500&pe_k_factor=4…`), so a teacher can link a setting; a link value out
of range is clamped and said.

The checkpoint sections of the positional page (attention, extrapolation, shift test,
ui/views/positional_checkpoints.py; train short / test long, positional_length_curve.py) read the
knobs from `panel()` and run `knobbed(key, knobs)` (ui/serving/positional.py): the trained
weights with the knobs applied (lab/pe_knobs.py).
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import streamlit as st

import lab.pe_knobs
import models.positional
import viz_core.pe_knobs
import viz_core.positional
from models.config import ROPE_SCALINGS, SINUSOIDAL_LAYOUTS, STOCK_BASE, TransformerConfig

from .. import serving
from ..figure_words import words as words_of
from ..i18n import t
from ..links import bound, choice, clamp_link_value, set_choice, show_notices
from ..serving.positional import DEVICE
from . import figure_export

PARAMS = ("pe_k_theta", "pe_k_scaling", "pe_k_factor", "pe_k_alibi", "pe_k_buckets", "pe_k_maxdist",
          "pe_k_sinbase", "pe_k_layout", "pe_k_temp")


def words() -> dict[str, str]:
    return words_of("pek_w_", viz_core.pe_knobs.DEFAULT_WORDS)


def _number(label: str, name: str, default: float, key: str, step: float | None = None, fmt: str = "%g",
            help_: str | None = None) -> float:
    low, high = lab.pe_knobs.RANGES[name]
    args = (float(low), float(high), float(default)) if isinstance(default, float) else (int(low), int(high), default)
    if step is not None:
        args = (*args, step)
    clamp_link_value(key, low, high, integer=not isinstance(default, float))
    return bound(st.number_input, label, *args, key=key, url_default=str(default), format=fmt, help=help_)


def is_changed() -> bool:
    """Whether a link or the session set any knob (the panel then opens by itself)."""
    return any(p in st.query_params for p in PARAMS)


def reset(relative_default: tuple[int, int]) -> None:
    """Every knob back to the trained setting (a callback: before the widgets are drawn)."""
    numbers = {"pe_k_theta": STOCK_BASE, "pe_k_factor": 1.0, "pe_k_alibi": 1.0,
               "pe_k_buckets": int(relative_default[0]),
               "pe_k_maxdist": int(relative_default[1]), "pe_k_sinbase": STOCK_BASE, "pe_k_temp": 1.0}
    for p, value in numbers.items():
        if p in st.session_state:
            st.session_state[p] = value
    set_choice("pe_k_scaling", "none")
    set_choice("pe_k_layout", "interleaved")


def panel(cards: dict[str, dict], train_len: int, eval_len: int | None = None,
          key: str = "pe_kfig") -> lab.pe_knobs.Knobs:
    """The knobs for a set of checkpoints {scheme: card with its "key"} trained on
    `train_len` positions, and the temperature; returns what they chose (a frozen
    `Knobs`, itself the cache key). The T5 defaults and RoPE's pairs are those of the set's own models;
    each knob's picture (RoPE's wavelengths, T5's bucket map) is drawn beside it."""
    schemes = tuple(cards)
    rel = serving.load_model(cards["relative"]["key"], DEVICE)[0].cfg if "relative" in cards else None
    rope = serving.load_model(cards["rope"]["key"], DEVICE)[0].cfg if "rope" in cards else None
    relative_default = (rel.relative_buckets, rel.relative_max_distance) if rel else (32, 128)
    with st.expander(t("pek_title"), expanded=is_changed(), icon=":material/tune:"):
        st.caption(t("pek_intro"))
        theta, scaling, factor = None, "none", 1.0
        alibi, buckets, maxdist, sinbase, layout = 1.0, None, None, None, None
        c1, c2, c3 = st.columns(3)
        if "rope" in schemes:
            with c1:
                theta = _number(t("pek_theta"), "rope_base", STOCK_BASE, "pe_k_theta", help_=t("pek_theta_help"))
            with c2:
                scaling = choice(st.selectbox, t("pek_scaling"), ROPE_SCALINGS, param="pe_k_scaling", default="none",
                                 labels={s: t(f"pek_scaling_{s}") for s in ROPE_SCALINGS}, help=t("pek_scaling_help"))
            with c3:
                factor = _number(t("pek_factor"), "rope_factor", 1.0, "pe_k_factor", step=0.5,
                                 help_=t("pek_factor_help"))
        c4, c5, c6 = st.columns(3)
        if "alibi" in schemes:
            with c4:
                alibi = _number(t("pek_alibi"), "alibi_slope_scale", 1.0, "pe_k_alibi", step=0.25,
                                help_=t("pek_alibi_help"))
        if "relative" in schemes:
            with c5:
                buckets = int(_number(t("pek_buckets"), "relative_buckets", int(relative_default[0]), "pe_k_buckets",
                                      step=2, fmt="%d"))
            with c6:
                maxdist = int(_number(t("pek_maxdist"), "relative_max_distance", int(relative_default[1]),
                                      "pe_k_maxdist", step=8, fmt="%d"))
        c7, c8, c9 = st.columns(3)
        if "sinusoidal" in schemes:
            with c7:
                sinbase = _number(t("pek_sinbase"), "sinusoidal_base", STOCK_BASE, "pe_k_sinbase")
            with c8:
                layout = choice(st.radio, t("pek_layout"), SINUSOIDAL_LAYOUTS, param="pe_k_layout",
                                default="interleaved", horizontal=True,
                                labels={s: t(f"pek_layout_{s}") for s in SINUSOIDAL_LAYOUTS})
        with c9:
            temp = _number(t("pek_temp"), "temperature", 1.0, "pe_k_temp", step=0.1, help_=t("pek_temp_help"))
        show_notices()
        # a knob at the trained setting is no knob (so the stock model is the cached one)
        if (buckets, maxdist) == tuple(relative_default):
            buckets = maxdist = None
        theta = None if theta == STOCK_BASE else theta
        sinbase = None if sinbase == STOCK_BASE else sinbase
        layout = None if layout == "interleaved" else layout
        if factor == 1.0:
            scaling = "none"
        knobs = lab.pe_knobs.Knobs(rope_base=theta, rope_scaling=scaling, rope_factor=factor, alibi_slope_scale=alibi,
                        relative_buckets=buckets, relative_max_distance=maxdist, sinusoidal_base=sinbase,
                        sinusoidal_layout=layout, temperature=temp)
        if st.session_state.get("_pe_k_scaling", "none") != "none" and factor == 1.0:
            st.info(t("pek_factor_one"), icon=":material/info:")
        if not knobs.is_stock:
            st.button(t("pek_reset"), on_click=reset, args=(tuple(relative_default),), key=f"{key}_reset",
                      icon=":material/restart_alt:")
        pictures(schemes, knobs, train_len, relative_default, eval_len, key, rope)
    if not knobs.is_stock:
        st.caption(t("pek_active", what=summary(knobs, schemes)))
    return knobs


def summary(knobs: lab.pe_knobs.Knobs, schemes: Iterable[str]) -> str:
    """The knobs that act, in words ("RoPE θ = 500, ×4 position interpolation; T = 2")."""
    parts = []
    schemes = set(schemes)
    if "rope" in schemes and knobs.rope_base not in (None, STOCK_BASE):
        parts.append(f"RoPE θ = {knobs.rope_base:g}")
    if "rope" in schemes and knobs.rope_scaling != "none" and knobs.rope_factor != 1.0:
        parts.append(f"{t('pek_scaling_' + knobs.rope_scaling)} ×{knobs.rope_factor:g}")
    if "alibi" in schemes and knobs.alibi_slope_scale != 1.0:
        parts.append(t("pek_sum_alibi", s=knobs.alibi_slope_scale))
    if "relative" in schemes and knobs.relative_buckets is not None:
        parts.append(t("pek_sum_buckets", b=knobs.relative_buckets, d=knobs.relative_max_distance))
    if "sinusoidal" in schemes and (knobs.sinusoidal_base not in (None, STOCK_BASE) or
                                    knobs.sinusoidal_layout not in (None, "interleaved")):
        parts.append(t("pek_sum_sin", b=knobs.sinusoidal_base or STOCK_BASE,
                       layout=t(f"pek_layout_{knobs.sinusoidal_layout or 'interleaved'}")))
    if knobs.temperature != 1.0:
        parts.append(f"T = {knobs.temperature:g}")
    return "; ".join(parts) or t("pek_sum_stock")


def pictures(schemes: tuple[str, ...], knobs: lab.pe_knobs.Knobs, train_len: int, relative_default: tuple[int, int],
             eval_len: int | None, key: str, rope: TransformerConfig | None) -> None:
    """What each knob changes, drawn: the RoPE model's wavelengths against the training
    length, T5's bucket map with the new buckets."""
    if rope is not None:
        stock = lab.pe_knobs.wavelengths(rope, lab.pe_knobs.Knobs(), train_len).numpy()
        now = lab.pe_knobs.wavelengths(rope, knobs, train_len).numpy()
        changed = not np.array_equal(now, stock)
        figure_export.chart(viz_core.pe_knobs.wavelength_chart(stock, now if changed else None, train_len, eval_len,
                                                               words=words(),
                                     title=t("pek_wave_title", d=rope.rotary_dim)), key=f"{key}_wave",
                 width="stretch")
        st.caption(t("pek_wave_caption", n=train_len,
                     turned=int((stock <= train_len).sum()), turned_now=int((now <= (eval_len or train_len)).sum()),
                     pairs=len(stock), m=eval_len or train_len))
    if "relative" in schemes:
        b = knobs.relative_buckets or relative_default[0]
        dmax = knobs.relative_max_distance or relative_default[1]
        n = min(4 * train_len, 160)
        bmap = models.positional.relative_bucket_map(n, n, False, b, dmax).numpy().astype(np.float32)
        figure_export.chart(viz_core.positional.matrix(bmap, title=t("pek_bucket_title", b=b, d=dmax), center=None,
                                                       height=320,
                           value_name=t("pek_bucket"), x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos")),
                 key=f"{key}_buckets", width="stretch")
        if (b, dmax) != tuple(relative_default):
            st.info(t("pek_reindexed", b0=relative_default[0], d0=relative_default[1], b=b, d=dmax),
                    icon=":material/swap_horiz:")

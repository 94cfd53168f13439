"""The positional lab's "train short, test long" section: six character language models,
identical but for their positional scheme, trained on 64-character windows of the verse
corpus (recipes/pe_lm.py), read at 1× to 8× that length — Press et al. (2022),
Figure 1, at toy scale — and the mean attention weight against query-key distance at 1×,
2× and 4×. The positional knobs (ui/widgets/positional_knobs.py) re-evaluate both, cached
per setting (the cached passes are ui/serving/positional.py's). Not a page:
ui/views/positional.py shows it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import lab.length_curve
import viz_core.length_curve
from lab.pe_knobs import Knobs

from .. import serving
from ..figure_words import scheme_label
from ..i18n import t
from ..links import choice
from ..serving.positional import DEVICE, LENGTH_BUDGET, LENGTH_FACTORS, STOCK, curve, lm_set, profile
from ..widgets import figure_export
from ..widgets import positional_knobs

PROFILE_FACTORS = (1.0, 2.0, 4.0)
LANGS = ("en", "zh-modern", "zh-verse")     # parts of the corpus (models/training/corpus.py PARTS)


def train_len(cards: dict[str, dict]) -> int:
    return int(next(iter(cards.values())).get("train_len") or 64)


def lang_labels() -> dict[str, str]:
    return {"en": t("pel_lang_en"), "zh-modern": t("pel_lang_zh_modern"), "zh-verse": t("pel_lang_zh_verse")}


def section() -> None:
    cards = lm_set()
    if not cards:
        st.info(t("pel_missing"), icon=":material/inventory_2:")
        return
    n = train_len(cards)
    st.markdown(t("pel_intro", n=n, n8=8 * n))
    lang = choice(st.radio, t("pel_lang"), LANGS, param="pe_l_lang", default="en", horizontal=True,
                  labels=lang_labels())
    knobs = positional_knobs.panel(cards, n, 8 * n, key="pe_lfig")
    view = choice(st.radio, t("pel_view"), ("curve", "distance"), param="pe_l_view", default="curve",
                  horizontal=True, labels={"curve": t("pel_view_curve"), "distance": t("pel_view_distance")})
    if view == "curve":
        curve_view(cards, lang, knobs, n)
    else:
        distance_view(cards, lang, knobs, n)


def curve_view(cards: dict[str, dict], lang: str, knobs: Knobs, n: int) -> None:
    progress = st.progress(0.0, text=t("pel_running"))
    results, stock = {}, {}
    for i, (s, card) in enumerate(cards.items()):
        results[s] = curve(card["key"], lang, knobs, n)
        if knobs != STOCK:
            stock[s] = curve(card["key"], lang, STOCK, n)
        progress.progress((i + 1) / len(cards), text=t("pel_running"))
    progress.empty()
    series = {scheme_label(s): [r[2] for r in rows] for s, rows in results.items()}
    stock_series = {scheme_label(s): [r[2] for r in rows] for s, rows in stock.items()} or None
    learned_end = None
    if "learned" in cards:
        learned_end = lab.length_curve.max_length(serving.load_model(cards["learned"]["key"], DEVICE)[0]) / n
    figure_export.chart(viz_core.length_curve.length_curves(LENGTH_FACTORS, series, stock=stock_series,
                                                            table_end=learned_end,
                              words=positional_knobs.words(),
                              title=t("pel_curve_title", lang=lang_labels()[lang], n=n)),
             key="pe_l_curve", width="stretch")
    table = []
    for s, rows in results.items():
        row = {t("pe_col_scheme"): scheme_label(s)}
        for f, length, bpc in rows:
            row[t("pel_col", f=f"{f:g}", n=length)] = t("pe_beyond_table") if bpc is None else f"{bpc:.3f}"
        table.append(row)
    st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch", key="pe_l_table")
    st.caption(t("pel_method", n=n, chars=f"{LENGTH_BUDGET:,}"))
    if lang == "zh-verse":
        st.warning(t("pel_verse_note"), icon=":material/translate:")
    reading(results)


def reading(results: dict[str, list]) -> None:
    """What the figure reproduces of the paper and where it differs, from the numbers above."""
    def at(s: str, f: float) -> float | None:
        return next((b for ff, _, b in results.get(s, []) if ff == f), None)

    facts = []
    for s in results:
        one, four = at(s, 1.0), at(s, 4.0)
        if one is not None and four is not None:
            facts.append(t("pel_fact", scheme=scheme_label(s), a=one, b=four, ratio=four / one))
    if facts:
        st.markdown(t("pel_reading") + "\n" + "\n".join(f"- {f}" for f in facts))
    st.info(t("pel_paper"), icon=":material/menu_book:")


def distance_view(cards: dict[str, dict], lang: str, knobs: Knobs, n: int) -> None:
    panels: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
    for s, card in cards.items():
        limit = lab.length_curve.max_length(serving.load_model(card["key"], DEVICE)[0])     # a learned table's rows
        lines = {}
        for f in PROFILE_FACTORS:
            length = int(n * f)
            if limit is not None and length > limit:
                continue
            lines[t("pek_w_length", f=f"{f:g}", n=length)] = profile(card["key"], lang, knobs, n, f)
        panels[scheme_label(s)] = lines
    figure_export.chart(viz_core.length_curve.distance_profile(panels, words=positional_knobs.words(),
                                                               title=t("pel_dist_title")),
             key="pe_l_distance", width="stretch")
    st.caption(t("pel_dist_caption", n=n))

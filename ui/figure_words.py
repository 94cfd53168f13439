"""Words inside figures, in the UI language, that a page view and a lesson step both draw
with (lessons import no view, issue 34): the FFN's and the masks' figure words, the
positional figures' words and a scheme's name, and the per-head bias grid the positional
page and the positions lesson draw alike. Lookups in ui/i18n; the figures are viz_core's.

`words(prefix, keys)` is the one spelling of "these figure words in the UI language" (each
key's string is `<prefix><key>`); the word sets several figures share have a name here."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import viz_core.positional

from .i18n import t


def words(prefix: str, keys: Iterable[str]) -> dict[str, str]:
    """The figure words ``keys`` in the UI language: key -> t(prefix + key)."""
    return {k: t(f"{prefix}{k}") for k in keys}


def weight_terms() -> dict[str, str]:
    """Words of a weights heatmap (query, key, masked, weight)."""
    return words("term_", ("query", "key", "masked", "weight"))


def head_terms() -> dict[str, str]:
    """Words of a layer × head chart."""
    return words("term_", ("layer", "head"))


def attention_terms() -> dict[str, str]:
    """Words of the attention figures: a weights heatmap and its layer × head grid."""
    return words("term_", ("query", "key", "masked", "layer", "head", "weight"))


def ffn_terms() -> dict[str, str]:
    """Words inside the FFN figures."""
    return words("term_", ("token", "neuron", "activation", "count", "layer", "sparsity", "score"))


def mask_terms() -> dict[str, str]:
    """Words inside the mask figures, in the UI language."""
    out = words("mk_term_", ("allowed", "blocked", "empty", "length", "pairs", "reached", "keys", "fewest"))
    out.update(query=t("term_query"), key=t("term_key"), layer=t("mk_term_layers"), value=t("wt_term_value"))
    return out


def pe_words() -> dict[str, str]:
    """Words inside the positional figures, in the UI language."""
    return {"position": t("pe_w_position"), "dimension": t("pe_w_dimension"), "value": t("pe_w_value"),
            "wavelength": t("pe_w_wavelength"), "table_end": t("pe_w_table_end", n="{n}"),
            "no_wavelength": t("pe_w_no_wavelength")}


def scheme_label(s: str) -> str:
    """A positional scheme's name in the UI language."""
    return t(f"pe_scheme_{s}")


def bias_grid(bias: np.ndarray, title: str):
    """Per-head bias maps [heads, q, k] as small multiples."""
    return viz_core.positional.matrix_grid(bias, panel_titles=[t("pe_w_head", h=h) for h in range(bias.shape[0])], title=title,
                          value_name=t("pe_w_bias"), x_name=t("pe_w_key_pos"), y_name=t("pe_w_query_pos"), cols=4,
                          panel_height=170)

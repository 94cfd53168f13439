"""The positional lab's "before sinusoidal" section: the schemes tried first ([0, 1]-normalised
index, integer index, binary, one-hot) beside sinusoidal vectors, as distances between every
two positions, the same gap measured in texts of two lengths, and the course notes' worked
examples recomputed (lab/naive_positions.py: `naive_table`, `distances`, `gap_table`). No model runs."""
from __future__ import annotations

import numpy as np
import streamlit as st

import viz_core.positional
from lab import naive_positions
from lab.naive_positions import GAPS, NAIVE, NOTES_TEXTS

from ..figure_words import scheme_label
from ..i18n import t
from ..links import bound, show_notices
from ..markup import markdown_table
from ..widgets import figure_export
from ..widgets.notes import misconception

SCHEMES = (*NAIVE, "sinusoidal")
WIDTH = 64            # the sinusoidal vectors' width here


def name(scheme: str) -> str:
    return scheme_label(scheme) if scheme == "sinusoidal" else t(f"pn_scheme_{scheme}")


def section() -> None:
    st.caption(t("pn_intro"))
    c1, c2 = st.columns(2)
    with c1:
        n = int(bound(st.slider, t("pn_length"), 4, 64, 24, key="pn_n", url_default="24"))
    with c2:
        trained = int(bound(st.slider, t("pn_trained"), 2, 64, 16, key="pn_trained", url_default="16",
                            help=t("pn_trained_help")))
    show_notices()
    mats = []
    for s in SCHEMES:
        d = naive_positions.distances(naive_positions.position_vectors(s, n, trained, WIDTH))
        top = np.nanmax(d) if np.isfinite(d).any() else 1.0
        mats.append(d / (top or 1.0))
    fig = viz_core.positional.matrix_grid(
        np.stack(mats), panel_titles=[name(s) for s in SCHEMES], cols=5, center=None, title=t("pn_grid_title", n=n),
        x_name=t("pe_w_position"), y_name=t("pe_w_position"), value_name=t("pn_distance"))
    figure_export.chart(fig, key="pn_grid", width="stretch")
    bits = naive_positions.naive_table("binary", n, trained).shape[1]
    st.caption(t("pn_grid_caption", trained=trained, bits=bits, first=2 ** bits))
    gaps()
    worked()


def gaps() -> None:
    """The same gap in texts of two lengths, another pair as far apart, and a near and a far pair."""
    st.markdown(f"**{t('pn_gaps_title')}**")
    table = naive_positions.gap_table(SCHEMES, WIDTH)
    header = [t("pn_col_scheme"), *[t("pn_col_gap", n=n, a=a, b=b) for n, a, b in GAPS]]
    st.markdown(markdown_table(header, [[name(s), *[f"{v:.3g}" for v in table[s]]] for s in SCHEMES]))
    st.caption(t("pn_gaps_caption"))


def worked() -> None:
    """The notes' two examples, 6 and 9 characters, each index by the two first schemes."""
    rows = []
    for text in NOTES_TEXTS:
        n = len(text)
        norm = naive_positions.naive_table("normalised", n).ravel()
        ints = naive_positions.naive_table("integer", n).ravel()
        rows.append([f"`{text}`", str(n), ", ".join(f"{v:.3g}" for v in norm), ", ".join(f"{int(v)}" for v in ints)])
    st.markdown(markdown_table([t("pn_col_text"), t("pn_col_chars"), t("pn_scheme_normalised"), t("pn_scheme_integer")],
                               rows, markup=True))        # the notes' texts as code: example input, in either language
    six, nine = (len(x) for x in NOTES_TEXTS)
    misconception("pn_normalised", t("pn_mis_normalised_common", text=NOTES_TEXTS[0]),
                  t("pn_mis_normalised_shown", n=six, step=f"{1 / (six - 1):.2g}", wrong=f"{1 / six:.2g}"))
    misconception("pn_integer", t("pn_mis_integer_common", text=NOTES_TEXTS[1]), t("pn_mis_integer_shown", n=nine))
    misconception("pn_relative", t("pn_mis_relative_common"), t("pn_mis_relative_shown"))

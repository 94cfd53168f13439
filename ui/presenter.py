"""Presenter mode (`?present=1`) and the colour palette (`?palette=cividis`), for every page.

Presenter mode is for a projector: the sidebar starts folded away, the root font size
grows so that body text is 24 px and titles 48 px, columns holding a figure stack so
that each figure takes the full width. One stylesheet, injected once per run by
`apply()` (no CDN, nothing fetched). Plotly follows through Streamlit's chart theme,
which converts its rem font sizes to px from the root font size when it draws a chart
(so axis titles, default tick labels and legends grow with the text); the sizes our
figures set themselves (token tick labels and margins, `viz_core.figure.axis_ticks`)
follow `viz_core.figure.use_text_scale`, set here for the run.

The palette is one seam in viz_core (`viz_core.colors`): builders ask for the role
`SEQUENTIAL` and get the current palette when they draw, both as a plotly colorscale
and as the LUT of the PNG path. The app registers `colors.set_palette_source` once:
it reads this session's choice, so a fragment rerun (which skips app.py, in a fresh
script thread) still draws in the reader's palette.

Public API (the lessons page uses it): `active() -> bool`, `palette() -> str`.
"""
from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from viz_core import colors
from viz_core.figure import set_text_scale_source

from .i18n import LANGUAGES, lang, t
from .links import choice, notice

PARAM = "present"           # ?present=1
PALETTE_PARAM = "palette"   # ?palette=cividis
STATE = "_present"          # canonical on/off of this session
TEXT_SCALE = 1.5            # 24 px body text on Streamlit's 16 px base
_ON, _OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")

# Root font size 24 px: Streamlit's rem-based text, spacing and chart theme scale with it.
# Titles are set in rem too (h1 2rem = 48 px instead of 66 px, which wraps at 1280 px).
# The header (its two buttons) is as tall as the page's top padding, 2.5rem: at Streamlit's
# 3.75rem (90 px) it covered the first line of a page that starts without a title (a lesson).
CSS = """<style>
html { font-size: 24px !important; }
[data-testid="stHeader"] { height: 2.5rem !important; min-height: 0 !important; }
[data-testid="stMainBlockContainer"] { padding: 2.5rem 1.25rem 2rem 1.25rem !important; max-width: 100% !important; }
[data-testid="stMain"] h1 { font-size: 2rem !important; line-height: 1.2 !important; }
[data-testid="stMain"] h2 { font-size: 1.5rem !important; }
[data-testid="stMain"] h3 { font-size: 1.25rem !important; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] :is(p, li) { font-size: 1rem !important; }
[data-testid="stHorizontalBlock"]:has([data-testid="stPlotlyChart"]) { flex-wrap: wrap !important; }
[data-testid="stHorizontalBlock"]:has([data-testid="stPlotlyChart"]) > [data-testid="stColumn"]:has([data-testid="stPlotlyChart"]) {
  flex: 1 1 100% !important; width: 100% !important; min-width: 100% !important; }
</style>"""


def parse(value: str | None) -> bool | None:
    """A link's ?present= value: True, False, or None when it is not a yes/no."""
    if value is None:
        return False
    v = value.strip().lower()
    return True if v in _ON else False if v in _OFF else None


def active() -> bool:
    """Whether presenter mode is on for this session (the sidebar's toggle, which starts
    from the link's ?present=)."""
    if STATE in st.session_state:
        return bool(st.session_state[STATE])
    return parse(st.query_params.get(PARAM)) is True


def palette() -> str:
    """The sequential colour map this session's figures use (one of
    `viz_core.colors.PALETTES`, e.g. "viridis")."""
    return colors.palette()


def session_palette() -> str | None:
    """This session's palette choice (None outside a script run: a notebook, a worker
    thread): the source viz_core.colors reads when no `use_palette` block is active."""
    return st.session_state.get(f"_{PALETTE_PARAM}") if get_script_run_ctx(suppress_warning=True) is not None else None


def session_text_scale() -> float | None:
    """The text scale of this session's figures: TEXT_SCALE in presenter mode, else None
    (the figures' own sizes)."""
    return TEXT_SCALE if get_script_run_ctx(suppress_warning=True) is not None and active() else None


colors.set_palette_source(session_palette)
set_text_scale_source(session_text_scale)


def controls() -> None:
    """The sidebar's presenter toggle and palette picker (call inside `st.sidebar`), then
    the stylesheet and the folded sidebar when presenter mode is on."""
    if STATE not in st.session_state:
        asked = st.query_params.get(PARAM)
        on = parse(asked)
        if on is None:
            notice(PARAM, asked)
        st.session_state[STATE] = bool(on)
    wkey = f"{PARAM}__{lang()}"

    def sync() -> None:
        st.session_state[STATE] = st.session_state[wkey]

    st.toggle(t("present_toggle"), value=bool(st.session_state[STATE]), key=wkey, on_change=sync,
              help=t("present_help"))
    for code in LANGUAGES.values():     # the other language's widget starts from the state
        if code != lang():
            st.session_state.pop(f"{PARAM}__{code}", None)
    if st.session_state[STATE]:
        if st.query_params.get(PARAM) != "1":
            st.query_params[PARAM] = "1"
    elif PARAM in st.query_params:
        del st.query_params[PARAM]
    choice(st.selectbox, t("palette"), colors.PALETTES, param=PALETTE_PARAM, default=colors.DEFAULT_PALETTE,
           labels={p: t(f"palette_{p}") for p in colors.PALETTES}, help=t("palette_help"))


def apply() -> None:
    """In presenter mode: fold the sidebar away (at page load) and inject the stylesheet.
    Call once per run, in app.py, outside the sidebar."""
    if not active():
        return
    st.set_page_config(initial_sidebar_state="collapsed")
    st.html(CSS)

"""Positional-encoding lab: schemes side by side, their properties, and their effect on
attention in the toy checkpoints trained once per scheme."""
import streamlit as st

from ui import positional_views as pv
from ui.i18n import t

st.title(t("pe_title"))
st.caption(t("pe_intro"))
# Controls and views are one fragment: moving a slider reruns only the lab.
pv.lab()

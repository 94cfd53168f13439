"""Overview: what Glassbox shows, the loaded model, and how it splits the text."""
import streamlit as st

from ui import home_views as hv
from ui.i18n import t
from ui.shell import require_model
from ui.shell import current, show_notices

sel = current()
st.title(t("app_title"))
show_notices()
st.markdown(f"**{t('tagline')}**")
st.markdown(t("home_intro"))
model, tok = require_model(sel)

left, right = st.columns([3, 2], gap="large")
with left:
    hv.tokens_section(model, tok, sel)
    st.subheader(t("home_pipeline"))
    st.markdown(t("home_pipeline_text"))
    st.page_link("app_pages/attention.py", label=t("home_open_attention"), icon=":material/visibility:")
with right:
    hv.model_card(model, sel)
hv.catalogue_table()

"""The residual stream: norms and contributions, normalisation statistics, Pre-LN vs
Post-LN, the logit lens, A/B comparison and ablations."""
import streamlit as st

from ui import residual_views as rv
from ui.i18n import t
from ui.shell import require_internals, task_example_button
from ui.shell import require_model, require_text
from ui.shell import current

sel = current()
st.title(t("res_title"))
model, _ = require_model(sel)
task_example_button(sel)
require_text(sel)
data = require_internals(sel)
st.markdown(t("res_intro"))
rv.page(data, sel, model.cfg)

"""The feed-forward network: activations, one neuron up close, sparsity, parameter share,
A/B comparison and ablations."""
import streamlit as st

from ui import ffn_views as fv
from ui.i18n import t
from ui.shell import require_internals, task_example_button
from ui.shell import require_model, require_text
from ui.shell import current

sel = current()
st.title(t("ffn_title"))
model, _ = require_model(sel)
task_example_button(sel)
require_text(sel)
data = require_internals(sel)
st.markdown(t("ffn_intro"))
fv.page(data, sel, model.cfg)

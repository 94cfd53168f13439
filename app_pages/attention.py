"""Attention explorer: every head of every layer, one head up close, lines, metrics, rollout."""
import streamlit as st

from ui import attention_views as av
from ui.i18n import t
from ui.shell import require_attention, require_model, require_text
from ui.shell import current

sel = current()
st.title(t("attn_title"))
model, _ = require_model(sel)
require_text(sel)
data = require_attention(sel)

# Controls and views are one fragment: switching head, layer or view reruns only them.
av.explorer(data, sel, model.cfg.n_layers, model.cfg.n_heads, model.cfg.arch)
av.memory_caption(data, model.cfg)
av.explanations()

"""Attention explorer: every head of every layer, one head up close, lines, metrics, rollout."""
import streamlit as st

from ui import attention_views as av
from ui.i18n import t
from ui.session import require_attention, require_model, require_text
from ui.shell import current, page_guard, show_notices

page_guard()
sel = current()
st.title(t("attn_title"))
model, _ = require_model(sel)
require_text(sel)
data = require_attention(sel)

c = av.controls(model.cfg.n_layers, model.cfg.n_heads, model.cfg.arch)
show_notices()

if c["view"] == "heads":
    av.heads_view(data, c, sel)
elif c["view"] == "lines":
    av.lines_view(data, c)
elif c["view"] == "metrics":
    av.metrics_view(data, c, sel)
else:
    av.rollout_view(data, c, sel)

av.export_section(data, c, sel)
av.explanations()

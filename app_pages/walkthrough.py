"""Q/K/V walk-through: one head, one query token, from the attention input to hook_attn_out."""
import streamlit as st

from ui import walkthrough_views as wv
from ui.i18n import t
from ui.shell import require_model, require_text
from ui.shell import current, show_notices

sel = current()
st.title(t("wt_title"))
st.markdown(t("wt_intro"))
model, _ = require_model(sel)
require_text(sel)
c = wv.controls(sel, model.cfg)
show_notices()
walk = wv.walk_or_explain(sel, c)
q_tok, k_tok = c["q_tokens"], c["k_tokens"]
wv.qkv_section(walk, q_tok, k_tok, model.cfg)
wv.steps_section(walk, q_tok, k_tok, model.cfg)
wv.output_section(walk, model.cfg)
wv.numbers_section(walk, q_tok, k_tok)
wv.neuron_section(walk, q_tok, k_tok, c["key"])
wv.kv_section(model.cfg)

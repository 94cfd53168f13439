"""Generation: decoding one token at a time, why each token was chosen, the KV cache,
beam search and encoder-decoder cross-attention."""
import streamlit as st

from ui import generate_views as gv
from ui.i18n import t
from ui.shell import require_model
from ui.shell import current

sel = current()
st.title(t("gen_title"))
model, tok = require_model(sel)
gv.page(sel, model, tok)

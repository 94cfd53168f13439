"""Masks and attention variants: compose a mask, see its cost and reach, apply it to the model."""
import streamlit as st

from ui import masks_views as mv
from ui.i18n import t
from ui.shell import require_model, require_text
from ui.shell import current, show_notices

sel = current()
st.title(t("mk_title"))
st.markdown(t("mk_intro"))
model, _ = require_model(sel)
require_text(sel)
show_notices()
cfg = model.cfg
stack = mv.stack_choice(cfg.arch)
tokens, n_all = mv.lab_tokens(sel.model_key, sel.device, sel.text, sel.target, stack)
if n_all > len(tokens):
    st.info(t("mk_truncated", kept=len(tokens), n=n_all), icon=":material/content_cut:")

parts = mv.composer(tokens)
run = mv.run_or_explain(sel, stack, mv.parts_key(parts))
layer, head = mv.layer_head(cfg.n_layers, cfg.n_heads)

# only the open tab runs (a head switch in "Compose & apply" does not rebuild the gallery)
tabs = st.tabs([t(f"mk_tab_{k}") for k in mv.TABS], key=mv.tab_key(), on_change="rerun")
compose, gallery, padding, cost, reach, variants = tabs
if compose.open:
    with compose:
        mv.compose_view(run, tokens, parts, sel.model_label, layer, head)
if gallery.open:
    with gallery:
        mv.gallery(tokens, parts)
if padding.open:
    with padding:
        mv.padding_view(sel, cfg.arch, layer, head)
if cost.open:
    with cost:
        mv.cost_view(parts)
if reach.open:
    with reach:
        mv.reach_view(run.composed, tokens, cfg.n_layers, next((p["window"] for p in parts if "window" in p), 2))
if variants.open:
    with variants:
        mv.variants_view(run, tokens, layer, head, cfg.n_heads)

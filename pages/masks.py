"""Masks and attention variants: compose a mask, see its cost and reach, apply it to the model."""
import streamlit as st

from ui import masks_views as mv
from ui.i18n import t
from ui.session import require_model, require_text
from ui.shell import current, page_guard, show_notices

page_guard()
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

compose, gallery, padding, cost, reach, variants = st.tabs(
    [t(f"mk_tab_{k}") for k in ("compose", "gallery", "padding", "cost", "reach", "variants")])
with compose:
    parts = mv.composer(tokens)
    key = mv.parts_key(parts)
    run = mv.run_or_explain(sel, stack, key)
    if not parts:
        st.caption(t("mk_none"))
    left, right = st.columns([3, 2], gap="large")
    with left:
        mv.show_mask(run["composed"], tokens, t("mk_composed"), "mk_composed")
    with right:
        mv.stats_line(run["composed"])
        mv.empty_note(run["composed"])
        st.plotly_chart(mv.vm.per_query_bars(run["composed"].sum(-1), tokens, terms=mv.terms()), key="mk_per_query",
                        width="stretch")
    st.subheader(t("mk_apply", model=sel.model_label))
    st.markdown(t("mk_apply_how"))
    mv.trained_note(run)
    layer, head = mv.layer_head(cfg.n_layers, cfg.n_heads)
    mv.applied_view(run, tokens, layer, head)
with gallery:
    mv.gallery(tokens, parts)
with padding:
    mv.padding_view(sel, cfg.arch, layer, head)
with cost:
    mv.cost_view(parts)
with reach:
    mv.reach_view(run["composed"], tokens, cfg.n_layers, next((p["window"] for p in parts if "window" in p), 2))
with variants:
    mv.variants_view(run, tokens, layer, head, cfg.n_heads)

"""The overview page: what Glassbox shows, the loaded model, how it splits the text, the
model map (ui/widgets/model_map.py) and the catalogue of models."""
from __future__ import annotations

import streamlit as st

import viz_core as vz
from models.weights import zoo

from ..i18n import t
from ..markup import markdown_table, md_escape
from ..serving import encode
from ..shell import Selection, describe_entry, require_model, show_notices
from ..widgets import model_loader, model_map

SPECIAL = {"[CLS]", "[SEP]", "[PAD]", "[UNK]", "[MASK]", "<bos>", "<eos>", "<pad>", "<unk>", "<|endoftext|>"}


def render(sel: Selection) -> None:
    """The overview page."""
    st.title(t("app_title"))
    show_notices()
    st.markdown(f"**{t('tagline')}**")
    st.markdown(t("home_intro"))
    st.page_link("app_pages/lessons.py", label=t("home_open_lessons"), icon=":material/school:")
    model, tok = require_model(sel)
    left, right = st.columns([3, 2], gap="large")
    with left:
        tokens_section(model, tok, sel)
        st.subheader(t("home_pipeline"))
        st.markdown(t("home_pipeline_text"))
        st.page_link("app_pages/attention.py", label=t("home_open_attention"), icon=":material/visibility:")
    with right:
        badge = model_card(model, sel)
    model_map.section(sel, model)          # ui/widgets/model_map.py
    catalogue_table()
    # last: the first comparison imports transformers (seconds), after the page is drawn
    model_loader.card_badge(badge, sel.model_key, sel.text, sel.target, sel.device)


def token_badges(tokens: list[str]) -> str:
    """Markdown badges, one per token; special tokens grey, unknown ones orange. Every
    token is made visible and markdown/HTML-escaped (it is user text)."""
    out = []
    for tok in tokens:
        color = "orange" if tok in ("[UNK]", "<unk>") else "gray" if tok in SPECIAL else "blue"
        out.append(f":{color}-badge[{md_escape(vz.visible_label(tok, 40))}]")
    return " ".join(out)


def tokens_section(model, tok, sel: Selection) -> None:
    st.subheader(t("home_tokens"))
    if not sel.text.strip():
        st.info(t("empty_text"), icon=":material/edit:")
        return
    enc = encode(tok, model, sel.text)
    st.markdown(token_badges(enc.tokens[:512]))
    st.caption(t("home_tokens_caption", n=len(enc)))
    if enc.truncated:
        st.info(t("truncated", n=enc.n_tokens_before_truncation, kept=len(enc)), icon=":material/content_cut:")


def card_rows(cfg) -> dict[str, str]:
    """The model card's rows (label -> value), in the UI language."""
    ffn = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)", "silu": "SiLU", "swiglu": "SwiGLU",
           "geglu": "GeGLU"}[cfg.activation]
    norm = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "dyt": "DyT"}[cfg.norm]
    norm += " (1 + w)" if cfg.norm_plus_one else ""                       # Gemma
    attention = f"{cfg.attention_kind}, {cfg.attention.kind}"
    if cfg.attention.kind == "local":                                     # Mistral's sliding window
        attention += ", " + t("card_window").format(w=cfg.attention.window)
    if cfg.has_qkv_bias and not cfg.bias:                                 # Qwen2
        attention += ", " + t("card_qkv_bias")
    rows = {
        t("cfg_arch"): t(f"arch_{cfg.arch}"),
        t("cfg_layers_heads"): f"{cfg.n_layers} × {cfg.n_heads}",
        t("cfg_attention"): attention,
        t("cfg_positional"): t(f"pos_{cfg.positional}") + rope_note(cfg),
        t("cfg_norm"): f"{norm}, {t(f'norm_{cfg.norm_position}')}",
        t("cfg_ffn"): f"{ffn}, d_ff = {cfg.d_ff}",
        **_seq2seq_rows(cfg),
    }
    if cfg.parallel_residual:                                             # GPT-NeoX, Pythia
        rows[t("cfg_residual")] = t("card_parallel")
    return rows


def rope_note(cfg) -> str:
    """", θ = 500000, YaRN ×4 (trained on 8192)" for a RoPE model's base and context extension."""
    if cfg.positional != "rope":
        return ""
    note = f", θ = {cfg.rope_base:g}"
    if cfg.rope_scaling != "none" and cfg.rope_factor != 1.0:
        note += ", " + t(f"card_rope_{cfg.rope_scaling}", s=cfg.rope_factor)
        if cfg.rope_scaling == "yarn":
            note += " " + t("card_rope_original", n=cfg.rope_original_len or cfg.max_len)
    return note


def _seq2seq_rows(cfg) -> dict[str, str]:
    """One more row for the conventions of T5 / Marian / BART checkpoints, when any."""
    notes = [t("card_unscaled")] if not cfg.scale_attention else []
    if cfg.positional == "sinusoidal" and cfg.sinusoidal_layout == "halves":
        notes.append(t("card_halves"))
    if cfg.positional == "learned" and cfg.pos_offset:
        notes.append(t("card_pos_offset", k=cfg.pos_offset))
    if cfg.output == "logits" and cfg.unembed_scale:
        notes.append(t("card_unembed_scale"))
    if cfg.output == "logits" and cfg.logit_bias:
        notes.append(t("card_logit_bias"))
    return {t("cfg_conventions"): "; ".join(notes)} if notes else {}


def model_card(model, sel: Selection):
    """The model card; returns the slot of its parity badge (filled by `render` last)."""
    st.subheader(t("home_model"))
    with st.container(border=True):
        st.markdown(f"**{md_escape(sel.model_label)}**")
        if sel.random_weights:
            st.caption(t("random_weights").capitalize())
        c1, c2 = st.columns(2)
        c1.metric(t("cfg_params"), f"{model.n_params / 1e6:.1f} M")
        c2.metric("d_model", model.cfg.d_model)
        st.markdown("\n".join(f"- **{label}**: {md_escape(value)}" for label, value in card_rows(model.cfg).items()))
        return st.empty()


def catalogue_table() -> None:
    st.subheader(t("home_catalogue"))
    header = [t("col_model"), t("col_kind"), t("col_available"), t("col_details")]
    rows = [[e.label, t(f"kind_{e.kind}"), "✓" if e.available else "✗",
             describe_entry(e) if e.available else e.reason]
            for e in zoo.catalogue()]
    st.markdown(markdown_table(header, rows))

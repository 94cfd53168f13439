"""The overview page: what Glassbox shows, the loaded model, how it splits the text, the
model map (ui/widgets/model_map.py) and the catalogue of models."""
from __future__ import annotations

import streamlit as st

import viz_core as vz
from models.weights import zoo

from .. import model_names
from ..i18n import STRINGS, t
from ..links import show_notices
from ..markup import markdown_table, md_escape
from ..page import require_model
from ..serving import encode
from ..sidebar import Selection, describe_entry, unavailable_reason
from ..widgets import model_loader, model_map
from . import home_task_fit

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
    home_task_fit.section()                # which architecture for which task (lab/task_fit.py)
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


ACTIVATIONS = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)", "silu": "SiLU", "swiglu": "SwiGLU",
               "geglu": "GeGLU", "geglu_exact": "GeGLU (erf)"}
NORMS = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "dyt": "DyT"}
ROPE_TRAINED_ON = ("yarn", "llama3", "dynamic", "longrope")   # scalings that name the context trained on
MAX_GROUPS = 5                                                # layer runs listed before "…"


def number(x: float) -> str:
    """A setting's number on the card: 4,096; 1,000,000; 0.22."""
    x = float(x)
    return f"{int(x):,}" if x.is_integer() and abs(x) < 1e15 else f"{x:.4g}"


def layers_text(layers) -> str:
    """'0, 2, 4…' or '0–3, 7' (runs joined, at most MAX_GROUPS of them, then …)."""
    runs: list[list[int]] = []
    for i in sorted(layers):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    sep = t("card_num_sep")
    shown = [str(r[0]) if len(r) == 1 else f"{r[0]}{sep}{r[1]}" if len(r) == 2 else f"{r[0]}–{r[-1]}"
             for r in runs[:MAX_GROUPS]]
    return sep.join(shown) + ("…" if len(runs) > MAX_GROUPS else "")


def card_rows(cfg) -> dict[str, str]:
    """The model card's rows (label -> value), in the UI language. Every setting that is
    not at its default is named (issue 32: each difference between families)."""
    sep = t("card_sep")
    rows = {
        t("cfg_arch"): t(f"arch_{cfg.arch}"),
        t("cfg_layers_heads"): f"{cfg.n_layers} × {cfg.n_heads}",
        t("cfg_attention"): sep.join(_attention_notes(cfg)),
    }
    kinds = _layer_kinds(cfg)
    if kinds:
        rows[t("cfg_layer_kinds")] = t("card_clause_sep").join(kinds)
    rows[t("cfg_positional")] = t(f"pos_{cfg.positional}") + rope_note(cfg)
    rows[t("cfg_norm")] = sep.join(_norm_notes(cfg))
    rows[t("cfg_ffn")] = f"{ACTIVATIONS[cfg.activation]}{sep}d_ff = {cfg.d_ff}"
    embeddings = []
    if cfg.d_embed is not None:                                           # ELECTRA
        embeddings.append(t("card_d_embed", e=cfg.d_embed, d=cfg.d_model))
    if cfg.embed_scale:                                                   # Vaswani, Gemma
        embeddings.append(t("card_embed_scale"))
    if embeddings:
        rows[t("cfg_embeddings")] = sep.join(embeddings)
    caps = []
    if cfg.attn_softcap is not None:                                      # Gemma 2
        caps.append(t("card_softcap_attn", c=number(cfg.attn_softcap)))
    if cfg.logit_softcap is not None and cfg.output == "logits":
        caps.append(t("card_softcap_logits", c=number(cfg.logit_softcap)))
    if caps:
        rows[t("cfg_softcap")] = sep.join(caps)
    multipliers = []                                                      # Granite
    if cfg.embed_multiplier != 1.0:
        multipliers.append(t("card_mult_embed", m=number(cfg.embed_multiplier)))
    if cfg.residual_multiplier != 1.0:
        multipliers.append(t("card_mult_resid", m=number(cfg.residual_multiplier)))
    if cfg.logit_divisor != 1.0 and cfg.output == "logits":
        multipliers.append(t("card_mult_logits", m=number(cfg.logit_divisor)))
    if multipliers:
        rows[t("cfg_multipliers")] = sep.join(multipliers)
    rows.update(_seq2seq_rows(cfg))
    if cfg.parallel_residual:                                             # GPT-NeoX, Pythia, Phi-2
        rows[t("cfg_residual")] = t("card_parallel")
    return rows


def attention_pattern(cfg) -> str:
    """The attention pattern as the card names it, in the UI language: an encoder's pattern;
    a decoder's with its causal mask (a "full" pattern is the causal mask alone); an
    encoder-decoder's per stack (its decoder's self-attention is causal too)."""
    kind = cfg.attention.kind
    name = t(f"mk_kind_{kind}") if f"mk_kind_{kind}" in STRINGS else kind
    if kind in ("full", "causal"):
        decoder = t("card_causal")
    else:
        decoder = name if kind == "prefix" else t("card_with_causal", pattern=name)
    if cfg.arch == "encoder":
        return name
    return decoder if cfg.arch == "decoder" else t("card_stacks", enc=name, dec=decoder)


def _attention_notes(cfg) -> list[str]:
    notes = [cfg.attention_kind, attention_pattern(cfg)]
    if cfg.attention.kind == "local":                                     # Mistral's sliding window
        notes.append(t("card_window").format(w=cfg.attention.window))
    if cfg.has_qkv_bias and not cfg.bias:                                 # Qwen2
        notes.append(t("card_qkv_bias"))
    if cfg.qk_norm != "none":                                             # Qwen3, Gemma 3 / OLMo 2
        notes.append(t(f"card_qk_norm_{cfg.qk_norm}"))
    if cfg.attn_scale is not None:                                        # Gemma 2/3, Granite
        notes.append(t("card_attn_scale", s=number(cfg.attn_scale)))
    return notes


def _layer_kinds(cfg) -> list[str]:
    """Which layers differ: sliding-window layers (and their RoPE base), layers without RoPE."""
    out = []
    if cfg.local_layers:                                                  # Gemma 2/3, ModernBERT
        out.append(t("card_local", layers=layers_text(cfg.local_layers), w=number(cfg.local_window)))
        if cfg.positional == "rope" and cfg.rope_local_base is not None:
            out.append(t("card_local_base", local=number(cfg.rope_local_base), base=number(cfg.rope_base)))
    if cfg.positional == "rope" and cfg.nope_layers:                      # SmolLM3
        out.append(t("card_nope", layers=layers_text(cfg.nope_layers)))
    return out


def _norm_notes(cfg) -> list[str]:
    norm = NORMS[cfg.norm] + (" (1 + w)" if cfg.norm_plus_one else "")   # Gemma
    if cfg.norm == "layernorm" and not cfg.norm_bias:                     # ModernBERT
        norm += t("card_no_norm_bias")
    notes = [norm, t(f"norm_{cfg.norm_position}")]
    if not cfg.first_attn_norm:                                           # ModernBERT
        notes.append(t("card_first_attn_norm"))
    if cfg.shared_block_norm:                                             # Phi-2
        notes.append(t("card_shared_norm"))
    return notes


def rope_note(cfg) -> str:
    """", θ = 500,000, YaRN ×4 (trained on 8,192)" for a RoPE model's base and context extension."""
    if cfg.positional != "rope":
        return ""
    sep = t("card_sep")
    note = f"{sep}θ = {number(cfg.rope_base)}"
    if cfg.rope_scaling != "none" and (cfg.rope_factor != 1.0 or cfg.rope_scaling == "longrope"):
        note += sep + t(f"card_rope_{cfg.rope_scaling}", s=cfg.rope_factor)
        if cfg.rope_scaling in ROPE_TRAINED_ON:
            note += t("card_rope_original", n=number(cfg.rope_original_len or cfg.max_len))
    return note


def _seq2seq_rows(cfg) -> dict[str, str]:
    """One more row for the conventions of T5 / Marian / BART checkpoints (and Phi-2's
    learned logit bias), when any."""
    notes = [t("card_unscaled")] if not cfg.scale_attention else []
    if cfg.positional == "sinusoidal" and cfg.sinusoidal_layout == "halves":
        notes.append(t("card_halves"))
    if cfg.positional == "learned" and cfg.pos_offset:
        notes.append(t("card_pos_offset", k=cfg.pos_offset))
    if cfg.output == "logits" and cfg.unembed_scale:
        notes.append(t("card_unembed_scale"))
    if cfg.output == "logits" and cfg.logit_bias:
        notes.append(t("card_logit_bias"))
    if cfg.output == "logits" and cfg.unembed_bias:
        notes.append(t("card_unembed_bias"))
    return {t("cfg_conventions"): t("card_clause_sep").join(notes)} if notes else {}


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
        st.markdown("\n".join("- " + t("label_value", label=f"**{label}**", value=md_escape(value))
                               for label, value in card_rows(model.cfg).items()))
        return st.empty()


def catalogue_table() -> None:
    st.subheader(t("home_catalogue"))
    header = [t("col_model"), t("col_kind"), t("col_available"), t("col_details")]
    rows = [[model_names.label(e), t(f"kind_{e.kind}"), "✓" if e.available else "✗",
             describe_entry(e) if e.available else unavailable_reason(e, markdown=False)]
            for e in zoo.catalogue()]
    st.markdown(markdown_table(header, rows))

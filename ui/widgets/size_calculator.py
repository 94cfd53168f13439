"""Any Transformer's size from its shape (lab/sizes.py), on the FFN page's *Size &
parameters* view: presets for the 2017 paper's base model, GPT-2 small to XL, GPT-3,
LLaMA-13B and the loaded model (whose own parameter count checks the formula), the
parameters part by part, the KV cache per token and for a context, and one head of
width d against h heads of width d/h. The notes' sizes that are wrong are named beside
the numbers (GPT-2's "768 characters" and "50,000 words", GPT-3's "12288 x 4096" table)."""
from __future__ import annotations

from typing import Any

import streamlit as st

from lab import kv, sizes
from lab.ffn import parameter_breakdown

from ..i18n import count_words, t
from ..markup import markdown_table, md_escape
from .model_loader import size_words
from .notes import misconception

PRESET = "sz_preset"
LOADED = "loaded"
_APPLIED = "_sz_applied"        # (preset, shape) whose numbers the fields hold
# the fields a reader can change: session key -> Shape field
NUMBERS = {"sz_layers": "n_layers", "sz_d": "d_model", "sz_heads": "n_heads", "sz_kv": "n_kv_heads",
           "sz_ff": "d_ff", "sz_vocab": "vocab", "sz_positions": "positions"}
SWITCHES = {"sz_gated": "gated", "sz_bias": "bias", "sz_tied": "tied"}
MAX = {"n_layers": 1000, "d_model": 1_000_000, "n_heads": 10_000, "n_kv_heads": 10_000, "d_ff": 10_000_000,
       "vocab": 10_000_000, "positions": 10_000_000}
GPT2 = ("gpt2", "gpt2_medium", "gpt2_large", "gpt2_xl")


def _fill(shape: sizes.Shape, preset: str) -> None:
    """Put `shape`'s numbers into the fields (before they are drawn, or from a callback)."""
    for key, name in NUMBERS.items():
        value = shape.kv_heads if name == "n_kv_heads" else getattr(shape, name)
        st.session_state[key] = int(value)
    for key, name in SWITCHES.items():
        st.session_state[key] = bool(getattr(shape, name))
    st.session_state["sz_norm"] = "rmsnorm" if shape.norm == "rmsnorm" else "layernorm"
    st.session_state["sz_arch"] = shape.arch
    st.session_state[_APPLIED] = (preset, shape)


def presets(loaded: sizes.Shape) -> dict[str, sizes.Shape]:
    return {LOADED: loaded, **{k: p.shape for k, p in sizes.PRESETS.items()}}


def read_shape(base: sizes.Shape) -> sizes.Shape | str:
    """The fields' shape (what the preset does not show comes from `base`), or the sentence
    that says why these numbers make no Transformer."""
    v = {name: int(st.session_state[key]) for key, name in NUMBERS.items()}
    d_head = base.d_head if (v["d_model"], v["n_heads"]) == (base.d_model, base.n_heads) else None
    if d_head is None and v["d_model"] % v["n_heads"]:
        return t("sz_bad_heads", d=v["d_model"], h=v["n_heads"])
    if v["n_kv_heads"] > v["n_heads"] or v["n_heads"] % v["n_kv_heads"]:
        return t("sz_bad_kv", kv=v["n_kv_heads"], h=v["n_heads"])
    if v["n_kv_heads"] == v["n_heads"]:
        v["n_kv_heads"] = None              # plain multi-head attention, written as the presets write it
    norm = st.session_state["sz_norm"]
    if norm == "layernorm" and base.norm in ("layernorm_nobias", "dyt"):
        norm = base.norm                    # shown as LayerNorm; counted as the preset's own
    return sizes.Shape(**v, arch=st.session_state["sz_arch"], d_head=d_head, norm=norm,
                       final_norm=base.final_norm, embed_norm=base.embed_norm,
                       relative_buckets=base.relative_buckets, token_types=base.token_types,
                       unembed=base.unembed, **{name: bool(st.session_state[key]) for key, name in SWITCHES.items()})


def fields() -> None:
    """The shape's numbers and switches, in four columns."""
    cols = st.columns(4)
    labels = {"n_layers": t("sz_layers"), "d_model": "d_model", "n_heads": t("sz_heads"),
              "n_kv_heads": t("sz_kv_heads"), "d_ff": "d_ff", "vocab": t("sz_vocab"), "positions": t("sz_positions")}
    for i, (key, name) in enumerate(NUMBERS.items()):
        cols[i % 4].number_input(labels[name], min_value=0 if name == "positions" else 1, max_value=MAX[name],
                                 step=1, key=key, help=t(f"sz_help_{name}"))
    archs = {a: t(f"sz_arch_{a}") for a in sizes.ARCHS}              # in this run's language
    cols[3].selectbox(t("sz_arch"), list(archs), key="sz_arch", format_func=archs.__getitem__)
    cols[0].selectbox(t("sz_norm"), ("layernorm", "rmsnorm"), key="sz_norm",
                      format_func={"layernorm": "LayerNorm", "rmsnorm": "RMSNorm"}.__getitem__)
    cols[1].checkbox(t("sz_gated"), key="sz_gated", help=t("sz_help_gated"))
    cols[2].checkbox(t("sz_bias"), key="sz_bias")
    cols[3].checkbox(t("sz_tied"), key="sz_tied", help=t("sz_help_tied"))


def section(model: Any, model_label: str) -> None:
    """The calculator (the FFN page's size view calls it under the loaded model's breakdown)."""
    st.subheader(t("sz_title"))
    st.markdown(t("sz_intro"))
    loaded = sizes.shape_of(model.cfg)
    options = presets(loaded)
    if st.session_state.get(PRESET) not in options:
        st.session_state[PRESET] = LOADED
    applied = st.session_state.get(_APPLIED)
    if applied is None or (st.session_state[PRESET] == LOADED and applied != (LOADED, loaded)):
        _fill(options[st.session_state[PRESET]], st.session_state[PRESET])      # first run, or another model loaded
    names = {LOADED: t("sz_loaded", model=model_label), **{k: t(f"sz_name_{k}") for k in sizes.PRESETS}}
    preset = st.selectbox(t("sz_preset"), list(options), key=PRESET, format_func=names.__getitem__,
                          on_change=lambda: _fill(options[st.session_state[PRESET]], st.session_state[PRESET]))
    fields()
    shape = read_shape(options[preset])
    if isinstance(shape, str):
        st.warning(shape, icon=":material/calculate:")
        return
    count = sizes.count(shape)
    st.markdown(markdown_table([t("sz_col_part"), t("sz_col_how"), t("sz_col_params"), t("sz_col_share")],
                               rows(shape, count)))
    verdict(preset, shape, count, model)
    cache(shape)
    heads(shape)
    notes(preset, shape, count)


def rows(shape: sizes.Shape, c: sizes.Count) -> list[list[str]]:
    """The table: each piece, how it is counted, its parameters and its share."""
    def row(label: str, how: str, n: int) -> list[str]:
        return [label, how, f"{n:,}", f"{n / c.total:.1%}"]

    layers = c.layers
    out = [row(t("sz_row_tokens"), f"{shape.vocab:,} × {shape.d_model:,}", c.token_table)]
    if c.unembedding:
        out.append(row(t("sz_row_unembed"), f"{shape.d_model:,} × {shape.vocab:,}", c.unembedding))
    if c.position_table:
        pieces = [t(f"sz_how_{name}", n=f"{n:,}", w=w) for name, n, w in (
            ("positions", shape.positions, "d_model"), ("segments", shape.token_types, "d_model"),
            ("buckets", shape.relative_buckets, t("sz_heads_word"))) if n]
        how = " + ".join(pieces) + (t("sz_how_two_stacks") if len(shape.stacks) == 2 else "")
        out.append(row(t("sz_row_positions"), how, c.position_table))
    attention = c.parts["attention"]
    out.append(row(t("sz_row_attention"), t("sz_how_layers", per=f"{c.attention_layer:,}",
                                             n=attention // c.attention_layer), attention))
    out.append(row(t("sz_row_ffn"), t("sz_how_layers", per=f"{c.ffn_layer:,}", n=layers), c.parts["ffn"]))
    per_norm = sizes.norm_params(shape)
    out.append(row(t("sz_row_norms"), t("sz_how_norms", n=c.parts["norms"] // per_norm, per=f"{per_norm:,}"),
                   c.parts["norms"]))
    out.append([t("sz_row_total"), "", f"{c.total:,}", "100%"])
    return out


def verdict(preset: str, shape: sizes.Shape, c: sizes.Count, model: Any) -> None:
    """The total in words, and what it is checked against: the loaded model's own count, or
    what the model's authors published."""
    cols = st.columns(3)
    cols[0].metric(t("sz_total"), count_words(c.total))
    if preset == LOADED and shape == sizes.shape_of(model.cfg):
        real = parameter_breakdown(model)
        same = all(real[k] == c.parts[k] for k in sizes.PARTS) and real.get("other", 0) == 0
        cols[1].metric(t("sz_model_count"), count_words(model.n_params))
        st.caption(t("sz_checked_same" if same else "sz_checked_differs", formula=f"{c.total:,}",
                     real=f"{model.n_params:,}"))
    elif preset in sizes.PRESETS:
        p = sizes.PRESETS[preset]
        cols[1].metric(t("sz_published"), count_words(p.paper))
        st.caption(t("sz_source", source=md_escape(p.source)) + " "
                   + t(f"sz_note_{p.note}", formula=count_words(c.total)))


def cache(shape: sizes.Shape) -> None:
    """The KV cache: bytes per generated token (float16) and for a context the reader picks."""
    if shape.arch == "encoder":
        st.caption(t("sz_kv_encoder"))
        return
    context = st.number_input(t("sz_context"), min_value=1, max_value=10_000_000, value=2048, step=1,
                              key="sz_context")
    size = kv.kv_cache_bytes(shape, int(context), bytes_per_value=2)
    st.markdown(t("sz_kv", layers=shape.n_layers, kv=shape.kv_heads, dh=shape.head_dim,
                  per=size_words(size.per_token), n=f"{int(context):,}", total=size_words(size.total)))


def heads(shape: sizes.Shape) -> None:
    """One head of width d against h heads of width d/h: the same Q/K/V parameters."""
    if shape.d_model % shape.n_heads:
        return
    h = sizes.single_vs_multi_head(shape.d_model, shape.n_heads)
    st.markdown(t("sz_heads_same", d=f"{shape.d_model:,}", h=shape.n_heads, dh=f"{shape.d_model // shape.n_heads:,}",
                  single=f"{h['single']:,}", multi=f"{h['multi']:,}", wo=f"{h['w_o']:,}"))


def notes(preset: str, shape: sizes.Shape, c: sizes.Count) -> None:
    """The notes' sizes that are wrong, beside the named model they are about."""
    if preset in GPT2:
        misconception("gpt2_width", t("sz_mis_gpt2_common"),
                      t("sz_mis_gpt2_shown", d=shape.d_model, total=f"{c.total:,}",
                        paper=count_words(sizes.PRESETS[preset].paper)))
        misconception("gpt2_vocab", t("sz_mis_vocab_common"), t("sz_mis_vocab_shown", vocab=f"{shape.vocab:,}"))
    elif preset == "gpt3":
        misconception("gpt3_table", t("sz_mis_gpt3_common"),
                      t("sz_mis_gpt3_shown", vocab=f"{shape.vocab:,}", d=f"{shape.d_model:,}",
                        n=f"{c.token_table:,}", share=f"{c.token_table / c.total:.2%}"))

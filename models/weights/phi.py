"""Four decoder families loaded into our `Transformer`: Phi-3 (Phi-3-mini, Phi-3.5-mini,
Phi-4-mini), Phi (Phi-1.5, Phi-2), StableLM (StableLM 2, StableLM-3B-4E1T) and OPT. Each
is a config function (HF config dict -> TransformerConfig, refusing a variant we do not
implement with `unsupported(...)`, which names the setting) and a key table (our
parameter <- the checkpoint's tensor). `families.FAMILIES` registers them from
`FAMILIES` below.

Conventions matched (transformers 5, checked by tests/unit/test_families_phi.py):
- Phi-3: qkv_proj is fused [Q | K | V] along its output rows, of unequal heights with
  GQA (n_heads·d_head, then n_kv·d_head twice): `Copy(span=...)`. gate_up_proj is
  [gate | up] (HF: `gate, up = chunk(2)`; out = down(up · act(gate))). RoPE turns the
  first int(d_head · partial_rotary_factor) dims of each head (rotate-half over them);
  partial_rotary_factor sits in rope_parameters (transformers 5) or at the top of
  config.json (Phi-4-mini on the hub). The sliding window is applied in every layer in
  eager attention too (create_sliding_window_causal_mask when config.sliding_window is
  set): query q sees keys q - W < k <= q, i.e. our local |q - k| <= W - 1, as Mistral.
  Old configs spell the long-context RoPE rope_scaling {"type": "su"} (or "yarn"):
  Phi3Config reads both as "longrope", with original_max_position_embeddings taken from
  the top level of config.json (default 4096), never from the rope dict.
- Phi (Phi-2): attention and MLP in parallel, both reading ONE LayerNorm
  (input_layernorm -> ln1, cfg.shared_block_norm); biases everywhere, lm_head included
  (cfg.unembed_bias); partial rotary (default 0.5 when the config has none; Phi-2: 0.4);
  qk_layernorm is one LayerNorm over d_head shared by every head, after the projection
  and before RoPE: exactly our qk_norm="head" with a LayerNorm model.
- StableLM: LayerNorm with bias, SwiGLU without biases, q/k/v bias (use_qkv_bias), an
  optional parallel residual that reuses input_layernorm (no post_attention_layernorm
  then); partial rotary (default 0.25). Its qk_layernorm holds one bias-free LayerNorm
  PER HEAD (separate weights), which our shared head norm cannot hold: refused.
- OPT: learned positions read row p + 2 (OPTLearnedPositionalEmbedding: cumsum of the
  attention mask - 1 + 2, which is p + 2 for every real token when padding is only on
  the right); queries are scaled before q·k (same value up to rounding);
  do_layer_norm_before=False is post-norm, and then there is no final layer norm (HF
  builds final_layer_norm only when do_layer_norm_before); LayerNorm eps is fixed 1e-5.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import MaskSpec, TransformerConfig
from .keytable import Copy, Family, hf_get, rope_settings, unsupported

# HF activation names -> ours, plain and gated
ACT = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu_fast": "gelu_tanh",
       "relu": "relu", "silu": "silu", "swish": "silu"}
GATED_ACT = {"silu": "swiglu", "swish": "swiglu", "gelu": "geglu_exact", "gelu_new": "geglu",
             "gelu_pytorch_tanh": "geglu"}


def _act(hf: Mapping[str, Any], family: str, key: str, default: str, table: Mapping[str, str]) -> str:
    name = hf_get(hf, key, default)
    if not isinstance(name, str) or name not in table:
        raise unsupported(family, f"{key}={str(name)[:30]}", f"Unsupported {family} activation "
                          f"{key}={str(name)[:30]!r} (supported: {', '.join(table)}).")
    return table[name]


def _pad_id(hf: Mapping[str, Any]) -> int | None:
    """The pad id when it is a token of the model (Phi3Config's default 32000 is not one
    of a small vocabulary's)."""
    pad = hf_get(hf, "pad_token_id")
    ok = isinstance(pad, int) and not isinstance(pad, bool) and 0 <= pad < hf["vocab_size"]
    return pad if ok else None


def _rotary_dim(hf: Mapping[str, Any], rope: Mapping[str, Any], head_dim: int, default: float, family: str) -> int:
    """int(head_dim × partial_rotary_factor), the factor read as transformers 5 reads it:
    rope_parameters first, then the top of config.json, then the family's default."""
    pct = rope.get("partial_rotary_factor")
    pct = hf_get(hf, "partial_rotary_factor", default) if pct is None else pct
    if isinstance(pct, bool) or not isinstance(pct, (int, float)) or not 0 < pct <= 1:
        raise unsupported(family, "partial_rotary_factor", f"{family} needs a partial_rotary_factor between 0 and 1 "
                          f"(got {str(pct)[:20]}).")
    dim = int(head_dim * pct)
    if dim < 2 or dim % 2:
        raise unsupported(family, "partial_rotary_factor", f"partial_rotary_factor={pct} turns {dim} dims of each "
                          "head; RoPE needs an even number of at least 2.")
    return dim


def _no_qk_layernorm(hf: Mapping[str, Any], family: str, why: str) -> None:
    if hf_get(hf, "qk_layernorm", False):
        raise unsupported(family, "qk_layernorm", f"{family} checkpoints with qk_layernorm=true are not supported "
                          f"({why}).")


# ---- configs ---------------------------------------------------------------------------------
def phi3_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Phi-3 / Phi-3.5 / Phi-4-mini: LLaMA with a fused qkv_proj and gate_up_proj, partial
    rotary (Phi-4-mini: 0.75), an optional sliding window, longrope context extension."""
    family = "Phi-3"
    # Phi3Config: rope_scaling (old spelling) wins over rope_parameters; "su" and "yarn" mean longrope
    rope = dict(hf_get(hf, "rope_scaling") or hf_get(hf, "rope_parameters") or {})
    kind = str(rope.get("rope_type", rope.get("type", "default")))
    if kind in ("su", "yarn", "longrope"):
        rope.pop("type", None)
        rope.update(rope_type="longrope",
                    original_max_position_embeddings=hf_get(hf, "original_max_position_embeddings", 4096))
    scaling, _ = rope_settings({**hf, "rope_parameters": rope, "rope_scaling": None}, family)
    _act(hf, family, "hidden_act", "silu", GATED_ACT)
    heads = hf["num_attention_heads"]
    head_dim = hf_get(hf, "head_dim", hf["hidden_size"] // heads)
    window = hf_get(hf, "sliding_window")
    attention = MaskSpec("causal")
    if window is not None and window < hf["max_position_embeddings"]:
        if isinstance(window, bool) or not isinstance(window, int) or window < 2:
            raise unsupported(family, f"sliding_window={str(window)[:20]}", "A Phi-3 sliding_window must be a "
                              "whole number of at least 2 keys.")
        attention = MaskSpec("local", window=window - 1)     # q - W < k <= q: |q - k| <= W - 1, & causal
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        d_head=head_dim, max_len=hf["max_position_embeddings"], positional="rope", **scaling,
        rope_dim=_rotary_dim(hf, rope, head_dim, 1.0, family), norm="rmsnorm", norm_position="pre",
        activation=GATED_ACT[hf_get(hf, "hidden_act", "silu")], attention=attention, bias=False,
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)), norm_eps=hf_get(hf, "rms_norm_eps", 1e-5),
        output="logits", pad_id=_pad_id(hf),
    )


def phi_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Phi-1.5 / Phi-2: parallel attention and MLP reading one LayerNorm, biases everywhere
    (the lm_head's too), partial rotary, GELU-tanh."""
    family = "Phi"
    scaling, rope = rope_settings(hf, family)
    act = _act(hf, family, "hidden_act", "gelu_new", ACT)
    heads = hf["num_attention_heads"]
    head_dim = hf_get(hf, "head_dim", hf["hidden_size"] // heads)
    if head_dim != hf["hidden_size"] // heads and hf_get(hf, "qk_layernorm", False):
        raise unsupported(family, "head_dim", "Phi with qk_layernorm and a head_dim other than hidden_size / "
                          "num_attention_heads is not supported (its q/k LayerNorm has the latter width).")
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        d_head=head_dim, max_len=hf["max_position_embeddings"], positional="rope", **scaling,
        rope_dim=_rotary_dim(hf, rope, head_dim, 0.5, family), norm="layernorm", norm_position="pre",
        activation=act, bias=True, parallel_residual=True, shared_block_norm=True, unembed_bias=True,
        qk_norm="head" if hf_get(hf, "qk_layernorm", False) else "none",
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)), norm_eps=hf_get(hf, "layer_norm_eps", 1e-5),
        output="logits", pad_id=_pad_id(hf),
    )


def stablelm_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """StableLM 2 / StableLM-3B-4E1T: LayerNorm (with bias), SwiGLU without biases, optional
    q/k/v bias and parallel residual (one shared norm), partial rotary."""
    family = "StableLM"
    _no_qk_layernorm(hf, family, "each head has a LayerNorm of its own")
    scaling, rope = rope_settings(hf, family)
    act = _act(hf, family, "hidden_act", "silu", GATED_ACT)
    heads = hf["num_attention_heads"]
    head_dim = hf["hidden_size"] // heads
    if hf_get(hf, "head_dim", head_dim) != head_dim:
        raise unsupported(family, "head_dim", "StableLM with a head_dim other than hidden_size / num_attention_heads "
                          "is not supported.")
    parallel = bool(hf_get(hf, "use_parallel_residual", False))
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        max_len=hf["max_position_embeddings"], positional="rope", **scaling,
        rope_dim=_rotary_dim(hf, rope, head_dim, 0.25, family), norm="layernorm", norm_position="pre",
        activation=act, bias=False, qkv_bias=bool(hf_get(hf, "use_qkv_bias", False)),
        parallel_residual=parallel, shared_block_norm=parallel,
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)), norm_eps=hf_get(hf, "layer_norm_eps", 1e-5),
        output="logits", pad_id=_pad_id(hf),
    )


def opt_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """OPT: learned positions offset by 2, ReLU, pre- or post-norm (do_layer_norm_before),
    biases (enable_bias), a tied lm_head."""
    family = "OPT"
    d = hf["hidden_size"]
    proj = hf_get(hf, "word_embed_proj_dim", d)
    if proj != d:
        raise unsupported(family, "word_embed_proj_dim", f"OPT with word_embed_proj_dim={str(proj)[:20]} != "
                          f"hidden_size={d} (OPT-350m's project_in / project_out) is not supported.")
    if not hf_get(hf, "layer_norm_elementwise_affine", True):
        raise unsupported(family, "layer_norm_elementwise_affine", "OPT with layer_norm_elementwise_affine=false "
                          "(LayerNorms without weights) is not supported.")
    pre = bool(hf_get(hf, "do_layer_norm_before", True))
    if pre and hf_get(hf, "_remove_final_layer_norm", False):
        raise unsupported(family, "_remove_final_layer_norm", "Pre-norm OPT without its final layer norm "
                          "(_remove_final_layer_norm=true) is not supported.")
    act = _act(hf, family, "activation_function", "relu", ACT)
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=d, n_layers=hf["num_hidden_layers"],
        n_heads=hf["num_attention_heads"], d_ff=hf["ffn_dim"], max_len=hf["max_position_embeddings"],
        positional="learned", pos_offset=2, norm="layernorm", norm_position="pre" if pre else "post",
        activation=act, bias=bool(hf_get(hf, "enable_bias", True)),
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", True)), norm_eps=1e-5, output="logits",
        pad_id=_pad_id(hf),
    )


# ---- key tables ------------------------------------------------------------------------------
def _pairs(ks: list[Copy], o: str, h: str, pairs: Mapping[str, str], bias: bool) -> None:
    for ours, theirs in pairs.items():
        ks.append(Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight"))
        if bias:
            ks.append(Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias"))


def phi3_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """model.layers.{i}.self_attn.qkv_proj = [Q | K | V] rows; mlp.gate_up_proj = [gate | up]."""
    ks = [Copy("embed.weight", p + "embed_tokens.weight"), Copy("ln_final.weight", p + "norm.weight")]
    q, kv = cfg.n_heads * cfg.head_dim, cfg.kv_heads * cfg.head_dim
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        qkv = h + "self_attn.qkv_proj.weight"
        ks += [Copy(o + "attn.W_Q.weight", qkv, span=(0, q)), Copy(o + "attn.W_K.weight", qkv, span=(q, q + kv)),
               Copy(o + "attn.W_V.weight", qkv, span=(q + kv, q + 2 * kv)),
               Copy(o + "attn.W_O.weight", h + "self_attn.o_proj.weight"),
               Copy(o + "mlp.W_gate.weight", h + "mlp.gate_up_proj.weight", part=(0, 2)),
               Copy(o + "mlp.W_in.weight", h + "mlp.gate_up_proj.weight", part=(1, 2)),
               Copy(o + "mlp.W_out.weight", h + "mlp.down_proj.weight"),
               Copy(o + "ln1.weight", h + "input_layernorm.weight"),
               Copy(o + "ln2.weight", h + "post_attention_layernorm.weight")]
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    return ks


def phi_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """model.layers.{i}.self_attn.{q,k,v}_proj, .dense, mlp.fc1/fc2, one input_layernorm;
    model.final_layernorm; lm_head with its bias."""
    ks = [Copy("embed.weight", p + "embed_tokens.weight")]
    _pairs(ks, "", p, {"ln_final": "final_layernorm"}, True)
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        pairs = {"attn.W_Q": "self_attn.q_proj", "attn.W_K": "self_attn.k_proj", "attn.W_V": "self_attn.v_proj",
                 "attn.W_O": "self_attn.dense", "mlp.W_in": "mlp.fc1", "mlp.W_out": "mlp.fc2",
                 "ln1": "input_layernorm"}
        if cfg.qk_norm == "head":
            pairs.update({"attn.q_norm": "self_attn.q_layernorm", "attn.k_norm": "self_attn.k_layernorm"})
        _pairs(ks, o, h, pairs, True)
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    ks.append(Copy("unembed.bias", "lm_head.bias"))
    return ks


def stablelm_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """LLaMA's names with LayerNorm biases; no post_attention_layernorm with a parallel residual."""
    ks = [Copy("embed.weight", p + "embed_tokens.weight")]
    _pairs(ks, "", p, {"ln_final": "norm"}, True)
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        _pairs(ks, o, h, {"attn.W_Q": "self_attn.q_proj", "attn.W_K": "self_attn.k_proj",
                          "attn.W_V": "self_attn.v_proj"}, cfg.has_qkv_bias)
        _pairs(ks, o, h, {"attn.W_O": "self_attn.o_proj", "mlp.W_gate": "mlp.gate_proj", "mlp.W_in": "mlp.up_proj",
                          "mlp.W_out": "mlp.down_proj"}, False)
        norms = {"ln1": "input_layernorm"} if cfg.shared_block_norm else \
            {"ln1": "input_layernorm", "ln2": "post_attention_layernorm"}
        _pairs(ks, o, h, norms, True)
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    return ks


def opt_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """(model.)decoder.layers.{i}.self_attn.{q,k,v,out}_proj, self_attn_layer_norm, fc1, fc2,
    final_layer_norm (the block's second norm); decoder.final_layer_norm (pre-norm only)."""
    ks = [Copy("embed.weight", p + "embed_tokens.weight"), Copy("pos_embed.weight", p + "embed_positions.weight")]
    if cfg.final_norm:
        _pairs(ks, "", p, {"ln_final": "final_layer_norm"}, True)
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        _pairs(ks, o, h, {"attn.W_Q": "self_attn.q_proj", "attn.W_K": "self_attn.k_proj",
                          "attn.W_V": "self_attn.v_proj", "attn.W_O": "self_attn.out_proj", "mlp.W_in": "fc1",
                          "mlp.W_out": "fc2"}, cfg.bias)
        _pairs(ks, o, h, {"ln1": "self_attn_layer_norm", "ln2": "final_layer_norm"}, True)
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    return ks


FAMILIES: dict[str, Family] = {
    "phi3": Family(phi3_config, phi3_keys, "embed_tokens.weight", ("model.", "")),
    "phi": Family(phi_config, phi_keys, "embed_tokens.weight", ("model.", "")),
    "stablelm": Family(stablelm_config, stablelm_keys, "embed_tokens.weight", ("model.", "")),
    "opt": Family(opt_config, opt_keys, "embed_tokens.weight", ("model.decoder.", "decoder.")),
}

"""Four decoder families loaded into our `Transformer`: Qwen2, Gemma (1), Mistral (with its
sliding window) and GPT-NeoX (Pythia). Each is a config function (HF config dict ->
TransformerConfig, refusing a variant we do not implement with `unsupported(...)`, which
names the setting) and a key table (our parameter <- the checkpoint's tensor).
`pretrained.FAMILIES` registers them from `FAMILIES` below.

Conventions matched (transformers 5, checked by tests/unit/test_families_decoders.py):
- Mistral's sliding window: query q sees key k when q - window < k <= q
  (masking_utils.sliding_window_overlay: `kv_idx > q_idx - sliding_window`), so `window`
  keys including itself. Our `local` pattern keeps |q - k| <= w, so w = sliding_window - 1.
- Gemma: RMSNorm x · (1 + w) in float32 (cfg.norm_plus_one); embeddings × √hidden_size
  (cfg.embed_scale; HF rounds the factor to the weights' dtype, which in float32 is the
  value we use); GeGLU with GELU-tanh (hidden_act "gelu" is HF's legacy name for it).
- GPT-NeoX: query_key_value is fused per head, [head, (q, k, v), head_dim] along its
  output rows; RoPE turns the first rotary_pct × head_dim dims of each head with
  rotate_half over those dims (models.positional.apply_rope's partial rotary).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import MaskSpec, TransformerConfig
from .keytable import Copy, Family, PerHead, hf_get, rope_settings, unsupported


def _no_sliding_layers(hf: Mapping[str, Any], family: str) -> None:
    types = hf_get(hf, "layer_types")
    if isinstance(types, list) and any(t != "full_attention" for t in types):
        raise unsupported(family, "layer_types", f"{family} checkpoints that mix attention types per layer "
                          "(layer_types) are not supported.")


def _llama_like(hf: Mapping[str, Any], family: str, **settings: Any) -> TransformerConfig:
    """The LLaMA skeleton Qwen2, Mistral and Gemma share: RoPE, RMSNorm, a gated MLP, GQA."""
    rope, _ = rope_settings(hf, family)
    heads = hf["num_attention_heads"]
    base = dict(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        d_head=hf_get(hf, "head_dim", hf["hidden_size"] // heads), max_len=hf["max_position_embeddings"],
        positional="rope", **rope, norm="rmsnorm", norm_position="pre", activation="swiglu", bias=False,
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)), norm_eps=hf_get(hf, "rms_norm_eps", 1e-6),
        output="logits", pad_id=hf_get(hf, "pad_token_id"),
    )
    return TransformerConfig(**{**base, **settings})


def _check_act(hf: Mapping[str, Any], family: str, allowed: tuple[str, ...], key: str = "hidden_act") -> None:
    act = hf_get(hf, key, allowed[0])
    if act not in allowed:
        raise unsupported(family, f"{key}={str(act)[:30]}",
                          f"Unsupported {family} activation {key}={str(act)[:30]!r} (expected {allowed[0]}).")


# ---- configs ---------------------------------------------------------------------------------
def qwen2_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Qwen2: LLaMA with biases on q/k/v (none on o_proj nor the MLP)."""
    if hf_get(hf, "use_sliding_window", False):
        raise unsupported("Qwen2", "use_sliding_window", "Qwen2 checkpoints with use_sliding_window=true are not "
                          "supported.")
    _no_sliding_layers(hf, "Qwen2")
    _check_act(hf, "Qwen2", ("silu",))
    return _llama_like(hf, "Qwen2", qkv_bias=True, tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)))


def mistral_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Mistral: LLaMA with a sliding window (each query sees the last `sliding_window` keys,
    itself included)."""
    _no_sliding_layers(hf, "Mistral")
    _check_act(hf, "Mistral", ("silu",))
    if hf_get(hf, "attention_bias", False) or hf_get(hf, "mlp_bias", False):
        raise unsupported("Mistral", "attention_bias", "Mistral checkpoints with biases (attention_bias, mlp_bias) are not supported.")
    window = hf_get(hf, "sliding_window")
    attention = MaskSpec("causal")
    if window is not None and window < hf["max_position_embeddings"]:
        if isinstance(window, bool) or not isinstance(window, int) or window < 2:
            raise unsupported("Mistral", f"sliding_window={str(window)[:20]}", "A Mistral sliding_window must be "
                              "a whole number of at least 2 keys.")
        attention = MaskSpec("local", window=window - 1)     # |q - k| <= window - 1, & causal in a decoder
    return _llama_like(hf, "Mistral", attention=attention)


def gemma_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Gemma (1): GeGLU, RMSNorm × (1 + w), embeddings × √d_model, tied embeddings, a head
    width of its own (head_dim)."""
    _check_act(hf, "Gemma", ("gelu_pytorch_tanh", "gelu", "gelu_new"))   # "gelu": HF's legacy name for tanh
    if hf_get(hf, "hidden_activation") is not None:
        _check_act(hf, "Gemma", ("gelu_pytorch_tanh", "gelu_new"), "hidden_activation")
    if hf_get(hf, "attention_bias", False):
        raise unsupported("Gemma", "attention_bias", "Gemma checkpoints with attention_bias=true are not supported.")
    if hf_get(hf, "use_bidirectional_attention", False):
        raise unsupported("Gemma", "use_bidirectional_attention", "Gemma with use_bidirectional_attention=true is not "
                          "supported (Glassbox loads Gemma as a causal language model).")
    return _llama_like(hf, "Gemma", activation="geglu", norm_plus_one=True, embed_scale=True,
                       tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", True)))


def gpt_neox_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """GPT-NeoX / Pythia: LayerNorm, parallel attention + MLP, partial RoPE, a fused
    per-head query_key_value, an untied embed_out."""
    _check_act(hf, "GPT-NeoX", ("gelu", "gelu_new", "gelu_pytorch_tanh", "relu"))
    if not hf_get(hf, "attention_bias", True):
        raise unsupported("GPT-NeoX", "attention_bias=false", "GPT-NeoX checkpoints with attention_bias=false are "
                          "not supported (their MLP keeps its biases).")
    scaling, rope = rope_settings(hf, "GPT-NeoX")
    if "rope_theta" not in rope:
        scaling["rope_base"] = float(hf_get(hf, "rotary_emb_base", scaling["rope_base"]))
    pct = rope.get("partial_rotary_factor", hf_get(hf, "rotary_pct", 1.0))
    d, heads = hf["hidden_size"], hf["num_attention_heads"]
    head_dim = d // heads
    act = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "relu": "relu"}
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=d, n_layers=hf["num_hidden_layers"], n_heads=heads,
        d_ff=hf["intermediate_size"], max_len=hf["max_position_embeddings"], positional="rope", **scaling,
        rope_dim=int(head_dim * pct), norm="layernorm", norm_position="pre",
        activation=act[hf_get(hf, "hidden_act", "gelu")], bias=True,
        parallel_residual=bool(hf_get(hf, "use_parallel_residual", True)),
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)), norm_eps=hf_get(hf, "layer_norm_eps", 1e-5),
        output="logits", pad_id=hf_get(hf, "pad_token_id"),
    )


# ---- key tables ------------------------------------------------------------------------------
def llama_like_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """model.layers.{i}.self_attn.{q,k,v,o}_proj, mlp.{gate,up,down}_proj, two RMSNorms."""
    ks = [Copy("embed.weight", p + "embed_tokens.weight"), Copy("ln_final.weight", p + "norm.weight")]
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        pairs = {"attn.W_Q": "self_attn.q_proj", "attn.W_K": "self_attn.k_proj", "attn.W_V": "self_attn.v_proj",
                 "attn.W_O": "self_attn.o_proj", "mlp.W_gate": "mlp.gate_proj", "mlp.W_in": "mlp.up_proj",
                 "mlp.W_out": "mlp.down_proj"}
        for ours, theirs in pairs.items():
            ks.append(Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight"))
            if cfg.has_qkv_bias if ours in ("attn.W_Q", "attn.W_K", "attn.W_V") else cfg.bias:
                ks.append(Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias"))
        ks += [Copy(f"{o}ln1.weight", h + "input_layernorm.weight"),
               Copy(f"{o}ln2.weight", h + "post_attention_layernorm.weight")]
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    return ks


def gpt_neox_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    ks = [Copy("embed.weight", p + "embed_in.weight"), Copy("ln_final.weight", p + "final_layer_norm.weight"),
          Copy("ln_final.bias", p + "final_layer_norm.bias")]
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        # query_key_value rows are [head, (q, k, v), head_dim]: W_Q takes rows 0 of every head's triple
        for j, name in enumerate(("W_Q", "W_K", "W_V")):
            rows = PerHead(j, 3, cfg.n_heads)
            ks += [Copy(f"{o}attn.{name}.weight", h + "attention.query_key_value.weight", rows=rows),
                   Copy(f"{o}attn.{name}.bias", h + "attention.query_key_value.bias", rows=rows)]
        pairs = {"attn.W_O": "attention.dense", "mlp.W_in": "mlp.dense_h_to_4h", "mlp.W_out": "mlp.dense_4h_to_h",
                 "ln1": "input_layernorm", "ln2": "post_attention_layernorm"}
        for ours, theirs in pairs.items():
            ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight"), Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias")]
    if not cfg.tie_embeddings:
        # files name it embed_out (Pythia on the hub, and save_pretrained); an in-memory transformers 5
        # model calls it lm_head
        ks.append(Copy("unembed.weight", "embed_out.weight", alt="lm_head.weight"))
    return ks


FAMILIES: dict[str, Family] = {
    "qwen2": Family(qwen2_config, llama_like_keys, "embed_tokens.weight", ("model.", "")),
    "mistral": Family(mistral_config, llama_like_keys, "embed_tokens.weight", ("model.", "")),
    "gemma": Family(gemma_config, llama_like_keys, "embed_tokens.weight", ("model.", "")),
    "gpt_neox": Family(gpt_neox_config, gpt_neox_keys, "embed_in.weight", ("gpt_neox.", "")),
}

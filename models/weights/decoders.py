"""Decoder families loaded into our `Transformer`: Qwen2, Gemma (1), Mistral (with its
sliding window), GPT-NeoX (Pythia), Qwen3, OLMo 2, SmolLM3 and Granite (LLaMA itself,
with Llama 3.1's RoPE, is `families.llama_config`). Each is a config function (HF config dict ->
TransformerConfig, refusing a variant we do not implement with `unsupported(...)`, which
names the setting) and a key table (our parameter <- the checkpoint's tensor).
`families.FAMILIES` registers them from `FAMILIES` below.

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
- Qwen3: an RMSNorm over each head's d_head on q and k after the projection, before RoPE
  (cfg.qk_norm "head"); head_dim of its own (the config's default is 128, not
  hidden / heads); sliding layers only when use_sliding_window (layer_types, else the layers
  from max_window_layers on), window W -> local_window W - 1 as Mistral.
- OLMo 2: no norm before a sub-layer, an RMSNorm on its output: x + norm(f(x))
  (cfg.norm_position "output": post_attention_layernorm -> ln1_out,
  post_feedforward_layernorm -> ln2_out); q and k normalised over the whole projection
  (cfg.qk_norm "full", q_norm [heads·d_head], k_norm [kv_heads·d_head]).
- SmolLM3: no_rope_layers[i] = 1 when layer i rotates (else NoPE: cfg.nope_layers); older
  configs give no_rope_layer_interval (every interval-th layer, counted from 1, is NoPE);
  default θ 2,000,000.
- Granite: embeddings × embedding_multiplier, sub-layer outputs × residual_multiplier, q·k ×
  attention_multiplier (replacing 1/√d_head), logits ÷ logits_scaling.
- Mixture-of-experts decoders (Mixtral, Qwen2/3-MoE, OLMoE, DeepSeek-V2/V3, …) are refused
  by `refuse_known_type` with a sentence naming the experts, not as an unknown architecture.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import STOCK_BASE, MaskSpec, TransformerConfig
from .keytable import Copy, Family, PerHead, hf_get, rope_settings, unsupported


def _no_sliding_layers(hf: Mapping[str, Any], family: str) -> None:
    types = hf_get(hf, "layer_types")
    if isinstance(types, list) and any(t != "full_attention" for t in types):
        raise unsupported(family, "layer_types", f"{family} checkpoints that mix attention types per layer "
                          "(layer_types) are not supported.")


def _llama_like(hf: Mapping[str, Any], family: str, default_theta: float = STOCK_BASE,
                default_head_dim: int | None = None, **settings: Any) -> TransformerConfig:
    """The LLaMA skeleton Qwen2, Mistral, Gemma, Qwen3, OLMo 2, SmolLM3 and Granite share:
    RoPE, RMSNorm, a gated MLP, GQA. default_head_dim: the config class's own default when
    config.json has no head_dim (Qwen3: 128); None = hidden_size / heads."""
    rope, _ = rope_settings(hf, family, default_theta)
    heads = hf["num_attention_heads"]
    head_dim = hf_get(hf, "head_dim", default_head_dim or hf["hidden_size"] // heads)
    base = dict(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        d_head=head_dim, max_len=hf["max_position_embeddings"],
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
    return _llama_like(hf, "Gemma", activation="geglu", norm_plus_one=True, embed_scale=True, embed_scale_rounded=True,
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


def _same_biases(hf: Mapping[str, Any], family: str, mlp_bias: bool = False) -> bool:
    """Our `bias` covers W_O and the MLP together (q/k/v follow it too): a checkpoint whose
    attention biases (attention_bias: q, k, v and o_proj) and MLP biases (mlp_bias, or none
    when the family has no such setting) differ is refused."""
    attn = bool(hf_get(hf, "attention_bias", False))
    mlp = bool(hf_get(hf, "mlp_bias", False)) if mlp_bias else False
    if attn != mlp:
        what, other = ("attention_bias", "mlp_bias") if attn else ("mlp_bias", "attention_bias")
        but = f" but {other}=false" if mlp_bias else ""
        raise unsupported(family, what, f"{family} checkpoints with {what}=true{but} are not supported (biases in "
                          "attention but not in the MLP, or the reverse).")
    return attn


def _sliding_layers(hf: Mapping[str, Any], family: str, window: Any, default_types: list[str]) -> dict[str, Any]:
    """local_layers / local_window of a family that names each layer's attention in
    layer_types ("full_attention" | "sliding_attention"; default_types when config.json has
    none). transformers masks a sliding layer with kv > q - sliding_window (& causal), in
    eager attention too: our |q - k| <= sliding_window - 1."""
    n = hf["num_hidden_layers"]
    types = hf_get(hf, "layer_types", default_types)
    if not isinstance(types, list) or len(types) < n:
        raise unsupported(family, "layer_types", f"{family} layer_types must name the attention of each of the "
                          f"{n} layers.")
    odd = [t for t in types[:n] if t not in ("full_attention", "sliding_attention")]
    if odd:
        raise unsupported(family, f"layer_types={str(odd[0])[:30]}", f"{family} layer_types with {str(odd[0])[:30]!r} "
                          "layers are not supported (full_attention and sliding_attention are).")
    local = tuple(i for i, t in enumerate(types[:n]) if t == "sliding_attention")
    if not local:
        return {}
    if isinstance(window, bool) or not isinstance(window, int) or window < 2:
        raise unsupported(family, f"sliding_window={str(window)[:20]}", f"{family} sliding_attention layers need a "
                          "sliding_window of at least 2 keys (use_sliding_window with a whole number).")
    return dict(local_layers=local, local_window=window - 1)


def qwen3_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Qwen3: LLaMA with an RMSNorm of each head's q and k (before RoPE), a head width of its
    own, no biases; sliding-window layers when use_sliding_window is on."""
    _check_act(hf, "Qwen3", ("silu",))
    bias = _same_biases(hf, "Qwen3")
    n = hf["num_hidden_layers"]
    window = hf_get(hf, "sliding_window") if hf_get(hf, "use_sliding_window", False) else None
    first = hf_get(hf, "max_window_layers", 28)
    default = ["sliding_attention" if window is not None and i >= first else "full_attention" for i in range(n)]
    return _llama_like(hf, "Qwen3", default_head_dim=128, qk_norm="head", bias=bias,
                       **_sliding_layers(hf, "Qwen3", window, default))


def olmo2_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """OLMo 2: x + RMSNorm(f(x)) (the norm on each sub-layer's output only), q and k
    normalised over the whole projection."""
    _check_act(hf, "OLMo 2", ("silu",))
    bias = _same_biases(hf, "OLMo 2")
    return _llama_like(hf, "OLMo 2", norm_position="output", qk_norm="full", bias=bias,
                       norm_eps=hf_get(hf, "rms_norm_eps", 1e-5))


def smollm3_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """SmolLM3: LLaMA with NoPE layers (no_rope_layers: 1 = the layer uses RoPE; older
    configs: every no_rope_layer_interval-th layer is NoPE), tied embeddings by default."""
    _check_act(hf, "SmolLM3", ("silu",))
    bias = _same_biases(hf, "SmolLM3", mlp_bias=True)
    n = hf["num_hidden_layers"]
    uses_rope = hf_get(hf, "no_rope_layers")
    if uses_rope is None:
        interval = hf_get(hf, "no_rope_layer_interval", 4)
        if isinstance(interval, bool) or not isinstance(interval, int) or interval < 1:
            raise unsupported("SmolLM3", f"no_rope_layer_interval={str(interval)[:20]}", "SmolLM3's "
                              "no_rope_layer_interval must be a whole number of at least 1.")
        uses_rope = [int((i + 1) % interval != 0) for i in range(n)]
    if not isinstance(uses_rope, list) or len(uses_rope) < n:
        raise unsupported("SmolLM3", "no_rope_layers", f"SmolLM3's no_rope_layers must say for each of the {n} layers "
                          "whether it uses RoPE (1) or not (0).")
    window = hf_get(hf, "sliding_window")
    slide = bool(hf_get(hf, "use_sliding_window", False)) and window is not None
    default = ["sliding_attention" if slide and not uses_rope[i] else "full_attention" for i in range(n)]
    return _llama_like(hf, "SmolLM3", default_theta=2000000.0, bias=bias,
                       nope_layers=tuple(i for i in range(n) if not uses_rope[i]),
                       tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", True)),
                       **_sliding_layers(hf, "SmolLM3", window, default))


def granite_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Granite (3.x): LLaMA with four multipliers: embeddings × embedding_multiplier, each
    sub-layer's output × residual_multiplier, q·k × attention_multiplier (instead of
    1/√d_head), logits ÷ logits_scaling."""
    _check_act(hf, "Granite", ("silu",))
    bias = _same_biases(hf, "Granite", mlp_bias=True)
    return _llama_like(hf, "Granite", bias=bias, attn_scale=float(hf_get(hf, "attention_multiplier", 1.0)),
                       embed_multiplier=float(hf_get(hf, "embedding_multiplier", 1.0)),
                       residual_multiplier=float(hf_get(hf, "residual_multiplier", 1.0)),
                       logit_divisor=float(hf_get(hf, "logits_scaling", 1.0)))


# ---- mixture of experts: refused by name ------------------------------------------------------
MIXTURE_OF_EXPERTS = {
    "mixtral": "Mixtral", "qwen2_moe": "Qwen2-MoE", "qwen3_moe": "Qwen3-MoE", "qwen3_next": "Qwen3-Next",
    "qwen3_5_moe": "Qwen3.5-MoE", "qwen3_5_moe_text": "Qwen3.5-MoE", "olmoe": "OLMoE", "flex_olmo": "FlexOlmo",
    "granitemoe": "Granite-MoE", "granitemoeshared": "Granite-MoE", "granitemoehybrid": "Granite-4.0 (MoE hybrid)",
    "deepseek_v2": "DeepSeek-V2", "deepseek_v3": "DeepSeek-V3", "deepseek_v32": "DeepSeek-V3.2",
    "phimoe": "Phi-3.5-MoE", "jetmoe": "JetMoE", "dbrx": "DBRX", "gpt_oss": "gpt-oss", "llama4": "Llama 4",
    "llama4_text": "Llama 4", "minimax": "MiniMax", "glm4_moe": "GLM-4.5 (MoE)", "ernie4_5_moe": "ERNIE-4.5-MoE",
    "hunyuan_v1_moe": "Hunyuan-MoE", "dots1": "dots.llm1", "jamba": "Jamba", "lfm2_moe": "LFM2-MoE",
    "switch_transformers": "Switch Transformers", "nllb-moe": "NLLB-MoE",
}


def refuse_known_type(model_type: str) -> None:
    """Raise the refusal of a model_type we know but do not load (a mixture-of-experts
    decoder: its MLP is many experts and a router), so the user reads why instead of
    "Unsupported architecture"; return for every other type."""
    name = MIXTURE_OF_EXPERTS.get(model_type)
    if name is not None:
        raise unsupported(name, "mixture-of-experts", f"{name} ({model_type}) is a mixture-of-experts model: each "
                          "layer's MLP is many expert MLPs with a router choosing among them for every token. "
                          "Glassbox's Transformer has one MLP per layer, so it cannot load mixture-of-experts "
                          "checkpoints.")


# ---- key tables ------------------------------------------------------------------------------
def llama_like_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """model.layers.{i}.self_attn.{q,k,v,o}_proj, mlp.{gate,up,down}_proj, two RMSNorms
    (input_layernorm, post_attention_layernorm; OLMo 2's output norms post_attention_layernorm,
    post_feedforward_layernorm), self_attn.{q,k}_norm when q and k are normalised."""
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
        if cfg.qk_norm != "none":           # Qwen3: [d_head]; OLMo 2: [heads·d_head], [kv_heads·d_head]
            ks += [Copy(f"{o}attn.q_norm.weight", h + "self_attn.q_norm.weight"),
                   Copy(f"{o}attn.k_norm.weight", h + "self_attn.k_norm.weight")]
        if cfg.norm_position == "output":   # OLMo 2: x + norm(f(x))
            ks += [Copy(f"{o}ln1_out.weight", h + "post_attention_layernorm.weight"),
                   Copy(f"{o}ln2_out.weight", h + "post_feedforward_layernorm.weight")]
        else:
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
    "qwen3": Family(qwen3_config, llama_like_keys, "embed_tokens.weight", ("model.", "")),
    "olmo2": Family(olmo2_config, llama_like_keys, "embed_tokens.weight", ("model.", "")),
    "smollm3": Family(smollm3_config, llama_like_keys, "embed_tokens.weight", ("model.", "")),
    "granite": Family(granite_config, llama_like_keys, "embed_tokens.weight", ("model.", "")),
}

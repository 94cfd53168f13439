"""Gemma 2 and Gemma 3 loaded into our `Transformer`: "gemma2" (Gemma2ForCausalLM),
"gemma3_text" (Gemma3ForCausalLM: gemma-3-270m, gemma-3-1b) and "gemma3" (the language
model of a multimodal Gemma3ForConditionalGeneration; its vision tower is not read).
Each is a config function (HF config dict -> TransformerConfig, refusing a variant we do
not implement with `unsupported(...)`, which names the setting) and a key table (our
parameter <- the checkpoint's tensor). `families.FAMILIES` registers them from
`FAMILIES` below. Gemma (1) lives in decoders.py.

Conventions matched (transformers 5, checked by tests/unit/test_families_gemma.py):
- A norm before AND after each sub-layer, x + ln_out(f(ln(x))) (cfg.norm_position
  "sandwich"): input_layernorm -> ln1, post_attention_layernorm -> ln1_out,
  pre_feedforward_layernorm -> ln2, post_feedforward_layernorm -> ln2_out; every RMSNorm
  multiplies by (1 + w) in float32 (cfg.norm_plus_one), the q/k norms of Gemma 3 too.
- Scores = q·k × query_pre_attn_scalar^-½ (cfg.attn_scale), not 1/√head_dim.
- Sliding-window layers (layer_types, else the config's default pattern: Gemma 2 every
  other layer from layer 0, (i + 1) % 2; Gemma 3 five of every six, (i + 1) % pattern with
  sliding_window_pattern, default 6): eager attention keeps keys with q - W < k <= q
  (masking_utils.sliding_window_overlay: `kv_idx > q_idx - sliding_window`), so
  local_window = sliding_window - 1 in our |q - k| <= w.
- Gemma 2's soft-caps: scores c·tanh(s/c) before the mask (attn_logit_softcapping), logits
  c·tanh(l/c) (final_logit_softcapping); a null in config.json means none, a missing key
  the class default (50 and 30).
- Gemma 3: per-head q/k RMSNorm before RoPE (cfg.qk_norm "head"); full-attention layers
  rotate with rope_parameters["full_attention"] (rope_theta, default 1e6, and its scaling,
  e.g. linear ×8 on gemma-3-4b and up), sliding layers with
  rope_parameters["sliding_attention"]["rope_theta"] (default 1e4, never scaled:
  cfg.rope_local_base). Older config.json files spell these rope_theta, rope_scaling
  (global layers only) and rope_local_base_freq, as Gemma3TextConfig reads them.
  transformers never passes attn_logit_softcapping to Gemma 3's attention (its Attention
  stores it and calls the attention function without it), so neither do we; Gemma3ForCausalLM
  applies final_logit_softcapping, Gemma3ForConditionalGeneration does not (so the
  multimodal family leaves it out too). Both caps are null on every released Gemma 3.
- Embeddings × √hidden_size (cfg.embed_scale). HF keeps the factor as a buffer rounded to
  the weights' dtype: in float32 that is the value our multiplication uses (the scalar
  is rounded to float32 before the product), so the two agree bit for bit; in bfloat16 HF
  rounds √1152 = 33.94 to 34.0 and √640 = 25.30 to 25.25, which our product does not.
- Config files written by `save_pretrained` of a multimodal model hold only the
  text_config values that differ from Gemma3TextConfig's defaults (gemma-3-4b-it: no
  vocab_size, head_dim, rope_theta...), so every missing key takes the class default here.
- A saved Gemma3ForConditionalGeneration names its language model language_model.model.*
  (transformers 5 writes the original hub names back), in memory it is
  model.language_model.*; the lm_head is tied (else lm_head or language_model.lm_head).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import TransformerConfig
from .keytable import Copy, Family, hf_get, rope_settings, unsupported

# the class defaults of Gemma2Config and Gemma3TextConfig (transformers 5) that these
# loaders read: what a config.json that leaves the key out means
GEMMA2_DEFAULTS: dict[str, Any] = dict(
    vocab_size=256000, hidden_size=2304, intermediate_size=9216, num_hidden_layers=26, num_attention_heads=8,
    num_key_value_heads=4, head_dim=256, hidden_activation="gelu_pytorch_tanh", max_position_embeddings=8192,
    rms_norm_eps=1e-6, pad_token_id=0, tie_word_embeddings=True, attention_bias=False, query_pre_attn_scalar=256,
    sliding_window=4096, final_logit_softcapping=30.0, attn_logit_softcapping=50.0,
)
GEMMA3_TEXT_DEFAULTS: dict[str, Any] = dict(
    vocab_size=262208, hidden_size=2304, intermediate_size=9216, num_hidden_layers=26, num_attention_heads=8,
    num_key_value_heads=4, head_dim=256, hidden_activation="gelu_pytorch_tanh", max_position_embeddings=131072,
    rms_norm_eps=1e-6, pad_token_id=0, tie_word_embeddings=True, attention_bias=False, query_pre_attn_scalar=256,
    sliding_window=4096, final_logit_softcapping=None, attn_logit_softcapping=None,
)
GEMMA3_THETA = {"full_attention": 1_000_000.0, "sliding_attention": 10_000.0}
LAYER_TYPES = ("sliding_attention", "full_attention")
# the gate of the MLP: ACT2FN[hidden_activation]
GATED_ACT = {"gelu_pytorch_tanh": "geglu", "gelu_new": "geglu", "gelu": "geglu_exact"}


def _defaults(hf: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The config with every key it leaves out set to the class default (a key that is
    present keeps its value, null included: a null soft-cap means none)."""
    return {**defaults, **hf}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _layer_types(hf: Mapping[str, Any], family: str, pattern: int) -> list[str]:
    """Each layer's attention kind: layer_types, else layer i slides when (i + 1) % pattern."""
    n = hf["num_hidden_layers"]
    types = hf.get("layer_types")
    if types is None:
        if not _whole(pattern) or pattern < 1:
            raise unsupported(family, "sliding_window_pattern", f"A {family} sliding_window_pattern must be a whole "
                              f"number of at least 1 (got {str(pattern)[:20]}).")
        return ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(n)]
    if not isinstance(types, list) or len(types) != n or any(t not in LAYER_TYPES for t in types):
        raise unsupported(family, "layer_types", f"{family} layer_types must name each of the {n} layers "
                          "sliding_attention or full_attention.")
    return types


def _common(hf: Mapping[str, Any], family: str, types: list[str], rope: Mapping[str, Any], **settings: Any
            ) -> TransformerConfig:
    """The skeleton Gemma 2 and Gemma 3 share: sandwich RMSNorms × (1 + w), GeGLU, scaled
    embeddings, their own attention scale, sliding-window layers."""
    if hf_get(hf, "attention_bias", False):
        raise unsupported(family, "attention_bias", f"{family} checkpoints with attention_bias=true are not supported.")
    if hf_get(hf, "use_bidirectional_attention", False):
        raise unsupported(family, "use_bidirectional_attention", f"{family} with use_bidirectional_attention=true "
                          "(an embedding model) is not supported: Glassbox loads it as a causal language model.")
    act = hf_get(hf, "hidden_activation", "gelu_pytorch_tanh")
    if not isinstance(act, str) or act not in GATED_ACT:
        raise unsupported(family, f"hidden_activation={str(act)[:30]}", f"Unsupported {family} activation "
                          f"hidden_activation={str(act)[:30]!r} (supported: {', '.join(GATED_ACT)}).")
    local = tuple(i for i, t in enumerate(types) if t == "sliding_attention")
    window = hf.get("sliding_window")
    if local and (not _whole(window) or window < 2):
        raise unsupported(family, f"sliding_window={str(window)[:20]}", f"A {family} sliding_window must be a whole "
                          "number of at least 2 keys.")
    scalar = hf["query_pre_attn_scalar"]
    if isinstance(scalar, bool) or not isinstance(scalar, (int, float)) or not scalar > 0:
        raise unsupported(family, "query_pre_attn_scalar", f"{family} needs a positive query_pre_attn_scalar "
                          f"(got {str(scalar)[:20]}).")
    heads = hf["num_attention_heads"]
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        d_head=hf_get(hf, "head_dim", hf["hidden_size"] // heads), max_len=hf["max_position_embeddings"],
        positional="rope", **rope, norm="rmsnorm", norm_plus_one=True, norm_position="sandwich",
        activation=GATED_ACT[act], bias=False, embed_scale=True, embed_scale_rounded=True,
        attn_scale=float(scalar) ** -0.5,
        local_layers=local, local_window=window - 1 if local else 0,
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", True)), norm_eps=hf_get(hf, "rms_norm_eps", 1e-6),
        output="logits", pad_id=hf_get(hf, "pad_token_id"), **settings,
    )


# ---- configs ---------------------------------------------------------------------------------
def gemma2_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Gemma 2: sandwich norms, soft-capped scores and logits, sliding-window layers every
    other layer, one RoPE for all."""
    family = "Gemma 2"
    hf = _defaults(hf, GEMMA2_DEFAULTS)
    rope, _ = rope_settings(hf, family)
    return _common(hf, family, _layer_types(hf, family, 2), rope,
                   attn_softcap=hf.get("attn_logit_softcapping"), logit_softcap=hf.get("final_logit_softcapping"))


def _gemma3_rope(hf: Mapping[str, Any], family: str) -> tuple[dict[str, Any], float]:
    """(config fields of the full-attention layers' RoPE, the sliding layers' base), read
    as Gemma3TextConfig.convert_rope_params_to_dict does: rope_parameters per layer type,
    with an older rope_scaling merged into the full-attention one, and rope_theta /
    rope_local_base_freq as the bases where the dicts give none."""
    params = hf.get("rope_parameters")
    if params is None:
        params = {}
    if not isinstance(params, dict) or set(params) - set(LAYER_TYPES):
        raise unsupported(family, "rope_parameters", f"{family} rope_parameters must hold one setting per layer type "
                          "(sliding_attention, full_attention).")
    full, local = dict(params.get("full_attention") or {}), dict(params.get("sliding_attention") or {})
    old = hf.get("rope_scaling")
    if old is not None:
        if not isinstance(old, dict):
            raise unsupported(family, "rope_scaling", f"{family} rope_scaling must be a dict of settings.")
        full.update(old)
    full.setdefault("rope_theta", hf_get(hf, "rope_theta", GEMMA3_THETA["full_attention"]))
    local.setdefault("rope_theta", hf_get(hf, "rope_local_base_freq", GEMMA3_THETA["sliding_attention"]))
    kind = str(local.get("rope_type", local.get("type", "default")))
    if kind != "default":
        raise unsupported(family, f"sliding_attention rope_type={kind[:30]}", f"{family} with RoPE scaling on its "
                          f"sliding-window layers (sliding_attention rope_type={kind[:30]!r}) is not supported "
                          "(only on full attention).")
    scaling, _ = rope_settings({**hf, "rope_parameters": full, "rope_scaling": None}, family)
    base = local["rope_theta"]
    if isinstance(base, bool) or not isinstance(base, (int, float)):
        raise unsupported(family, "rope_local_base_freq", f"{family} needs a number as the sliding layers' "
                          f"rope_theta (got {str(base)[:20]}).")
    return scaling, float(base)


def _gemma3(hf: Mapping[str, Any], family: str, logit_softcap: float | None) -> TransformerConfig:
    pattern = hf_get(hf, "sliding_window_pattern", 6)
    types = _layer_types(hf, family, pattern)
    rope, local_base = _gemma3_rope(hf, family)
    has_local = "sliding_attention" in types
    return _common(hf, family, types, rope, qk_norm="head", logit_softcap=logit_softcap,
                   rope_local_base=local_base if has_local else None)


def gemma3_text_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """Gemma 3 (text only): Gemma 2 with per-head q/k norms, a RoPE base per layer kind
    (scaled on global layers only), five sliding layers in six, no soft-caps by default."""
    hf = _defaults(hf, GEMMA3_TEXT_DEFAULTS)
    return _gemma3(hf, "Gemma 3", hf.get("final_logit_softcapping"))


def gemma3_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """The language model of a multimodal Gemma 3 (Gemma3ForConditionalGeneration): its
    text_config, the lm_head tied as the top-level tie_word_embeddings says; no logit
    soft-cap (the multimodal class applies none)."""
    text = hf["text_config"]
    if not isinstance(text, Mapping):
        raise unsupported("Gemma 3", "text_config", "A multimodal Gemma 3 config.json needs its text_config settings.")
    merged = _defaults(text, GEMMA3_TEXT_DEFAULTS)
    merged["tie_word_embeddings"] = hf_get(hf, "tie_word_embeddings", True)
    return _gemma3(merged, "Gemma 3", None)


# ---- key tables ------------------------------------------------------------------------------
def gemma_sandwich_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """(prefix)layers.{i}.self_attn.{q,k,v,o}_proj (Gemma 3: q_norm, k_norm), mlp.{gate,up,down}_proj
    and four RMSNorms per layer; (prefix)norm; lm_head when it is not tied."""
    ks = [Copy("embed.weight", p + "embed_tokens.weight"), Copy("ln_final.weight", p + "norm.weight")]
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        pairs = {"attn.W_Q": "self_attn.q_proj", "attn.W_K": "self_attn.k_proj", "attn.W_V": "self_attn.v_proj",
                 "attn.W_O": "self_attn.o_proj", "mlp.W_gate": "mlp.gate_proj", "mlp.W_in": "mlp.up_proj",
                 "mlp.W_out": "mlp.down_proj", "ln1": "input_layernorm", "ln1_out": "post_attention_layernorm",
                 "ln2": "pre_feedforward_layernorm", "ln2_out": "post_feedforward_layernorm"}
        if cfg.qk_norm == "head":
            pairs.update({"attn.q_norm": "self_attn.q_norm", "attn.k_norm": "self_attn.k_norm"})
        ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight") for ours, theirs in pairs.items()]
    if not cfg.tie_embeddings:
        # a saved multimodal model keeps the original name language_model.lm_head
        ks.append(Copy("unembed.weight", "lm_head.weight", alt="language_model.lm_head.weight"))
    return ks


FAMILIES: dict[str, Family] = {
    "gemma2": Family(gemma2_config, gemma_sandwich_keys, "embed_tokens.weight", ("model.", "")),
    "gemma3_text": Family(gemma3_text_config, gemma_sandwich_keys, "embed_tokens.weight", ("model.", "")),
    # Gemma3ForConditionalGeneration: in memory, as saved (and on the hub), and its base Gemma3Model
    "gemma3": Family(gemma3_config, gemma_sandwich_keys, "embed_tokens.weight",
                     ("model.language_model.", "language_model.model.", "language_model.")),
}

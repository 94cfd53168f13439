"""The model types the loader reads: each family's config reader and key table (the
registry `FAMILIES`), and a Hugging Face config dict -> our `TransformerConfig`
(`config_from_hf`). GPT-2 and LLaMA are here; BERT in bert.py; the other decoders in
decoders.py, gemma.py and phi.py; the other encoders in encoders.py; the encoder-decoders
in seq2seq.py. pretrained.py copies the weights; hub.py reads a hub model's config with
`config_from_hf` before any weight is downloaded.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import TransformerConfig
from ..errors import Refused
from . import decoders, encoders, gemma, phi
from . import seq2seq
from .bert import bert_config, bert_keys
from .keytable import CheckpointError, Copy, Family, hf_get, rope_settings, unsupported


# ---- configs: HF config dict -> TransformerConfig ----------------------------------------

def gpt2_config(hf: Mapping[str, Any]) -> TransformerConfig:
    if hf_get(hf, "scale_attn_by_inverse_layer_idx", False) or hf_get(hf, "reorder_and_upcast_attn", False):
        raise unsupported("GPT-2", "scale_attn_by_inverse_layer_idx / reorder_and_upcast_attn",
                           "GPT-2 variants with scale_attn_by_inverse_layer_idx or reorder_and_upcast_attn are not "
                           "supported.")
    if not hf_get(hf, "scale_attn_weights", True):
        raise unsupported("GPT-2", "scale_attn_weights=false", "GPT-2 without scaled attention weights is not "
                           "supported.")
    act = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu", "relu": "relu"}
    name = hf_get(hf, "activation_function", "gelu_new")
    if name not in act:
        raise unsupported("GPT-2", f"activation_function={str(name)[:30]}",
                           f"Unsupported GPT-2 activation {str(name)[:30]!r}.")
    d = hf["n_embd"]
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=d, n_layers=hf["n_layer"], n_heads=hf["n_head"],
        d_ff=hf_get(hf, "n_inner", 4 * d), max_len=hf["n_positions"], positional="learned", norm="layernorm",
        norm_position="pre", activation=act[name], bias=True,
        tie_embeddings=hf_get(hf, "tie_word_embeddings", True), norm_eps=hf_get(hf, "layer_norm_epsilon", 1e-5),
        output="logits",
    )


def llama_config(hf: Mapping[str, Any]) -> TransformerConfig:
    rope, _ = rope_settings(hf, "LLaMA")
    if hf_get(hf, "sliding_window") is not None and hf["sliding_window"] < hf["max_position_embeddings"]:
        raise unsupported("LLaMA", "sliding_window", "Sliding-window attention checkpoints are not supported yet.")
    if hf_get(hf, "attention_bias", False) != hf_get(hf, "mlp_bias", False):
        raise unsupported("LLaMA", "attention_bias != mlp_bias", "Checkpoints with biases in attention but not "
                           "in the MLP (or the reverse) are not supported.")
    if hf_get(hf, "hidden_act", "silu") != "silu":
        raise unsupported("LLaMA", f"hidden_act={str(hf['hidden_act'])[:30]}",
                           f"Unsupported LLaMA activation {str(hf['hidden_act'])[:30]!r} (expected silu).")
    heads = hf["num_attention_heads"]
    return TransformerConfig(
        arch="decoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, n_kv_heads=hf_get(hf, "num_key_value_heads", heads), d_ff=hf["intermediate_size"],
        d_head=hf_get(hf, "head_dim", hf["hidden_size"] // heads), max_len=hf["max_position_embeddings"],
        positional="rope", **rope, norm="rmsnorm", norm_position="pre", activation="swiglu",
        bias=bool(hf_get(hf, "attention_bias", False)), tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", False)),
        norm_eps=hf_get(hf, "rms_norm_eps", 1e-6), output="logits", pad_id=hf_get(hf, "pad_token_id"),
    )


# ---- key tables: our name -> checkpoint key ------------------------------------------------
# GPT-2 stores these as Conv1D weights [in, out]; they are transposed into nn.Linear [out, in]
GPT2_TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def gpt2_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    ks = [Copy("embed.weight", p + "wte.weight"), Copy("pos_embed.weight", p + "wpe.weight"),
          Copy("ln_final.weight", p + "ln_f.weight"), Copy("ln_final.bias", p + "ln_f.bias")]
    for i in range(cfg.n_layers):
        h, o = f"{p}h.{i}.", f"blocks.{i}."
        for j, name in enumerate(("W_Q", "W_K", "W_V")):   # c_attn = [Q | K | V] along the output dim
            ks += [Copy(f"{o}attn.{name}.weight", h + "attn.c_attn.weight", True, (j, 3)),
                   Copy(f"{o}attn.{name}.bias", h + "attn.c_attn.bias", False, (j, 3))]
        for ours, theirs in {"attn.W_O": "attn.c_proj", "mlp.W_in": "mlp.c_fc", "mlp.W_out": "mlp.c_proj"}.items():
            ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight", f"{theirs}.weight" in GPT2_TRANSPOSED),
                   Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias")]
        for ours, theirs in {"ln1": "ln_1", "ln2": "ln_2"}.items():
            ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight"), Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias")]
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    return ks


FAMILIES: dict[str, Family] = {
    "bert": Family(bert_config, bert_keys, "embeddings.word_embeddings.weight", ("", "bert.")),
    "gpt2": Family(gpt2_config, gpt2_keys, "wte.weight", ("transformer.", "")),
    "llama": Family(llama_config, decoders.llama_like_keys, "embed_tokens.weight", ("model.", "")),
    **decoders.FAMILIES,                     # qwen2, mistral (sliding window), gemma, gpt_neox, qwen3, olmo2, smollm3, granite
    **gemma.FAMILIES,                        # gemma2, gemma3_text
    **phi.FAMILIES,                          # phi3, phi, stablelm, opt
    **encoders.FAMILIES,                     # roberta, xlm-roberta, distilbert, electra, modernbert
    # encoder-decoders (models/weights/seq2seq.py)
    "t5": Family(seq2seq.t5_config, seq2seq.t5_keys, "shared.weight", ("", "model.")),
    "marian": Family(seq2seq.marian_config, seq2seq.bart_keys, "shared.weight", ("model.", "")),
    "bart": Family(seq2seq.bart_config, seq2seq.bart_keys, "shared.weight", ("model.", "")),
}


SUPPORTED = tuple(FAMILIES)     # every model_type the loader reads, in the order above


def family_of(hf_config: Mapping[str, Any]) -> str:
    if not isinstance(hf_config, Mapping):
        raise CheckpointError("config_not_object", "config.json is not a JSON object of settings.")
    kind = hf_config.get("model_type")
    if not isinstance(kind, str) or kind not in FAMILIES:
        if isinstance(kind, str):
            decoders.refuse_known_type(kind)   # a mixture-of-experts decoder: says why, by name
        archs = hf_config.get("architectures")
        archs = ", ".join(map(str, archs))[:80] if isinstance(archs, list) and archs else "unknown"
        shown = str(kind)[:40]
        raise CheckpointError("unsupported_arch", f"Unsupported architecture {shown!r} ({archs}): Glassbox loads "
                              f"{', '.join(SUPPORTED)} checkpoints.", kind=shown, supported=", ".join(SUPPORTED))
    return kind


def config_from_hf(hf_config: Mapping[str, Any]) -> TransformerConfig:
    """Our config for a Hugging Face config dict (raises CheckpointError if unsupported,
    ConfigError if a value is not what the field needs)."""
    family = family_of(hf_config)
    try:
        return FAMILIES[family].config(hf_config)
    except KeyError as e:
        field = str(e.args[0])[:40]
        raise CheckpointError("config_field", f"config.json lacks the field {field!r} needed for a {family} model.",
                              field=field, family=family) from None
    except Refused:
        raise
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, OverflowError):   # e.g. rope_theta "fast"
        raise CheckpointError("config_values", f"config.json has values a {family} model cannot have "
                              "(a number where text is needed, or the reverse).", family=family) from None

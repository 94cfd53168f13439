"""Encoder-decoder checkpoint families: T5 (v1.0 and v1.1), Marian and BART.

Each family is a config function (HF config dict -> our `TransformerConfig`, refusing
the variants we do not implement with `unsupported(...)` naming the setting) and a key
table (our parameter <- the checkpoint's tensor). Our encoder-decoder has one token
embedding `embed` shared by both stacks, `encoder.blocks.i...` and `decoder.blocks.i...`,
with `cross_attn` / `ln_cross` in the decoder's blocks.

The HF conventions matched here (tests/unit/test_families_seq2seq.py checks every
hidden state, attention probability and logit against transformers):
- T5: q·k is not divided by √d_head (scale_attention=False); RMSNorm without bias,
  pre-norm with a final norm per stack; the relative-position table lives in layer 0's
  self-attention of each stack and is shared by all layers (the decoder's buckets are
  one-directional, cross-attention has none); with tied embeddings the decoder output is
  multiplied by d_model^-0.5 before lm_head (unembed_scale). v1.1 ("gated-gelu"): GeGLU
  with wi_0 the gate and wi_1 the linear branch, untied lm_head, no output scaling.
  transformers 5 writes tie_word_embeddings=true for every T5 but keeps a checkpoint's own
  lm_head (Flan-T5's): a config with scale_decoder_outputs=false is loaded untied, its head
  lm_head.weight, or shared.weight when the checkpoint has none.
- mT5 (model_type "mt5"): T5 v1.1's layout, untied, never scaled (registered in encoders.py).
- Marian: post-LN, static sinusoidal positions from 0 with [sin | cos] halves (not
  saved in the checkpoint: computed), embeddings × √d_model when scale_embedding,
  final_logits_bias added to the logits.
- BART: post-LN, learned positions whose table has 2 extra rows (position p reads row
  p + 2), layernorm_embedding in both stacks, final_logits_bias.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import TransformerConfig
from .keytable import CheckpointError, Copy, hf_get, unsupported


def _same(hf: Mapping[str, Any], family: str, pairs: tuple[tuple[str, str], ...]) -> None:
    """Encoder and decoder must have the same shape (we build both stacks from one config)."""
    for a, b in pairs:
        if hf_get(hf, b) is not None and hf_get(hf, a) != hf_get(hf, b):
            raise unsupported(family, b, f"{family} checkpoints whose encoder and decoder differ ({a}="
                              f"{str(hf_get(hf, a))[:20]}, {b}={str(hf_get(hf, b))[:20]}) are not supported.")


# ---- T5 ----------------------------------------------------------------------------------------
T5_ACTS = {("relu", False): "relu", ("gelu", False): "gelu", ("gelu_new", False): "gelu_tanh",
           ("gelu_new", True): "geglu", ("gelu_pytorch_tanh", True): "geglu", ("silu", True): "swiglu"}


def t5_config(hf: Mapping[str, Any]) -> TransformerConfig:
    proj = str(hf_get(hf, "feed_forward_proj", "relu"))
    parts = proj.split("-")
    gated = parts[0] == "gated" and len(parts) == 2
    act = "gelu_new" if proj == "gated-gelu" else parts[-1]       # HF's own special case for v1.1
    if (act, gated) not in T5_ACTS or len(parts) > 2 or (len(parts) == 2 and not gated):
        raise unsupported("T5", f"feed_forward_proj={proj[:30]}", f"Unsupported T5 feed-forward {proj[:30]!r} "
                          "(supported: relu, gelu, gated-gelu, gated-silu).")
    _same(hf, "T5", (("num_layers", "num_decoder_layers"),))
    tie = bool(hf_get(hf, "tie_word_embeddings", True))
    # transformers >= 5 writes scale_decoder_outputs; older configs: scaled exactly when tied (v1.0)
    scale_out = bool(hf_get(hf, "scale_decoder_outputs", tie))
    if hf_get(hf, "scale_decoder_outputs") is False:
        # transformers >= 5 writes tie_word_embeddings=true for every T5 but keeps the checkpoint's own lm_head when it
        # has one that differs (Flan-T5, v1.1): scale_decoder_outputs=false marks such a config. Untied here: t5_keys
        # reads lm_head.weight, or shared.weight where the checkpoint has none (then it was tied: the same values)
        tie = False
    return TransformerConfig(
        arch="encoder-decoder", vocab_size=hf["vocab_size"], d_model=hf["d_model"], n_layers=hf["num_layers"],
        n_heads=hf["num_heads"], d_head=hf["d_kv"], d_ff=hf["d_ff"], max_len=hf_get(hf, "n_positions", 512),
        positional="relative", relative_buckets=hf_get(hf, "relative_attention_num_buckets", 32),
        relative_max_distance=hf_get(hf, "relative_attention_max_distance", 128), norm="rmsnorm",
        norm_position="pre", activation=T5_ACTS[(act, gated)], bias=False, tie_embeddings=tie,
        norm_eps=hf_get(hf, "layer_norm_epsilon", 1e-6), scale_attention=False, unembed_scale=scale_out,
        output="logits", pad_id=hf_get(hf, "pad_token_id"),
    )


def t5_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    ks = [Copy("embed.weight", p + "shared.weight")]
    for stack in ("encoder", "decoder"):
        s = f"{p}{stack}."
        ks += [Copy(f"{stack}.rel_bias.weight", s + "block.0.layer.0.SelfAttention.relative_attention_bias.weight"),
               Copy(f"{stack}.ln_final.weight", s + "final_layer_norm.weight")]
        for i in range(cfg.n_layers):
            h, o = f"{s}block.{i}.layer.", f"{stack}.blocks.{i}."
            subs = [("attn", "ln1", "0.SelfAttention", "0.layer_norm")]
            if stack == "decoder":
                subs.append(("cross_attn", "ln_cross", "1.EncDecAttention", "1.layer_norm"))
            for attn, ln, theirs, their_ln in subs:
                ks += [Copy(f"{o}{attn}.W_{x.upper()}.weight", f"{h}{theirs}.{x}.weight") for x in "qkvo"]
                ks.append(Copy(f"{o}{ln}.weight", f"{h}{their_ln}.weight"))
            ff = f"{h}{len(subs)}."
            mlp = {"W_gate": "wi_0", "W_in": "wi_1", "W_out": "wo"} if cfg.gated else {"W_in": "wi", "W_out": "wo"}
            ks += [Copy(f"{o}mlp.{ours}.weight", f"{ff}DenseReluDense.{theirs}.weight") for ours, theirs in mlp.items()]
            ks.append(Copy(f"{o}ln2.weight", f"{ff}layer_norm.weight"))
    if not cfg.tie_embeddings:      # a checkpoint saved tied by transformers 5 has no lm_head: shared is the head
        ks.append(Copy("unembed.weight", "lm_head.weight", alt=p + "shared.weight"))
    return ks


# ---- mT5 (model_type "mt5"): T5 v1.1's layout ----------------------------------------------------
def mt5_config(hf: Mapping[str, Any]) -> TransformerConfig:
    """mT5: T5 v1.1 (gated-gelu by default, MT5Config's default) with an untied lm_head that
    scales nothing (MT5ForConditionalGeneration never multiplies by d_model^-0.5). transformers
    5 forces tie_word_embeddings=true in MT5Config yet keeps a checkpoint's own lm_head (every
    hub mT5 has one): the head is lm_head.weight when the checkpoint has it, else shared.weight
    (a model transformers 5 saved tied)."""
    try:
        cfg = t5_config({**hf, "feed_forward_proj": hf_get(hf, "feed_forward_proj", "gated-gelu")})
    except CheckpointError as e:
        if e.reason != "unsupported_variant":
            raise
        feature = str(e.values.get("feature", ""))
        setting = feature.split("=")[0]
        message = str(e).replace("T5", "mT5", 1)
        raise unsupported("mT5", feature, message if setting in message else f"{message} ({feature})") from None
    return cfg.replace(tie_embeddings=False, unembed_scale=False)


mt5_keys = t5_keys      # the same tensors; untied: lm_head.weight (or shared.weight)


# ---- Marian and BART (the same layer layout) ---------------------------------------------------
BART_ACTS = {"gelu": "gelu", "relu": "relu", "swish": "silu", "silu": "silu", "gelu_new": "gelu_tanh",
             "gelu_pytorch_tanh": "gelu_tanh"}


def _bart_like(hf: Mapping[str, Any], family: str, **fields: Any) -> TransformerConfig:
    for name in ("normalize_before", "add_final_layer_norm", "normalize_embedding", "add_bias_logits"):
        if hf_get(hf, name, False) and not (family == "BART" and name == "normalize_embedding"):
            raise unsupported(family, name, f"{family} checkpoints with {name}=true (mBART-style pre-norm or extra "
                              "norms) are not supported.")
    if family == "Marian" and not hf_get(hf, "static_position_embeddings", True):
        raise unsupported(family, "static_position_embeddings", "Marian checkpoints with learned positions "
                          "(static_position_embeddings=false) are not supported.")
    if not hf_get(hf, "share_encoder_decoder_embeddings", True) or \
            hf_get(hf, "decoder_vocab_size", hf["vocab_size"]) != hf["vocab_size"]:
        raise unsupported(family, "share_encoder_decoder_embeddings", f"{family} checkpoints with separate source "
                          "and target vocabularies are not supported (Glassbox shares one embedding).")
    _same(hf, family, (("encoder_layers", "decoder_layers"), ("encoder_attention_heads", "decoder_attention_heads"),
                       ("encoder_ffn_dim", "decoder_ffn_dim")))
    name = hf_get(hf, "activation_function", "gelu")
    if name not in BART_ACTS:
        raise unsupported(family, f"activation_function={str(name)[:30]}",
                          f"Unsupported {family} activation {str(name)[:30]!r}.")
    return TransformerConfig(
        arch="encoder-decoder", vocab_size=hf["vocab_size"], d_model=hf["d_model"], n_layers=hf["encoder_layers"],
        n_heads=hf["encoder_attention_heads"], d_ff=hf["encoder_ffn_dim"], max_len=hf["max_position_embeddings"],
        norm="layernorm", norm_position="post", activation=BART_ACTS[name], bias=True,
        tie_embeddings=bool(hf_get(hf, "tie_word_embeddings", True)), norm_eps=1e-5,
        embed_scale=bool(hf_get(hf, "scale_embedding", False)), logit_bias=True, output="logits",
        pad_id=hf_get(hf, "pad_token_id"), **fields,
    )


def marian_config(hf: Mapping[str, Any]) -> TransformerConfig:
    return _bart_like(hf, "Marian", positional="sinusoidal", sinusoidal_layout="halves")


def bart_config(hf: Mapping[str, Any]) -> TransformerConfig:
    return _bart_like(hf, "BART", positional="learned", pos_offset=2, embed_norm=True)


def bart_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """Marian's and BART's keys (Marian has no position table and no layernorm_embedding)."""
    ks = [Copy("embed.weight", p + "shared.weight"), Copy("unembed.logit_bias", "final_logits_bias")]
    for stack in ("encoder", "decoder"):
        s = f"{p}{stack}."
        if cfg.positional == "learned":
            ks.append(Copy(f"{stack}.pos_embed.weight", s + "embed_positions.weight"))
        if cfg.embed_norm:
            ks += [Copy(f"{stack}.ln_embed.{w}", f"{s}layernorm_embedding.{w}") for w in ("weight", "bias")]
        for i in range(cfg.n_layers):
            h, o = f"{s}layers.{i}.", f"{stack}.blocks.{i}."
            pairs = {"attn.W_Q": "self_attn.q_proj", "attn.W_K": "self_attn.k_proj", "attn.W_V": "self_attn.v_proj",
                     "attn.W_O": "self_attn.out_proj", "ln1": "self_attn_layer_norm", "mlp.W_in": "fc1",
                     "mlp.W_out": "fc2", "ln2": "final_layer_norm"}
            if stack == "decoder":
                pairs.update({"cross_attn.W_Q": "encoder_attn.q_proj", "cross_attn.W_K": "encoder_attn.k_proj",
                              "cross_attn.W_V": "encoder_attn.v_proj", "cross_attn.W_O": "encoder_attn.out_proj",
                              "ln_cross": "encoder_attn_layer_norm"})
            for ours, theirs in pairs.items():
                ks += [Copy(f"{o}{ours}.{w}", f"{h}{theirs}.{w}") for w in ("weight", "bias")]
    if not cfg.tie_embeddings:
        ks.append(Copy("unembed.weight", "lm_head.weight"))
    return ks

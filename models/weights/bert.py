"""BERT (MiniLM's family): its config reader and key table. RoBERTa, XLM-RoBERTa and ELECTRA
reuse both (encoders.py); the registry of every family is families.py.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import TransformerConfig
from .keytable import Copy, hf_get, unsupported


def bert_config(hf: Mapping[str, Any]) -> TransformerConfig:
    if hf_get(hf, "position_embedding_type", "absolute") != "absolute":
        raise unsupported("BERT", "position_embedding_type", "Only BERT models with absolute position embeddings "
                           "are supported.")
    act = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "relu": "relu"}
    if hf["hidden_act"] not in act:
        raise unsupported("BERT", f"hidden_act={str(hf['hidden_act'])[:30]}",
                           f"Unsupported BERT activation {str(hf['hidden_act'])[:30]!r}.")
    return TransformerConfig(
        arch="encoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=hf["num_attention_heads"], d_ff=hf["intermediate_size"], max_len=hf["max_position_embeddings"],
        positional="learned", norm="layernorm", norm_position="post", activation=act[hf["hidden_act"]],
        bias=True, tie_embeddings=False, norm_eps=hf_get(hf, "layer_norm_eps", 1e-12), embed_norm=True,
        n_token_types=hf_get(hf, "type_vocab_size", 2), output="hidden", pad_id=hf_get(hf, "pad_token_id"),
    )


def bert_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    ks = [Copy("embed.weight", p + "embeddings.word_embeddings.weight"),
          Copy("pos_embed.weight", p + "embeddings.position_embeddings.weight"),
          Copy("ln_embed.weight", p + "embeddings.LayerNorm.weight"),
          Copy("ln_embed.bias", p + "embeddings.LayerNorm.bias")]
    if cfg.n_token_types:                       # type_vocab_size 0: no segment embeddings to copy
        ks.append(Copy("type_embed.weight", p + "embeddings.token_type_embeddings.weight"))
    for i in range(cfg.n_layers):
        h, o = f"{p}encoder.layer.{i}.", f"blocks.{i}."
        pairs = {"attn.W_Q": "attention.self.query", "attn.W_K": "attention.self.key",
                 "attn.W_V": "attention.self.value", "attn.W_O": "attention.output.dense",
                 "ln1": "attention.output.LayerNorm", "mlp.W_in": "intermediate.dense",
                 "mlp.W_out": "output.dense", "ln2": "output.LayerNorm"}
        for ours, theirs in pairs.items():
            ks += [Copy(f"{o}{ours}.weight", f"{h}{theirs}.weight"), Copy(f"{o}{ours}.bias", f"{h}{theirs}.bias")]
    return ks

"""Encoder families loaded into our `Transformer` (output="hidden": the last hidden state of
the base model, as BERT and MiniLM): RoBERTa, XLM-RoBERTa, DistilBERT, ELECTRA (the
discriminator, ElectraModel) and ModernBERT; and mT5, an encoder-decoder whose functions
live in seq2seq.py beside T5's. Each is a config function (HF config dict ->
TransformerConfig, refusing a variant we do not implement with `unsupported(...)`, which
names the setting) and a key table (our parameter <- the checkpoint's tensor).
`families.FAMILIES` registers them from `FAMILIES` below.

Conventions matched (transformers 5, checked by tests/unit/test_families_encoders.py):
- RoBERTa / XLM-RoBERTa: BERT's layout (bert.bert_config / bert_keys) whose
  position ids start after the padding index: real token p reads row p + pad_token_id + 1
  (RobertaEmbeddings.create_position_ids_from_input_ids: cumsum of ids != pad, + pad), so
  pos_offset = pad_token_id + 1 and the usable length is max_position_embeddings −
  pad_token_id − 1 (514 − 2 = 512). HF derives the positions from the ids: a pad id
  *inside* the text would not advance them, and left padding shifts the real tokens' rows;
  our positions count from the first token, which is the same for every text a tokenizer
  makes (no pad id among the tokens) and for right-padded batches. type_vocab_size is 1.
- DistilBERT: no token types; q_lin/k_lin/v_lin/out_lin, sa_layer_norm, ffn.lin1/lin2,
  output_layer_norm, post-norm, LayerNorm eps fixed at 1e-12. sinusoidal_pos_embds=true
  only changes how the position table is *initialised*: it is an nn.Embedding saved in the
  checkpoint either way, so it is copied as a learned table.
- ELECTRA: embeddings (token, position, type) and their LayerNorm of width embedding_size,
  then embeddings_project (Linear embedding_size -> hidden_size, with bias) when the two
  differ: our d_embed and embed_proj. Otherwise BERT.
- ModernBERT: pre-norm; block 0's attn_norm is an Identity (first_attn_norm=False); the
  embeddings' norm (embed_norm) and final_norm; LayerNorm without bias (norm_bias=false);
  no biases in the linears (attention_bias, mlp_bias). Wqkv is fused [Q | K | V] (view
  (…, 3, heads, head_dim)). Wi is fused [input | gate] with `input, gate = chunk(2)` and
  out = Wo(act(input) · gate): the activation reads the FIRST half, so our W_gate is part
  0 and W_in part 1; hidden_activation "gelu" is the exact (erf) GELU: geglu_exact. RoPE
  with a global base for full-attention layers and a local base for sliding layers
  (rope_parameters per layer type in transformers 5; global_rope_theta / local_rope_theta
  in older config.json files, defaults 160000 and 10000). Layer types: layer_types, or
  (older files) global_attn_every_n_layers n: layer i is global when i % n == 0 (default
  3). Sliding layers: |q − k| <= local_attention // 2 (config.sliding_window, the
  bidirectional overlay's `abs(q_idx - kv_idx) <= sliding_window`). Positions are 0..n−1
  (no padding offset).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..config import TransformerConfig
from . import seq2seq
from .bert import bert_config, bert_keys
from .keytable import Copy, Family, hf_get, unsupported

BERT_ACTS = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "relu": "relu"}


def _act(hf: Mapping[str, Any], family: str, key: str, default: str, table: Mapping[str, str]) -> str:
    name = hf_get(hf, key, default)
    if not isinstance(name, str) or name not in table:
        raise unsupported(family, f"{key}={str(name)[:30]}", f"Unsupported {family} activation "
                          f"{key}={str(name)[:30]!r} (supported: {', '.join(table)}).")
    return table[name]


def _bert_like(hf: Mapping[str, Any], family: str) -> TransformerConfig:
    """BERT's config (bert.bert_config) after the checks BERT's descendants need, each
    refusal naming `family`: absolute positions only (relative_key / relative_key_query were
    trained with a distance embedding we do not have), an encoder (is_decoder builds a
    causal mask and, with add_cross_attention, cross-attention layers)."""
    kind = hf_get(hf, "position_embedding_type", "absolute")
    if kind != "absolute":
        raise unsupported(family, "position_embedding_type", f"Only {family} models with absolute position "
                          f"embeddings are supported (position_embedding_type={str(kind)[:30]!r}).")
    for flag in ("is_decoder", "add_cross_attention"):
        if hf_get(hf, flag, False):
            raise unsupported(family, flag, f"{family} checkpoints with {flag}=true (a causal decoder) are not "
                              "supported: Glassbox loads the encoder.")
    _act(hf, family, "hidden_act", "gelu", BERT_ACTS)
    return bert_config(hf)


# ---- configs ----------------------------------------------------------------------------------
def _roberta(hf: Mapping[str, Any], family: str) -> TransformerConfig:
    pad = hf_get(hf, "pad_token_id")
    if isinstance(pad, bool) or not isinstance(pad, int) or pad < 0:
        raise unsupported(family, "pad_token_id", f"{family} positions start after the padding index: a checkpoint "
                          "needs a pad_token_id (a token id of 0 or more).")
    cfg = _bert_like(hf, family)
    rows = hf["max_position_embeddings"]
    if rows - pad - 1 < 1:
        raise unsupported(family, "max_position_embeddings", f"{family} needs more position rows "
                          f"(max_position_embeddings={rows}) than the padding index + 1 ({pad + 1}).")
    return cfg.replace(pos_offset=pad + 1, max_len=rows - pad - 1)


def roberta_config(hf: Mapping[str, Any]) -> TransformerConfig:
    return _roberta(hf, "RoBERTa")


def xlm_roberta_config(hf: Mapping[str, Any]) -> TransformerConfig:
    return _roberta(hf, "XLM-RoBERTa")


def electra_config(hf: Mapping[str, Any]) -> TransformerConfig:
    cfg = _bert_like(hf, "ELECTRA")
    e = hf_get(hf, "embedding_size", hf["hidden_size"])
    return cfg.replace(d_embed=e) if e != hf["hidden_size"] else cfg


def distilbert_config(hf: Mapping[str, Any]) -> TransformerConfig:
    return TransformerConfig(
        arch="encoder", vocab_size=hf["vocab_size"], d_model=hf["dim"], n_layers=hf["n_layers"],
        n_heads=hf["n_heads"], d_ff=hf["hidden_dim"], max_len=hf["max_position_embeddings"], positional="learned",
        norm="layernorm", norm_position="post", activation=_act(hf, "DistilBERT", "activation", "gelu", BERT_ACTS),
        bias=True, tie_embeddings=False, norm_eps=1e-12, embed_norm=True, n_token_types=0, output="hidden",
        pad_id=hf_get(hf, "pad_token_id"),
    )


MODERNBERT_ACTS = {"gelu": "geglu_exact", "gelu_new": "geglu", "gelu_pytorch_tanh": "geglu", "silu": "swiglu",
                   "swish": "swiglu"}
MODERNBERT_THETA = {"full_attention": ("global_rope_theta", 160_000.0),
                    "sliding_attention": ("local_rope_theta", 10_000.0)}


def _modernbert_layers(hf: Mapping[str, Any]) -> list[str]:
    n = hf["num_hidden_layers"]
    types = hf_get(hf, "layer_types")
    if types is None:                           # older config.json: every n-th layer (from 0) is global
        every = hf_get(hf, "global_attn_every_n_layers", 3)
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise unsupported("ModernBERT", "global_attn_every_n_layers", "global_attn_every_n_layers must be a "
                              f"whole number of at least 1 (got {str(every)[:20]}).")
        return ["sliding_attention" if i % every else "full_attention" for i in range(n)]
    if not isinstance(types, list) or len(types) != n or any(t not in MODERNBERT_THETA for t in types):
        raise unsupported("ModernBERT", "layer_types", "ModernBERT's layer_types must name full_attention or "
                          f"sliding_attention for each of its {n} layers.")
    return types


def _modernbert_theta(hf: Mapping[str, Any], kind: str) -> float:
    """The RoPE base of one layer type, as ModernBertConfig.convert_rope_params_to_dict reads
    it: rope_parameters[kind]["rope_theta"], else global_rope_theta / local_rope_theta, else
    160000 / 10000. Only the default (unscaled) RoPE is supported."""
    params = hf_get(hf, "rope_parameters") or {}
    rope = params.get(kind) if isinstance(params, Mapping) else None
    rope = dict(rope) if isinstance(rope, Mapping) else {}
    old = hf_get(hf, "rope_scaling")                 # applied to both layer types by HF
    if isinstance(old, Mapping):
        rope.update(old)
    rope_type = rope.get("rope_type", rope.get("type", "default"))
    if rope_type != "default":
        raise unsupported("ModernBERT", f"rope_type={str(rope_type)[:30]}", f"ModernBERT with RoPE scaling "
                          f"rope_type={str(rope_type)[:30]!r} ({kind}) is not supported (only the default RoPE).")
    key, default = MODERNBERT_THETA[kind]
    theta = rope.get("rope_theta")
    theta = theta if theta is not None else hf_get(hf, key, default)
    if isinstance(theta, bool) or not isinstance(theta, (int, float)) or not theta > 0:
        raise unsupported("ModernBERT", "rope_theta", f"ModernBERT's RoPE base for {kind} must be a positive "
                          f"number (got {str(theta)[:20]}).")
    return float(theta)


def modernbert_config(hf: Mapping[str, Any]) -> TransformerConfig:
    attn_bias, mlp_bias = bool(hf_get(hf, "attention_bias", False)), bool(hf_get(hf, "mlp_bias", False))
    if attn_bias != mlp_bias:     # our `bias` covers W_O and the MLP together
        raise unsupported("ModernBERT", "attention_bias != mlp_bias", "ModernBERT checkpoints with biases in "
                          f"attention but not in the MLP or the reverse (attention_bias={str(attn_bias).lower()}, "
                          f"mlp_bias={str(mlp_bias).lower()}) are not supported.")
    if hf_get(hf, "is_decoder", False):
        raise unsupported("ModernBERT", "is_decoder", "ModernBERT checkpoints with is_decoder=true are not supported.")
    types = _modernbert_layers(hf)
    local = [i for i, t in enumerate(types) if t == "sliding_attention"]
    window = hf_get(hf, "local_attention", 128)
    if local and (isinstance(window, bool) or not isinstance(window, int) or window // 2 < 1):
        raise unsupported("ModernBERT", "local_attention", "ModernBERT's local_attention must be a whole number of "
                          f"at least 2 (a window of local_attention // 2 on each side; got {str(window)[:20]}).")
    heads = hf["num_attention_heads"]
    if hf["hidden_size"] % heads:
        raise unsupported("ModernBERT", "num_attention_heads", "ModernBERT's hidden_size must be a multiple of "
                          "num_attention_heads.")
    glob = _modernbert_theta(hf, "full_attention")
    return TransformerConfig(
        arch="encoder", vocab_size=hf["vocab_size"], d_model=hf["hidden_size"], n_layers=hf["num_hidden_layers"],
        n_heads=heads, d_ff=hf["intermediate_size"], max_len=hf["max_position_embeddings"], positional="rope",
        rope_base=glob, rope_local_base=_modernbert_theta(hf, "sliding_attention") if local else None,
        local_layers=tuple(local), local_window=window // 2 if local else 0,
        norm="layernorm", norm_bias=bool(hf_get(hf, "norm_bias", False)), norm_position="pre",
        first_attn_norm=False, embed_norm=True,
        activation=_act(hf, "ModernBERT", "hidden_activation", "gelu", MODERNBERT_ACTS), bias=attn_bias,
        tie_embeddings=False, norm_eps=hf_get(hf, "norm_eps", 1e-5), output="hidden",
        pad_id=hf_get(hf, "pad_token_id"),
    )


# ---- key tables ----------------------------------------------------------------------------------
def bert_like_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    """BERT's table (RoBERTa, XLM-RoBERTa), plus ELECTRA's embeddings_project when the
    embeddings are narrower (or wider) than the stream."""
    ks = bert_keys(cfg, p)
    if cfg.d_embed is not None:
        ks += [Copy(f"embed_proj.{w}", f"{p}embeddings_project.{w}") for w in ("weight", "bias")]
    return ks


def distilbert_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    ks = [Copy("embed.weight", p + "embeddings.word_embeddings.weight"),
          Copy("pos_embed.weight", p + "embeddings.position_embeddings.weight")]
    ks += [Copy(f"ln_embed.{w}", f"{p}embeddings.LayerNorm.{w}") for w in ("weight", "bias")]
    for i in range(cfg.n_layers):
        h, o = f"{p}transformer.layer.{i}.", f"blocks.{i}."
        pairs = {"attn.W_Q": "attention.q_lin", "attn.W_K": "attention.k_lin", "attn.W_V": "attention.v_lin",
                 "attn.W_O": "attention.out_lin", "ln1": "sa_layer_norm", "mlp.W_in": "ffn.lin1",
                 "mlp.W_out": "ffn.lin2", "ln2": "output_layer_norm"}
        for ours, theirs in pairs.items():
            ks += [Copy(f"{o}{ours}.{w}", f"{h}{theirs}.{w}") for w in ("weight", "bias")]
    return ks


def modernbert_keys(cfg: TransformerConfig, p: str) -> list[Copy]:
    norm = ("weight", "bias") if cfg.norm_bias else ("weight",)
    lin = ("weight", "bias") if cfg.bias else ("weight",)
    ks = [Copy("embed.weight", p + "embeddings.tok_embeddings.weight")]
    ks += [Copy(f"ln_embed.{w}", f"{p}embeddings.norm.{w}") for w in norm]
    ks += [Copy(f"ln_final.{w}", f"{p}final_norm.{w}") for w in norm]
    for i in range(cfg.n_layers):
        h, o = f"{p}layers.{i}.", f"blocks.{i}."
        if i > 0:                                        # layer 0's attn_norm is an Identity
            ks += [Copy(f"{o}ln1.{w}", f"{h}attn_norm.{w}") for w in norm]
        ks += [Copy(f"{o}ln2.{w}", f"{h}mlp_norm.{w}") for w in norm]
        for j, name in enumerate(("W_Q", "W_K", "W_V")):   # Wqkv = [Q | K | V] along the output rows
            ks += [Copy(f"{o}attn.{name}.{w}", f"{h}attn.Wqkv.{w}", part=(j, 3)) for w in lin]
        ks += [Copy(f"{o}attn.W_O.{w}", f"{h}attn.Wo.{w}") for w in lin]
        for j, name in enumerate(("W_gate", "W_in")):      # Wi = [input (through act) | gate]
            ks += [Copy(f"{o}mlp.{name}.{w}", f"{h}mlp.Wi.{w}", part=(j, 2)) for w in lin]
        ks += [Copy(f"{o}mlp.W_out.{w}", f"{h}mlp.Wo.{w}") for w in lin]
    return ks


FAMILIES: dict[str, Family] = {
    "roberta": Family(roberta_config, bert_like_keys, "embeddings.word_embeddings.weight", ("roberta.", "")),
    "xlm-roberta": Family(xlm_roberta_config, bert_like_keys, "embeddings.word_embeddings.weight",
                          ("roberta.", "")),
    "distilbert": Family(distilbert_config, distilbert_keys, "embeddings.word_embeddings.weight",
                         ("distilbert.", "")),
    "electra": Family(electra_config, bert_like_keys, "embeddings.word_embeddings.weight", ("electra.", "")),
    "modernbert": Family(modernbert_config, modernbert_keys, "embeddings.tok_embeddings.weight", ("model.", "")),
    # encoder-decoder (seq2seq.py): T5 v1.1's layout with an untied head
    "mt5": Family(seq2seq.mt5_config, seq2seq.mt5_keys, "shared.weight", ("", "model.")),
}

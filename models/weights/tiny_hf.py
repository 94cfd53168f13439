"""Tiny random Hugging Face models of every family Glassbox loads, built from a config
(nothing is downloaded). Used by the parity tests, the load-time benchmark
(benchmarks/load_families.py) and `python -m cli tiny-model <family> <folder>`, which
writes a folder anyone can load from the UI to try the loader offline.

Each `Tiny` names the transformers classes and the config values (small widths, a few
layers, a vocabulary of 100 ids). `build(family)` returns the model in float32 with
eager attention (so it returns attention probabilities), its norms' weights and every bias
moved off their initial 1 or 0 (so a loader that drops one cannot still match); `save(family, folder)` writes
config.json, model.safetensors and a character-level tokenizer.json whose ids fit the
vocabulary. Needs the `transformers` package (a dependency of the app).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VOCAB = 100


@dataclass(frozen=True)
class Tiny:
    config_class: str                  # a transformers config class, e.g. "LlamaConfig"
    model_class: str                   # the model with its head, e.g. "LlamaForCausalLM"
    kwargs: dict[str, Any] = field(default_factory=dict)
    output: str = "logits"             # what our model returns: "logits" or "hidden" (encoders)
    seq2seq: bool = False              # an encoder-decoder (needs decoder_input_ids)


TINY: dict[str, Tiny] = {
    "bert": Tiny("BertConfig", "BertModel", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=3,
                                                 num_attention_heads=4, intermediate_size=128,
                                                 max_position_embeddings=64), output="hidden"),
    "gpt2": Tiny("GPT2Config", "GPT2LMHeadModel", dict(n_embd=64, n_layer=3, n_head=4, vocab_size=VOCAB,
                                                       n_positions=64, bos_token_id=0, eos_token_id=0)),
    "llama": Tiny("LlamaConfig", "LlamaForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=3,
                                                          num_attention_heads=4, num_key_value_heads=2,
                                                          intermediate_size=128, max_position_embeddings=64,
                                                          bos_token_id=0, eos_token_id=0, pad_token_id=0)),
    # decoders.py: Qwen2 (q/k/v bias), Gemma (head_dim of its own), Mistral (window 8 < 64), GPT-NeoX (25% rotary)
    "qwen2": Tiny("Qwen2Config", "Qwen2ForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                          num_attention_heads=4, num_key_value_heads=2,
                                                          intermediate_size=128, max_position_embeddings=64,
                                                          tie_word_embeddings=True, bos_token_id=0, eos_token_id=0)),
    "gemma": Tiny("GemmaConfig", "GemmaForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                          num_attention_heads=4, num_key_value_heads=1, head_dim=24,
                                                          intermediate_size=128, max_position_embeddings=64,
                                                          bos_token_id=0, eos_token_id=0, pad_token_id=0)),
    "mistral": Tiny("MistralConfig", "MistralForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                                num_attention_heads=4, num_key_value_heads=2,
                                                                intermediate_size=128, max_position_embeddings=64,
                                                                sliding_window=8, bos_token_id=0, eos_token_id=0)),
    "gpt_neox": Tiny("GPTNeoXConfig", "GPTNeoXForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                                 num_attention_heads=4, intermediate_size=128,
                                                                 max_position_embeddings=64, rotary_pct=0.25,
                                                                 bos_token_id=0, eos_token_id=0)),
    # encoder-decoders: d_model 64, 2 layers per stack (models/weights/seq2seq.py)
    "t5": Tiny("T5Config", "T5ForConditionalGeneration", dict(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128, num_layers=2,
                                                            num_heads=4, relative_attention_num_buckets=8,
                                                            relative_attention_max_distance=20, decoder_start_token_id=0),
               seq2seq=True),
    # initializer_factor 0.3: at HF's 1.0 the untied, unscaled head of a random v1.1 gives logits of ±45, where
    # float32 rounding alone is ~1e-5 (we measured 1.1e-5 there, 2.5e-7 relative); 0.3 keeps them near ±5
    "t5-v1_1": Tiny("T5Config", "T5ForConditionalGeneration", dict(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128,
                                                                 num_layers=2, num_heads=4, feed_forward_proj="gated-gelu",
                                                                 tie_word_embeddings=False, decoder_start_token_id=0,
                                                                 initializer_factor=0.3),
                    seq2seq=True),
    "marian": Tiny("MarianConfig", "MarianMTModel", dict(vocab_size=VOCAB, d_model=64, encoder_layers=2, decoder_layers=2,
                                                         encoder_attention_heads=4, decoder_attention_heads=4,
                                                         encoder_ffn_dim=128, decoder_ffn_dim=128, max_position_embeddings=64,
                                                         activation_function="swish", scale_embedding=True,
                                                         pad_token_id=1, decoder_start_token_id=1), seq2seq=True),
    "bart": Tiny("BartConfig", "BartForConditionalGeneration", dict(vocab_size=VOCAB, d_model=64, encoder_layers=2,
                                                                    decoder_layers=2, encoder_attention_heads=4,
                                                                    decoder_attention_heads=4, encoder_ffn_dim=128,
                                                                    decoder_ffn_dim=128, max_position_embeddings=64),
                 seq2seq=True),
    # -- issue 32 decoders (decoders.py): llama3 rope, qwen3, olmo2, smollm3, granite --
    # llama3: Llama 3.2's shape (tied, GQA) with Llama 3.1's RoPE scaling on a 32-token original context, so its
    # three regimes all occur in a 16-wide head (pair 0 kept, pair 1 blended, pairs 2-7 interpolated ×8); qwen3:
    # q/k norms per head, head_dim 32 != 64 / 4, layer 2 sliding (window 8 < the tests' 20 tokens); olmo2: norms
    # on the sub-layer outputs, q/k norms over the projection, GQA; smollm3: layers 1 and 3 without RoPE (every
    # 2nd); granite: the four multipliers away from 1
    "llama3": Tiny("LlamaConfig", "LlamaForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=3,
                                                           num_attention_heads=4, num_key_value_heads=2,
                                                           intermediate_size=128, max_position_embeddings=64,
                                                           tie_word_embeddings=True, bos_token_id=0, eos_token_id=0,
                                                           rope_parameters={"rope_type": "llama3", "factor": 8.0,
                                                                            "low_freq_factor": 1.0,
                                                                            "high_freq_factor": 4.0,
                                                                            "original_max_position_embeddings": 32,
                                                                            "rope_theta": 10000.0})),
    "qwen3": Tiny("Qwen3Config", "Qwen3ForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=3,
                                                          num_attention_heads=4, num_key_value_heads=2, head_dim=32,
                                                          intermediate_size=128, max_position_embeddings=64,
                                                          use_sliding_window=True, sliding_window=8,
                                                          max_window_layers=2, tie_word_embeddings=True,
                                                          bos_token_id=0, eos_token_id=0)),
    "olmo2": Tiny("Olmo2Config", "Olmo2ForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                          num_attention_heads=4, num_key_value_heads=2,
                                                          intermediate_size=128, max_position_embeddings=64,
                                                          pad_token_id=1, bos_token_id=0, eos_token_id=0)),
    "smollm3": Tiny("SmolLM3Config", "SmolLM3ForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=4,
                                                                num_attention_heads=4, num_key_value_heads=2,
                                                                intermediate_size=128, max_position_embeddings=64,
                                                                no_rope_layer_interval=2, pad_token_id=0,
                                                                bos_token_id=0, eos_token_id=0)),
    "granite": Tiny("GraniteConfig", "GraniteForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                                num_attention_heads=4, num_key_value_heads=2,
                                                                intermediate_size=128, max_position_embeddings=64,
                                                                embedding_multiplier=12.0, residual_multiplier=0.22,
                                                                attention_multiplier=0.2, logits_scaling=8.0,
                                                                tie_word_embeddings=True, bos_token_id=0,
                                                                eos_token_id=0)),
    # -- issue 32 gemma (gemma.py): gemma2, gemma3_text, gemma3 --
    # gemma2: window 4 < the tests' 20 tokens on layers 0 and 2, head_dim 24 != 64 / 4, GQA, attention scale
    # 20^-1/2, soft-caps of 1 (small enough to bend the tiny model's logits); gemma3_text: layers 0, 1 and 3
    # slide (pattern 3), local base 100, global 10000 with linear ×2; gemma3: the same language model inside a
    # multimodal Gemma3ForConditionalGeneration with a tiny SigLIP tower (not read)
    "gemma2": Tiny("Gemma2Config", "Gemma2ForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=4,
                                                            num_attention_heads=4, num_key_value_heads=2, head_dim=24,
                                                            intermediate_size=128, max_position_embeddings=64,
                                                            sliding_window=4, query_pre_attn_scalar=20,
                                                            attn_logit_softcapping=1.0, final_logit_softcapping=1.0,
                                                            bos_token_id=0, eos_token_id=0, pad_token_id=0)),
    "gemma3_text": Tiny("Gemma3TextConfig", "Gemma3ForCausalLM", dict(
        vocab_size=VOCAB, hidden_size=64, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
        head_dim=24, intermediate_size=128, max_position_embeddings=64, sliding_window=4, sliding_window_pattern=3,
        query_pre_attn_scalar=20, bos_token_id=0, eos_token_id=0, pad_token_id=0,
        rope_parameters={"sliding_attention": {"rope_type": "default", "rope_theta": 100.0},
                         "full_attention": {"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0}})),
    "gemma3": Tiny("Gemma3Config", "Gemma3ForConditionalGeneration", dict(
        text_config=dict(
            vocab_size=VOCAB, hidden_size=64, num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
            head_dim=24, intermediate_size=128, max_position_embeddings=64, sliding_window=4,
            sliding_window_pattern=3, query_pre_attn_scalar=20, bos_token_id=0, eos_token_id=0, pad_token_id=0,
            rope_parameters={"sliding_attention": {"rope_type": "default", "rope_theta": 100.0},
                             "full_attention": {"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0}}),
        vision_config=dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
                           image_size=16, patch_size=4),
        mm_tokens_per_image=4)),
    # -- issue 32 phi (phi.py): phi3, phi, stablelm, opt --
    # phi3: fused qkv/gate_up, GQA, window 8 < the tests' 20 tokens, 75% rotary (Phi-4-mini); phi: 40% rotary,
    # one shared norm; stablelm: q/k/v bias, parallel residual, 25% rotary; opt: positions from row 2
    "phi3": Tiny("Phi3Config", "Phi3ForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                      num_attention_heads=4, num_key_value_heads=2,
                                                      intermediate_size=128, max_position_embeddings=64,
                                                      original_max_position_embeddings=64, sliding_window=8,
                                                      partial_rotary_factor=0.75, bos_token_id=0, eos_token_id=0,
                                                      pad_token_id=0)),
    "phi": Tiny("PhiConfig", "PhiForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                    num_attention_heads=4, intermediate_size=128,
                                                    max_position_embeddings=64, partial_rotary_factor=0.4,
                                                    bos_token_id=0, eos_token_id=0)),
    "stablelm": Tiny("StableLmConfig", "StableLmForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                                   num_attention_heads=4, num_key_value_heads=2,
                                                                   intermediate_size=128, max_position_embeddings=64,
                                                                   use_qkv_bias=True, use_parallel_residual=True,
                                                                   bos_token_id=0, eos_token_id=0)),
    "opt": Tiny("OPTConfig", "OPTForCausalLM", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                                                    num_attention_heads=4, ffn_dim=128, max_position_embeddings=64,
                                                    pad_token_id=1, bos_token_id=0, eos_token_id=0)),
    # -- issue 32 encoders (encoders.py, seq2seq.py): roberta, xlm-roberta, distilbert, electra, modernbert, mt5 --
    # roberta / xlm-roberta: pad id 1, so positions start at row 2 (66 rows = 64 positions + 2); distilbert: the
    # sinusoidal table (saved as weights); electra: embeddings 32 wide projected to 64; modernbert: global layers 0
    # and 3 (every 3rd), a window of 4 on each side (local_attention 8 < the tests' 13-20 tokens), no biases;
    # mt5: gated-gelu, untied (initializer_factor 0.3 as t5-v1_1, logits near ±5)
    "roberta": Tiny("RobertaConfig", "RobertaModel", dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=3,
                                                          num_attention_heads=4, intermediate_size=128,
                                                          max_position_embeddings=66, type_vocab_size=1,
                                                          pad_token_id=1, bos_token_id=0, eos_token_id=2),
                    output="hidden"),
    "xlm-roberta": Tiny("XLMRobertaConfig", "XLMRobertaModel", dict(vocab_size=VOCAB, hidden_size=64,
                                                                    num_hidden_layers=2, num_attention_heads=4,
                                                                    intermediate_size=128, max_position_embeddings=66,
                                                                    type_vocab_size=1, pad_token_id=1, bos_token_id=0,
                                                                    eos_token_id=2), output="hidden"),
    "distilbert": Tiny("DistilBertConfig", "DistilBertModel", dict(vocab_size=VOCAB, dim=64, n_layers=3, n_heads=4,
                                                                   hidden_dim=128, max_position_embeddings=64,
                                                                   sinusoidal_pos_embds=True, pad_token_id=0),
                       output="hidden"),
    "electra": Tiny("ElectraConfig", "ElectraModel", dict(vocab_size=VOCAB, embedding_size=32, hidden_size=64,
                                                          num_hidden_layers=3, num_attention_heads=4,
                                                          intermediate_size=128, max_position_embeddings=64,
                                                          pad_token_id=0), output="hidden"),
    "modernbert": Tiny("ModernBertConfig", "ModernBertModel", dict(vocab_size=VOCAB, hidden_size=64,
                                                                   num_hidden_layers=4, num_attention_heads=4,
                                                                   intermediate_size=96, max_position_embeddings=64,
                                                                   local_attention=8, global_attn_every_n_layers=3,
                                                                   global_rope_theta=160000.0, local_rope_theta=10000.0,
                                                                   pad_token_id=0, bos_token_id=0, eos_token_id=0,
                                                                   cls_token_id=0, sep_token_id=0), output="hidden"),
    "mt5": Tiny("MT5Config", "MT5ForConditionalGeneration", dict(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128,
                                                               num_layers=2, num_heads=4,
                                                               relative_attention_num_buckets=8,
                                                               relative_attention_max_distance=20,
                                                               feed_forward_proj="gated-gelu",
                                                               tie_word_embeddings=False, decoder_start_token_id=0,
                                                               initializer_factor=0.3), seq2seq=True),
}


def families() -> list[str]:
    return list(TINY)


def build(family: str, seed: int = 0) -> Any:
    """A tiny random transformers model of `family` (float32, eval mode, eager attention)."""
    import torch
    import transformers

    if family not in TINY:
        raise ValueError(f"No tiny model for {family!r}: choose one of {', '.join(TINY)}.")
    spec = TINY[family]
    config = getattr(transformers, spec.config_class)(**spec.kwargs)
    torch.manual_seed(seed)
    model = getattr(transformers, spec.model_class)(config).float().eval()
    model.set_attn_implementation("eager")
    with torch.no_grad():    # HF starts norms at 1 (Gemma's at 0) and biases at 0: a loader that dropped one
        g = torch.Generator().manual_seed(seed)               # would still match; give them values of their own
        for name, t in model.state_dict(keep_vars=True).items():
            if t.is_floating_point() and (t.dim() == 1 or name.endswith("final_logits_bias")):
                t.add_(torch.randn(t.shape, generator=g) * 0.1)
    return model


def char_tokenizer_json(vocab_size: int = VOCAB) -> str:
    """A character-level tokenizer.json (tokenizers' WordLevel over single characters):
    [UNK], [PAD], then letters, digits and punctuation, at most `vocab_size` ids."""
    chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"-()"
    vocab = {"[UNK]": 0, "[PAD]": 1}
    for ch in chars[:vocab_size - 2]:
        vocab[ch] = len(vocab)
    doc = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": i, "content": tok, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True} for tok, i in (("[UNK]", 0), ("[PAD]", 1))],
        "normalizer": None,
        "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "."}, "behavior": "Isolated", "invert": False},
        "post_processor": None, "decoder": None,
        "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"},
    }
    return json.dumps(doc, ensure_ascii=False)


def save(family: str, folder: str | Path, seed: int = 0) -> Path:
    """Write a tiny random `family` model to `folder` (config.json, model.safetensors,
    tokenizer.json); returns the folder."""
    folder = Path(folder)
    model = build(family, seed)
    model.save_pretrained(folder, safe_serialization=True)
    vocab = model.config.get_text_config().vocab_size     # a multimodal config (gemma3) keeps it in text_config
    (folder / "tokenizer.json").write_text(char_tokenizer_json(vocab), encoding="utf-8")
    return folder

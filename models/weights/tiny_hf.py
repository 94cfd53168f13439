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
    # -- issue 32 gemma (gemma.py): gemma2, gemma3_text --
    # -- issue 32 phi (phi.py): phi3, phi, stablelm, opt --
    # -- issue 32 encoders (encoders.py, seq2seq.py): roberta, xlm-roberta, distilbert, electra, modernbert, mt5 --
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
    (folder / "tokenizer.json").write_text(char_tokenizer_json(model.config.vocab_size), encoding="utf-8")
    return folder

"""The size calculator's arithmetic (lab/sizes.py) against independent counts: transformers'
GPT-2, LLaMA and BERT built on the meta device (no weights), and our own models (every
shipped checkpoint and MiniLM, part by part)."""
from __future__ import annotations

import pytest
import torch

from lab import kv, sizes
from lab.ffn import parameter_breakdown


def hf_count(model_cls, config) -> int:
    with torch.device("meta"):
        model = model_cls(config)
    return sum(p.numel() for p in model.parameters())        # a tied tensor once


@pytest.mark.parametrize("preset", ["gpt2", "gpt2_medium", "gpt2_large", "gpt2_xl", "gpt3"])
def test_gpt2_and_gpt3_match_transformers(preset):
    from transformers import GPT2Config, GPT2LMHeadModel

    s = sizes.PRESETS[preset].shape
    config = GPT2Config(n_embd=s.d_model, n_layer=s.n_layers, n_head=s.n_heads, n_inner=s.d_ff,
                        vocab_size=s.vocab, n_positions=s.positions)
    assert sizes.count(s).total == hf_count(GPT2LMHeadModel, config)


def test_gpt2_small_is_124m_and_gpt3_175b():
    assert sizes.count(sizes.PRESETS["gpt2"].shape).total == 124_439_808
    assert round(sizes.count(sizes.PRESETS["gpt3"].shape).total / 1e9) == 175


@pytest.mark.parametrize("kv_heads", [40, 8, 1])
def test_llama_13b_and_its_gqa_and_mqa_forms_match_transformers(kv_heads):
    from transformers import LlamaConfig, LlamaForCausalLM

    s = sizes.Shape(40, 5120, 40, 13824, 32000, n_kv_heads=kv_heads, gated=True, bias=False, norm="rmsnorm",
                    tied=False)
    config = LlamaConfig(hidden_size=5120, intermediate_size=13824, num_hidden_layers=40, num_attention_heads=40,
                         num_key_value_heads=kv_heads, vocab_size=32000, tie_word_embeddings=False)
    assert sizes.count(s).total == hf_count(LlamaForCausalLM, config)
    if kv_heads == 40:
        assert sizes.count(s) == sizes.count(sizes.PRESETS["llama_13b"].shape)


def test_bert_base_matches_transformers():
    from transformers import BertConfig, BertModel

    s = sizes.Shape(12, 768, 12, 3072, 30522, arch="encoder", final_norm=False, embed_norm=True, positions=512,
                    token_types=2, unembed=False)
    assert sizes.count(s).total == hf_count(lambda c: BertModel(c, add_pooling_layer=False), BertConfig())


def test_the_paper_base_model_counts_as_our_encoder_decoder_of_that_shape():
    from models.config import TransformerConfig
    from models.transformer import Transformer

    cfg = TransformerConfig(arch="encoder-decoder", vocab_size=37000, d_model=512, n_layers=6, n_heads=8, d_ff=2048,
                            norm_position="post", positional="sinusoidal", max_len=64)
    model = Transformer(cfg)                    # 63 M parameters (our init does not run on the meta device)
    c = sizes.count(sizes.PRESETS["transformer_base"].shape)
    assert c.total == model.n_params == 63_082_496
    assert c.parts == {k: v for k, v in parameter_breakdown(model).items() if k != "other"}


def test_every_shipped_model_and_minilm_matches_its_own_count_part_by_part():
    from models.weights.zoo import catalogue
    from ui.serving.gate import load_model

    checked = []
    for entry in catalogue():
        if not entry.available or not (entry.kind in ("toy", "lm") or entry.key == "minilm"):
            continue
        model, _ = load_model(entry.key, "cpu")
        real = parameter_breakdown(model)
        assert real.pop("other") == 0, entry.key
        assert sizes.count(sizes.shape_of(model.cfg)).parts == real, entry.key
        checked.append(entry.key)
    assert "minilm" in checked and "toy:verse-lm" in checked and len(checked) >= 15, checked


def test_kv_cache_of_llama_13b_is_the_notes_1_7_gb_for_2048_tokens():
    size = kv.kv_cache_bytes(sizes.PRESETS["llama_13b"].shape, 2048, bytes_per_value=2)
    assert size.per_token == 2 * 40 * 5120 * 2 == 819_200
    assert size.total == 1_677_721_600


def test_one_head_and_h_heads_have_the_same_qkv_parameters():
    h = sizes.single_vs_multi_head(512, 8)
    assert h["single"] == h["multi"] == 3 * 512 * 512 and h["w_o"] == 512 * 512
    with pytest.raises(ValueError):
        sizes.single_vs_multi_head(512, 7)


@pytest.mark.parametrize("bad, words", [
    (dict(d_model=100, n_heads=3), "not a multiple"),
    (dict(n_kv_heads=3), "cannot serve"),
    (dict(n_layers=0), "at least 1"),
    (dict(arch="rnn"), "arch must be"),
    (dict(positions=-1), "cannot be negative"),
])
def test_a_shape_that_makes_no_transformer_is_refused_with_a_sentence(bad, words):
    base = dict(n_layers=2, d_model=64, n_heads=4, d_ff=256, vocab=100)
    with pytest.raises(ValueError, match=words):
        sizes.Shape(**{**base, **bad})

"""Direct logit attribution and head writes (lab/attribution.py): the shares add up to the
logit the model computed, on every kind of decoder; bad input is refused with a reason."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import attribution
from models import Transformer, TransformerConfig
from models.errors import Refused
from models.tokenizer import CharTokenizer, minilm_tokenizer
from models.weights import zoo

TOLERANCE = 1e-4


def small(**kw) -> TransformerConfig:
    base = dict(arch="decoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=64)
    base.update(kw)
    return TransformerConfig(**base)


def trained_like(cfg: TransformerConfig, seed: int = 0) -> Transformer:
    """A random model with weights of a trained model's size (N(0, 0.02) logits are all ~0)."""
    model = zoo.build_random(cfg, seed)
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() >= 2:
                p.normal_(0, 0.3, generator=torch.Generator().manual_seed(seed + p.numel()))
    return model


def run(model: Transformer, n: int = 9, seed: int = 1):
    ids = torch.randint(4, model.cfg.vocab_size, (1, n), generator=torch.Generator().manual_seed(seed))
    kw = {"tgt_ids": ids[:, : n - 2]} if model.cfg.arch == "encoder-decoder" else {}
    out, trace = model.run_with_cache(ids, names=attribution.record_kinds(model), **kw)
    return out[0], trace


CONFIGS = {
    "gpt2-like": small(positional="learned", activation="gelu_tanh"),
    "llama-like": small(positional="rope", norm="rmsnorm", activation="swiglu", n_kv_heads=2, bias=False,
                        tie_embeddings=False),
    "alibi": small(positional="alibi"),
    "post-ln": small(positional="sinusoidal", norm_position="post"),
    "post-ln rmsnorm + embed norm": small(norm="rmsnorm", norm_position="post", embed_norm=True),
    "t5-like": small(arch="encoder-decoder", positional="relative", norm="rmsnorm", bias=False),
    "original transformer": small(arch="encoder-decoder", positional="sinusoidal", norm_position="post"),
    # the 2024-26 families (issue 32)
    "gemma2-like sandwich": small(positional="rope", norm="rmsnorm", norm_plus_one=True, norm_position="sandwich",
                                  activation="geglu", qk_norm="head", local_layers=(0,), local_window=2,
                                  attn_softcap=5.0, first_attn_norm=False),
    "olmo2-like output norms": small(positional="rope", norm="rmsnorm", norm_position="output", qk_norm="full",
                                     bias=False, tie_embeddings=False),
    "granite-like multipliers": small(positional="rope", norm="rmsnorm", embed_multiplier=3.0,
                                      residual_multiplier=0.5, logit_divisor=2.0, tie_embeddings=False),
    "electra-like projection": small(positional="learned", d_embed=16, embed_norm=True, tie_embeddings=False),
    "phi2-like shared norm": small(positional="rope", parallel_residual=True, shared_block_norm=True,
                                   unembed_bias=True, tie_embeddings=False),
    "sandwich layernorm": small(positional="learned", norm_position="sandwich", residual_multiplier=0.7),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_shares_add_up_to_the_logit(name):
    model = trained_like(CONFIGS[name])
    out, trace = run(model)
    for position in (0, out.shape[0] - 1):
        top = int(out[position].argmax())
        att = attribution.direct_logit_attribution(model, trace, position, top)
        assert att.logit == pytest.approx(float(out[position, top]), abs=1e-5)       # the model's own logit
        assert abs(att.error) <= TOLERANCE, (name, att.error)
        assert abs(att.logit) > 0.1                                                   # not trivially 0 = 0
        # the pieces are what they say: heads + biases + MLPs + embeddings + norm biases
        total = att.heads.sum() + att.mlps.sum() + att.attn_bias.sum() + sum(att.embeddings.values()) \
            + sum(att.norm_bias.values()) + (att.cross_heads.sum() if att.cross_heads is not None else 0.0)
        assert total == pytest.approx(att.total, abs=1e-9)
        diff = attribution.direct_logit_attribution(model, trace, position, top, other=(top + 1) % model.cfg.vocab_size)
        assert abs(diff.error) <= TOLERANCE
        assert diff.logit == pytest.approx(float(out[position, top] - out[position, (top + 1) % 50]), abs=1e-5)


def test_frozen_scales_are_the_ones_the_pass_used():
    model = trained_like(CONFIGS["gpt2-like"])
    out, trace = run(model)
    att = attribution.direct_logit_attribution(model, trace, 3, 7)
    assert list(att.scales) == ["ln_final"]
    resid = trace.get("resid_post", 1, batch=0)[3].double()
    assert att.scales["ln_final"] == pytest.approx(float(torch.sqrt(resid.var(unbiased=False) + 1e-5)), rel=1e-5)
    post = attribution.direct_logit_attribution(trained_like(CONFIGS["post-ln"]),
                                                run(trained_like(CONFIGS["post-ln"]))[1], 3, 7)
    assert list(post.scales) == ["L1 ln2", "L1 ln1", "L0 ln2", "L0 ln1"]           # every later norm, walked back


@pytest.mark.parametrize("shipped", ["toy:induction", "toy:reverse-sinusoidal-postln"])
def test_shipped_checkpoints(shipped):
    model, tok = zoo.load(shipped)
    ids = tok.encode("abcdefghabcdefg" if "induction" in shipped else "abcdefgh=hgfedcb").ids
    out, trace = model.run_with_cache(ids, names=attribution.record_kinds(model))
    for p in range(len(ids)):
        att = attribution.direct_logit_attribution(model, trace, p, int(out[0, p].argmax()))
        assert abs(att.error) <= TOLERANCE


@pytest.mark.parametrize("make", ["gpt2", "llama"])
def test_loaded_hugging_face_models(make):
    transformers = pytest.importorskip("transformers")
    from models.weights.pretrained import load

    torch.manual_seed(0)
    if make == "gpt2":
        hf = transformers.GPT2LMHeadModel(transformers.GPT2Config(n_embd=64, n_layer=3, n_head=4, vocab_size=100,
                                                                  n_positions=64))
    else:
        hf = transformers.LlamaForCausalLM(transformers.LlamaConfig(
            vocab_size=100, hidden_size=64, num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=2,
            intermediate_size=128, max_position_embeddings=64))
    model, _ = load(hf.eval())
    out, trace = run(model)
    att = attribution.direct_logit_attribution(model, trace, 8, int(out[8].argmax()))
    assert abs(att.error) <= TOLERANCE


@torch.no_grad()
def test_a_heads_share_is_its_write_read_on_that_token():
    model = trained_like(CONFIGS["post-ln"])
    out, trace = run(model)
    att = attribution.direct_logit_attribution(model, trace, 5, 11)
    for layer, head in ((0, 2), (1, 3)):
        hw = attribution.head_write(model, trace, layer, head, 5)
        read = attribution.to_output(model, trace, hw.output, layer, 5)
        effect = float(model.unembed.weight[11].double() @ torch.as_tensor(read).double())
        assert effect == pytest.approx(att.heads[layer, head], abs=1e-4)
        # the promoted list is sorted, and its scores are those effects
        scores = model.unembed.weight.double() @ torch.as_tensor(read).double()
        assert int(hw.promoted.top_ids[0]) == int(scores.argmax())
        assert hw.key == int(trace.pattern(layer)[head, 5].argmax())
        # the head's output is the attention-weighted sum of the OV writes of every key
        v = trace.get("v", layer, batch=0)[:, head]                                  # [k, dh]
        w_h = model.blocks[layer].attn.W_O.weight[:, head * 8:(head + 1) * 8]
        mix = (trace.pattern(layer)[head, 5, :, None] * (v @ w_h.T)).sum(0)
        np.testing.assert_allclose(hw.output, mix.numpy(), atol=1e-5)


def test_what_does_not_apply_is_refused():
    dyt = trained_like(small(norm="dyt"))
    out, trace = run(dyt)
    with pytest.raises(Refused) as e:
        attribution.direct_logit_attribution(dyt, trace, 0, 1)
    assert e.value.reason == "no_frozen_scale"
    encoder = trained_like(small(arch="encoder", output="hidden", tie_embeddings=False))
    out, trace = run(encoder)
    with pytest.raises(Refused) as e:
        attribution.direct_logit_attribution(encoder, trace, 0, 1)
    assert e.value.reason == "no_lm_head"
    hw = attribution.head_write(encoder, trace, 0, 0, 2)                   # what a head writes still applies
    assert hw.promoted.via == "embedding"
    model = trained_like(CONFIGS["gpt2-like"])
    out, trace = run(model)
    with pytest.raises(ValueError, match="outside"):
        attribution.direct_logit_attribution(model, trace, 0, 50)
    with pytest.raises(ValueError, match="Position 9"):
        attribution.direct_logit_attribution(model, trace, 9, 1)


def test_typed_tokens():
    tok = CharTokenizer(list("abc"), add_bos=True)
    assert attribution.token_id(tok, "b") == tok.index["b"]
    for text, reason in (("z", "token_unknown"), ("ab", "token_splits"), ("", "token_empty")):
        with pytest.raises(Refused) as e:
            attribution.token_id(tok, text)
        assert e.value.reason == reason
    wp = minilm_tokenizer()
    assert wp.id_to_token(attribution.token_id(wp, "cat")) == "cat"
    assert wp.id_to_token(attribution.token_id(wp, "##ing")) == "##ing"
    with pytest.raises(Refused) as e:
        attribution.token_id(wp, "glassboxology")
    assert e.value.reason == "token_splits" and "##" in e.value.values["pieces"]


def test_pieces_in_execution_order():
    model = trained_like(CONFIGS["gpt2-like"])
    out, trace = run(model)
    att = attribution.direct_logit_attribution(model, trace, 4, 2)
    labels = [p.label for p in att.parts]
    assert labels[:2] == ["embed", "pos_embed"]
    assert labels[2:7] == ["L0 H0", "L0 H1", "L0 H2", "L0 H3", "L0 attn_bias"] and labels[7] == "L0 mlp"
    assert labels[-1] == "ln_final bias" and len(labels) == 2 + 2 * (4 + 2) + 1
    top = att.largest(3)
    assert [abs(p.value) for p in top] == sorted((abs(p.value) for p in att.parts), reverse=True)[:3]


def test_a_soft_capped_logit_is_explained_before_its_cap():
    """Gemma 2 caps its logits with c · tanh(logit / c): not linear, so the shares add up to
    the logit before the cap, and `capped` holds the model's own output."""
    model = trained_like(small(positional="rope", norm="rmsnorm", norm_position="sandwich", logit_softcap=3.0,
                               logit_divisor=2.0))
    out, trace = run(model)
    top = int(out[4].argmax())
    att = attribution.direct_logit_attribution(model, trace, 4, top)
    assert abs(att.error) <= TOLERANCE
    assert att.capped == pytest.approx(float(out[4, top]), abs=1e-5)
    assert att.capped == pytest.approx(3.0 * np.tanh(att.logit / 3.0), abs=1e-5) and att.capped != att.logit
    assert any(p.kind == "norm_bias" and p.norm.endswith("ln1_out") for p in att.parts)
    # a head's write read through its output norm, the later norms and the unembedding is its share
    hw = attribution.head_write(model, trace, 1, 2, 4)
    read = attribution.to_output(model, trace, hw.output, 1, 4)
    effect = float(model.unembed.weight[top].detach().double() @ torch.as_tensor(read).double()) / 2.0
    assert effect == pytest.approx(att.heads[1, 2], abs=1e-4)

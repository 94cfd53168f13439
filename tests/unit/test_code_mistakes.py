"""The walk-through's code mistakes (lab/code_mistakes.py): the right code rebuilds the
model's attention output; each mistake does what its name says, checked on cases where the
answer is known without the code under test."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import code_mistakes
from models.config import TransformerConfig
from models.transformer import Transformer


def model_of(**kw) -> Transformer:
    torch.manual_seed(0)
    cfg = dict(arch="decoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=32)
    return Transformer(TransformerConfig(**{**cfg, **kw})).eval()


def inputs(model: Transformer, layer: int = 1, n: int = 9) -> code_mistakes.LayerInputs:
    ids = torch.arange(1, n + 1)[None] % model.cfg.vocab_size
    _, trace = model.run_with_cache(ids, names=code_mistakes.names(model.cfg, layer, "self"))
    return code_mistakes.layer_inputs(model, trace, layer, "self")


@pytest.mark.parametrize("kw", [
    dict(),                                                                       # sinusoidal, MHA
    dict(positional="rope", n_kv_heads=2, norm="rmsnorm", bias=False),            # LLaMA-like: RoPE, GQA
    dict(arch="encoder", norm_position="post", positional="learned"),             # BERT-like
    dict(qk_norm="head", n_kv_heads=1),                                            # q/k norms, MQA
])
def test_the_right_code_rebuilds_the_models_attention_output(kw):
    x = inputs(model_of(**kw))
    np.testing.assert_allclose(code_mistakes.attention(x), x.model_out, atol=1e-5)
    right = code_mistakes.outcomes(x)[0]
    assert right.mistake is None and right.max_abs < 1e-5 and right.weights_sum == pytest.approx(1.0)


def test_every_mistake_changes_a_decoders_output():
    x = inputs(model_of())
    assert x.causal
    right, *mistakes = code_mistakes.outcomes(x)
    for o in mistakes:                  # random weights give small scores: a scale error is small, but far above float
        assert o.max_abs > 100 * right.max_abs, o


def test_scaling_after_the_softmax_leaves_weights_summing_to_the_scale():
    x = inputs(model_of())
    w = code_mistakes.weights(x, "scale_after_softmax")
    np.testing.assert_allclose(w.sum(-1), x.scale, rtol=1e-12)               # 1/sqrt(d_k), not 1
    unscaled = code_mistakes.weights(code_mistakes.LayerInputs(**{**x.__dict__, "scale": 1.0}))
    np.testing.assert_allclose(w, unscaled * x.scale, rtol=1e-12)            # as peaked as no scaling at all


def test_with_one_head_the_missing_transpose_and_d_model_change_nothing():
    x = inputs(model_of(n_heads=1))                                             # d_k = d_model, nothing to mix
    for mistake in ("split_without_transpose", "sqrt_d_model"):
        np.testing.assert_allclose(code_mistakes.attention(x, mistake), code_mistakes.attention(x), atol=1e-12)


def test_the_inverted_triangle_lets_the_last_token_see_only_itself():
    x = inputs(model_of())
    w = code_mistakes.weights(x, "mask_inverted")
    assert np.allclose(w[:, -1, -1], 1.0) and np.allclose(w[:, -1, :-1], 0.0)
    assert np.allclose(w[:, 0, :].sum(-1), 1.0) and (w[:, 0, 1:] > 0).all()    # the first token sees the future


def test_a_dropped_masked_fill_unmasks_a_decoder_and_changes_nothing_in_an_encoder():
    dec = inputs(model_of())
    assert (code_mistakes.weights(dec, "mask_fill_dropped")[:, 0, 1:] > 0).all()           # token 0 reads what follows it
    enc = inputs(model_of(arch="encoder", norm_position="post"))
    assert not enc.causal
    for mistake in ("mask_fill_dropped", "mask_inverted"):
        np.testing.assert_allclose(code_mistakes.attention(enc, mistake), code_mistakes.attention(enc), atol=1e-12)


def test_the_head_width_divided_twice_is_the_notes_scale():
    x = inputs(model_of(d_model=64, n_heads=4))                                 # d_k 16, 16 // 4 = 4
    q = x.q.reshape(x.q.shape[0], 4, 16).transpose(1, 0, 2)
    k = x.k.reshape(x.k.shape[0], 4, 16).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(4)
    scores = np.where(x.mask, scores, -np.inf)
    expected = np.exp(scores - scores.max(-1, keepdims=True))
    np.testing.assert_allclose(code_mistakes.weights(x, "head_width_split_twice"), expected / expected.sum(-1, keepdims=True),
                               rtol=1e-10)


@pytest.mark.parametrize("kw, stack, reason", [
    (dict(positional="alibi"), "self", "bias"),
    (dict(positional="relative"), "self", "bias"),
    (dict(attn_softcap=50.0), "self", "scores"),
    (dict(norm_position="sandwich"), "self", "output"),
    (dict(arch="encoder-decoder"), "cross", "cross"),
])
def test_what_the_short_functions_leave_out_is_named(kw, stack, reason):
    cfg = model_of(**kw).cfg
    assert code_mistakes.unsupported(cfg, stack) == reason


def test_an_unknown_mistake_is_refused():
    with pytest.raises(ValueError, match="unknown mistake"):
        code_mistakes.weights(inputs(model_of()), "off_by_one")


def test_a_scale_never_applied_is_plain_softmax_of_the_dot_products():
    """Checked without the code under test: per head, softmax(q kᵀ) over the allowed keys, by hand."""
    x = inputs(model_of())
    w = code_mistakes.weights(x, "scale_never_applied")
    H, dh, n = x.n_heads, x.d_head, x.q.shape[0]
    q = x.q.reshape(n, H, dh).transpose(1, 0, 2)
    k = np.repeat(x.k.reshape(n, x.kv_heads, dh).transpose(1, 0, 2), H // x.kv_heads, axis=0)
    scores = np.where(x.mask, q @ k.transpose(0, 2, 1), -np.inf)
    by_hand = np.exp(scores - scores.max(-1, keepdims=True))
    np.testing.assert_allclose(w, by_hand / by_hand.sum(-1, keepdims=True), rtol=1e-10, atol=1e-14)
    assert code_mistakes.outcomes(x)[-1].mistake == "scale_never_applied"

"""The "common explanation vs what the model shows" notes: every claim a note makes is
computed here on a model (the √d_k notes, attention's nonlinearity and parallel
training under the causal mask are in test_scaling_flash.py and test_syllabus.py)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lab import ffn
from lab import checkpoints, norms, positional, residual, walkthrough
from models.config import TransformerConfig
from models.trace import Stack, act_name, record_names
from models.training.tasks import get_task
from models.transformer import Transformer
from models.weights import zoo

TEXT = "The students watched the model read their sentence."


def load(key: str):
    return zoo.load(key, device="cpu")


def test_cross_attention_takes_q_from_the_decoder_and_k_v_from_the_encoder():
    model, tok = load("custom:t5")
    src = tok.encode("one two three four").ids
    tgt_a, tgt_b = tok.encode("a b c").ids, tok.encode("x y z").ids
    names = [act_name(k, 0, Stack.CROSS) for k in ("q", "k", "v")]

    def qkv(s, t):
        _, tr = model.run_with_cache(s, t, names=names)
        return [tr.get(k, 0, Stack.CROSS)[0] for k in ("q", "k", "v")]

    qa, ka, va = qkv(src, tgt_a)
    qb, kb, vb = qkv(src, tgt_b)
    assert torch.equal(ka, kb) and torch.equal(va, vb)         # another decoder input: the same K and V
    assert not torch.allclose(qa, qb)                          # ... and other queries
    assert qa.shape[0] == len(tgt_a) and ka.shape[0] == len(src)
    _, kc, _ = qkv(tok.encode("five six seven eight").ids, tgt_a)
    assert not torch.allclose(ka, kc)                          # another source: other K


def test_k_and_v_share_a_source_but_not_a_projection():
    model, tok = load("minilm")
    ids = tok.encode(TEXT).ids
    w = walkthrough.record_and_walk(model, ids, 2, 5, 3)
    assert np.allclose(w.k_all, w.x @ w.W_k + w.b_k) and np.allclose(w.v_all, w.x @ w.W_v + w.b_v)  # the same x
    cos, rel = walkthrough.key_value_difference(w)
    assert abs(cos) < 0.5 and rel > 0.5
    assert cos == pytest.approx(float(w.W_k.ravel() @ w.W_v.ravel() / (np.linalg.norm(w.W_k) * np.linalg.norm(w.W_v))))


@pytest.mark.parametrize("key", ["minilm", "custom:llama", "custom:t5", "custom:transformer"])
def test_the_ffn_mixes_within_a_token_and_attention_across_tokens(key):
    model, tok = load(key)
    ids = tok.encode(TEXT).ids
    m = ffn.mixing(model, ids, layer=1, position=2)
    assert m.ffn_elsewhere == 0.0 and m.ffn_here > 0             # channel mixing: one token at a time
    assert m.attn_moved > 1                                      # token mixing: the change spreads
    with pytest.raises(ValueError):
        ffn.mixing(model, ids, position=len(ids))


def test_activation_functions_with_and_without_parameters():
    llama, _ = load("custom:llama")
    p = ffn.activation_parameters(llama)
    assert p.gate == llama.cfg.d_model * llama.cfg.d_ff == p.gate_if_swiglu          # no bias in LLaMA
    assert p.gate == llama.blocks[0].mlp.W_gate.weight.numel()
    minilm, _ = load("minilm")
    p = ffn.activation_parameters(minilm)
    assert p.gate == 0 and p.gate_if_swiglu == 384 * 1536 + 1536
    dyt = Transformer(TransformerConfig(arch="decoder", vocab_size=20, n_layers=3, norm="dyt"), device="cpu")
    assert ffn.activation_parameters(dyt).dyt_alphas == 2 * 3 + 1                       # ln1, ln2 per block + ln_final


def test_sinusoidal_positions_fail_past_the_training_length_not_past_50_tokens():
    model, _ = load("toy:copy-sinusoidal")
    task = get_task(zoo.get("toy:copy-sinusoidal").task)
    rows = checkpoints.extrapolation(task, model, (1, 2), n=64)
    assert task.train_len == 8 and checkpoints.positions_used(task, 16) < 50
    assert rows[0]["accuracy"] >= 0.9 and rows[1]["accuracy"] <= 0.5      # already broken far below 50 tokens
    # the table itself is as good at position 10,000 as at 0: neighbours equally far apart
    d = model.cfg.d_model
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    closed = math.sqrt(float(np.sum(4 * np.sin(omega / 2) ** 2)))
    for pos in (0, 50, 10_000, 10**6):
        assert positional.neighbour_gap(pos, d) == pytest.approx(closed, rel=1e-9)


def test_the_original_transformer_is_post_ln():
    assert zoo.PRESETS["transformer"][2].norm_position == "post"
    model, tok = load("custom:transformer")                      # Vaswani et al.: LN(x + Sublayer(x))
    ids = tok.encode(TEXT).ids
    _, tr = model.run_with_cache(ids, ids, names=record_names(model.cfg, ["resid_post"]))
    for stack in (Stack.ENCODER, Stack.DECODER):
        x = tr.get("resid_post", 0, stack)[0].double()
        assert torch.allclose(x.mean(-1), torch.zeros(len(ids), dtype=torch.float64), atol=1e-5)
        assert torch.allclose(x.var(-1, unbiased=False), torch.ones(len(ids), dtype=torch.float64), atol=1e-3)
    gpt, tok = load("custom:gpt")                                # pre-LN: the stream itself is not normalised
    _, tr = gpt.run_with_cache(tok.encode(TEXT).ids, names=[act_name("resid_post", 0)])
    assert float(tr.get("resid_post", 0)[0].var(-1, unbiased=False).mean()) < 0.5


def test_layernorm_divides_by_the_biased_variance_plus_eps():
    model, tok = load("minilm")
    _, tr = model.run_with_cache(tok.encode(TEXT).ids, names=record_names(model.cfg, residual.KINDS))
    stats = residual.norm_stats(model, tr)
    biased, unbiased = norms.variance_check(stats, model.cfg.d_model, model.cfg.norm_eps)
    assert biased <= 1e-5 and unbiased > 100 * biased
    llama, tok = load("custom:llama")
    _, tr = llama.run_with_cache(tok.encode(TEXT).ids, names=record_names(llama.cfg, residual.KINDS))
    with pytest.raises(ValueError):
        norms.variance_check(residual.norm_stats(llama, tr), llama.cfg.d_model, llama.cfg.norm_eps)


def test_copy_looks_n_back_and_induction_reads_n_minus_1_back():
    """The training page's task texts: copy's head looks n places back; induction's key
    (the letter after the first occurrence) is n − 1 back, the first occurrence n back."""
    for n in (4, 8):
        ex = get_task("copy", train_len=n).probe()
        ideal = get_task("copy", train_len=n).ideal_for(ex)
        for q in range(ex.answer.start, ex.answer.stop):
            assert q - int(ideal[q].argmax()) == n
        task = get_task("induction", train_len=n)
        ex = task.probe()
        ideal = task.ideal_for(ex)
        for q in range(ex.answer.start, ex.answer.stop):
            k = int(ideal[q].argmax())
            assert q - k == n - 1 and ex.tokens[k - 1] == ex.tokens[q]           # the key follows q's earlier copy

"""lab/before_attention.py and recipes/before_attention.py: the score functions, the scaling
sweep, attention without weights and the cost table against computations written out by
hand; the recipe trains (a few steps); the copy-task evaluation against a by-hand loop and
greedy decoding; the shipped GRU falls with length where the Transformer holds."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lab import before_attention
from recipes import before_attention as recipe


@pytest.fixture(scope="module")
def qk():
    rng = np.random.default_rng(3)
    return rng.normal(size=8), rng.normal(size=(6, 8))


def by_hand_softmax(s):
    e = [math.exp(v - max(s)) for v in s]
    return np.array([v / sum(e) for v in e])


def test_score_functions_by_hand(qk):
    q, keys = qk
    allowed = np.ones(len(keys), dtype=bool)
    rows = {r.kind: r for r in before_attention.score_rows(q, keys, allowed, scale=8 ** -0.5)}
    p = before_attention.seeded(8)
    add, dot, gen = [], [], []
    for k in keys:
        hidden = [math.tanh(sum(p.W1[i, j] * q[j] + p.W2[i, j] * k[j] for j in range(8))) for i in range(8)]
        add.append(sum(p.v[i] * hidden[i] for i in range(8)))
        dot.append(sum(q[j] * k[j] for j in range(8)))
        gen.append(sum(q[i] * p.W[i, j] * k[j] for i in range(8) for j in range(8)))
    np.testing.assert_allclose(rows["additive"].scores, add, rtol=1e-10)
    np.testing.assert_allclose(rows["dot"].scores, dot, rtol=1e-10)
    np.testing.assert_allclose(rows["general"].scores, gen, rtol=1e-10)
    np.testing.assert_allclose(rows["scaled"].scores, np.array(dot) / math.sqrt(8), rtol=1e-10)
    for kind, s in (("additive", add), ("dot", dot), ("scaled", np.array(dot) / math.sqrt(8))):
        w = by_hand_softmax(list(s))
        np.testing.assert_allclose(rows[kind].weights, w, rtol=1e-10)
        assert rows[kind].max_weight == pytest.approx(w.max())
        assert rows[kind].entropy == pytest.approx(-sum(x * math.log(x) for x in w))
        assert rows[kind].top == int(np.argmax(w))
    # the additive score is bounded by Σ|v|, whatever q and k are
    huge = before_attention.scores("additive", 1e3 * q, 1e3 * keys, p, 1.0)
    assert np.all(np.abs(huge) <= np.abs(p.v).sum() + 1e-9)


def test_masked_keys_get_nothing(qk):
    q, keys = qk
    allowed = np.array([True, True, False, True, False, True])
    for r in before_attention.score_rows(q, keys, allowed, 1.0):
        assert np.all(r.weights[~allowed] == 0) and r.weights.sum() == pytest.approx(1)
        assert np.all(np.isneginf(r.scores[~allowed]))
    with pytest.raises(ValueError, match="unknown score"):
        before_attention.scores("cosine", q, keys, before_attention.seeded(8), 1.0)


def test_scaling_sweep_spread_grows_mean_does_not():
    pts = before_attention.scaling_sweep(10, (4, 64, 1024))
    stds = [p.dot_std for p in pts]
    np.testing.assert_allclose(stds, [2, 8, 32], rtol=0.15)            # like √d
    assert all(abs(p.dot_mean) < 0.15 * p.dot_std for p in pts)
    assert pts[0].max_dot < pts[1].max_dot < pts[2].max_dot and pts[2].max_dot > 0.95
    assert pts[2].entropy_dot < 0.2 < pts[2].entropy_scaled
    assert abs(pts[0].max_scaled - pts[2].max_scaled) < 0.15              # the scaled rows keep their shape


def test_raw_self_attention_by_torch():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(7, 5))
    causal = np.tril(np.ones((7, 7), dtype=bool))
    for allowed in (np.ones((7, 7), dtype=bool), causal):
        r = before_attention.raw_self_attention(x, allowed)
        xt = torch.tensor(x)[None]
        raw = torch.bmm(xt, xt.transpose(1, 2)).masked_fill(~torch.tensor(allowed), float("-inf"))
        w = torch.softmax(raw, dim=2)
        np.testing.assert_allclose(r.weights, w[0].numpy(), rtol=1e-10)
        np.testing.assert_allclose(r.out, torch.bmm(w, xt)[0].numpy(), rtol=1e-10)
        assert r.asymmetry < 1e-12
        wn = w[0].numpy()
        top = [int(np.argmax(wn[i])) == i for i in range(7)]
        assert r.self_top == pytest.approx(sum(top) / 7)
        assert r.diagonal == pytest.approx(float(np.mean([wn[i, i] for i in range(7)])))
        assert r.uniform == pytest.approx(np.mean([1 / allowed[i].sum() for i in range(7)]))


def test_cost_table_numbers():
    rows = {r.layer: r for r in before_attention.cost_table(n=20, d=64, k=3)}
    assert rows["self_attention"].ops == 20 * 20 * 64 and rows["self_attention"].steps == 1
    assert rows["recurrent"].ops == 20 * 64 * 64 and rows["recurrent"].steps == 20 and rows["recurrent"].hops == 20
    assert rows["convolutional"].ops == 3 * 20 * 64 * 64 and rows["convolutional"].hops == 3   # 3^3 = 27 >= 20
    assert rows["restricted"].ops == 3 * 20 * 64 and rows["restricted"].hops == 7              # ceil(20/3)
    assert {r.hops for r in before_attention.cost_table(9, 4, 3) if r.layer == "convolutional"} == {2}
    with pytest.raises(ValueError):
        before_attention.cost_table(0, 4)


def test_copy_batch_layout():
    task = before_attention.copy_task(16)
    b = before_attention.copy_batch(task, 4, 5, np.random.default_rng(0))
    assert b.ids.shape == (4, 12) and b.src.shape == b.answer.shape == (4, 5)
    assert torch.equal(b.src, b.answer)                                    # the copy task: y = x
    sep = task.tokenizer.encode("=").ids[-1]
    assert torch.all(b.dec_in[:, 0] == sep) and torch.equal(b.dec_in[:, 1:], b.answer[:, :-1])


def test_recipe_trains_a_few_steps(tmp_path):
    model, meta = recipe.train_gru(steps=5, log=lambda *_: None)
    assert math.isfinite(meta["loss"]) and meta["steps"] == 5
    recipe.save_gru(model, meta, tmp_path)
    again, meta2 = before_attention.load_gru(tmp_path)
    b = before_attention.eval_batches([3, 6], n=8)
    assert before_attention.copy_accuracy(again, b) == before_attention.copy_accuracy(model, b)
    assert meta2["hidden"] == recipe.GRU["hidden"]


@pytest.fixture(scope="module")
def shipped():
    gru, _ = before_attention.load_gru()
    tf, _ = before_attention.load_transformer()
    return gru, tf


def test_evaluation_by_hand(shipped):
    gru, tf = shipped
    batches = before_attention.eval_batches([4, 10], n=40)
    for model in (gru, tf):
        ours = before_attention.copy_accuracy(model, batches)
        for b, acc in zip(batches, ours):
            with torch.no_grad():
                if model is gru:
                    logits = model(b.src, b.dec_in)
                else:
                    logits = model(b.ids)[:, 1 + b.length:1 + 2 * b.length]
            right = 0
            for i in range(len(b.answer)):
                right += all(int(logits[i, j].argmax()) == int(b.answer[i, j]) for j in range(b.length))
            assert acc == pytest.approx(right / len(b.answer))


def test_teacher_forcing_equals_greedy(shipped):
    gru, _ = shipped
    b = before_attention.eval_batches([8], n=60)[0]
    with torch.no_grad():
        h = gru.context(b.src)[None]
        token = b.dec_in[:, :1]
        out = []
        for _ in range(b.length):                                          # greedy: feed its own answer back
            y, h = gru.decoder(gru.emb(token), h)
            token = gru.out(y).argmax(-1)
            out.append(token)
    greedy = before_attention.exact_accuracy(torch.cat(out, 1), b.answer)
    assert greedy == pytest.approx(before_attention.copy_accuracy(gru, [b])[0])


def test_the_gru_falls_with_length_the_transformer_holds(shipped):
    gru, tf = shipped
    batches = before_attention.eval_batches([2, 8, 14], n=100)
    g, t = before_attention.copy_accuracy(gru, batches), before_attention.copy_accuracy(tf, batches)
    assert g[0] > 0.9 and g[2] < 0.2 and g[0] > g[1] > g[2]
    assert t[2] > g[2] + 0.5

"""The Mixture of Experts cut from an FFN (lab/experts.py): the routing, gates, load, balance
loss and compute recomputed here with numpy from the router and the FFN input; the experts
together are the dense FFN; top-E with a flat router gives the dense output back."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import experts, sharding
from models.config import TransformerConfig
from models.transformer import Transformer

IDS = [3, 14, 15, 9, 26, 5, 35, 8, 9, 7]


def model_of(**kw) -> Transformer:
    torch.manual_seed(0)
    cfg = dict(arch="decoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=96, max_len=32)
    return Transformer(TransformerConfig(**{**cfg, **kw})).eval()


@pytest.mark.parametrize("kw", [dict(), dict(activation="swiglu", bias=False)])
@pytest.mark.parametrize("e,k", [(4, 1), (8, 2), (6, 3)])
def test_routing_against_numpy(kw, e, k):
    model = model_of(**kw)
    r = experts.route(model, torch.tensor([IDS]), 1, e, k, seed=5)
    x, mlp = sharding.ffn_input(model, torch.tensor([IDS]), 1)
    x = x[0].double().numpy()
    w = experts.router_matrix(32, e, 5).double().numpy()
    logits = x @ w
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(r.probs, p, atol=1e-5)
    order = np.argsort(-p, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(r.chosen, order)
    g = np.take_along_axis(p, order, 1)
    np.testing.assert_allclose(r.gates, g / g.sum(1, keepdims=True), atol=1e-5)
    load = np.array([(order == i).sum() for i in range(e)])
    np.testing.assert_array_equal(r.load, load)
    assert r.load.sum() == len(IDS) * k and r.ideal_load == pytest.approx(len(IDS) * k / e)
    f = load / load.sum()
    assert r.aux_loss == pytest.approx(e * (f * p.mean(0)).sum(), rel=1e-5)
    mats = 3 if mlp.gated else 2
    sizes = np.array([b - a for a, b in sharding.bounds(96, e)])
    assert r.dense_flops == 2 * mats * 32 * 96 * len(IDS)
    assert r.moe_flops == 2 * mats * 32 * sizes[order].sum() + 2 * 32 * e * len(IDS)
    assert r.all_rel_diff < 1e-5                                      # the E experts together are the FFN
    assert sum(r.expert_params) + (32 if mlp.W_out.bias is not None else 0) == sum(q.numel() for q in mlp.parameters())
    # the MoE output by hand: the chosen experts' outputs, weighted
    w_in = mlp.W_in.weight.detach().double().numpy().T
    w_out = mlp.W_out.weight.detach().double().numpy().T
    moe = np.zeros((len(IDS), 32))
    for t in range(len(IDS)):
        for j in range(k):
            a, b = sharding.bounds(96, e)[order[t, j]]
            if mlp.gated:
                gate = x[t] @ mlp.W_gate.weight.detach().double().numpy().T[:, a:b]
                h = gate / (1 + np.exp(-gate)) * (x[t] @ w_in[:, a:b])
            else:
                h = np.maximum(x[t] @ w_in[:, a:b] + mlp.W_in.bias.detach().double().numpy()[a:b], 0)
            moe[t] += r.gates[t, j] * (h @ w_out[a:b])
    if mlp.W_out.bias is not None:
        moe += mlp.W_out.bias.detach().double().numpy()
    full = mlp(torch.as_tensor(x, dtype=torch.float32)[None])[0].detach().double().numpy()
    assert r.rel_diff == pytest.approx(np.linalg.norm(moe - full) / np.linalg.norm(full), rel=1e-4)


def test_the_same_seed_routes_the_same_way_and_bad_input_is_a_sentence():
    model = model_of()
    a = experts.route(model, torch.tensor([IDS]), 0, 8, 2, seed=1)
    b = experts.route(model, torch.tensor([IDS]), 0, 8, 2, seed=1)
    np.testing.assert_array_equal(a.chosen, b.chosen)
    with pytest.raises(ValueError, match="experts"):
        experts.route(model, torch.tensor([IDS]), 0, 1, 1)
    with pytest.raises(ValueError, match="1 to 4"):
        experts.route(model, torch.tensor([IDS]), 0, 4, 5)


def test_balance_loss_is_one_when_even():
    probs = np.full((4, 4), 0.25)
    assert experts.balance_loss(probs, np.array([[0], [1], [2], [3]])) == pytest.approx(1.0)
    assert experts.balance_loss(np.eye(4)[[0, 0, 0, 0]], np.zeros((4, 1), int)) == pytest.approx(4.0)

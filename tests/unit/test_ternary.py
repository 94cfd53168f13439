"""BitNet b1.58's absmean quantiser and the model run with one ternary matrix."""
import math

import numpy as np
import pytest
import torch

import lab.ternary
from models.config import TransformerConfig
from models.trace import act_name
from models.transformer import Transformer


def test_hand_example():
    w = np.array([[0.9, -0.05, 0.4], [-1.2, 0.1, 0.0]])
    q = lab.ternary.absmean(w)
    gamma = np.abs(w).mean()                          # (0.9+0.05+0.4+1.2+0.1+0)/6 = 0.441666…
    assert q.gamma == pytest.approx(gamma)
    # w / gamma = 2.04, -0.11, 0.91, -2.72, 0.23, 0 -> round, clip
    assert q.codes.tolist() == [[1, 0, 1], [-1, 0, 0]]
    assert np.allclose(q.dequantised, q.codes * gamma)
    assert q.shares == pytest.approx((1 / 6, 3 / 6, 2 / 6))


def test_codes_are_ternary_and_beat_the_sign_quantiser():
    w = np.random.default_rng(0).standard_normal((64, 48)) * 0.02
    q = lab.ternary.absmean(w)
    assert set(np.unique(q.codes)) <= {-1, 0, 1} and q.codes.dtype == np.int8
    assert q.gamma == pytest.approx(np.abs(w).mean())
    assert lab.ternary.relative_error(q.dequantised, w) < lab.ternary.relative_error(lab.ternary.sign_binary(w), w)
    assert sum(q.shares) == pytest.approx(1.0)


def test_bits_and_bytes():
    assert lab.ternary.BITS["ternary"] == pytest.approx(math.log2(3)) and lab.ternary.BITS["packed"] == 2
    b = lab.ternary.matrix_bytes(1000)
    assert b["fp32"] == 4000 and b["fp16"] == 2000 and b["packed"] == 250 + 2
    assert b["ternary"] == pytest.approx(1000 * math.log2(3) / 8 + 2)


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    cfg = TransformerConfig(arch="decoder", vocab_size=40, d_model=32, n_layers=2, n_heads=4, d_ff=64,
                            activation="swiglu", bias=False, n_kv_heads=2)
    return Transformer(cfg, device="cpu").eval()


def test_model_bytes(model):
    mb = lab.ternary.model_bytes(model)
    tern = sum(lab.ternary.linear(model, "self", l, m).weight.numel()
               for l in range(2) for m in lab.ternary.matrices_of(model))
    assert mb.ternary_params == tern and mb.n_matrices == 2 * 7
    assert mb.fp32 == 4 * mb.params
    rest = mb.params - tern + mb.n_matrices
    assert mb.ternary_packed == (2 * tern + 16 * rest) / 8


def test_matrix_error_is_the_replaced_run_and_restores_the_weights(model):
    ids = [3, 1, 4, 1, 5, 9, 2, 6]
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    err = lab.ternary.matrix_error(model, ids, "self", 1, "W_V")
    for n, p in model.named_parameters():
        assert torch.equal(p, before[n]), n
    # the same numbers by hand: a copy of the model with W~ gamma in place
    w = lab.ternary.weights(model, "self", 1, "W_V")
    q = lab.ternary.absmean(w)
    twin = Transformer(model.cfg, device="cpu").eval()
    twin.load_state_dict(model.state_dict())
    with torch.no_grad():
        twin.blocks[1].attn.W_V.weight.copy_(torch.as_tensor(q.dequantised, dtype=torch.float32))
    names = [act_name("resid_post", 1)]
    _, a = model.run_with_cache(torch.tensor([ids]), names=names)
    _, b = twin.run_with_cache(torch.tensor([ids]), names=names)
    want = lab.ternary.relative_error(b[names[0]].numpy(), a[names[0]].numpy())
    assert err.layer_out == pytest.approx(want, rel=1e-4) and err.final == pytest.approx(want, rel=1e-4)
    assert err.weight == pytest.approx(lab.ternary.relative_error(q.dequantised, w))
    assert 0 < err.matrix_out < 1


def test_unknown_matrix_or_layer(model):
    with pytest.raises(ValueError):
        lab.ternary.linear(model, "self", 0, "W_nope")
    with pytest.raises(ValueError):
        lab.ternary.linear(model, "self", 5, "W_Q")


def test_the_figure_counts_every_weight():
    import viz_core.ternary
    w = np.random.default_rng(3).standard_normal((20, 30))
    q = lab.ternary.absmean(w)
    fig = viz_core.ternary.ternary_figure(w, q.gamma, q.shares)
    bars = [tr for tr in fig.data if tr.type == "bar"]
    assert bars[0].y.sum() == w.size and list(bars[1].y) == pytest.approx(q.shares)
    assert fig.layout.xaxis2.type == "category"
    with pytest.raises(ValueError):
        viz_core.ternary.ternary_figure(np.array([np.nan]), 1.0, (0.3, 0.4, 0.3))

"""The FFN split across devices (lab/sharding.py): the partial outputs, computed here with
numpy from the weights, add up to the model's own FFN output; the split along d does not;
the per-device counts add up to the whole FFN's."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import sharding
from models.config import TransformerConfig
from models.transformer import Transformer


def model_of(**kw) -> Transformer:
    torch.manual_seed(0)
    cfg = dict(arch="decoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=96, max_len=32)
    return Transformer(TransformerConfig(**{**cfg, **kw})).eval()


IDS = [3, 14, 15, 9, 26, 5, 35]


def test_bounds_cover_every_unit_once():
    assert sharding.bounds(10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert sharding.bounds(8, 8)[-1] == (7, 8)
    with pytest.raises(ValueError):
        sharding.bounds(4, 5)


@pytest.mark.parametrize("kw", [dict(), dict(activation="swiglu", bias=False), dict(activation="gelu")])
@pytest.mark.parametrize("k", [1, 3, 4])
def test_partial_outputs_sum_to_the_ffn_output(kw, k):
    model = model_of(**kw)
    s = sharding.shard(model, torch.tensor([IDS]), 1, k)
    x, mlp = sharding.ffn_input(model, torch.tensor([IDS]), 1)
    x = x[0].double().numpy()
    w_in = mlp.W_in.weight.detach().double().numpy().T          # [d, d_ff]
    w_out = mlp.W_out.weight.detach().double().numpy().T        # [d_ff, d]
    b_in = mlp.W_in.bias.detach().double().numpy() if mlp.W_in.bias is not None else 0.0
    act = {"relu": lambda v: np.maximum(v, 0), "silu": lambda v: v / (1 + np.exp(-v)),
           "gelu": lambda v: 0.5 * v * (1 + np.vectorize(__import__("math").erf)(v / np.sqrt(2)))}
    total = np.zeros((len(IDS), 32))
    for a, b in sharding.bounds(96, k):                        # by hand: one device's columns and rows
        if mlp.gated:
            h = act["silu"](x @ mlp.W_gate.weight.detach().double().numpy().T[:, a:b]) * (x @ w_in[:, a:b])
        else:
            h = act[model.cfg.activation]((x @ w_in[:, a:b]) + (b_in[a:b] if mlp.W_in.bias is not None else 0))
        total += h @ w_out[a:b]
    if mlp.W_out.bias is not None:
        total += mlp.W_out.bias.detach().double().numpy()
    full = mlp(torch.as_tensor(x, dtype=torch.float32)[None])[0].detach().double().numpy()
    np.testing.assert_allclose(total, full, atol=1e-5)
    assert s.max_abs_diff < 1e-5 and s.rel_diff < 1e-5
    assert s.full_norm == pytest.approx(np.linalg.norm(full), rel=1e-5)
    assert sum(s.params) == s.full_params == sum(p.numel() for p in mlp.parameters())
    assert sum(s.hidden) == s.full_hidden == len(IDS) * 96
    assert s.reduce_values == len(IDS) * 32


def test_splitting_along_d_before_the_activation_is_wrong():
    model = model_of()
    assert sharding.shard(model, torch.tensor([IDS]), 0, 1).wrong_rel_diff < 1e-5    # one device: nothing cut
    assert sharding.shard(model, torch.tensor([IDS]), 0, 4).wrong_rel_diff > 0.05


def test_encoder_decoder_reads_the_decoder_and_bad_input_is_a_sentence():
    model = model_of(arch="encoder-decoder")
    s = sharding.shard(model, torch.tensor([IDS]), 0, 2, tgt_ids=torch.tensor([[1, 2, 3]]))
    assert s.n == 3 and s.max_abs_diff < 1e-5
    with pytest.raises(ValueError, match="Layer 7"):
        sharding.shard(model_of(), torch.tensor([IDS]), 7, 2)
    with pytest.raises(ValueError, match="devices"):
        sharding.shard(model_of(), torch.tensor([IDS]), 0, 0)

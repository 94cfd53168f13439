"""Fused vs unfused attention (lab/fused.py): both rebuild the model's own attention output;
the unfused chain equals a numpy softmax by hand; the repeated text keeps the model's mask
pattern. No time is asserted."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import fused
from models.config import TransformerConfig
from models.transformer import Transformer

IDS = [3, 14, 15, 9, 26, 5, 35, 8]


def model_of(**kw) -> Transformer:
    torch.manual_seed(0)
    cfg = dict(arch="decoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=600)
    return Transformer(TransformerConfig(**{**cfg, **kw})).eval()


@pytest.mark.parametrize("kw", [dict(), dict(positional="rope", n_kv_heads=2), dict(positional="alibi"),
                                dict(arch="encoder", positional="learned")])
def test_both_rebuild_the_models_attention(kw):
    x = fused.layer_inputs(model_of(**kw), IDS, 1)
    np.testing.assert_allclose(fused.unfused(x).numpy(), x.z.numpy(), atol=1e-5)
    np.testing.assert_allclose(fused.fused(x).numpy(), x.z.numpy(), atol=1e-5)


def test_unfused_is_softmax_by_hand():
    x = fused.layer_inputs(model_of(), IDS, 0)
    q, k, v = (t[0].double().numpy() for t in (x.q, x.k, x.v))
    s = q @ k.transpose(0, 2, 1) * x.scale
    s = np.where(x.mask.numpy(), s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    np.testing.assert_allclose(fused.unfused(x)[0].numpy(), w @ v, atol=1e-5)
    assert not x.mask.numpy()[0, 1] and x.mask.numpy()[1, 0]                  # causal


def test_repeats_and_timings():
    model = model_of()
    x = fused.layer_inputs(model, IDS, 0, repeat=4)
    assert x.q.shape[2] == 32 and np.array_equal(x.mask.numpy(), np.tril(np.ones((32, 32), dtype=bool)))
    rows = fused.compare(model, IDS, 0, repeats=(1, 4), runs=3)
    assert [r.n for r in rows] == [8, 32] and rows[0].model_diff < 1e-5 and rows[1].model_diff is None
    assert all(r.max_diff < 1e-5 and r.unfused_s > 0 and r.fused_s > 0 for r in rows)
    assert rows[1].matrix_bytes == 2 * 4 * 32 * 32 * 4
    with pytest.raises(ValueError, match="Layer 5"):
        fused.layer_inputs(model, IDS, 5)


def test_long_repeats_are_left_out():
    rows = fused.compare(model_of(), IDS, 0, repeats=(1, 4, 128), runs=1)
    assert [r.repeat for r in rows] == [1, 4]                                 # 8 × 128 > MAX_LEN

"""RoPE's cost (lab/rope_cost.py): the counted operations against a count by hand, the
median timer against a fake clock, the shape read from a config. No time is asserted."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import rope_cost
from models import positional
from models.config import TransformerConfig


def test_shape_and_counts_by_hand():
    cfg = TransformerConfig(arch="decoder", vocab_size=50, d_model=64, n_layers=3, n_heads=8, n_kv_heads=2, d_ff=128,
                            max_len=64, positional="rope")
    s = rope_cost.Shape.of(cfg, 10)
    assert (s.d_head, s.rot, s.n_kv_heads) == (8, 8, 2)
    ops = rope_cost.counted_ops(s)
    # q: 10 tokens × 8 heads × 8 dims, k: 10 × 2 × 8; 3 operations each, in 3 layers; cos and sin once
    assert ops["rope"] == 3 * (10 * 8 * 8 + 10 * 2 * 8) * 3 + 2 * 10 * 8
    assert ops["table"] == 10 * 64 and ops["none"] == 0


def test_median_of_a_fake_clock(monkeypatch):
    ticks = iter([0.0, 1.0, 10.0, 13.0, 20.0, 22.0])          # three runs: 1, 3, 2 seconds
    monkeypatch.setattr(rope_cost.time, "perf_counter", lambda: next(ticks))
    assert rope_cost.median_seconds(lambda: None, 3, warmup=0) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        rope_cost.median_seconds(lambda: None, 0)


def test_the_timed_rotation_is_the_rotation_by_hand():
    n, d = 5, 8
    cos, sin = positional.rope_cos_sin(n, d)
    x = torch.randn(1, n, 1, d, generator=torch.Generator().manual_seed(1))
    out = positional.apply_rope(x, cos, sin)[0, :, 0].numpy()
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    xs = x[0, :, 0].double().numpy()
    for m in range(n):                                          # pair (i, i + d/2) turned by m·θ_i
        a = m * theta
        lo, hi = xs[m, : d // 2], xs[m, d // 2:]
        np.testing.assert_allclose(out[m, : d // 2], lo * np.cos(a) - hi * np.sin(a), atol=1e-5)
        np.testing.assert_allclose(out[m, d // 2:], hi * np.cos(a) + lo * np.sin(a), atol=1e-5)


def test_measure_returns_every_scheme():
    s = rope_cost.Shape(n=6, n_layers=2, n_heads=2, n_kv_heads=2, d_head=4, rot=4, d_model=8)
    c = rope_cost.measure(s, repeats=3, forward=lambda: torch.zeros(3).sum())
    assert set(c.seconds) == set(rope_cost.SCHEMES) and c.seconds["none"] == 0.0
    assert c.seconds["rope"] > 0 and c.seconds["table"] > 0 and c.forward > 0 and c.ratio > 0
    with pytest.raises(ValueError):
        rope_cost.position_work(s, "alibi")

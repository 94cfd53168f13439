"""lab/lesson_block.py against closed forms and the model's own norms."""
from __future__ import annotations

import numpy as np
import torch

from lab import lesson_block

LABELS = ["embed", "L0 attn", "L0 mlp", "L1 attn", "L1 mlp"]


def test_stream_trend_reads_block_outputs():
    z = np.array([[2.0, 4.0], [9.0, 9.0], [3.0, 5.0], [0.0, 0.0], [1.0, 1.0]])      # [n, pos]
    trend = lesson_block.stream_trend(z, LABELS)
    assert trend.steps == ["embed", "L0", "L1"]
    np.testing.assert_allclose(trend.norms, [3.0, 4.0, 1.0])
    assert trend.direction == "shrink" and trend.n_up == 1 and np.isclose(trend.growth, 1 / 3)
    assert lesson_block.stream_trend(z[::-1].copy() + 10, LABELS).direction == "grow"


def test_largest_contribution_and_kinds():
    norm = np.array([[1.0], [5.0], [2.0], [0.5], [3.0]])
    big = lesson_block.largest_contribution(LABELS, norm, 0)
    assert (big.label, big.kind, big.norm) == ("L0 attn", "attn", 5.0)
    assert np.isclose(big.share, 5 / 11.5) and big.attn_total == 5.5 and big.mlp_total == 5.0
    assert [lesson_block.sublayer_kind(x) for x in ("embed", "L3 cross", "L2 mlp")] == ["embed", "attn", "mlp"]


def test_compare_norms_matches_torch():
    rng = np.random.default_rng(0)
    x = rng.normal(0.0, 2.0, 64)
    c = lesson_block.compare_norms(x, 1e-5)
    ln = torch.nn.functional.layer_norm(torch.tensor(x), (64,), eps=1e-5).numpy()
    np.testing.assert_allclose(c.layer, ln, atol=1e-6)
    rms = torch.nn.functional.rms_norm(torch.tensor(x), (64,), eps=1e-5).numpy()
    np.testing.assert_allclose(c.rms, rms, atol=1e-6)
    assert np.isclose(c.layer_norm, 8.0, atol=1e-3)           # ‖LayerNorm(x)‖ = √d
    shifted = lesson_block.compare_norms(x + 10.0)                       # a large mean: RMSNorm keeps it, LayerNorm removes it
    assert c.agree and not shifted.agree and shifted.cosine < 0.5


def test_top_neurons_and_lens_settle():
    post = np.array([[0.0, 3.0, -1.0, 1.0]])
    top = lesson_block.top_neurons(post, 0, k=2)
    assert list(top.ids) == [1, 3] and top.n_positive == 2 and np.isclose(top.top_share, 4 / 5)
    ids = np.array([[[5]], [[7]], [[7]], [[7]]])               # [rows, pos, k]
    probs = np.full(ids.shape, 0.9)
    s = lesson_block.lens_settle(ids, probs, 0)
    assert (s.first, s.n_rows, s.halfway) == (1, 4, True)
    s = lesson_block.lens_settle(np.array([[[7]], [[5]], [[5]], [[7]]]), probs, 0)
    assert (s.first, s.halfway) == (3, False)

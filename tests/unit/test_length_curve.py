"""lab/length_curve.py (models/training/length_eval.py): Press et al.'s non-overlapping
bits per character, the length curve and the attention-by-distance profile, on tiny
random models (no checkpoint needed)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lab import length_curve
from models.config import TransformerConfig
from models.weights.zoo import build_random

V = 23


def tiny(positional: str = "rope", max_len: int = 64, tie: bool = True):
    cfg = TransformerConfig(arch="decoder", vocab_size=V, d_model=16, n_layers=2, n_heads=2, d_ff=32,
                            max_len=max_len, positional=positional, tie_embeddings=tie)
    return build_random(cfg, seed=3)


@pytest.fixture(scope="module")
def ids():
    return np.random.default_rng(0).integers(0, V, 400).tolist()


def test_bits_per_char_is_the_hand_computed_mean_over_non_overlapping_windows(ids):
    model, length = tiny(), 16
    total, count = 0.0, 0
    with torch.no_grad():
        for s in range(0, len(ids) - length, length):        # windows that have length + 1 ids
            x = torch.tensor(ids[s:s + length + 1])
            logp = model(x[:-1])[0].log_softmax(-1)
            total += float(-logp[torch.arange(length), x[1:]].sum())
            count += length
    assert count == (len(ids) - 1) // length * length
    assert length_curve.bits_per_char(model, ids, length) == pytest.approx(total / count / math.log(2), rel=1e-5)
    # max_windows takes the first windows only
    first = length_curve.bits_per_char(model, ids, length, max_windows=2)
    assert first == pytest.approx(length_curve.bits_per_char(model, ids[:2 * length + 1], length), rel=1e-6)


def test_all_zero_logits_give_log2_of_the_vocabulary(ids):
    model = tiny(tie=False)
    with torch.no_grad():
        model.unembed.weight.zero_()
    assert length_curve.bits_per_char(model, ids, 32) == pytest.approx(math.log2(V), rel=1e-6)


def test_windows_do_not_overlap_and_skip_nothing(ids):
    w = length_curve.windows(ids, 30)
    n = (len(ids) - 1) // 30
    assert w.shape == (n, 31)
    assert w[:, 1:].reshape(-1).tolist() == ids[1:n * 30 + 1]          # every predicted character once
    assert w[:, :-1].reshape(-1).tolist() == ids[:n * 30]
    assert length_curve.windows(ids, 30, max_windows=3).shape == (3, 31)
    with pytest.raises(ValueError, match="not one whole window"):
        length_curve.windows(ids[:30], 30)


def test_learned_positions_stop_at_their_table(ids):
    model = tiny("learned", max_len=32)
    with pytest.raises(ValueError, match="learned positions for only 32"):
        length_curve.bits_per_char(model, ids, 48)
    points = length_curve.curve(model, ids, 16, factors=(1, 2, 3))
    assert [(f, n) for f, n, _ in points] == [(1, 16), (2, 32), (3, 48)]
    assert points[0][2] is not None and points[1][2] is not None and points[2][2] is None
    # other schemes read any length, beyond max_len too
    assert all(b is not None and math.isfinite(b) for _, _, b in length_curve.curve(tiny("alibi", 32), ids, 16, (1, 2, 3)))


def test_curve_predicts_the_same_characters_at_every_length(ids):
    lengths = [16, 24, 32, 48]
    n = length_curve.budget_for(len(ids), lengths, budget=10_000)
    assert n > 0 and all(n % x == 0 for x in lengths) and n <= len(ids) - 1
    model = tiny("sinusoidal", 64)
    points = length_curve.curve(model, ids, 16, factors=(1, 1.5, 2, 3), budget=10_000)
    for (_, length, bpc) in points:
        assert bpc == pytest.approx(length_curve.bits_per_char(model, ids[:n + 1], length), rel=1e-6)


@pytest.mark.parametrize("positional", ["alibi", "rope", "none"])
def test_distance_profile_rows_sum_to_one_per_query(ids, positional):
    model, length = tiny(positional), 40
    d, w = length_curve.distance_profile(model, ids, length, n_windows=3)
    assert d.tolist() == list(range(length)) and w.shape == (2, 2, length)
    assert np.all(w >= 0)
    # each causal query's row sums to 1; distance d is averaged over length - d queries
    np.testing.assert_allclose((w * (length - d)).sum(-1), length, rtol=1e-5)
    # one window: weights[l, h, d] is the mean of the pattern's d-th diagonal below the main one
    d1, w1 = length_curve.distance_profile(model, ids, length, n_windows=1)
    with torch.no_grad():
        _, trace = model.run_with_cache(torch.tensor(ids[:length])[None])
    pat = trace.patterns(0).double()                 # [layer, head, q, k]
    for dist in (0, 1, 7, length - 1):
        want = pat.diagonal(offset=-dist, dim1=-2, dim2=-1).mean(-1).numpy()
        np.testing.assert_allclose(w1[..., dist], want, rtol=1e-5, atol=1e-7)


def test_heldout_ids_are_the_held_out_text():
    from recipes import pe_lm

    tok = pe_lm.task().tokenizer
    modern, poems, en = (length_curve.heldout_ids(tok, p) for p in ("zh-modern", "zh-verse", "en"))
    zh, every = length_curve.heldout_ids(tok, "zh"), length_curve.heldout_ids(tok)
    assert len(every) > len(zh) > len(modern) > len(en) > len(poems) > 1000
    assert len(zh) == len(poems) + 1 + len(modern)           # the poems, a blank line, modern Chinese
    assert tok.decode(poems[:200]).count("，") > 3 and "Debian" in tok.decode(modern[:2000])

"""The naive position schemes of the positional lab (lab/naive_positions.py), checked by hand:
the notes' worked examples, what each scheme gives past the trained length, and which
scheme keeps one gap one distance."""
from __future__ import annotations

import math

import numpy as np
import pytest

from lab import naive_positions


def test_the_notes_examples_recomputed():
    six, nine = naive_positions.NOTES_TEXTS
    assert len(six) == 6 and len(nine) == 9
    np.testing.assert_allclose(naive_positions.naive_table("normalised", 6).ravel(), [0, 0.2, 0.4, 0.6, 0.8, 1])   # not 0, 0.16, ...
    np.testing.assert_allclose(naive_positions.naive_table("normalised", 9).ravel(), np.arange(9) / 8)
    assert naive_positions.naive_table("integer", 9).ravel().tolist() == list(range(1, 10))                         # not 1..7


def test_binary_and_one_hot_have_no_vector_past_what_training_saw():
    b = naive_positions.naive_table("binary", 20, trained=16)                      # 4 bits: positions 0..15
    assert b.shape == (20, 4) and b[5].tolist() == [0, 1, 0, 1] and np.isnan(b[16:]).all()
    h = naive_positions.naive_table("onehot", 20, trained=16)
    assert h.shape == (20, 16) and (h[:16] == np.eye(16)).all() and np.isnan(h[16:]).all()


def test_distances_of_each_scheme():
    d_norm = naive_positions.distances(naive_positions.naive_table("normalised", 6))
    assert d_norm[0, 3] == pytest.approx(0.6)
    d_hot = naive_positions.distances(naive_positions.naive_table("onehot", 8))
    off = d_hot[~np.eye(8, dtype=bool)]
    np.testing.assert_allclose(off, math.sqrt(2))                     # every pair equally far: no "near"
    d_bin = naive_positions.distances(naive_positions.naive_table("binary", 16))
    assert d_bin[7, 8] == pytest.approx(2.0) and d_bin[0, 8] == pytest.approx(1.0)   # 0111 -> 1000: four bits


def test_only_sinusoidal_keeps_one_gap_one_distance():
    table = naive_positions.gap_table(("normalised", "integer", "binary", "onehot", "sinusoidal"))
    same_gap = slice(0, 3)                                           # 0-3 in 6 tokens, 0-3 and 5-8 in 9
    for scheme, row in table.items():
        equal = np.allclose(row[same_gap], row[0])
        near_closer = row[3] < row[4]
        assert (equal and near_closer) == (scheme in ("sinusoidal", "integer")), (scheme, row)
    assert table["normalised"][:2] == pytest.approx([0.6, 0.375])     # the gap depends on the text's length


def test_a_bad_request_is_refused():
    with pytest.raises(ValueError, match="Unknown naive scheme"):
        naive_positions.naive_table("gray", 4)
    with pytest.raises(ValueError):
        naive_positions.naive_table("integer", 0)

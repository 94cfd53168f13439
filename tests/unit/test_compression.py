"""Coding rate and sparsity of the residual page's compression view (lab/compression.py),
against cases computed by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

from lab import compression


def test_coding_rate_of_known_token_sets():
    d, eps = 16, compression.CODING_EPS
    same = np.ones((5, d))                                      # one direction: det = 1 + d/ε²
    assert compression.coding_rate(same) == pytest.approx(0.5 * math.log(1 + d / eps ** 2))
    ortho = np.eye(d)[:4] * np.array([[1.0], [3.0], [0.1], [7.0]])     # 4 orthogonal directions, any lengths
    assert compression.coding_rate(ortho) == pytest.approx(0.5 * 4 * math.log(1 + d / (4 * eps ** 2)))


def test_the_gram_trick_equals_the_direct_determinant():
    rng = np.random.default_rng(0)
    for n, d in ((7, 32), (40, 8)):
        z = rng.normal(size=(n, d))
        unit = z / np.linalg.norm(z, axis=1, keepdims=True)
        direct = 0.5 * np.linalg.slogdet(np.eye(d) + d / (n * 0.25) * unit.T @ unit)[1]
        assert compression.coding_rate(z) == pytest.approx(direct)


def test_hoyer_sparsity_ends_and_middle():
    assert compression.hoyer_sparsity(np.ones((2, 9))) == pytest.approx(0.0)
    assert compression.hoyer_sparsity(np.eye(9)[:3] * 5) == pytest.approx(1.0)
    half = np.array([[1.0, 1.0, 0.0, 0.0]])                      # l1/l2 = sqrt(2): (2 - sqrt 2) / (2 - 1)
    assert compression.hoyer_sparsity(half) == pytest.approx(2 - math.sqrt(2))


def test_compression_reads_the_embedding_and_the_end_of_each_block():
    labels = ["embed", "L0 attn", "L0 mlp", "L1 attn", "L1 mlp"]
    rng = np.random.default_rng(1)
    stream = rng.normal(size=(5, 6, 8))
    stream[4] = 1.0                                              # after L1: every token the same
    c = compression.compression(labels, stream)
    assert c.labels == ["embed", "L0", "L1"]
    assert c.rate[1] == pytest.approx(compression.coding_rate(stream[2]))
    assert c.rate[2] == pytest.approx(0.5 * math.log(1 + 8 / 0.25)) and c.sparsity[2] == pytest.approx(0.0)


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        compression.coding_rate(np.ones(5))
    with pytest.raises(ValueError):
        compression.hoyer_sparsity(np.ones((3, 1)))

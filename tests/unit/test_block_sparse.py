"""Block-sparse masks (lab/block_sparse.py) against layouts and token masks written by hand."""
from __future__ import annotations

import numpy as np
import pytest

from lab import block_sparse


def test_layout_by_hand():
    got = block_sparse.layout(5, local=1, global_blocks=1)
    want = np.array([[1, 1, 1, 1, 1],
                     [1, 1, 1, 0, 0],
                     [1, 1, 1, 1, 0],
                     [1, 0, 1, 1, 1],
                     [1, 0, 0, 1, 1]], dtype=bool)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(block_sparse.layout(5, 1, 1, causal=True), want & np.tri(5, dtype=bool))


def test_token_mask_expands_every_block():
    bs = block_sparse.block_sparse(7, block=3, local=0, global_blocks=0)            # 3 blocks, diagonal only
    want = np.zeros((7, 7), dtype=bool)
    for a in range(0, 7, 3):
        want[a:a + 3, a:a + 3] = True
    np.testing.assert_array_equal(bs.mask, want)
    assert (bs.n_blocks, bs.computed, bs.dense_blocks) == (3, 3, 9)
    assert bs.share == pytest.approx(1 / 3) and bs.pairs == 9 + 9 + 1 and bs.kernel_pairs == 27
    dec = block_sparse.block_sparse(7, 3, 0, 0, causal=True)
    np.testing.assert_array_equal(dec.mask, want & np.tri(7, dtype=bool))
    assert dec.dense_blocks == 6 and dec.share == pytest.approx(0.5)


def test_random_blocks_are_seeded_and_extra():
    a = block_sparse.layout(12, 0, 0, random_blocks=2, seed=3)
    b = block_sparse.layout(12, 0, 0, random_blocks=2, seed=3)
    np.testing.assert_array_equal(a, b)
    assert (a.sum(1) == 3).all()                                                   # own block + 2 random
    causal = block_sparse.layout(12, 0, 0, random_blocks=2, seed=3, causal=True)
    assert not np.triu(causal, 1).any()
    with pytest.raises(ValueError):
        block_sparse.block_sparse(5, 0, 1, 1)
    with pytest.raises(ValueError):
        block_sparse.layout(3, -1, 0)


def test_block_one_is_token_level():
    bs = block_sparse.block_sparse(6, 1, local=2, global_blocks=0)
    i = np.arange(6)
    np.testing.assert_array_equal(bs.mask, np.abs(i[:, None] - i[None, :]) <= 2)


def test_blocks_a_token_pattern_touches():
    i = np.arange(7)
    window = np.abs(i[:, None] - i[None, :]) <= 1                      # a token-level window of 1
    got = block_sparse.touched(window, 3)                               # blocks 0-2, 3-5, 6
    want = np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]], dtype=bool)       # 2-3 and 5-6 cross block borders
    np.testing.assert_array_equal(got, want)
    for a in range(3):                                                  # by hand: any allowed pair inside the block
        for b in range(3):
            assert got[a, b] == window[3 * a:3 * a + 3, 3 * b:3 * b + 3].any()
    with pytest.raises(ValueError):
        block_sparse.touched(np.ones((2, 3)), 2)

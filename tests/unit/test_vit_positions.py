"""The 2-D sin-cos position table (lab/vit_positions.py) against a by-hand loop, the similarity
grids against numpy, and the shipped ViT that uses the table: its table is the computed one,
training never changes it, and its held-out accuracy is the one its card states."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lab import patches, vit_positions


def by_hand(rows: int, cols: int, d: int) -> np.ndarray:
    """One entry at a time: [CLS] zeros, then patch (r, c): dims 0..d/2-1 the row's sinusoid,
    d/2..d-1 the column's; within a half, sin of the first d/4 frequencies, then their cos."""
    out = np.zeros((1 + rows * cols, d))
    q = d // 4
    for r in range(rows):
        for c in range(cols):
            n = 1 + r * cols + c
            for half, pos in ((0, r), (1, c)):
                for i in range(q):
                    w = 1.0 / 10000 ** (i / q)
                    out[n, half * (d // 2) + i] = math.sin(pos * w)
                    out[n, half * (d // 2) + q + i] = math.cos(pos * w)
    return out


@pytest.mark.parametrize("rows,cols,d", [(4, 4, 32), (3, 5, 8), (14, 14, 768)])
def test_sincos_2d_by_hand(rows, cols, d):
    table = vit_positions.sincos_2d(rows, cols, d)
    assert table.shape == (1 + rows * cols, d) and table.dtype == torch.float32
    np.testing.assert_allclose(table.numpy(), by_hand(rows, cols, d), atol=1e-6)
    assert vit_positions.sincos_2d(rows, cols, d, cls=False).shape == (rows * cols, d)


def test_sincos_2d_refuses_odd_widths():
    with pytest.raises(ValueError, match="divisible by 4"):
        vit_positions.sincos_2d(2, 2, 6)


def test_similarity_grids_and_near_far():
    rng = np.random.default_rng(0)
    table = rng.normal(size=(1 + 6, 5))
    grids = vit_positions.similarity_grids(table, 2, 3)
    t = table[1:]
    cos = np.array([[a @ b / np.linalg.norm(a) / np.linalg.norm(b) for b in t] for a in t])
    np.testing.assert_allclose(grids.reshape(6, 6), cos, atol=1e-12)
    np.testing.assert_allclose(np.diagonal(grids.reshape(6, 6)), 1.0)
    # grid 2×3: (0,0)(0,1)(0,2) / (1,0)(1,1)(1,2); neighbours at city-block distance 1, far at ≥ 2
    near = [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)]
    far = [(i, j) for i in range(6) for j in range(6) if abs(i // 3 - j // 3) + abs(i % 3 - j % 3) >= 2]
    nf = vit_positions.near_far(table, 2, 3)
    assert nf["near"] == pytest.approx(np.mean([cos[i, j] for i, j in near]))
    assert nf["far"] == pytest.approx(np.mean([cos[i, j] for i, j in far]))


def test_the_sincos_table_has_the_grid():
    nf = vit_positions.near_far(vit_positions.sincos_2d(4, 4, 32), 4, 4)
    assert nf["near"] > nf["far"]


def test_shipped_sincos_vit_holds_the_computed_table():
    model, meta = patches.load_vit(patches.STEMS["sincos2d"])
    assert model.positional == "sincos2d" and meta["positions"] == "sincos2d"
    assert torch.equal(model.body.pos_embed.weight.detach(), vit_positions.sincos_2d(4, 4, 32))
    images, labels = patches.held_out()
    assert patches.accuracy(model, images, labels) == pytest.approx(meta["held_out_accuracy"], abs=1e-3)
    assert meta["held_out_accuracy"] > 0.85


def test_training_keeps_the_table_fixed_and_reports_progress():
    seen = []
    r = patches.train_vit("sincos2d", seed=0, steps=40, batch=16, progress=lambda i, loss: seen.append((i, loss)))
    assert torch.equal(r.model.body.pos_embed.weight.detach(), vit_positions.sincos_2d(4, 4, 32))
    assert [i for i, _ in seen] == [20, 40] and seen[-1][1] == r.losses[-1]
    learned = patches.train_vit("learned", seed=0, steps=5, batch=16)
    start = patches.build_vit("learned", seed=0)
    assert not torch.equal(learned.model.body.pos_embed.weight, start.body.pos_embed.weight)   # learned moves


def test_unknown_positions_refused():
    with pytest.raises(ValueError, match="positions are one of"):
        patches.build_vit("rope")

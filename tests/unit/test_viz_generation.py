"""Figures of the generation page (pure plotly builders)."""
from __future__ import annotations

import numpy as np
import pytest

import viz_core.generate

EVIL = "<b>x</b>"


def test_candidate_bars_mark_cut_and_chosen():
    p = np.array([0.5, 0.3, 0.2], dtype=np.float32)
    kept = np.array([True, True, False])
    fig = viz_core.generate.candidate_bars(["a", EVIL, "c"], p, p, kept, np.array([0.625, 0.375, 0.0]), 1)
    model, tempered, final = fig.data
    assert list(tempered.marker.color) == [viz_core.generate.KEPT, viz_core.generate.CHOSEN, viz_core.generate.CUT]
    assert tempered.text[2].endswith("(cut)") and "(cut)" not in tempered.text[0]
    assert "<b>" not in "".join(fig.layout.yaxis.ticktext)                  # token labels escaped
    np.testing.assert_allclose(final.x, [0.625, 0.375, 0.0])
    with pytest.raises(ValueError, match="shape"):
        viz_core.generate.candidate_bars(["a"], p, p, kept, p, 0)


def test_beam_tree_draws_every_node_and_the_best_path():
    # prompt -> a (kept) -> c (kept, best); prompt -> b (pruned)
    fig = viz_core.generate.beam_tree([0, 0, 1], [-1, -1, 0], ["a", "b", "c"], [-0.1, -2.0, -0.5], [True, False, True],
                       [False, False, True], [0, 2])
    nodes = next(tr for tr in fig.data if tr.mode == "markers+text" and len(tr.x) == 3)
    assert list(nodes.marker.color) == [viz_core.generate.KEPT, viz_core.generate.CUT, viz_core.generate.FINISHED]
    best = next(tr for tr in fig.data if tr.line is not None and tr.line.color == viz_core.generate.CHOSEN)
    assert [x for x in best.x if x is not None] == [-1.0, 0.0, 0.0, 1.0]
    with pytest.raises(ValueError):
        viz_core.generate.beam_tree([0], [-1, 0], ["a"], [0.0], [True], [False], [])


def test_kv_cache_grid_and_memory_and_pages():
    fig = viz_core.generate.kv_cache_grid(2, 5, 4, list("abcde"))
    z = np.asarray(fig.data[0].z)
    assert z.shape == (2, 5) and (z[:, :4] == 1).all() and (z[:, 4] == 2).all()
    with pytest.raises(ValueError):
        viz_core.generate.kv_cache_grid(2, 5, 6, list("abcde"))
    pos = np.arange(1, 11)
    mem = viz_core.generate.kv_memory_chart(pos, {"MHA": pos * 8.0, "MQA": pos * 2.0}, current="MHA", at=4)
    assert [tr.line.width for tr in mem.data] == [4, 1.5]
    pages = viz_core.generate.paged_view(list("abcdefg"), 3, [5, 1, 9])
    pz = np.asarray(pages.data[0].z)
    assert pz.shape == (3, 3) and pz.sum() == 7 and pz[2, 1:].sum() == 0     # 2 empty slots in the last block
    assert list(pages.layout.yaxis.ticktext) == ["block 0 → #5", "block 1 → #1", "block 2 → #9"]
    with pytest.raises(ValueError, match="physical"):
        viz_core.generate.paged_view(list("abcd"), 3, [1])

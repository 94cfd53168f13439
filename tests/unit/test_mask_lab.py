"""The masks lab's pure functions: composer, XLNet order parsing, empty rows, density
and cost, receptive field. Expected matrices are written out by hand."""
import pytest
import torch

import models.masks
from tests.unit.helpers import bools


def test_compose_local_and_causal_is_a_causal_window():
    got = models.masks.compose(5, [{"kind": "local", "window": 1}, {"kind": "causal"}])
    assert torch.equal(got, bools("""
        1 . . . .
        1 1 . . .
        . 1 1 . .
        . . 1 1 .
        . . . 1 1"""))


def test_compose_nothing_is_full_attention():
    assert torch.equal(models.masks.compose(3, []), torch.ones(3, 3, dtype=torch.bool))


def test_compose_longformer_and_prefix():
    got = models.masks.compose(5, [{"kind": "longformer", "window": 1, "global_tokens": (0,)},
                        {"kind": "prefix", "prefix_len": 2}])
    # longformer(1, global 0) AND prefix-LM(2): the prefix is bidirectional, the rest causal
    assert torch.equal(got, bools("""
        1 1 . . .
        1 1 . . .
        1 1 1 . .
        1 . 1 1 .
        1 . . 1 1"""))


def test_compose_dilated_with_reach_and_strided():
    got = models.masks.compose(6, [{"kind": "dilated", "dilation": 2, "dilated_window": 1}, {"kind": "causal"}])
    assert torch.equal(got, bools("""
        1 . . . . .
        . 1 . . . .
        1 . 1 . . .
        . 1 . 1 . .
        . . 1 . 1 .
        . . . 1 . 1"""))
    strided_causal = models.masks.compose(6, [{"kind": "strided", "stride": 3}, {"kind": "causal"}])
    assert torch.equal(strided_causal, bools("""
        1 . . . . .
        1 1 . . . .
        1 1 1 . . .
        1 1 1 1 . .
        . 1 1 1 1 .
        . . 1 1 1 1"""))


def test_compose_bigbird_is_seeded_and_contains_its_window_and_globals():
    a = models.masks.compose(10, [{"kind": "bigbird", "window": 1, "global_tokens": (0,), "n_random": 2, "seed": 7}])
    b = models.masks.compose(10, [{"kind": "bigbird", "window": 1, "global_tokens": (0,), "n_random": 2, "seed": 7}])
    assert torch.equal(a, b)
    assert bool((a >= models.masks.longformer(10, 1, (0,))).all())
    extra = (a & ~models.masks.longformer(10, 1, (0,))).sum(-1)
    assert int(extra.max()) <= 2


def test_compose_xlnet_streams():
    order = [2, 0, 1]
    content = models.masks.compose(3, [{"kind": "xlnet_content", "order": order}])
    query = models.masks.compose(3, [{"kind": "xlnet_query", "order": order}])
    # order 2 -> 0 -> 1: position 2 sees itself; 0 sees 2 and itself; 1 sees everything
    assert torch.equal(content, bools([[1, 0, 1], [1, 1, 1], [0, 0, 1]]))
    assert torch.equal(query, bools([[0, 0, 1], [1, 0, 1], [0, 0, 0]]))
    assert models.masks.empty_rows(query) == [2]


@pytest.mark.parametrize("text, n, why", [
    ("0 1 1", 3, "more than once"),
    ("0 1", 3, "missing"),
    ("0 1 5", 3, "not positions"),
    ("a b c", 3, "whole numbers"),
])
def test_parse_order_refuses_non_permutations(text, n, why):
    with pytest.raises(ValueError, match=why):
        models.masks.parse_order(text, n)


def test_parse_order_accepts_commas_and_spaces():
    assert models.masks.parse_order("2, 0 1", 3) == [2, 0, 1]


def test_part_checks_its_arguments():
    with pytest.raises(ValueError, match="window"):
        models.masks.part("local", 4, window=0)
    with pytest.raises(ValueError, match="Unknown mask"):
        models.masks.part("nope", 4)
    with pytest.raises(ValueError, match="has 2 positions but the text has 3"):
        models.masks.part("xlnet_query", 3, order=[1, 0])
    with pytest.raises(ValueError, match="random keys"):
        models.masks.part("bigbird", 4, n_random=-1)


def test_keep_self_only_fills_empty_rows():
    m = bools([[0, 0, 0], [1, 0, 0], [0, 0, 0]])
    assert models.masks.empty_rows(m) == [0, 2]
    assert torch.equal(models.masks.keep_self(m), bools([[1, 0, 0], [1, 0, 0], [0, 0, 1]]))
    full = torch.ones(2, 2, dtype=torch.bool)
    assert models.masks.keep_self(full) is full


def test_mask_stats():
    s = models.masks.mask_stats(models.masks.causal(4))
    assert s["pairs"] == 10 and s["density"] == pytest.approx(10 / 16)
    assert s["per_query"] == [1, 2, 3, 4] and s["empty"] == []


def test_cost_curve_counts_pairs():
    assert models.masks.cost_curve([], [4, 8]) == [16, 64]
    assert models.masks.cost_curve([{"kind": "causal"}], [4, 8]) == [10, 36]
    # local window w: n(2w+1) minus the corners w(w+1)
    assert models.masks.cost_curve([{"kind": "local", "window": 2}], [16, 100]) == [16 * 5 - 6, 100 * 5 - 6]
    assert models.masks.cost_curve([{"kind": "xlnet_content", "order": [0]}], [5]) == [15]


def test_receptive_field_of_a_causal_window_grows_by_the_window():
    reach = models.masks.receptive_field(models.masks.compose(6, [{"kind": "local", "window": 1}, {"kind": "causal"}]), 3)
    assert reach.shape == (3, 6, 6)
    # the last token reaches 2, 3, 4 inputs back after 1, 2, 3 layers (itself included)
    assert reach[:, 5].sum(-1).tolist() == [2, 3, 4]
    assert torch.equal(reach[0], models.masks.compose(6, [{"kind": "local", "window": 1}, {"kind": "causal"}]))


def test_local_plus_strided_reaches_everything_in_two_layers():
    n = 16
    sparse = models.masks.compose(n, [{"kind": "strided", "stride": 4}, {"kind": "causal"}])
    reach = models.masks.receptive_field(sparse, 2)
    assert not bool(reach[0].equal(models.masks.causal(n)))
    assert torch.equal(reach[1], models.masks.causal(n))          # every earlier token, after two layers
    window_only = models.masks.receptive_field(models.masks.compose(n, [{"kind": "local", "window": 3}, {"kind": "causal"}]), 2)
    assert not torch.equal(window_only[1], models.masks.causal(n))


def test_receptive_field_checks():
    with pytest.raises(ValueError, match="at least 1"):
        models.masks.receptive_field(models.masks.causal(3), 0)


def test_layers_to_closure_local_against_strided():
    n = 16
    local = models.masks.compose(n, [{"kind": "local", "window": 2}, {"kind": "causal"}])
    strided = models.masks.compose(n, [{"kind": "strided", "stride": 4}, {"kind": "causal"}])
    assert models.masks.layers_to_closure(local) == 8            # 15 steps back, 2 per layer
    assert models.masks.layers_to_closure(strided) == 2
    assert models.masks.layers_to_closure(models.masks.full(5)) == 1
    assert models.masks.layers_to_closure(models.masks.causal(1)) == 1

"""lab.attention (head metrics, rollout) against hand-computed values."""

import math

import numpy as np
import pytest

from lab.attention import (
    METRIC_INFO,
    aggregate_heads,
    attention_to,
    entropy,
    head_entropy,
    head_metrics,
    mean_attention_distance,
    metrics_table,
    rollout,
    sparsity,
)


def causal_uniform(n: int) -> np.ndarray:
    """[n, n]: query i attends uniformly to keys 0..i, masked cells exactly 0."""
    p = np.tri(n)
    return p / p.sum(-1, keepdims=True)


def random_patterns(shape, seed=0) -> np.ndarray:
    s = np.random.default_rng(seed).normal(size=shape)
    p = np.exp(s - s.max(-1, keepdims=True))
    return p / p.sum(-1, keepdims=True)


# ------------------------------------------------------------------ entropy


def test_entropy_uniform_over_four_keys_is_ln4():
    h = entropy(np.full((3, 4), 0.25))
    assert h.shape == (3,)
    np.testing.assert_allclose(h, math.log(4), rtol=1e-12)


def test_entropy_one_hot_is_zero_and_zero_log_zero_is_zero():
    p = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]])
    np.testing.assert_allclose(entropy(p), [0.0, math.log(2)], atol=1e-12)


def test_entropy_hand_computed_and_batched():
    p = np.array([0.5, 0.25, 0.25])
    expected = -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25))  # 1.0397
    out = entropy(np.broadcast_to(p, (2, 5, 3, 3)))
    assert out.shape == (2, 5, 3) and out.dtype == np.float64
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def test_entropy_nan_counts_as_masked_and_mask_zeroes_keys():
    p = np.array([[0.5, 0.5, np.nan]])
    np.testing.assert_allclose(entropy(p), [math.log(2)])
    mask = np.array([True, True, False])
    np.testing.assert_allclose(entropy(np.array([[0.5, 0.5, 0.3]]), mask=mask), [math.log(2)])


def test_entropy_bad_shapes():
    with pytest.raises(ValueError):
        entropy(np.ones(4))
    with pytest.raises(ValueError):
        entropy(np.ones((2, 3)), mask=np.ones((4,), bool))


def test_head_entropy_is_mean_over_queries():
    p = np.zeros((2, 3, 4, 4))
    p[...] = causal_uniform(4)  # rows: ln1, ln2, ln3, ln4
    out = head_entropy(p)
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out, np.mean([math.log(k) for k in range(1, 5)]))
    with pytest.raises(ValueError):
        head_entropy(np.ones((3, 4, 4)))


# ------------------------------------------------------------------ distance, sinks


def test_mean_distance_identity_is_zero():
    out = mean_attention_distance(np.broadcast_to(np.eye(5), (2, 3, 5, 5)))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out, 0.0)


def test_mean_distance_previous_token_and_hand_example():
    n = 5
    prev = np.zeros((n, n))
    prev[0, 0] = 1.0
    prev[np.arange(1, n), np.arange(n - 1)] = 1.0  # query i -> key i-1
    assert mean_attention_distance(prev) == pytest.approx((n - 1) / n)
    # Row 0: all on itself (0); row 1: 0.5 * |1-0| + 0.5 * 0 = 0.5 -> mean 0.25
    p = np.array([[1.0, 0.0], [0.5, 0.5]])
    assert mean_attention_distance(p) == pytest.approx(0.25)


def test_attention_to_first_and_last_key():
    p = np.array([[[0.7, 0.2, 0.1], [0.4, 0.4, 0.2], [0.1, 0.0, 0.9]]])  # [1, 3, 3]
    np.testing.assert_allclose(attention_to(p, 0), [(0.7 + 0.4 + 0.1) / 3])
    np.testing.assert_allclose(attention_to(p, -1), [(0.1 + 0.2 + 0.9) / 3])
    np.testing.assert_allclose(attention_to(p, 2), attention_to(p, -1))
    with pytest.raises(ValueError):
        attention_to(p, 3)
    with pytest.raises(ValueError):
        attention_to(p, -4)


# ------------------------------------------------------------------ sparsity


def test_sparsity_one_hot_and_uniform():
    one_hot = np.eye(4)
    assert sparsity(one_hot, mask=np.ones((4, 4), bool)) == pytest.approx(1 - 1 / 4)
    nearly = np.full((4, 4), 1e-6) + np.eye(4) * (1 - 4e-6)  # a real softmax is never exactly 0
    assert sparsity(nearly) == pytest.approx(1 - 1 / 4)
    uniform = np.full((3, 10), 0.1)  # 9 keys needed for 90% (float round-off must not ask for 10)
    assert sparsity(uniform, mass=0.9) == pytest.approx(0.1)
    assert sparsity(np.full((1, 4), 0.25), mass=0.5) == pytest.approx(0.5)


def test_sparsity_uses_allowed_keys_under_a_causal_mask():
    n = 4
    p = causal_uniform(n)
    # Row 0 has one allowed key and is left out. Rows 1..3 are uniform over 2, 3, 4
    # keys: needed = ceil(0.9 * a) = a, so each row's sparsity is 0.
    assert sparsity(p) == pytest.approx(0.0)
    one_hot = np.eye(n)  # with the causal mask: row i allows i+1 keys, needs 1
    expected = np.mean([1 - 1 / 2, 1 - 1 / 3, 1 - 1 / 4])
    assert sparsity(one_hot, mask=np.tri(n, dtype=bool)) == pytest.approx(expected)
    # Without a mask, a zero weight counts as masked: eye has 1 allowed key per row.
    assert sparsity(one_hot) == pytest.approx(0.0)


def test_sparsity_shape_and_bad_mass():
    out = sparsity(random_patterns((2, 3, 5, 5)))
    assert out.shape == (2, 3)
    assert np.all((out >= 0) & (out < 1))
    with pytest.raises(ValueError):
        sparsity(np.eye(3), mass=0.0)
    with pytest.raises(ValueError):
        sparsity(np.eye(3), mass=1.5)


# ------------------------------------------------------------------ rollout


def test_rollout_of_identity_is_identity():
    out = rollout(np.broadcast_to(np.eye(4), (3, 2, 4, 4)))
    assert out.shape == (3, 4, 4)
    np.testing.assert_allclose(out, np.broadcast_to(np.eye(4), (3, 4, 4)))


def test_rollout_hand_computed_two_layers():
    a1 = np.array([[1.0, 0.0], [0.5, 0.5]])
    a2 = np.array([[0.5, 0.5], [0.0, 1.0]])
    p = np.stack([a1, a2])[:, None]  # [2 layers, 1 head, 2, 2]
    # With the residual: Â1 = [[1, 0], [.25, .75]], Â2 = [[.75, .25], [0, 1]]
    # R2 = Â2 @ Â1 = [[.75 + .0625, .1875], [.25, .75]]
    out = rollout(p)
    np.testing.assert_allclose(out[0], [[1.0, 0.0], [0.25, 0.75]])
    np.testing.assert_allclose(out[1], [[0.8125, 0.1875], [0.25, 0.75]])
    # Without it: R2 = A2 @ A1 = [[.75, .25], [.5, .5]]
    out = rollout(p, add_residual=False)
    np.testing.assert_allclose(out[1], [[0.75, 0.25], [0.5, 0.5]])


def test_rollout_head_fusion():
    h0 = np.array([[1.0, 0.0], [1.0, 0.0]])
    h1 = np.array([[0.0, 1.0], [0.0, 1.0]])
    p = np.stack([h0, h1])[None]  # [1 layer, 2 heads, 2, 2]
    np.testing.assert_allclose(rollout(p, add_residual=False)[0], np.full((2, 2), 0.5))
    # max fusion gives all ones, renormalised to 0.5
    np.testing.assert_allclose(rollout(p, head_fusion="max", add_residual=False)[0], 0.5)
    # min fusion gives an empty row: it falls back to the token itself
    np.testing.assert_allclose(rollout(p, head_fusion="min", add_residual=False)[0], np.eye(2))


def test_rollout_rows_sum_to_one():
    out = rollout(random_patterns((6, 12, 9, 9)))
    assert out.dtype == np.float64
    np.testing.assert_allclose(out.sum(-1), 1.0, atol=1e-12)
    assert np.all(out >= 0)


def test_rollout_bad_input():
    with pytest.raises(ValueError):
        rollout(np.ones((2, 3, 4, 5)))  # q != k
    with pytest.raises(ValueError):
        rollout(np.ones((3, 4, 4)))  # no head axis
    with pytest.raises(ValueError):
        rollout(np.ones((1, 1, 2, 2)), head_fusion="median")


# ------------------------------------------------------------------ aggregate, bundle


def test_aggregate_heads_mean_and_max():
    p = np.stack([np.eye(3), np.full((3, 3), 1 / 3)])  # [2, 3, 3]
    np.testing.assert_allclose(aggregate_heads(p), (np.eye(3) + 1 / 3) / 2)
    np.testing.assert_allclose(aggregate_heads(p, "max"), np.maximum(np.eye(3), 1 / 3))
    assert aggregate_heads(np.ones((4, 2, 3, 3))).shape == (4, 3, 3)
    masked = np.array([[[1.0, np.nan], [0.5, 0.5]]] * 2)
    assert np.isnan(aggregate_heads(masked)[0, 1])
    with pytest.raises(ValueError):
        aggregate_heads(np.eye(3))
    with pytest.raises(ValueError):
        aggregate_heads(p, "sum")


def test_head_metrics_and_table():
    p = random_patterns((2, 3, 5, 5))
    m = head_metrics(p, ["a", "b", "c", "d", "e"])
    assert list(m) == ["entropy", "mean_distance", "attn_to_first", "attn_to_last", "sparsity"]
    assert set(m) == set(METRIC_INFO)
    for arr in m.values():
        assert arr.shape == (2, 3)
    np.testing.assert_allclose(m["attn_to_first"], p[..., 0].mean(-1))
    np.testing.assert_allclose(m["entropy"], head_entropy(p))
    with pytest.raises(ValueError):
        head_metrics(p, ["a", "b"])
    with pytest.raises(ValueError):
        head_metrics(p[0])

    rows = metrics_table(m)
    assert len(rows) == 6
    assert list(rows[4]) == ["layer", "head", *m]
    assert (rows[4]["layer"], rows[4]["head"]) == (1, 1)
    assert rows[4]["sparsity"] == pytest.approx(m["sparsity"][1, 1])
    with pytest.raises(ValueError):
        metrics_table({"a": np.ones((2, 3)), "b": np.ones((3, 2))})


def test_distinct_strongest_keys_counts_the_keys_the_heads_of_a_layer_pick():
    from lab.attention import distinct_strongest_keys

    same = np.zeros((2, 3, 4, 5))
    same[..., 1] = 1.0                                            # every head, every query: key 1
    assert distinct_strongest_keys(same) == 1.0
    spread = np.zeros((1, 3, 2, 5))
    for h in range(3):
        spread[0, h, 0, h] = 1.0                                  # query 0: keys 0, 1, 2
        spread[0, h, 1, 4 * (h == 2)] = 1.0                       # query 1: keys 0, 0, 4
    assert distinct_strongest_keys(spread) == pytest.approx((3 + 2) / 2)
    rng = np.random.default_rng(0)
    p = rng.random((2, 4, 6, 6))
    top = p.argmax(-1)
    by_loop = np.mean([len(set(top[a, :, q])) for a in range(2) for q in range(6)])
    assert distinct_strongest_keys(p) == pytest.approx(by_loop)
    with pytest.raises(ValueError):
        distinct_strongest_keys(np.ones((3, 4, 4)))

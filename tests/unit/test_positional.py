import math

import pytest
import torch

import models.positional


def test_sinusoidal_uses_radians():
    pe = models.positional.sinusoidal(16, 8)
    assert pe[10, 0].item() == pytest.approx(math.sin(10.0), abs=1e-6)
    assert pe[10, 0].item() == pytest.approx(-0.5440, abs=1e-4)      # sin(10 rad), not sin(10°)=0.1736
    assert pe[10, 1].item() == pytest.approx(math.cos(10.0), abs=1e-6)
    # dimension pair i=1 of d=8: angle = pos / 10000^(2/8)
    assert pe[3, 2].item() == pytest.approx(math.sin(3 / 10000 ** (2 / 8)), abs=1e-6)
    assert pe[3, 3].item() == pytest.approx(math.cos(3 / 10000 ** (2 / 8)), abs=1e-6)
    assert pe.dtype == torch.float32 and pe.shape == (16, 8)


def test_sinusoidal_position_zero_and_odd_width():
    pe = models.positional.sinusoidal(4, 6)
    assert torch.equal(pe[0, 0::2], torch.zeros(3)) and torch.equal(pe[0, 1::2], torch.ones(3))
    with pytest.raises(ValueError, match="even"):
        models.positional.sinusoidal(4, 5)


@pytest.mark.parametrize("shift", [0, 1, 3, 7])
def test_rope_dot_product_depends_only_on_distance(shift):
    torch.manual_seed(0)
    d = 16
    q, k = torch.randn(d), torch.randn(d)
    cos, sin = models.positional.rope_cos_sin(64, d)

    def rotated(x, m):  # x at position m, through the [b, pos, head, d] API
        return models.positional.apply_rope(x[None, None, None, :].expand(1, 64, 1, d), cos, sin)[0, m, 0]

    base = torch.dot(rotated(q, 5), rotated(k, 2))               # m - n = 3
    moved = torch.dot(rotated(q, 5 + shift), rotated(k, 2 + shift))
    assert moved.item() == pytest.approx(base.item(), abs=1e-4)
    other = torch.dot(rotated(q, 9), rotated(k, 2))              # m - n = 7 differs
    assert abs(other.item() - base.item()) > 1e-3


def test_rope_is_a_rotation_and_position_zero_is_identity():
    x = torch.randn(1, 8, 2, 16)
    cos, sin = models.positional.rope_cos_sin(8, 16)
    y = models.positional.apply_rope(x, cos, sin)
    assert torch.allclose(y.norm(dim=-1), x.norm(dim=-1), atol=1e-5)
    assert torch.allclose(y[:, 0], x[:, 0])
    ang = models.positional.rope_angles(8, 16)
    assert ang[1, 0].item() == pytest.approx(1.0) and ang[1, 1].item() == pytest.approx(10000 ** (-2 / 16))


def test_partial_rope_leaves_the_rest():
    x = torch.randn(1, 5, 1, 16)
    cos, sin = models.positional.rope_cos_sin(5, 8)
    y = models.positional.apply_rope(x, cos, sin)
    assert torch.equal(y[..., 8:], x[..., 8:]) and not torch.allclose(y[:, 1:, :, :8], x[:, 1:, :, :8])


def test_alibi_slopes():
    assert models.positional.alibi_slopes(8).tolist() == [1 / 2 ** i for i in range(1, 9)]
    s12 = models.positional.alibi_slopes(12)           # 8 from 2^(-8/8k) plus every other of the 16-head series
    assert s12[:8].tolist() == models.positional.alibi_slopes(8).tolist()
    assert s12[8:].tolist() == pytest.approx(models.positional.alibi_slopes(16)[0::2][:4].tolist())


def test_alibi_bias_is_linear_in_distance():
    b = models.positional.alibi_bias(torch.tensor([0.5, 0.25]), 4)
    assert b.shape == (2, 4, 4)
    assert b[0, 3, 0].item() == -1.5 and b[1, 3, 1].item() == -0.5 and b[0, 2, 2].item() == 0


def test_t5_buckets_hand_values():
    rel = torch.tensor([0, -1, -7, -8, -20, -200, 1, 5, 200])
    # bidirectional, 32 buckets: 16 per direction, 8 exact, log-spaced up to 128
    got = models.positional.relative_bucket(rel, bidirectional=True, num_buckets=32, max_distance=128).tolist()
    assert got == [0, 1, 7, 8, 10, 15, 17, 21, 31]
    causal = models.positional.relative_bucket(torch.tensor([0, -3, -16, -40, 3]), bidirectional=False).tolist()
    assert causal == [0, 3, 16, 23, 0]     # 16 + log(40/16)/log(128/16)*16 = 23.05; future keys: bucket 0


def test_relative_bias_lookup():
    table = torch.arange(32 * 2, dtype=torch.float32).reshape(32, 2)
    bias = models.positional.relative_bias(table, 3)
    assert bias.shape == (2, 3, 3)
    assert bias[1, 0, 2].item() == table[models.positional.relative_bucket(torch.tensor(2)).item(), 1].item()


# ---- the lab's analysis helpers ------------------------------------------------------------
@pytest.mark.parametrize("k", [0, 1, 5, 37, 300])
@pytest.mark.parametrize("d", [2, 16, 64])
def test_sinusoidal_shift_matrix_maps_pe_pos_to_pe_pos_plus_k(k, d):
    pe = models.positional.sinusoidal(400, d)
    m = models.positional.sinusoidal_shift_matrix(k, d)
    moved = pe[: 400 - k] @ m.T                       # M_k · PE(pos) for every pos at once
    assert (moved - pe[k:]).abs().max().item() < 1e-5
    # a rotation: orthogonal, and independent of pos by construction (one matrix for all rows)
    assert torch.allclose(m @ m.T, torch.eye(d), atol=1e-6)


def test_sinusoidal_shift_matrix_blocks_and_odd_width():
    m = models.positional.sinusoidal_shift_matrix(3, 4)
    assert m[0, 0].item() == pytest.approx(math.cos(3.0)) and m[0, 1].item() == pytest.approx(math.sin(3.0))
    assert m[1, 0].item() == pytest.approx(-math.sin(3.0)) and m[0, 2].item() == 0
    w1 = 10000 ** (-2 / 4)
    assert m[2, 3].item() == pytest.approx(math.sin(3 * w1), abs=1e-7)
    with pytest.raises(ValueError, match="even"):
        models.positional.sinusoidal_shift_matrix(1, 7)
    with pytest.raises(ValueError, match="even"):
        models.positional.sinusoidal_wavelengths(7)


def test_wavelengths():
    w = models.positional.sinusoidal_wavelengths(8)
    assert w.shape == (8,) and w[0].item() == pytest.approx(2 * math.pi) and w[1].item() == w[0].item()
    assert w[6].item() == pytest.approx(2 * math.pi * 10000 ** (6 / 8), rel=1e-6)


def test_position_similarity_and_by_distance():
    pe = models.positional.sinusoidal(32, 16)
    dot = models.positional.position_similarity(pe, "dot")
    cos = models.positional.position_similarity(pe, "cosine")
    assert torch.allclose(torch.diagonal(dot), torch.full((32,), 8.0), atol=1e-5)   # |PE|² = d/2
    assert torch.allclose(torch.diagonal(cos), torch.ones(32), atol=1e-6)
    # sinusoidal similarity depends on m - n only: every diagonal is constant
    for o in (1, 5, 20):
        diag = torch.diagonal(dot, offset=o)
        assert (diag - diag[0]).abs().max().item() < 1e-4
    dist, mean = models.positional.by_distance(dot)
    assert dist.tolist() == list(range(32)) and mean[0].item() == pytest.approx(8.0, abs=1e-5)
    assert mean[3].item() == pytest.approx(dot[10, 7].item(), abs=1e-4)
    x = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
    d2, m2 = models.positional.by_distance(x, signed=True)
    assert d2.tolist() == [-1, 0, 1] and m2.tolist() == [1.0, 1.5, 2.0]       # m - n = -1 is (q=0, k=1)
    with pytest.raises(ValueError, match="square"):
        models.positional.by_distance(torch.zeros(2, 3))
    with pytest.raises(ValueError, match="cosine"):
        models.positional.position_similarity(pe, "euclid")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rope_scores_depend_only_on_the_offset(seed):
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(32, generator=g), torch.randn(32, generator=g)
    offsets = list(range(-20, 21))
    s = models.positional.rope_scores(q, k, [0, 7, 100, 1000], offsets)
    assert (s - s[:1]).abs().max().item() < 1e-4            # relative invariance: one curve for every m
    assert s[0, offsets.index(0)].item() == pytest.approx(torch.dot(q, k).item(), abs=1e-4)   # m = n: no turn
    # and it agrees with the model's own path (apply_rope through rope_cos_sin)
    cos, sin = models.positional.rope_cos_sin(torch.tensor([12, 5]), 32)
    both = torch.stack((q, k))[None, :, None, :]
    rq, rk = models.positional.apply_rope(both, cos, sin)[0, :, 0]
    assert s[0, offsets.index(7)].item() == pytest.approx(torch.dot(rq, rk).item(), abs=1e-4)
    assert s[0].std().item() > 1e-2                            # it is not a constant


def test_rope_rotate_pairs_and_unit_table():
    x = torch.tensor([1.0, 0.0, 0.0, 1.0])                      # pairs (x0, x2) = (1, 0), (x1, x3) = (0, 1)
    r = models.positional.rope_rotate_pairs(x, [0, 1, 2])
    assert r.shape == (3, 2, 2)
    assert r[1, 0].tolist() == pytest.approx([math.cos(1.0), math.sin(1.0)], abs=1e-6)   # θ_0 = 1
    th1 = 10000 ** (-2 / 4)
    assert r[2, 1].tolist() == pytest.approx([-math.sin(2 * th1), math.cos(2 * th1)], abs=1e-6)
    assert torch.allclose(r.norm(dim=-1), torch.ones(3, 2), atol=1e-6)
    u = models.positional.rope_unit_table(5, 8)
    sim = models.positional.position_similarity(u, "dot")
    assert sim[3, 1].item() == pytest.approx(sim[4, 2].item(), abs=1e-5)       # m - n = 2 both
    assert sim[0, 0].item() == pytest.approx(4.0, abs=1e-6)                    # d/2 unit pairs
    with pytest.raises(ValueError, match="even"):
        models.positional.rope_unit_table(4, 5)


def test_relative_bucket_map_matches_the_model_bias():
    b = models.positional.relative_bucket_map(6, bidirectional=False, num_buckets=8, max_distance=16)
    assert b.shape == (6, 6) and b[5, 0].item() == models.positional.relative_bucket(torch.tensor(-5), False, 8, 16).item()
    assert (b.triu(1) == 0).all()                                                # future keys: bucket 0
    table = torch.randn(8, 3)
    assert torch.equal(models.positional.relative_bias(table, 6, bidirectional=False, max_distance=16),
                       table[b].permute(2, 0, 1))

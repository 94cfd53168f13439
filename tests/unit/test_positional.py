import math

import pytest
import torch

from models import positional as P


def test_sinusoidal_uses_radians():
    pe = P.sinusoidal(16, 8)
    assert pe[10, 0].item() == pytest.approx(math.sin(10.0), abs=1e-6)
    assert pe[10, 0].item() == pytest.approx(-0.5440, abs=1e-4)      # sin(10 rad), not sin(10°)=0.1736
    assert pe[10, 1].item() == pytest.approx(math.cos(10.0), abs=1e-6)
    # dimension pair i=1 of d=8: angle = pos / 10000^(2/8)
    assert pe[3, 2].item() == pytest.approx(math.sin(3 / 10000 ** (2 / 8)), abs=1e-6)
    assert pe[3, 3].item() == pytest.approx(math.cos(3 / 10000 ** (2 / 8)), abs=1e-6)
    assert pe.dtype == torch.float32 and pe.shape == (16, 8)


def test_sinusoidal_position_zero_and_odd_width():
    pe = P.sinusoidal(4, 6)
    assert torch.equal(pe[0, 0::2], torch.zeros(3)) and torch.equal(pe[0, 1::2], torch.ones(3))
    with pytest.raises(ValueError, match="even"):
        P.sinusoidal(4, 5)


@pytest.mark.parametrize("shift", [0, 1, 3, 7])
def test_rope_dot_product_depends_only_on_distance(shift):
    torch.manual_seed(0)
    d = 16
    q, k = torch.randn(d), torch.randn(d)
    cos, sin = P.rope_cos_sin(64, d)

    def rotated(x, m):  # x at position m, through the [b, pos, head, d] API
        return P.apply_rope(x[None, None, None, :].expand(1, 64, 1, d), cos, sin)[0, m, 0]

    base = torch.dot(rotated(q, 5), rotated(k, 2))               # m - n = 3
    moved = torch.dot(rotated(q, 5 + shift), rotated(k, 2 + shift))
    assert moved.item() == pytest.approx(base.item(), abs=1e-4)
    other = torch.dot(rotated(q, 9), rotated(k, 2))              # m - n = 7 differs
    assert abs(other.item() - base.item()) > 1e-3


def test_rope_is_a_rotation_and_position_zero_is_identity():
    x = torch.randn(1, 8, 2, 16)
    cos, sin = P.rope_cos_sin(8, 16)
    y = P.apply_rope(x, cos, sin)
    assert torch.allclose(y.norm(dim=-1), x.norm(dim=-1), atol=1e-5)
    assert torch.allclose(y[:, 0], x[:, 0])
    ang = P.rope_angles(8, 16)
    assert ang[1, 0].item() == pytest.approx(1.0) and ang[1, 1].item() == pytest.approx(10000 ** (-2 / 16))


def test_partial_rope_leaves_the_rest():
    x = torch.randn(1, 5, 1, 16)
    cos, sin = P.rope_cos_sin(5, 8)
    y = P.apply_rope(x, cos, sin)
    assert torch.equal(y[..., 8:], x[..., 8:]) and not torch.allclose(y[:, 1:, :, :8], x[:, 1:, :, :8])


def test_alibi_slopes():
    assert P.alibi_slopes(8).tolist() == [1 / 2 ** i for i in range(1, 9)]
    s12 = P.alibi_slopes(12)           # 8 from 2^(-8/8k) plus every other of the 16-head series
    assert s12[:8].tolist() == P.alibi_slopes(8).tolist()
    assert s12[8:].tolist() == pytest.approx(P.alibi_slopes(16)[0::2][:4].tolist())


def test_alibi_bias_is_linear_in_distance():
    b = P.alibi_bias(torch.tensor([0.5, 0.25]), 4)
    assert b.shape == (2, 4, 4)
    assert b[0, 3, 0].item() == -1.5 and b[1, 3, 1].item() == -0.5 and b[0, 2, 2].item() == 0


def test_t5_buckets_hand_values():
    rel = torch.tensor([0, -1, -7, -8, -20, -200, 1, 5, 200])
    # bidirectional, 32 buckets: 16 per direction, 8 exact, log-spaced up to 128
    got = P.relative_bucket(rel, bidirectional=True, num_buckets=32, max_distance=128).tolist()
    assert got == [0, 1, 7, 8, 10, 15, 17, 21, 31]
    causal = P.relative_bucket(torch.tensor([0, -3, -16, -40, 3]), bidirectional=False).tolist()
    assert causal == [0, 3, 16, 23, 0]     # 16 + log(40/16)/log(128/16)*16 = 23.05; future keys: bucket 0


def test_relative_bias_lookup():
    table = torch.arange(32 * 2, dtype=torch.float32).reshape(32, 2)
    bias = P.relative_bias(table, 3)
    assert bias.shape == (2, 3, 3)
    assert bias[1, 0, 2].item() == table[P.relative_bucket(torch.tensor(2)).item(), 1].item()

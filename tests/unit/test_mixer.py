"""MLP-Mixer beside attention: the token-mixing matrix ignores the input, attention permutes with it."""
import numpy as np
import pytest

from lab import mixer
from lab.positional import shuffle


@pytest.fixture
def qkv():
    rng = np.random.default_rng(1)
    return tuple(rng.standard_normal((9, 6)) for _ in range(3))


def test_attention_is_permutation_equivariant(qkv):
    q, k, _ = qkv
    a = mixer.attention_weights(q, k)
    assert np.allclose(a.sum(1), 1)
    p = np.asarray(shuffle(9, 4))
    P = np.eye(9)[p]                                    # (P x)_i = x_{p_i}
    assert np.allclose(mixer.attention_weights(P @ q, P @ k), P @ a @ P.T, atol=1e-12)
    assert not np.allclose(mixer.attention_weights(P @ q, P @ k), a)


@pytest.mark.parametrize("mixing", mixer.MIXINGS)
def test_token_mixing_does_not_depend_on_the_input(qkv, mixing):
    q, k, v = qkv
    plain = mixer.compare(q, k, v, mixing, shuffled=False, seed=3)
    moved = mixer.compare(q, k, v, mixing, shuffled=True, seed=3)
    assert np.array_equal(plain.token_mixing, moved.token_mixing)
    assert moved.perm == shuffle(9, 3) and plain.perm == list(range(9))
    assert moved.attn_moved < 1e-12 and moved.attn_out_moved < 1e-12 and moved.channel_moved < 1e-12
    assert moved.attn_changed > 1e-3 and moved.mixer_out_moved > 1e-3
    # the Mixer's output on the shuffled input is its fixed matrix applied to moved content
    p = np.asarray(moved.perm)
    mlp = mixer.channel_mlp(6, 3)
    assert np.allclose(moved.mixer_out, mlp(plain.token_mixing @ v[p]))


def test_the_fit_is_the_least_squares_matrix(qkv):
    q, k, _ = qkv
    a = mixer.attention_weights(q, k)
    assert np.allclose(mixer.fit_token_mixing([a]), a)
    b = mixer.attention_weights(k, q)
    m = mixer.fit_token_mixing([a, b])
    # gradient of sum ||M - A_s||^2 vanishes at the mean
    assert np.allclose((m - a) + (m - b), 0)


def test_channel_mlp_works_within_each_token():
    mlp = mixer.channel_mlp(4, 0)
    x = np.random.default_rng(2).standard_normal((5, 4))
    assert np.allclose(mlp(x)[2], mlp(x[2:3])[0])

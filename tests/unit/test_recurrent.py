"""The recurrent family (lab/recurrent.py, lab/variants.py): each recurrence equals the
explicit sum it unrolls to, and bad settings raise a ValueError with a sentence."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import recurrent, variants


def qkv(n: int = 23, d: int = 6, seed: int = 0, scale: float = 1.0):
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((n, d)) * scale for _ in range(3))


@pytest.mark.parametrize("chunk", [1, 2, 5, 7, 23, 40])
@pytest.mark.parametrize("gamma", [0.5, 0.9, 1.0])
def test_retention_three_forms_agree(chunk, gamma):
    q, k, v = qkv()
    r = recurrent.retention_forms(q, k, v, gamma, chunk)
    assert r.err_recurrent <= 1e-5 and r.err_chunkwise <= 1e-5
    # and the parallel form is the closed form (q kᵀ ⊙ D) v, written out here by loops
    n = q.shape[0]
    want = np.array([sum(gamma ** (i - j) * (q[i] @ k[j]) * v[j] for j in range(i + 1)) for i in range(n)])
    np.testing.assert_allclose(r.parallel, want, atol=1e-10)
    assert r.n_chunks == -(-n // chunk)
    assert r.final_state.shape == (6, 6) and r.state_norms.shape == (n,)


def test_chunkwise_in_variants_matches_parallel_torch():
    q, k, v = (torch.from_numpy(x) for x in qkv(n=31, d=4, seed=3))
    par, _ = variants.retention(q, k, v, 0.8)
    for chunk in (3, 8, 31, 64):
        assert (variants.retention_chunkwise(q, k, v, 0.8, chunk) - par).abs().max() <= 1e-10


def test_gated_retention_recurrent_equals_parallel_and_constant_gate_is_retention():
    q, k, v = qkv(seed=1)
    g = recurrent.gated_retention(q, k, v, bias=1.5, seed=4)
    assert g.err <= 1e-10
    assert ((g.gammas > 0) & (g.gammas < 1)).all()
    want = 1 / (1 + np.exp(-(k @ recurrent.gate_weights(6, 4) + 1.5)))
    np.testing.assert_allclose(g.gammas, want)
    # a constant gate gives D_ij = γ^(i−j), retention's own decay matrix
    np.testing.assert_allclose(recurrent.decay_from_gates(np.full(9, 0.7)), variants.decay_matrix(9, 0.7).numpy(),
                               atol=1e-12)


def test_rwkv_recurrence_equals_unrolled_sum_even_with_large_keys():
    _, k, v = qkv(seed=2)
    for scale in (1.0, 300.0):          # e^300 overflows nothing in the stable forms
        r = recurrent.rwkv(k * scale, v, bonus=0.7, channel=2)
        assert np.isfinite(r.recurrent).all() and r.err <= 1e-8
    # the unrolled sum written out directly, small keys
    r = recurrent.rwkv(k, v, bonus=0.7, channel=2)
    w, u, n = r.w, r.u, k.shape[0]
    for t in range(n):
        num = sum(np.exp(-(t - 1 - i) * w + k[i]) * v[i] for i in range(t)) + np.exp(u + k[t]) * v[t]
        den = sum(np.exp(-(t - 1 - i) * w + k[i]) for i in range(t)) + np.exp(u + k[t])
        np.testing.assert_allclose(r.recurrent[t], num / den, atol=1e-10)
    # the channel's matrix is a causal row-stochastic matrix that reproduces the channel
    assert np.allclose(r.matrix.sum(1), 1) and np.allclose(np.triu(r.matrix, 1), 0)
    np.testing.assert_allclose(r.matrix @ v[:, 2], r.recurrent[:, 2], atol=1e-10)


def test_ssm_scan_equals_explicit_sum_on_every_channel():
    q, k, v = qkv(n=17, d=5, seed=5)
    s = recurrent.ssm(q, k, v, n_state=4, channel=3, seed=1, check_all=True)
    assert s.checked == (0, 1, 2, 3, 4) and s.err <= 1e-10
    delta, a, b, c = recurrent.ssm_inputs(q, k, v, 4, 1)
    assert (a < 0).all() and (delta > 0).all()
    # the unrolled sum written out: y_t = Σ_s C_t · (Π_(r=s+1..t) exp(Δ_r A)) (Δ_s B_s) x_s
    n, ch = 17, 3
    for t in range(n):
        y = 0.0
        for s_ in range(t + 1):
            decay = np.prod([np.exp(delta[r, ch] * a[ch]) for r in range(s_ + 1, t + 1)], axis=0) if t > s_ else 1.0
            y += c[t] @ (decay * delta[s_, ch] * b[s_]) * v[s_, ch]
        assert abs(y - s.scan[t, ch]) <= 1e-10
    np.testing.assert_allclose(s.matrix @ v[:, ch], s.scan[:, ch], atol=1e-10)
    assert s.final_state.shape == (5, 4)


def test_ssm_page_budget_checks_a_subset_including_the_chosen_channel():
    q, k, v = qkv(n=200, d=64, seed=6)
    s = recurrent.ssm(q, k, v, n_state=32, channel=37, seed=0)
    assert 37 in s.checked and len(s.checked) < 64 and s.err <= 1e-8


def test_state_sizes_are_constant_in_length_and_the_cache_grows():
    assert recurrent.state_numbers("retention", 10, 8, 8) == recurrent.state_numbers("retention", 1000, 8, 8) == 64
    assert recurrent.state_numbers("rwkv", 5, 8, 8) == 24 and recurrent.state_numbers("ssm", 5, 8, 8, 16) == 128
    assert recurrent.state_numbers("kv", 100, 8, 8) == 1600


@pytest.mark.parametrize("call, words", [
    (lambda q, k, v: recurrent.retention_forms(q, k, v, 0.9, 0), "chunk size"),
    (lambda q, k, v: recurrent.retention_forms(q, k, v, 0.0, 4), "decay"),
    (lambda q, k, v: recurrent.retention_forms(q, k[:3], v, 0.9, 4), "same n"),
    (lambda q, k, v: recurrent.retention_forms(q * np.nan, k, v, 0.9, 4), "finite"),
    (lambda q, k, v: recurrent.gated_retention(q, k, v, float("inf")), "bias"),
    (lambda q, k, v: recurrent.rwkv(k, v, 0.5, 99), "channel"),
    (lambda q, k, v: recurrent.rwkv(k, v[:, :3], 0.5, 0), "same width"),
    (lambda q, k, v: recurrent.ssm(q, k, v, 0, 0), "state size"),
    (lambda q, k, v: recurrent.ssm(q, k, v, 4, -1), "channel"),
    (lambda q, k, v: variants.retention_chunkwise(*(torch.from_numpy(x) for x in (q, k, v)), 0.9, 0), "chunk size"),
])
def test_bad_settings_raise_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call(*qkv())

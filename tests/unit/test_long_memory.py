"""Long memory (lab/long_memory.py): Transformer-XL's segments with a cache, Infini-attention's
compressive memory, LongNet's mixed dilated patterns — each against a closed form or the
explicit computation; bad settings raise a ValueError with a sentence."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import lab.long_memory
from lab import variants


def qkv(n: int = 21, d: int = 6, seed: int = 0):
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((n, d)) for _ in range(3))


# --------------------------------------------------------------------------- Transformer-XL


@pytest.mark.parametrize("segment", [21, 22, 1000])
def test_xl_with_one_segment_is_plain_causal_attention_with_the_same_relative_bias(segment):
    q, k, v = qkv()
    r = lab.long_memory.transformer_xl(q, k, v, segment, layers=3)
    assert r.n_segments == 1
    # plain attention written out: softmax over j <= i of (q·k + relative bias) / √d
    p = lab.long_memory.xl_params(6)
    rel = lab.long_memory.relative_keys(21, 6, p)
    want = np.zeros_like(v)
    for i in range(21):
        s = np.array([q[i] @ k[j] + q[i] @ rel[i - j] + p.u @ k[j] + p.v @ rel[i - j] for j in range(i + 1)])
        e = np.exp((s - s.max()) / math.sqrt(6))
        want[i] = (e / e.sum()) @ v[: i + 1]
    np.testing.assert_allclose(r.out, want, atol=1e-10)
    np.testing.assert_allclose(r.plain, want, atol=1e-10)


def test_xl_segments_read_their_own_and_the_previous_segment_only():
    q, k, v = qkv()
    r = lab.long_memory.transformer_xl(q, k, v, 4, layers=3)
    mask = lab.long_memory.xl_mask(21, 4)
    assert (r.weights[~mask] == 0).all() and np.allclose(r.weights.sum(1), 1)
    assert mask[9, 4] and not mask[9, 3] and not mask[9, 10]      # segment 2 reads segment 1 and itself so far
    want = lab.long_memory.softmax_rows(r.terms.sum(0) / math.sqrt(6), mask) @ v
    np.testing.assert_allclose(r.out, want, atol=1e-10)
    assert np.abs(r.out - r.plain).max() > 1e-3                   # and that is not plain attention


def test_xl_cache_carries_no_gradient():
    q, k, v = (torch.from_numpy(x).requires_grad_() for x in qkv(n=8, d=4))
    terms = lab.long_memory.xl_terms(q.detach().numpy(), k.detach().numpy(), lab.long_memory.xl_params(4))
    scores = q @ k.T / 2 + torch.from_numpy(terms[1:].sum(0) / 2)
    out, _ = lab.long_memory.xl_segments(q, k, v, scores, 4)
    out[4:].sum().backward()                 # the second segment's outputs, which read the cached first segment
    assert (v.grad[:4] == 0).all() and (v.grad[4:] != 0).any()


def test_xl_reach_widens_by_one_segment_per_layer():
    with_cache, alone = lab.long_memory.xl_reach(40, 5, 10)
    # the last position (segment 7) reads positions 30..39 in one layer, then 5 more per layer, up to all 40
    assert with_cache.tolist() == [10, 15, 20, 25, 30, 35, 40, 40, 40, 40]
    assert alone.tolist() == [5] * 10
    for n, seg, layers in [(40, 5, 10), (23, 4, 7), (9, 9, 3), (17, 1, 20), (30, 7, 5)]:
        assert (lab.long_memory.xl_reach(n, seg, layers)[0].tolist()
                == lab.long_memory.xl_reach_composed(n, seg, layers).tolist())


def test_xl_four_terms_are_the_papers_decomposition():
    q, k, _ = qkv(n=9, d=4, seed=2)
    p = lab.long_memory.xl_params(4, seed=3)
    a, b, c, d = lab.long_memory.xl_terms(q, k, p)
    rel = lab.long_memory.relative_keys(9, 4, p)
    i, j = 7, 2
    assert np.isclose(a[i, j], q[i] @ k[j]) and np.isclose(b[i, j], q[i] @ rel[5])
    assert np.isclose(c[i, j], p.u @ k[j]) and np.isclose(d[i, j], p.v @ rel[5])
    assert (a[np.triu_indices(9, 1)] == 0).all()


# --------------------------------------------------------------------------- Infini-attention


@pytest.mark.parametrize("segment", [1, 3, 4, 21, 50])
def test_infini_memory_is_the_explicit_sum_over_segments(segment):
    q, k, v = qkv()
    r = lab.long_memory.infini_attention(q, k, v, segment, beta=0.4)
    fk = np.where(k > 0, k + 1, np.exp(k))              # ELU + 1 written out
    starts = range(0, 21, segment)
    np.testing.assert_allclose(r.memory, sum(fk[s:s + segment].T @ v[s:s + segment] for s in starts), atol=1e-12)
    np.testing.assert_allclose(r.norm, fk.sum(0), atol=1e-12)
    for m, s in zip(r.memories, starts):                 # after each segment: the sum so far
        np.testing.assert_allclose(m, fk[: s + segment].T @ v[: s + segment], atol=1e-12)
    assert r.memory_err <= 1e-10
    assert r.memory.shape == (6, 6)                      # constant in length


def test_infini_retrieval_is_linear_attention_over_earlier_segments_and_the_gate_mixes():
    q, k, v = qkv(seed=4)
    r = lab.long_memory.infini_attention(q, k, v, 5, beta=1.2)
    for i in (5, 12, 20):
        start = i - i % 5
        lin, _ = variants.linear_attention(*(torch.from_numpy(x) for x in (q[i:i + 1], k[:start], v[:start])))
        np.testing.assert_allclose(r.retrieved[i], lin.numpy()[0], atol=1e-10)
    assert (r.retrieved[:5] == 0).all()
    g = 1 / (1 + math.exp(-1.2))
    np.testing.assert_allclose(r.out, g * r.retrieved + (1 - g) * r.local, atol=1e-12)
    np.testing.assert_allclose(r.weights @ v, r.out, atol=1e-10)
    mem, kv = lab.long_memory.infini_bytes(np.array([16, 1024]), 6, 6)
    assert mem.tolist() == [168, 168] and kv.tolist() == [16 * 12 * 4, 1024 * 12 * 4]


# --------------------------------------------------------------------------- LongNet


def test_parse_pairs_and_its_sentences():
    assert lab.long_memory.parse_pairs(" 4:1, 8:2;16:4 ") == [(4, 1), (8, 2), (16, 4)]
    for bad, words in [("4:0", "dilation must be at least 1"), ("0:2", "segment length"), ("", "at least one"),
                       ("4-1", "not a pair"), ("x", "not a pair"), (",".join(["2:1"] * 9), "At most 8")]:
        with pytest.raises(ValueError, match=words):
            lab.long_memory.parse_pairs(bad)


@pytest.mark.parametrize("causal", [True, False])
def test_dilated_mix_equals_the_papers_weighted_patterns_and_counts(causal):
    q, k, v = qkv(n=37, seed=5)
    pairs = [(4, 1), (8, 2), (16, 4), (64, 8)]
    d = lab.long_memory.dilated_attention(q, k, v, pairs, causal)
    np.testing.assert_allclose(d.out, lab.long_memory.dilated_mix_by_parts(q, k, v, pairs, causal), atol=1e-12)
    assert d.too_long == [(64, 8)] and d.uncovered == []
    np.testing.assert_allclose(d.weights.sum(1), 1)
    for w, r in pairs:
        assert (lab.long_memory.pattern_pairs(37, w, r, causal)
                == int(lab.long_memory.dilated_pattern(37, w, r, causal).sum()))
    # (w, 1) alone is block-local attention
    one = lab.long_memory.dilated_pattern(12, 4, 1, causal=False)
    assert one[5, 4] and one[5, 7] and not one[5, 3] and not one[5, 8]
    # (8, 2): positions 0, 2, 4, 6 of each segment of 8 read each other
    two = lab.long_memory.dilated_pattern(16, 8, 2, causal=False)
    assert two[10, 8] and two[10, 14] and not two[10, 9] and not two[10, 6] and not two[9].any()


def test_dilated_uncovered_queries_are_listed_and_keys_per_query_grow_slowly():
    q, k, v = qkv(n=16)
    d = lab.long_memory.dilated_attention(q, k, v, [(8, 2)], causal=True)
    assert d.uncovered == [1, 3, 5, 7, 9, 11, 13, 15] and (d.out[1] == 0).all()
    mix, dense = lab.long_memory.keys_per_query(np.array([1024, 4096]), [(4, 1), (16, 4)], causal=True)
    assert np.allclose(mix, (4 * 5 / 2 / 4) + (4 * 5 / 2 / 16)) and dense.tolist() == [512.5, 2048.5]


@pytest.mark.parametrize("call, words", [
    (lambda q, k, v: lab.long_memory.transformer_xl(q, k, v, 0, 2), "segment length"),
    (lambda q, k, v: lab.long_memory.transformer_xl(q, k, v, 4, 0), "layers"),
    (lambda q, k, v: lab.long_memory.infini_attention(q, k, v, 0, 0.0), "segment length"),
    (lambda q, k, v: lab.long_memory.infini_attention(q, k, v, 4, float("nan")), "gate"),
    (lambda q, k, v: lab.long_memory.dilated_attention(q, k[:3], v, [(4, 1)], True), "same n"),
])
def test_bad_settings_raise_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call(*qkv())


def test_long_figures_escape_labels_and_refuse_bad_shapes():
    import viz_core.long_memory
    evil = ["<b>x</b>", "a&b", "c"]
    fig = viz_core.long_memory.long_terms_chart({"(a) <i>": np.arange(3.0)}, evil, total=np.arange(3.0))
    text = fig.to_json()
    assert "<b>x</b>" not in text and "<i>" not in text
    pats = np.stack([lab.long_memory.dilated_pattern(3, 2, 1, True), lab.long_memory.dilated_pattern(3, 3, 2, True)])
    fig = viz_core.long_memory.long_pattern_chart(pats, ["2:1", "3:2"], evil)
    assert "<b>" not in fig.to_json()
    held = np.asarray(fig.data[0].customdata)
    assert held[2, 2] == "2:1, 3:2" and held[1, 0] == "2:1" and held[0, 1] == "not read"
    assert np.asarray(fig.data[0].z).tolist() == [[1, 0, 0], [1, 1, 0], [2, 0, 1]]
    with pytest.raises(ValueError, match="patterns"):
        viz_core.long_memory.long_pattern_chart(pats[0], ["2:1"], evil)
    with pytest.raises(ValueError, match="layers"):
        viz_core.long_memory.long_reach_chart(np.arange(3), np.arange(4), 5)
    with pytest.raises(ValueError, match="points"):
        viz_core.long_memory.long_lines_chart([1, 2], {"x": [1, 2, 3]}, x_title="n", y_title="y")

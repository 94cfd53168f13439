"""lab/qk_geometry.py (one head's queries and keys in a joint PCA) and its figure
viz_core/qk_geometry.py."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import lab.qk_geometry
from models import Transformer, TransformerConfig
from models.trace import act_name, as_numpy
import viz_core.qk_geometry

IDS = [1, 5, 3, 7, 2, 5, 3, 9, 4, 6, 5, 3]


def model(positional: str = "rope", n_kv_heads: int | None = None, arch: str = "decoder", seed: int = 0):
    torch.manual_seed(seed)
    cfg = TransformerConfig(arch=arch, vocab_size=16, d_model=32, n_layers=2, n_heads=4, n_kv_heads=n_kv_heads,
                            d_ff=64, max_len=64, positional=positional)
    return Transformer(cfg).eval()


def reference_pca(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Textbook PCA by the covariance matrix's eigenvectors (numpy), signs as the lab's."""
    xc = x - x.mean(0)
    vals, vecs = np.linalg.eigh(xc.T @ xc)
    order = np.argsort(vals)[::-1][:2]
    comps = vecs[:, order].T
    for i in range(2):
        if comps[i][np.argmax(np.abs(comps[i]))] < 0:
            comps[i] = -comps[i]
    return xc @ comps.T, vals[order] / vals.sum()


@pytest.mark.parametrize("normalised", [True, False])
def test_joint_pca_equals_a_reference_pca_of_the_stacked_vectors(normalised):
    m = model()
    g = lab.qk_geometry.qk_geometry(m, IDS, 1, 2, normalised=normalised)
    hv = lab.qk_geometry.head_vectors(m, IDS, 1, 2)
    q, k = (lab.qk_geometry.normalise(hv.q, hv.k)[:2]) if normalised else (hv.q, hv.k)
    coords, ratios = reference_pca(np.concatenate([q, k]))
    np.testing.assert_allclose(g.coords, coords, atol=1e-8)
    np.testing.assert_allclose(g.explained, ratios, atol=1e-10)
    assert np.all((g.explained >= 0) & (g.explained <= 1)) and g.explained_pair <= 1 + 1e-12
    assert g.explained[0] >= g.explained[1] and g.explained_pair == pytest.approx(g.explained.sum())
    n = len(IDS)
    assert list(g.kind) == ["q"] * n + ["k"] * n and list(g.position) == list(range(n)) * 2
    assert list(g.token_id) == IDS * 2 and not g.text.any()


def test_same_input_same_output_bitwise():
    m = model()
    a = lab.qk_geometry.qk_geometry(m, IDS, 0, 1, probes=[IDS[::-1]])
    b = lab.qk_geometry.qk_geometry(m, IDS, 0, 1, probes=[IDS[::-1]])
    for f in ("coords", "explained", "pairs", "weights", "components", "shift"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert a.coords.tobytes() == b.coords.tobytes() and a.scale == b.scale


@pytest.mark.parametrize("positional", ["rope", "sinusoidal", "none", "alibi"])
def test_normalisation_leaves_the_pattern_unchanged(positional):
    m = model(positional)
    for layer in range(2):
        hv = lab.qk_geometry.head_vectors(m, IDS, layer, 3)
        bias = hv.scores - hv.scale * (hv.q @ hv.k.T)              # ALiBi's bias (zero elsewhere)
        q, k, c, t = lab.qk_geometry.normalise(hv.q, hv.k)
        # both AttentionViz conditions hold: same centroid, same mean norm
        np.testing.assert_allclose(q.mean(0), k.mean(0), atol=1e-10)
        assert np.linalg.norm(q, axis=1).mean() == pytest.approx(np.linalg.norm(k, axis=1).mean(), rel=1e-9)
        assert c > 0 and t.shape == (q.shape[1],)
        before = lab.qk_geometry.attention_from(hv.q, hv.k, hv.mask, hv.scale, bias)
        after = lab.qk_geometry.attention_from(q, k, hv.mask, hv.scale, bias)
        np.testing.assert_allclose(before, hv.pattern, atol=1e-6)    # the recomputation is the model's
        np.testing.assert_allclose(after, before, atol=1e-12)
        assert np.all(after[~hv.mask] == 0)


def test_translation_and_scaling_each_keep_softmax():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(6, 4)), rng.normal(size=(6, 4))
    mask = np.tril(np.ones((6, 6), bool))
    base = lab.qk_geometry.attention_from(q, k, mask, 0.5)
    np.testing.assert_allclose(lab.qk_geometry.attention_from(q, k + rng.normal(size=4), mask, 0.5), base, atol=1e-12)
    np.testing.assert_allclose(lab.qk_geometry.attention_from(q * 3.0, k / 3.0, mask, 0.5), base, atol=1e-12)


def test_rope_model_uses_the_rotated_vectors():
    m = model("rope")
    _, trace = m.run_with_cache(IDS, names=[act_name(x, 1) for x in ("q", "rot_q", "k", "rot_k")])
    hv = lab.qk_geometry.head_vectors(m, IDS, 1, 2)
    assert hv.rotated
    np.testing.assert_array_equal(hv.q, as_numpy(trace[act_name("rot_q", 1)][0, :, 2]).astype(np.float64))
    np.testing.assert_array_equal(hv.k, as_numpy(trace[act_name("rot_k", 1)][0, :, 2]).astype(np.float64))
    assert not np.allclose(hv.q, as_numpy(trace[act_name("q", 1)][0, :, 2]))   # not the unrotated ones
    g = lab.qk_geometry.qk_geometry(m, IDS, 1, 2, normalised=False)
    assert g.rotated
    plain = lab.qk_geometry.head_vectors(model("sinusoidal"), IDS, 1, 2)
    assert not plain.rotated


def test_grouped_query_heads_read_their_kv_head():
    m = model("rope", n_kv_heads=2)
    assert [lab.qk_geometry.kv_head_of(m.cfg, h) for h in range(4)] == [0, 0, 1, 1]
    _, trace = m.run_with_cache(IDS, names=[act_name("rot_k", 0)])
    keys = as_numpy(trace[act_name("rot_k", 0)][0]).astype(np.float64)       # [pos, kv_head, d_head]
    for h in range(4):
        hv = lab.qk_geometry.head_vectors(m, IDS, 0, h)
        assert hv.kv_head == h // 2
        np.testing.assert_array_equal(hv.k, keys[:, h // 2])
        np.testing.assert_allclose(lab.qk_geometry.attention_from(hv.q, hv.k, hv.mask, hv.scale), hv.pattern, atol=1e-6)
    mqa = model("sinusoidal", n_kv_heads=1)
    assert {lab.qk_geometry.kv_head_of(mqa.cfg, h) for h in range(4)} == {0}


def test_top_pairs_are_the_largest_allowed_weights():
    m = model("sinusoidal")
    hv = lab.qk_geometry.head_vectors(m, IDS, 1, 0)
    g = lab.qk_geometry.qk_geometry(m, IDS, 1, 0, top_k=10)
    allowed = np.sort(hv.pattern[hv.mask])[::-1]
    np.testing.assert_allclose(g.weights, allowed[:10])
    assert all(hv.mask[q, k] for q, k in g.pairs)
    assert np.all(np.diff(g.weights) <= 0)
    np.testing.assert_array_equal(g.weights, hv.pattern[g.pairs[:, 0], g.pairs[:, 1]])
    pts = g.pair_points()
    assert all(g.kind[a] == "q" and g.kind[b] == "k" for a, b in pts)
    assert [(g.position[a], g.position[b]) for a, b in pts] == [tuple(p) for p in g.pairs]
    everything = lab.qk_geometry.qk_geometry(m, IDS, 1, 0, top_k=10_000)
    assert len(everything.pairs) == hv.mask.sum()                   # masked pairs never drawn


def test_probes_side_by_side_and_bad_input():
    m = model()
    g = lab.qk_geometry.qk_geometry(m, IDS, 0, 0, probes=[IDS[:5], IDS[3:]])
    assert g.coords.shape == (2 * (len(IDS) + 5 + len(IDS) - 3), 2)
    assert sorted(set(g.text.tolist())) == [0, 1, 2]
    assert g.index("k", 4, 1) == 2 * len(IDS) + 5 + 4
    both = lab.qk_geometry.side_by_side({"rope": m, "none": model("none")}, IDS, 1, 1)
    assert set(both) == {"rope", "none"} and both["rope"].rotated and not both["none"].rotated
    with pytest.raises(ValueError, match="Layer 5"):
        lab.qk_geometry.qk_geometry(m, IDS, 5, 0)
    with pytest.raises(ValueError, match="Head 4"):
        lab.qk_geometry.qk_geometry(m, IDS, 0, 4)
    with pytest.raises(ValueError, match="single-stack"):
        lab.qk_geometry.head_vectors(model("sinusoidal", arch="encoder-decoder"), IDS, 0, 0)


def test_no_pe_first_layer_collapses_the_same_token():
    m = model("none")
    hv = lab.qk_geometry.head_vectors(m, IDS, 0, 0)
    np.testing.assert_allclose(hv.q[1], hv.q[5], atol=1e-6)          # token 5 at positions 1 and 5
    np.testing.assert_allclose(hv.k[2], hv.k[6], atol=1e-6)          # token 3 at positions 2 and 6


def test_token_spread():
    v = np.array([[0.0, 0], [2, 0], [0.0, 0], [2, 2]])
    assert lab.qk_geometry.token_spread(v, [1, 2, 1, 3]) == 0.0                   # token 1 twice, the same vector
    assert np.isnan(lab.qk_geometry.token_spread(v, [1, 2, 3, 4]))                 # nothing repeats
    assert lab.qk_geometry.token_spread(v * 3 + 5,
                                        [1, 2, 2, 3]) == pytest.approx(lab.qk_geometry.token_spread(v, [1, 2, 2, 3]))
    none0 = lab.qk_geometry.qk_geometry(model("none"), IDS, 0, 0)
    assert none0.token_spread < 1e-6
    assert lab.qk_geometry.qk_geometry(model("sinusoidal"), IDS, 0, 0).token_spread > 0.05


# ---- the figure -----------------------------------------------------------------------------------
def test_figure_traces_hover_escaped_axis_percent():
    coords = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=np.float64)
    fig = viz_core.qk_geometry.qk_scatter(coords, ["q", "q", "k", "k"], np.array([0, 1, 0, 1]),
                                          ["<b>&", "x", "<b>&", "x"],
                     explained=[0.5, 0.25], pairs=np.array([[1, 2]]), weights=np.array([0.8]),
                     terms={"query": "查询", "key": "键"})
    spec = json.loads(fig.to_json())
    names = [d.get("name") for d in spec["data"]]
    assert names == ["top attention", "查询", "键"]
    q, k = spec["data"][1], spec["data"][2]
    assert q["marker"]["symbol"] == "circle" and k["marker"]["symbol"] == "triangle-up"
    hover = " ".join(q["hovertext"] + k["hovertext"])
    assert "&lt;b&gt;&amp;" in hover and "<b>" not in hover
    assert spec["layout"]["xaxis"]["title"]["text"] == "PC1 · 50.0%"
    assert spec["layout"]["yaxis"]["title"]["text"] == "PC2 · 25.0%"
    assert spec["layout"]["yaxis"]["scaleanchor"] == "x"
    line = spec["data"][0]
    assert "0.750" in line["line"]["color"]                           # opacity grows with the weight
    by_token = viz_core.qk_geometry.qk_scatter(coords, ["q", "q", "k", "k"], np.array([0, 1, 0, 1]),
                                               ["a", "b", "a", "b"],
                          explained=[0.5, 0.25], color_by="token")
    colors = [by_token.data[0].marker.color, by_token.data[1].marker.color]
    assert colors[0] == colors[1]                                     # the same token, the same colour
    with pytest.raises(ValueError):
        viz_core.qk_geometry.qk_scatter(coords, ["q", "q", "k", "x"], np.arange(4), list("abcd"), explained=[0.5, 0.2])

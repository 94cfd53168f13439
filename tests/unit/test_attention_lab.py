"""The walk-through and the attention variants against the model itself."""
import numpy as np
import pytest
import torch

from models import MaskSpec, TransformerConfig
import lab.masks
import models.masks
from lab import kv, variants, walkthrough
from models.attention import scaled_dot_product_attention
from models.weights import zoo

TEXT = "the students watched the model read their sentence"


def trained_like(cfg: TransformerConfig, seed: int = 0):
    """A random model with weights large enough that attention is far from uniform."""
    model = zoo.build_random(cfg, seed)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() == 2:
                p.copy_(torch.randn(p.shape, generator=gen) * 0.3)
            elif name.endswith("bias"):
                p.copy_(torch.randn(p.shape, generator=gen) * 0.1)
    return model


@pytest.fixture(scope="module")
def minilm():
    model, tok = zoo.load("minilm")
    enc = tok.encode(TEXT)
    return model, enc.ids


GQA = TransformerConfig(arch="decoder", vocab_size=50, d_model=48, n_layers=2, n_heads=6, n_kv_heads=2,
                        d_ff=96, positional="rope", norm="rmsnorm", activation="swiglu", bias=False)


def all_walks(model, ids, stack=None, **kw):
    cfg = model.cfg
    _, trace = model.run_with_cache(ids, **kw)
    n = trace.get("pattern", 0, stack).shape[-1]
    for layer in range(cfg.n_layers):
        for head in range(cfg.n_heads):
            for query in (0, n // 2, n - 1):
                yield walkthrough.walk_head(model, trace, layer, head, query, stack=stack)


def check(walk: walkthrough.HeadWalk):
    assert np.abs(walk.out - walk.model_out).max() < 1e-5
    assert walk.error < 1e-5
    assert np.abs(walk.weights - walk.model_pattern).max() < 1e-5
    assert walk.weights.sum() == pytest.approx(1.0)
    assert np.all(walk.weights[~walk.mask] == 0)
    assert np.allclose(walk.scaled, walk.dots * walk.scale)
    assert np.allclose(walk.z, walk.weights @ walk.v_all)
    assert np.allclose(walk.concat[walk.head * walk.z.size:(walk.head + 1) * walk.z.size], walk.z)
    # the head's share plus the other heads' shares plus the bias is the output
    assert np.allclose(walk.concat @ walk.W_o + walk.b_o, walk.out)


def test_walk_equals_hook_attn_out_for_minilm(minilm):
    model, ids = minilm
    walks = list(all_walks(model, ids))
    assert len(walks) == 6 * 12 * 3
    for w in walks:
        check(w)
    assert max(w.error for w in walks) > 0       # a real comparison, not the same tensor read twice


def test_walk_equals_hook_attn_out_for_a_gqa_decoder():
    model = trained_like(GQA)
    ids = torch.randint(0, 50, (12,), generator=torch.Generator().manual_seed(1))
    for w in all_walks(model, ids):
        check(w)
        assert w.rope and w.q_rot is not None
        assert w.kv_head == w.head // 3
        assert np.all(w.weights[w.query + 1:] == 0)            # causal
    # the walk's own q is x W_q (before RoPE), and it is not the rotated one
    w = next(all_walks(model, ids))
    assert np.allclose(w.q_all, w.x @ w.W_q + w.b_q)


@pytest.mark.parametrize("cfg", [
    TransformerConfig(arch="decoder", vocab_size=40, d_model=32, n_layers=2, n_heads=4, positional="alibi"),
    TransformerConfig(arch="encoder", vocab_size=40, d_model=32, n_layers=1, n_heads=4, n_kv_heads=1,
                      positional="relative", norm_position="post", output="hidden"),
    TransformerConfig(arch="encoder", vocab_size=40, d_model=32, n_layers=1, n_heads=2, positional="sinusoidal",
                      attention=MaskSpec("bigbird", window=1, n_random=1, seed=3), output="hidden"),
], ids=["alibi-decoder", "relative-mqa-postln", "bigbird-encoder"])
def test_walk_with_position_bias_and_sparse_masks(cfg):
    model = trained_like(cfg)
    ids = torch.randint(0, 40, (9,), generator=torch.Generator().manual_seed(2))
    for w in all_walks(model, ids):
        check(w)
        assert (w.bias is not None) == (cfg.positional in ("alibi", "relative"))


@pytest.mark.parametrize("norm_position", ["pre", "post"])
def test_walk_encoder_decoder_self_and_cross_attention(norm_position):
    cfg = TransformerConfig(arch="encoder-decoder", vocab_size=40, d_model=32, n_layers=2, n_heads=4, n_kv_heads=2,
                            norm_position=norm_position, positional="relative")
    model = trained_like(cfg)
    src, tgt = list(range(1, 8)), list(range(3, 9))          # 7 source, 6 target positions
    for stack in ("encoder", "decoder"):
        for w in all_walks(model, src, stack=stack, tgt_ids=tgt):
            check(w)
    _, trace = model.run_with_cache(src, tgt)
    for layer in range(2):
        for head in range(4):
            for query in (0, 5):
                w = walkthrough.walk_head(model, trace, layer, head, query, stack="decoder", cross=True)
                check(w)
                assert w.cross and w.bias is None and w.keys.shape == (7, 8) and w.x.shape == (6, 32)
                assert np.allclose(w.model_out, trace[f"decoder.blocks.{layer}.hook_cross_attn_out"][0, query])
    with pytest.raises(ValueError, match="encoder-decoder"):
        next(all_walks(model, src, stack=None, tgt_ids=tgt))
    with pytest.raises(ValueError, match="Cross-attention exists only"):
        walkthrough.walk_head(model, trace, 0, 0, 0, stack="encoder", cross=True)
    assert walkthrough.memory_name(cfg) in walkthrough.walk_names(cfg, 1, "decoder", cross=True)


def test_walk_refuses_positions_that_do_not_exist(minilm):
    model, ids = minilm
    _, trace = model.run_with_cache(ids)
    with pytest.raises(ValueError, match="Query position"):
        walkthrough.walk_head(model, trace, 0, 0, len(ids))
    with pytest.raises(ValueError, match="Head 12"):
        walkthrough.walk_head(model, trace, 0, 12, 0)


def test_neuron_view_products_sum_to_the_dot_product(minilm):
    model, ids = minilm
    _, trace = model.run_with_cache(ids)
    w = walkthrough.walk_head(model, trace, 2, 5, 3)
    nv = walkthrough.neuron_view(w, 4)
    assert nv["products"].sum() == pytest.approx(w.dots[4])
    assert nv["weight"] == pytest.approx(w.weights[4])
    assert np.allclose(nv["weighted_v"], w.weights[4] * w.v_all[4])
    a = walkthrough.agreement(nv["products"])
    # by hand: every dimension's product, sorted; the positive and negative parts add up to q·k
    q_k = [float(w.q[i] * w.keys[4][i]) for i in range(len(w.q))]
    assert a["plus"] + a["minus"] == pytest.approx(sum(q_k))
    assert a["plus"] == pytest.approx(sum(x for x in q_k if x > 0))
    assert [i for i, _ in a["agree"]] == sorted(range(len(q_k)), key=lambda i: -q_k[i])[:3]
    assert [i for i, _ in a["disagree"]] == sorted(range(len(q_k)), key=lambda i: q_k[i])[:3]
    assert walkthrough.agreement(np.array([1.0, 2.0]))["disagree"] == []   # no disagreement to list


def test_run_with_mask_is_the_model_computing_with_it(minilm):
    model, ids = minilm
    n = len(ids)
    mask = models.masks.compose(n, [{"kind": "bigbird", "window": 1, "global_tokens": (0,), "n_random": 1, "seed": 5}])
    out, trace = lab.masks.run_with_mask(model, ids, mask)
    for layer in range(model.cfg.n_layers):
        assert torch.equal(trace[f"blocks.{layer}.attn.hook_mask"][0, 0], mask)
        p = trace[f"blocks.{layer}.attn.hook_pattern"][0]
        assert bool((p[:, ~mask] == 0).all())
        assert torch.allclose(p.sum(-1), torch.ones_like(p.sum(-1)))
    own, _ = model.run_with_cache(ids)
    assert not torch.allclose(out, own)
    # the walk-through agrees with the masked model too
    w = walkthrough.walk_head(model, trace, 1, 3, 4)
    assert w.error < 1e-5 and np.array_equal(w.mask, mask[4].numpy())
    # hooks are gone afterwards: the same ids give the model's own output
    again, _ = model.run_with_cache(ids)
    assert torch.equal(again, own)


def test_run_with_mask_refuses_an_empty_row_and_a_wrong_size(minilm):
    model, ids = minilm
    n = len(ids)
    query_stream = models.masks.compose(n, [{"kind": "xlnet_query", "order": list(range(n))}])
    with pytest.raises(ValueError, match="nothing to attend to"):
        lab.masks.run_with_mask(model, ids, query_stream)
    _, trace = lab.masks.run_with_mask(model, ids, models.masks.keep_self(query_stream))
    p = trace["blocks.0.attn.hook_pattern"][0]
    assert not bool(torch.isnan(p).any())
    assert bool((p[:, 0, 0] == 1).all())                        # the empty row attends to itself only
    with pytest.raises(ValueError, match="tokens"):
        lab.masks.run_with_mask(model, ids, models.masks.causal(n + 1))


def test_kv_cache_sizes():
    llama = zoo.PRESETS["llama"][2]                              # 2 layers, 4 heads, 2 kv heads, d_head 16
    assert kv.kv_cache_bytes(llama, 1000, bytes_per_value=2) == kv.KVCacheSize(2, 2 * 2 * 2 * 16 * 2,
                                                                               2 * 2 * 2 * 16 * 2 * 1000)
    assert kv.kv_cache_bytes(llama, 10, n_kv_heads=1, bytes_per_value=4).per_token == 2 * 2 * 1 * 16 * 4
    assert kv.kv_groups(4, 2) == [0, 0, 1, 1] and kv.kv_groups(4, 1) == [0, 0, 0, 0]
    assert kv.kv_head_options(12) == [1, 2, 3, 4, 6, 12]
    with pytest.raises(ValueError, match="divisible"):
        kv.kv_cache_bytes(llama, 10, n_kv_heads=3)


def test_linear_attention_equals_its_quadratic_form():
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(7, 5, generator=gen, dtype=torch.float64) for _ in range(3))
    for causal in (False, True):
        out, w = variants.linear_attention(q, k, v, causal=causal)
        fq, fk = variants.elu_feature(q), variants.elu_feature(k)
        a = fq @ fk.T
        if causal:
            a = a * models.masks.causal(7)
        assert torch.allclose(out, (a / a.sum(-1, keepdim=True)) @ v)
        assert torch.allclose(w.sum(-1), torch.ones(7, dtype=torch.float64))
        assert bool((w >= 0).all())
    assert bool((variants.linear_attention(q, k, v, causal=True)[1].triu(1) == 0).all())


def test_retention_parallel_equals_recurrent():
    gen = torch.Generator().manual_seed(1)
    q, k, v = (torch.randn(9, 4, generator=gen, dtype=torch.float64) for _ in range(3))
    out, w = variants.retention(q, k, v, 0.9)
    assert torch.allclose(out, variants.retention_recurrent(q, k, v, 0.9))
    assert w[2, 0] == pytest.approx(float(q[2] @ k[0]) * 0.81)
    assert bool((w.triu(1) == 0).all())
    assert variants.retention_gammas(2).tolist() == [1 - 1 / 32, 1 - 1 / 64]
    with pytest.raises(ValueError, match="decay"):
        variants.decay_matrix(3, 1.5)


def test_softmax_attention_masks_exactly():
    gen = torch.Generator().manual_seed(2)
    q, k, v = (torch.randn(4, 3, generator=gen) for _ in range(3))
    out, w = (t[0, 0] for t in scaled_dot_product_attention(q[None, None], k[None, None], v[None, None],
                                                            models.masks.causal(4)))
    assert bool((w.triu(1) == 0).all()) and torch.allclose(w.sum(-1), torch.ones(4))
    assert torch.allclose(out[0], v[0])

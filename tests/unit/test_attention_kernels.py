"""The per-head attention path (long inputs on the CPU) computes bitwise what the
whole-tensor path computes, and steps aside whenever it could not (interventions at
the attention hook points, autograd, dropout)."""
from __future__ import annotations

import contextlib

import pytest
import torch

import models.attention
from models import MaskSpec, Transformer, TransformerConfig
from models.hooks import HookPoint

N = 260  # 260 x 260 scores: above PER_HEAD_MIN_SCORES, so the per-head path runs


@contextlib.contextmanager
def whole_tensor_only():
    old = models.attention.PER_HEAD_MIN_SCORES
    models.attention.PER_HEAD_MIN_SCORES = 10**12
    try:
        yield
    finally:
        models.attention.PER_HEAD_MIN_SCORES = old


@contextlib.contextmanager
def threads(n: int):
    old = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def qkv(b: int = 1, h: int = 4, n: int = N, d: int = 16, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    # [b, pos, head, dh] transposed to [b, head, pos, dh]: the strides the model passes
    return [torch.randn(b, n, h, d, generator=g).transpose(1, 2) for _ in range(3)]


def test_threshold_is_above_the_test_length():
    assert N * N >= models.attention.PER_HEAD_MIN_SCORES
    assert 128 * 128 < models.attention.PER_HEAD_MIN_SCORES   # short inputs keep the one-shot path


@pytest.mark.parametrize("n_threads", [1, 2, 3])
@pytest.mark.parametrize("case", ["none", "causal", "padding", "bias", "bias+causal", "all-true"])
def test_per_head_equals_whole_tensor_bitwise(case, n_threads):
    b = 2 if case == "padding" else 1
    q, k, v = qkv(b=b, h=5)
    mask = bias = None
    if "causal" in case:
        mask = torch.ones(N, N, dtype=torch.bool).tril()[None, None]
    if case == "padding":
        mask = torch.ones(b, 1, N, N, dtype=torch.bool)
        mask[1, :, :, N - 37:] = False
    if case == "all-true":
        mask = torch.ones(1, 1, N, N, dtype=torch.bool)
    if "bias" in case:
        bias = -torch.arange(N).float().view(1, 1, 1, N) * torch.rand(1, 5, 1, 1)
    with threads(n_threads), torch.inference_mode():
        assert models.attention.per_head_applies(q, k, v, bias, (models.attention.identity,) * 3, models.attention.identity)
        z, p = models.attention.scaled_dot_product_attention(q, k, v, mask, bias)
        with whole_tensor_only():
            z0, p0 = models.attention.scaled_dot_product_attention(q, k, v, mask, bias)
    assert torch.equal(z, z0) and torch.equal(p, p0)
    assert torch.allclose(p.sum(-1), torch.ones(()), atol=1e-5)


CONFIGS = {
    "encoder-learned": dict(arch="encoder", positional="learned", norm_position="post", activation="gelu"),
    "decoder-alibi": dict(positional="alibi"),
    "decoder-rope-gqa": dict(positional="rope", n_heads=4, n_kv_heads=2, norm="rmsnorm", activation="swiglu", bias=False),
    "decoder-t5-mqa": dict(positional="relative", n_kv_heads=1),
    "encoder-local": dict(arch="encoder", attention=MaskSpec(kind="local", window=8)),
    "encoder-decoder": dict(arch="encoder-decoder"),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_model_traces_equal_whole_tensor_bitwise(name):
    torch.manual_seed(0)
    cfg = TransformerConfig(vocab_size=50, d_model=32, n_layers=2, d_ff=64, max_len=512, **{"n_heads": 4, **CONFIGS[name]})
    model = Transformer(cfg).eval()
    ids = torch.randint(0, 50, (1, N))
    tgt = torch.randint(0, 50, (1, N)) if cfg.arch == "encoder-decoder" else None
    out, trace = model.run_with_cache(ids, tgt)
    with whole_tensor_only():
        out0, trace0 = model.run_with_cache(ids, tgt)
        plain0 = model(ids, tgt)
    assert torch.equal(out, out0) and torch.equal(model(ids, tgt), plain0)
    assert trace.names() == trace0.names()
    for hook in trace.names():
        assert torch.equal(trace[hook], trace0[hook]), hook


def test_padded_batch_equals_whole_tensor_bitwise():
    torch.manual_seed(1)
    cfg = TransformerConfig(arch="encoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=512,
                            positional="learned", pad_id=0)
    model = Transformer(cfg).eval()
    ids = torch.randint(1, 50, (2, N))
    am = torch.ones(2, N, dtype=torch.long)
    ids[1, -50:], am[1, -50:] = 0, 0
    _, trace = model.run_with_cache(ids, attention_mask=am)
    with whole_tensor_only():
        _, trace0 = model.run_with_cache(ids, attention_mask=am)
    for hook in trace.names():
        assert torch.equal(trace[hook], trace0[hook]), hook


def _model() -> Transformer:
    torch.manual_seed(2)
    return Transformer(TransformerConfig(vocab_size=50, d_model=32, n_layers=1, n_heads=4, d_ff=64, max_len=512)).eval()


@pytest.mark.parametrize("point", ["hook_scores", "hook_mask", "hook_pattern"])
def test_an_intervention_at_an_attention_hook_takes_the_whole_tensor_path(point):
    model = _model()
    ids = torch.randint(0, 50, (1, N))

    def edit(x, _name):
        if x.dtype == torch.bool:                 # hide the first key from everyone but query 0
            x = x.clone()
            x[..., 1:, 0] = False
            return x
        return x * 0.5 if point == "hook_scores" else torch.flip(x, dims=[-1])

    with torch.inference_mode():                 # no autograd: only the hook can send it to the whole path
        hooked = model.run_with_hooks(ids, fwd_hooks=[(f"blocks.0.attn.{point}", edit)])
        with whole_tensor_only():
            expected = model.run_with_hooks(ids, fwd_hooks=[(f"blocks.0.attn.{point}", edit)])
        assert torch.equal(hooked, expected)
        assert not torch.equal(hooked, model(ids))    # the edit took effect


def test_recording_hooks_are_passive_and_user_hooks_are_not():
    model = _model()
    hp: HookPoint = model.blocks[0].attn.hook_pattern
    assert hp.passive
    from models.hooks import hooks, recording

    with recording(model, "blocks.0.attn.hook_pattern"):
        assert hp.passive
        with hooks(model, [("blocks.0.attn.hook_pattern", lambda x, n: None)]):
            assert not hp.passive
    assert hp.passive


def test_autograd_and_dropout_take_the_whole_tensor_path():
    q, k, v = qkv()
    q.requires_grad_(True)
    assert not models.attention.per_head_applies(q, k, v, None, (models.attention.identity,) * 3, models.attention.identity)
    with torch.no_grad():
        assert models.attention.per_head_applies(q, k, v, None, (models.attention.identity,) * 3, models.attention.identity)
    drop = torch.nn.Dropout(0.1)
    with torch.no_grad():
        assert not models.attention.per_head_applies(q, k, v, None, (models.attention.identity,) * 3, drop.train())
        assert models.attention.per_head_applies(q, k, v, None, (models.attention.identity,) * 3, drop.eval())
    assert not models.attention.per_head_applies(q.detach().half(), k.half(), v.half(), None, (models.attention.identity,) * 3, models.attention.identity)

    # a training step on a long input: same gradients as the whole-tensor path
    model = _model().train()
    ids = torch.randint(0, 50, (1, N))
    model(ids).logsumexp(-1).mean().backward()
    grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    with whole_tensor_only():
        model(ids).logsumexp(-1).mean().backward()
    assert all(torch.equal(a, p.grad) for a, p in zip(grads, model.parameters()))


def test_hides_nothing_reads_bool_masks_as_bytes():
    assert models.attention.hides_nothing(torch.ones(1, 1, 300, 300, dtype=torch.bool))
    m = torch.ones(1, 1, 300, 300, dtype=torch.bool)
    m[0, 0, 299, 0] = False
    assert not models.attention.hides_nothing(m)
    assert not models.attention.hides_nothing(torch.ones(300, 300, dtype=torch.bool).tril()[None, None])
    assert models.attention.hides_nothing(torch.ones(4, 4, dtype=torch.bool).t()[:, :2])     # a strided view
    assert models.attention.hides_nothing(torch.ones(0, dtype=torch.bool))
    assert not models.attention.hides_nothing(torch.tensor([1.0, 0.0]))                     # not bool: plain .all()

import itertools

import numpy as np
import pytest
import torch

from models import MaskSpec, Trace, Transformer, TransformerConfig
from models import masks
from models.hooks import hook_points

SMALL = dict(vocab_size=40, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=32)


def make(**kw):
    torch.manual_seed(0)
    return Transformer(TransformerConfig(**{**SMALL, **kw}), device="cpu").eval()


def run(model, n=7, batch=1, **kw):
    ids = torch.randint(0, model.cfg.vocab_size, (batch, n), generator=torch.Generator().manual_seed(1))
    tgt = ids[:, : max(1, n - 2)] if model.cfg.arch == "encoder-decoder" else None
    return model.run_with_cache(ids, tgt, **kw)


# ---- hook names -------------------------------------------------------------------------
LN = ["{p}.hook_scale", "{p}.hook_normalized"]
ATTN = ["hook_q", "hook_k", "hook_v", "hook_scores", "hook_mask", "hook_pattern", "hook_z"]


def pre_block(i, prefix="", cross=False):
    b = f"{prefix}blocks.{i}."
    names = [b + "hook_resid_pre", *(x.format(p=b + "ln1") for x in LN), *(b + "attn." + a for a in ATTN),
             b + "hook_attn_out", b + "hook_resid_mid"]
    if cross:
        names += [*(x.format(p=b + "ln_cross") for x in LN), *(b + "cross_attn." + a for a in ATTN),
                  b + "hook_cross_attn_out", b + "hook_resid_mid_cross"]
    return names + [*(x.format(p=b + "ln2") for x in LN), b + "mlp.hook_pre", b + "mlp.hook_post",
                    b + "hook_mlp_out", b + "hook_resid_post"]


def post_block(i):
    b = f"blocks.{i}."
    return [b + "hook_resid_pre", *(b + "attn." + a for a in ATTN), b + "hook_attn_out",
            *(x.format(p=b + "ln1") for x in LN), b + "hook_resid_mid", b + "mlp.hook_pre", b + "mlp.hook_post",
            b + "hook_mlp_out", *(x.format(p=b + "ln2") for x in LN), b + "hook_resid_post"]


def test_hook_names_decoder():
    _, trace = run(make(arch="decoder"))
    expected = ["hook_embed", "hook_pos_embed", *pre_block(0), *pre_block(1), "ln_final.hook_scale",
                "ln_final.hook_normalized"]
    assert trace.names() == expected


def test_hook_names_encoder_post_ln_learned_gelu():
    _, trace = run(make(arch="encoder", positional="learned", norm_position="post", activation="gelu"))
    assert trace.names() == ["hook_embed", "hook_pos_embed", *post_block(0), *post_block(1)]


def test_hook_names_encoder_decoder():
    _, trace = run(make(arch="encoder-decoder"))
    expected = (["encoder.hook_embed", "encoder.hook_pos_embed", *pre_block(0, "encoder."), *pre_block(1, "encoder."),
                 "encoder.ln_final.hook_scale", "encoder.ln_final.hook_normalized",
                 "decoder.hook_embed", "decoder.hook_pos_embed", *pre_block(0, "decoder.", cross=True),
                 *pre_block(1, "decoder.", cross=True), "decoder.ln_final.hook_scale",
                 "decoder.ln_final.hook_normalized"])
    assert trace.names() == expected


def test_optional_hooks_follow_the_config():
    names = run(make(positional="rope", activation="swiglu", norm="dyt"))[1].names()
    assert "blocks.0.attn.hook_rot_q" in names and "blocks.0.attn.hook_rot_k" in names
    assert "blocks.0.mlp.hook_pre_linear" in names
    assert "hook_pos_embed" not in names and "blocks.0.ln1.hook_scale" not in names  # DyT has no scale
    assert set(names) == set(make(positional="rope", activation="swiglu", norm="dyt").hook_names())


def test_hook_shapes():
    model = make(n_kv_heads=2, positional="rope")
    _, tr = run(model, n=6, batch=2)
    assert tr["hook_embed"].shape == (2, 6, 32)
    assert tr["blocks.0.ln1.hook_scale"].shape == (2, 6, 1)
    assert tr["blocks.0.attn.hook_q"].shape == (2, 6, 4, 8)
    assert tr["blocks.0.attn.hook_k"].shape == (2, 6, 2, 8) == tr["blocks.0.attn.hook_v"].shape
    assert tr["blocks.0.attn.hook_rot_k"].shape == (2, 6, 2, 8)
    assert tr["blocks.0.attn.hook_scores"].shape == (2, 4, 6, 6) == tr["blocks.1.attn.hook_pattern"].shape
    assert tr["blocks.0.attn.hook_mask"].shape == (1, 1, 6, 6) and tr["blocks.0.attn.hook_mask"].dtype == torch.bool
    assert tr["blocks.0.attn.hook_z"].shape == (2, 6, 4, 8)
    assert tr["blocks.0.mlp.hook_post"].shape == (2, 6, 64)
    assert tr["blocks.1.hook_resid_post"].shape == (2, 6, 32)


def test_names_take_globs():
    _, tr = run(make(), names=["blocks.*.attn.hook_pattern", "hook_embed"])
    assert tr.names() == ["hook_embed", "blocks.0.attn.hook_pattern", "blocks.1.attn.hook_pattern"]
    _, tr = run(make(), names="blocks.1.*resid*")
    assert tr.names() == ["blocks.1.hook_resid_pre", "blocks.1.hook_resid_mid", "blocks.1.hook_resid_post"]


def test_stop_after_ends_the_pass_once_its_hook_is_recorded():
    """run_with_cache(stop_after=...) records what the whole pass records up to that hook
    point, runs nothing above it (no later hook fires) and returns no output; the stop's
    name must be one of the recorded ones."""
    for arch, stop in (("decoder", "blocks.0.hook_attn_out"), ("encoder", "blocks.0.attn.hook_pattern"),
                       ("encoder-decoder", "decoder.blocks.0.hook_cross_attn_out")):
        model = make(arch=arch, n_layers=3)
        _, whole = run(model)
        out, part = run(model, stop_after=stop)
        assert out is None
        names = whole.names()
        assert part.names() == names[:names.index(stop) + 1], arch
        assert all(torch.equal(part[n], whole[n]) for n in part.names())
        _, some = run(model, names=["*hook_pattern", stop], stop_after=stop)
        assert some.names() == [n for n in part.names() if n.endswith("hook_pattern") or n == stop]
        fired = []
        hp = hook_points(model)[names[-1]]                 # the last hook point of the whole pass
        handle = hp.register_forward_hook(lambda *_: fired.append(1))
        run(model, stop_after=stop)
        handle.remove()
        assert not fired, "a layer above the stop ran"
    with pytest.raises(ValueError, match="not one of the hook points this pass records"):
        run(make(), names=["blocks.0.*"], stop_after="blocks.1.hook_attn_out")
    with pytest.raises(ValueError, match="not one of the hook points"):
        run(make(), stop_after="blocks.9.hook_attn_out")
    out, _ = run(make())                                  # the model is whole again after a stopped pass
    assert out.shape == (1, 7, 40)


def test_name_globs_match_as_fnmatchcase_does():
    """The hook-name matcher (one compiled expression per set of patterns) says what
    `fnmatch.fnmatchcase` says, pattern by pattern, for every hook name of three architectures."""
    import fnmatch

    from models.hooks import name_matcher

    patterns = [[], ["hook_embed"], ["blocks.*.attn.hook_pattern", "hook_embed"], ["blocks.1.*resid*"],
                ["blocks.?.mlp.hook_[pq]*", "*.hook_mask"], ["*[!0-9].hook_*", "BLOCKS.*"], ["*"], ["blocks.[1].*"]]
    for arch in ("encoder", "decoder", "encoder-decoder"):
        names = make(arch=arch).hook_names()
        for group in patterns:
            match = name_matcher(group)
            assert [match(n) for n in names] == [any(fnmatch.fnmatchcase(n, p) for p in group) for n in names], group
            assert name_matcher(tuple(group)) is match          # made once per set of patterns
    assert name_matcher(None)("anything") and name_matcher("hook_embed")("hook_embed")


# ---- attention math --------------------------------------------------------------------
ALL_KINDS = ["full", "causal", "local", "dilated", "strided", "longformer", "bigbird", "prefix"]


@pytest.mark.parametrize("arch, kind", list(itertools.product(["encoder", "decoder"], ALL_KINDS)))
def test_patterns_are_distributions_and_respect_the_mask(arch, kind):
    model = make(arch=arch, attention=MaskSpec(kind, window=1, stride=3, prefix_len=3))
    _, tr = run(model, n=10)
    expected = masks.self_attention_mask(model.cfg.attention, 10, decoder=arch == "decoder")
    for layer in range(2):
        p = tr.pattern(layer)                                                  # [head, q, k]
        assert torch.allclose(p.sum(-1), torch.ones(4, 10), atol=1e-6)
        assert (p[:, ~expected] == 0).all()                                      # exactly 0, not tiny
        assert torch.equal(tr[f"blocks.{layer}.attn.hook_mask"][0, 0], expected)
        assert not torch.isnan(p).any()


def test_causal_upper_triangle_is_zero():
    _, tr = run(make(arch="decoder"), n=9)
    upper = torch.triu(torch.ones(9, 9, dtype=torch.bool), 1)
    assert (tr.pattern(0)[:, upper] == 0).all() and (tr.pattern(0)[:, ~upper] > 0).all()


def test_pattern_matches_the_formula():
    model = make(arch="encoder", positional="alibi")
    _, tr = run(model, n=5)
    q, k = tr["blocks.0.attn.hook_q"][0], tr["blocks.0.attn.hook_k"][0]          # [pos, head, dh]
    scores = torch.einsum("qhd,khd->hqk", q, k) / 8 ** 0.5
    scores = scores + model.alibi_slopes[:, None, None] * -(torch.arange(5)[:, None] - torch.arange(5)).abs()
    assert torch.allclose(tr["blocks.0.attn.hook_scores"][0], scores, atol=1e-5)
    assert torch.allclose(tr.pattern(0), scores.softmax(-1), atol=1e-6)
    z = torch.einsum("hqk,khd->qhd", tr.pattern(0), tr["blocks.0.attn.hook_v"][0])
    assert torch.allclose(tr["blocks.0.attn.hook_z"][0], z, atol=1e-6)


def test_mqa_shares_keys_and_values_across_heads():
    model = make(n_heads=4, n_kv_heads=1)
    _, tr = run(model)
    assert tr["blocks.0.attn.hook_k"].shape[2] == 1 and tr["blocks.0.attn.hook_v"].shape[2] == 1
    assert model.blocks[0].attn.W_K.weight.shape == (8, 32)                     # one head of width 8
    # with every query head given the same query, all heads must produce the same pattern
    same_q = lambda q, name: q[:, :, :1].expand_as(q).clone()
    with_hooks = model.run_with_hooks(torch.arange(6), fwd_hooks=[("blocks.0.attn.hook_q", same_q)])
    assert with_hooks.shape == (1, 6, 40)
    with torch.no_grad():
        from models.hooks import recording, hooks
        with hooks(model, [("blocks.0.attn.hook_q", same_q)]), recording(model, "blocks.0.attn.hook_pattern") as st:
            model(torch.arange(6))
    p = st["blocks.0.attn.hook_pattern"][0]
    assert all(torch.equal(p[0], p[h]) for h in range(4))


def test_gqa_groups_query_heads():
    model = make(n_heads=4, n_kv_heads=2)
    _, tr = run(model)
    q, k = tr["blocks.0.attn.hook_q"][0], tr["blocks.0.attn.hook_k"][0]
    for h in range(4):  # query head h reads kv head h // 2
        s = q[:, h] @ k[:, h // 2].T / 8 ** 0.5
        assert torch.allclose(tr["blocks.0.attn.hook_scores"][0, h], s, atol=1e-5)


# ---- recording leaves the model alone -------------------------------------------------------
@pytest.mark.parametrize("arch", ["encoder", "decoder", "encoder-decoder"])
def test_outputs_bitwise_identical_with_and_without_recording(arch):
    model = make(arch=arch, positional="rope", n_kv_heads=2)
    ids = torch.randint(0, 40, (2, 8))
    tgt = ids[:, :5] if arch == "encoder-decoder" else None
    with torch.no_grad():
        plain = model(ids, tgt)
    cached, trace = model.run_with_cache(ids, tgt)
    assert torch.equal(plain, cached) and len(trace) > 20


def test_hooks_are_removed_after_run_and_after_errors():
    model = make()
    run(model)
    assert all(not hp._forward_hooks for hp in hook_points(model).values())
    with pytest.raises(ValueError):
        model.run_with_cache(torch.tensor([[1, 2, 99]]))                         # id outside the vocabulary
    assert all(not hp._forward_hooks for hp in hook_points(model).values())

    def boom(x, name):
        raise RuntimeError("stop")
    with pytest.raises(RuntimeError):
        model.run_with_hooks([1, 2], fwd_hooks=[("blocks.1.*", boom)])
    assert all(not hp._forward_hooks for hp in hook_points(model).values())


def test_run_with_hooks_can_ablate_a_head():
    model = make()
    ids = torch.arange(6)
    zero_head = lambda z, name: torch.cat([torch.zeros_like(z[:, :, :1]), z[:, :, 1:]], dim=2)
    with torch.no_grad():
        base = model(ids)
        ablated = model.run_with_hooks(ids, fwd_hooks=[("blocks.0.attn.hook_z", zero_head)])
    assert not torch.allclose(base, ablated)
    with pytest.raises(ValueError, match="No hook point"):
        model.run_with_hooks(ids, fwd_hooks=[("blocks.9.*", zero_head)])


# ---- every architectural choice runs ------------------------------------------------------
@pytest.mark.parametrize("arch, positional, norm, norm_position, activation", list(itertools.product(
    ["encoder", "decoder", "encoder-decoder"], ["none", "sinusoidal", "learned", "rope", "alibi", "relative"],
    ["layernorm", "rmsnorm", "dyt"], ["pre", "post"], ["relu", "gelu", "swiglu"])))
def test_every_combination_runs(arch, positional, norm, norm_position, activation):
    model = make(arch=arch, positional=positional, norm=norm, norm_position=norm_position, activation=activation,
                 n_kv_heads=2)
    out, tr = run(model, n=5, batch=2)
    n_out = 3 if arch == "encoder-decoder" else 5
    assert out.shape == (2, n_out, 40) and torch.isfinite(out).all()
    stack = "decoder" if arch == "encoder-decoder" else None
    assert torch.allclose(tr.pattern(1, stack=stack).sum(-1), torch.ones(4, n_out), atol=1e-6)


def test_positional_schemes_change_the_output():
    ids = torch.arange(6)
    perm = torch.tensor([2, 0, 5, 1, 4, 3])
    for pos in ["none", "sinusoidal", "learned", "alibi", "rope", "relative"]:
        model = make(arch="encoder", positional=pos)
        with torch.no_grad():
            out, shuffled = model(ids)[0], model(ids[perm])[0]
        # without positions an encoder is permutation-equivariant: shuffling tokens shuffles outputs
        equivariant = torch.allclose(shuffled, out[perm], atol=1e-5)
        assert equivariant == (pos == "none"), pos


def test_norms_compute_their_formulas():
    x = torch.randn(2, 3, 32)
    m = make(norm="rmsnorm")
    ln = m.blocks[0].ln1
    assert torch.allclose(ln(x), x / (x.pow(2).mean(-1, keepdim=True) + 1e-5).sqrt(), atol=1e-6)
    m = make(norm="layernorm")
    assert torch.allclose(m.blocks[0].ln1(x), torch.nn.functional.layer_norm(x, (32,), eps=1e-5), atol=1e-5)
    from models.hooks import recording
    with torch.no_grad(), recording(m, "blocks.0.ln1.hook_scale") as st:
        m.blocks[0].ln1(x)
    assert torch.allclose(st["blocks.0.ln1.hook_scale"], (x.var(-1, keepdim=True, unbiased=False) + 1e-5).sqrt())
    m = make(norm="dyt", dyt_alpha=0.7)
    assert torch.allclose(m.blocks[0].ln1(x), torch.tanh(0.7 * x), atol=1e-6)


def test_embeddings_tied_or_not():
    tied = make(tie_embeddings=True)
    assert tied.unembed.weight is tied.embed.weight
    untied = make(tie_embeddings=False)
    assert untied.unembed.weight is not untied.embed.weight
    assert untied.n_params == tied.n_params + 40 * 32


def test_dropout_only_in_training():
    model = make(dropout=0.5)
    ids = torch.arange(6)
    with torch.no_grad():
        assert torch.equal(model(ids), model(ids))               # eval: off
        model.train()
        assert not torch.equal(model(ids), model(ids))
        model.eval()


def test_padding_hides_pad_keys_and_keeps_real_rows_exact():
    model = make(arch="encoder")
    ids = torch.tensor([[5, 6, 7, 8], [5, 6, 7, 0]])
    valid = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]])
    out, tr = model.run_with_cache(ids, attention_mask=valid)
    p = tr.pattern(0, batch=1)
    assert (p[:, :3, 3] == 0).all() and torch.isfinite(out).all()    # real queries ignore the pad key
    with torch.no_grad():
        alone = model(ids[1:, :3])
    assert torch.allclose(out[1, :3], alone[0], atol=1e-5)


def test_bad_inputs_raise_clear_errors():
    model = make(positional="learned", max_len=8)
    with pytest.raises(ValueError, match="empty"):
        model([])
    with pytest.raises(ValueError, match="only 8"):
        model(torch.zeros(9, dtype=torch.long))
    with pytest.raises(ValueError, match="outside this model's vocabulary"):
        model([1, 40])
    with pytest.raises(ValueError, match="target ids"):
        make(arch="encoder-decoder")([1, 2])
    with pytest.raises(ValueError, match="nothing to attend"):
        make(arch="encoder").run_with_cache([1, 2], attention_mask=[0, 0])
    # schemes without a position table run past max_len (extrapolation)
    assert make(positional="alibi", max_len=8)(torch.zeros(12, dtype=torch.long)).shape == (1, 12, 40)
    assert make(positional="sinusoidal", max_len=8)(torch.zeros(12, dtype=torch.long)).shape == (1, 12, 40)


def test_generate_greedy_is_deterministic():
    model = make()
    a = model.generate([1, 2, 3], max_new_tokens=4)
    assert a.shape == (1, 7) and torch.equal(a, model.generate([1, 2, 3], max_new_tokens=4))
    with pytest.raises(ValueError, match="decoder"):
        make(arch="encoder").generate([1], 2)


def test_device_argument():
    from models import pick_device
    assert make().device.type == "cpu"
    assert pick_device("cpu").type == "cpu"
    with pytest.raises(ValueError):
        pick_device("tpu")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="not available"):
            pick_device("cuda")


# ---- Trace -------------------------------------------------------------------------------
def test_trace_helpers(tmp_path):
    model = make(arch="encoder-decoder")
    _, tr = run(model, n=6, tokens=list("abcdef"), tgt_tokens=list("abcd"))
    assert tr.pattern(1, stack="encoder").shape == (4, 6, 6)
    assert tr.pattern(0, stack="decoder", cross=True).shape == (4, 4, 6)
    assert tr.patterns(stack="decoder").shape == (2, 4, 4, 4)
    with pytest.raises(ValueError, match="stack"):
        tr.pattern(0)
    with pytest.raises(ValueError, match="layers 0..1"):
        tr.pattern(5, stack="encoder")
    names, resid = tr.residual_stream(stack="decoder")
    assert names[:4] == ["decoder.blocks.0.hook_resid_pre", "decoder.blocks.0.hook_resid_mid",
                         "decoder.blocks.0.hook_resid_mid_cross", "decoder.blocks.0.hook_resid_post"]
    assert resid.shape == (len(names), 4, 32)
    arr = tr.numpy("encoder.blocks.0.attn.hook_pattern", batch=0)
    assert isinstance(arr, np.ndarray) and arr.dtype == np.float32 and arr.shape == (4, 6, 6)
    assert tr.logical_nbytes == sum(t.numel() * t.element_size() for _, t in tr.items())
    assert tr.nbytes < tr.logical_nbytes       # resid_post of one block is resid_pre of the next: held once
    with pytest.raises(KeyError, match="not recorded"):
        tr["blocks.0.attn.hook_pattern"]
    path = tmp_path / "t.npz"
    tr.save_npz(path)
    back = Trace.load_npz(path)
    assert back.names() == tr.names() and back.config == tr.config and back.tokens == list("abcdef")
    assert torch.equal(back["decoder.blocks.1.cross_attn.hook_pattern"], tr["decoder.blocks.1.cross_attn.hook_pattern"])
    assert back["encoder.blocks.0.attn.hook_mask"].dtype == torch.bool


def test_hook_points_honour_every_kind_of_pytorch_hook():
    model = make()
    hp = model.blocks[0].attn.hook_pattern
    seen = []
    pre = hp.register_forward_pre_hook(lambda mod, args: seen.append("pre"))   # falls back to nn.Module
    post = hp.register_forward_hook(lambda mod, args, out: seen.append("post"))
    with torch.no_grad():
        model(torch.arange(4))
    assert seen == ["pre", "post"]
    pre.remove()
    seen.clear()
    _, trace = model.run_with_cache(torch.arange(4))       # recording and a user hook together
    assert seen == ["post"] and "blocks.0.attn.hook_pattern" in trace
    post.remove()
    assert not hp._forward_hooks and not hp._forward_pre_hooks
    g = torch.nn.modules.module.register_module_forward_hook(lambda mod, args, out: None)  # global hooks
    try:
        out_global, trace_global = model.run_with_cache(torch.arange(4))
    finally:
        g.remove()
    assert torch.equal(out_global, model.run_with_cache(torch.arange(4))[0]) and len(trace_global) == len(trace)


@pytest.mark.parametrize("positional", ["sinusoidal", "alibi", "rope", "learned"])
def test_from_state_takes_the_tensors_and_computes_the_buffers(positional):
    """Transformer.from_state (the loaders' path: a meta skeleton takes the tensors) gives
    the same model as building one and loading its state: same outputs, buffers computed,
    tied embeddings still one parameter."""
    cfg = TransformerConfig(arch="decoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=32,
                            positional=positional, tie_embeddings=True)
    torch.manual_seed(0)
    ref = Transformer(cfg, device="cpu").eval()
    state = {k: v.clone() for k, v in ref.state_dict().items()}
    model = Transformer.from_state(cfg, state).eval()
    assert model.unembed.weight is model.embed.weight
    assert model.n_params == ref.n_params
    assert not any(t.is_meta for t in [*model.parameters(), *model.buffers()])
    ids = torch.randint(0, 50, (2, 20))
    assert torch.equal(model(ids), ref(ids))
    with pytest.raises(RuntimeError):          # a state that lacks a tensor is refused, nothing half-built
        Transformer.from_state(cfg, {k: v for k, v in state.items() if k != "blocks.0.ln1.weight"})


def test_a_skeleton_draws_no_numbers_and_a_real_model_draws_as_nn_embedding_does():
    """models.device.embedding: inside torch.device("meta") no N(0, 1) draw, whose meta
    version imports torch._dynamo (seconds, once per process: checked in a fresh one, with
    every embedding kind a config can have); elsewhere the same draw as nn.Embedding."""
    import subprocess
    import sys
    from pathlib import Path

    from models.device import embedding

    torch.manual_seed(3)
    ours, after_ours = embedding(7, 5).weight, torch.rand(3)
    torch.manual_seed(3)
    theirs, after_theirs = torch.nn.Embedding(7, 5).weight, torch.rand(3)
    assert torch.equal(ours, theirs) and torch.equal(after_ours, after_theirs)     # the random stream is unchanged
    with torch.device("meta"):
        assert embedding(7, 5).weight.is_meta
    code = ("import sys; from models import Transformer, TransformerConfig\n"
            "for pos in ('learned', 'relative'):\n"
            "    cfg = TransformerConfig(arch='encoder', vocab_size=50, d_model=32, n_layers=1, n_heads=4, d_ff=64,\n"
            "                            max_len=16, positional=pos, n_token_types=2)\n"
            "    assert sorted(Transformer.skeleton(cfg).state_dict()) == sorted(Transformer(cfg, 'cpu').state_dict())\n"
            "print('torch._dynamo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"

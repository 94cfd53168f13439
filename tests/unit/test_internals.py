"""lab.residual, lab.ffn, lab.ablation and viz_core.ffn / residual / compare: the residual
stream's decomposition, norm statistics, the logit lens, FFN activations and neurons,
ablations, and the figures of the FFN / residual pages."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

import viz_core as vz
from models import MaskSpec, Stack, Transformer, TransformerConfig
from lab import ablation, ffn
from lab import residual

IDS = [3, 1, 4, 1, 5, 9, 2, 6]


def make(seed: int = 0, scale: float = 8.0, **kw) -> Transformer:
    base = dict(arch="decoder", vocab_size=40, d_model=32, n_layers=3, n_heads=4, d_ff=64, max_len=32)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Transformer(TransformerConfig(**{**base, **kw}), device="cpu").eval()
    # larger weights than GPT-2's init, so every sub-layer changes the stream visibly
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() == 2:
                p.mul_(scale)
    return model


def run(model: Transformer, ids=IDS):
    kw = {"tgt_ids": ids[:6]} if model.cfg.arch == "encoder-decoder" else {}
    return model.run_with_cache(ids, **kw)


PRE_LN = {
    "layernorm-sinusoidal": dict(),
    "learned-gelu": dict(positional="learned", activation="gelu_tanh"),
    "llama": dict(positional="rope", norm="rmsnorm", activation="swiglu", bias=False, n_kv_heads=2,
                  tie_embeddings=False),
    "dyt-alibi": dict(norm="dyt", positional="alibi"),
    "encoder": dict(arch="encoder", output="hidden", tie_embeddings=False),
    "t5": dict(arch="encoder-decoder", positional="relative", norm="rmsnorm"),
}
POST_LN = {
    "post-layernorm": dict(norm_position="post"),
    "bert-like": dict(arch="encoder", norm_position="post", embed_norm=True, n_token_types=2, positional="learned",
                      output="hidden", tie_embeddings=False, activation="gelu"),
    "original": dict(arch="encoder-decoder", norm_position="post"),
    "post-rms": dict(norm_position="post", norm="rmsnorm"),
}

# the 2024-26 families (issue 32): where their norms sit, what differs between their layers
FAMILIES = {
    "gemma2-sandwich": dict(norm="rmsnorm", norm_plus_one=True, norm_position="sandwich", positional="rope",
                            activation="geglu", qk_norm="head", local_layers=(0, 2), local_window=2,
                            rope_local_base=100.0, attn_softcap=5.0, attn_scale=0.2, first_attn_norm=False),
    "olmo2-output": dict(norm="rmsnorm", norm_position="output", positional="rope", qk_norm="full", bias=False,
                         nope_layers=(1,), tie_embeddings=False),
    "granite": dict(norm="rmsnorm", positional="rope", embed_multiplier=3.0, residual_multiplier=0.5,
                    logit_divisor=2.0, n_kv_heads=2),
    "electra": dict(d_embed=16, positional="learned", embed_norm=True, tie_embeddings=False),
    "phi2-shared": dict(parallel_residual=True, shared_block_norm=True, positional="rope", unembed_bias=True,
                        tie_embeddings=False),
    "modernbert": dict(arch="encoder", norm_bias=False, first_attn_norm=False, activation="geglu_exact",
                       local_layers=(0, 1), local_window=2, positional="rope", embed_norm=True, output="hidden",
                       tie_embeddings=False),
    "sandwich-layernorm": dict(norm_position="sandwich", positional="learned", residual_multiplier=0.7),
}


# --------------------------------------------------------------------------- residual stream


@pytest.mark.parametrize("kw", PRE_LN.values(), ids=PRE_LN.keys())
def test_embedding_plus_contributions_is_the_final_stream(kw):
    model = make(**kw)
    _, trace = run(model)
    stacks = ["encoder", "decoder"] if model.cfg.arch == "encoder-decoder" else [None]
    for stack in stacks:
        dec = residual.decomposition(model, trace, stack)
        assert dec.additive
        s = residual.stack_of(model, stack)
        final = trace.get("resid_post", model.cfg.n_layers - 1, s, batch=0).numpy()
        np.testing.assert_allclose(dec.components.sum(0), final, atol=1e-5, rtol=0)
        # the stream grows: the check is not 0 == 0
        assert np.abs(final - dec.components[0]).max() > 0.1
        n_sub = 3 if s is Stack.DECODER else 2
        assert len(dec.labels) == 1 + n_sub * model.cfg.n_layers


def test_embedding_component_is_token_plus_position():
    model = make(positional="learned")
    _, trace = run(model)
    dec = residual.decomposition(model, trace)
    expected = (trace["hook_embed"] + trace["hook_pos_embed"])[0].numpy()
    np.testing.assert_allclose(dec.components[0], expected, atol=1e-6)


@pytest.mark.parametrize("kw", POST_LN.values(), ids=POST_LN.keys())
def test_post_ln_is_not_a_sum(kw):
    model = make(**kw)
    _, trace = run(model)
    dec = residual.decomposition(model, trace)
    assert not dec.additive
    assert np.abs(dec.components.sum(0) - dec.final).max() > 1e-2


@pytest.mark.parametrize("kw", [*PRE_LN.values(), *POST_LN.values()], ids=[*PRE_LN, *POST_LN])
def test_norm_inputs_reproduce_every_norm(kw):
    """The rebuilt input of each norm, run through that norm module, gives exactly what
    its hook_normalized recorded: the statistics are about the real inputs."""
    model = make(**kw)
    _, trace = run(model)
    stacks = ["encoder", "decoder"] if model.cfg.arch == "encoder-decoder" else [None]
    for stack in stacks:
        items = residual.norm_inputs(model, trace, stack)
        per_layer = 3 if stack == "decoder" else 2
        expected = model.cfg.n_layers * per_layer + (model.cfg.norm_position == "pre") + model.cfg.embed_norm
        assert len(items) == expected
        for site in items:
            with torch.no_grad():
                torch.testing.assert_close(model.get_submodule(site.module)(site.input), site.output, atol=1e-5,
                                           rtol=1e-5)


@pytest.mark.parametrize("norm", ["layernorm", "rmsnorm", "dyt"])
def test_norm_stats(norm):
    model = make(norm=norm)
    _, trace = run(model)
    ns = residual.norm_stats(model, trace)
    n = len(ns.names)
    assert ns.names[-1] == "ln_final" and ns.in_mean.shape == (n, len(IDS)) and ns.inputs.shape == (n, len(IDS), 32)
    eps = model.cfg.norm_eps
    if norm == "layernorm":
        np.testing.assert_allclose(ns.scale, np.sqrt(ns.in_var + eps), rtol=1e-4)
        assert np.isnan(ns.alpha).all()
        # before the gain: mean 0, variance 1 (the gain is 1 at init... and ×8 above, so check the raw formula)
        w = model.ln_final.weight.detach().numpy()
        raw = (ns.outputs[-1] - model.ln_final.bias.detach().numpy()) / w
        np.testing.assert_allclose(raw.mean(-1), 0, atol=1e-4)
        np.testing.assert_allclose(raw.var(-1), 1, atol=1e-3)
    elif norm == "rmsnorm":
        np.testing.assert_allclose(ns.scale, np.sqrt(ns.in_rms ** 2 + eps), rtol=1e-4)
    else:
        assert np.isnan(ns.scale).all()
        np.testing.assert_allclose(ns.alpha, model.cfg.dyt_alpha)
        assert (np.abs(ns.outputs) <= np.abs(model.ln_final.weight.detach().numpy()) + 1e-3).all()


def test_contribution_stats():
    model = make()
    _, trace = run(model)
    dec = residual.decomposition(model, trace)
    c = residual.contribution_stats(dec)
    n = len(dec.labels)
    for key in ("norm", "stream_norm", "cos_stream", "cos_final"):
        assert c[key].shape == (n, len(IDS))
    assert (np.abs(c["cos_stream"]) <= 1 + 1e-6).all() and (c["cos_stream"][0] == 0).all()   # nothing before the embedding
    np.testing.assert_allclose(c["norm"][3], np.linalg.norm(dec.components[3], axis=-1), rtol=1e-6)
    a = dec.components[2, 0]
    b = dec.stream[1, 0]
    np.testing.assert_allclose(c["cos_stream"][2, 0], a @ b / np.linalg.norm(a) / np.linalg.norm(b), rtol=1e-5)


@pytest.mark.parametrize("kw", [dict(), dict(norm_position="post"), PRE_LN["llama"], dict(norm="dyt"),
                                dict(arch="encoder-decoder"), dict(arch="encoder-decoder", norm_position="post")],
                         ids=["pre", "post", "llama", "dyt", "encdec", "encdec-post"])
def test_logit_lens_last_layer_is_the_output(kw):
    model = make(**kw)
    out, trace = run(model)
    lens = residual.logit_lens(model, trace, k=5)
    n = model.cfg.n_layers
    assert lens.labels == ["embed"] + [f"L{i}" for i in range(n)]
    pos = out.shape[1]
    assert lens.top_ids.shape == (n + 1, pos, 5) and lens.final_token_prob.shape == (n + 1, pos)
    probs = out[0].float().softmax(-1).numpy()
    np.testing.assert_allclose(lens.final_probs, probs, atol=1e-6)
    np.testing.assert_array_equal(lens.top_ids[-1, :, 0], probs.argmax(-1))
    np.testing.assert_allclose(lens.top_probs[-1, :, 0], probs.max(-1), atol=1e-6)
    np.testing.assert_allclose(lens.final_token_prob[-1], probs.max(-1), atol=1e-6)
    assert (np.diff(lens.top_probs, axis=-1) <= 1e-7).all()                      # sorted, best first
    # an earlier layer reads differently (otherwise the lens would show nothing)
    assert not np.allclose(lens.top_probs[0], lens.top_probs[-1])


def test_logit_lens_needs_an_unembedding():
    model = make(arch="encoder", output="hidden", tie_embeddings=False)
    _, trace = run(model)
    assert not residual.has_unembedding(model)
    with pytest.raises(ValueError, match="no unembedding"):
        residual.logit_lens(model, trace)


def test_stack_of():
    model = make(arch="encoder-decoder")
    assert residual.stack_of(model) is Stack.DECODER
    assert residual.stack_of(model, "encoder") is Stack.ENCODER
    with pytest.raises(ValueError, match="encoder-decoder"):
        residual.stack_of(model, "self")
    with pytest.raises(ValueError, match="Unknown stack"):
        residual.stack_of(make(), "middle")


# --------------------------------------------------------------------------- FFN


@pytest.mark.parametrize("act", ["relu", "gelu", "gelu_tanh", "swiglu"])
def test_ffn_activations_and_key_value_sum(act):
    model = make(activation=act)
    _, trace = run(model)
    pre, post = ffn.activations(trace)
    assert pre.shape == post.shape == (3, len(IDS), 64)
    if act == "swiglu":
        lin = trace["blocks.1.mlp.hook_pre_linear"][0].numpy()
        np.testing.assert_allclose(post[1], ffn.activation_curve("swiglu", pre[1]) * lin, rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_allclose(post[1], ffn.activation_curve(act, pre[1]), rtol=1e-5, atol=1e-6)
    # FFN output = sum over neurons of activation x value vector (+ bias): Geva et al.
    values = np.stack([ffn.neuron_value(model, 1, n) for n in range(64)], axis=1)     # [d, ff]
    mlp_out = trace["blocks.1.hook_mlp_out"][0].numpy()
    np.testing.assert_allclose(post[1] @ values.T + model.blocks[1].mlp.W_out.bias.detach().numpy(), mlp_out,
                               rtol=1e-4, atol=1e-4)


def test_activation_curve_values():
    x = np.array([-1.0, 0.0, 2.0], dtype=np.float32)
    np.testing.assert_array_equal(ffn.activation_curve("relu", x), [0, 0, 2])
    assert ffn.activation_curve("gelu", np.array([1.0]))[0] == pytest.approx(0.8413447, abs=1e-6)   # x·Φ(x)
    assert ffn.activation_curve("swiglu", np.array([1.0]))[0] == pytest.approx(1 / (1 + math.exp(-1)), abs=1e-6)
    with pytest.raises(ValueError, match="Unknown activation"):
        ffn.activation_curve("tanh", x)
    assert ffn.is_exactly_sparse("relu") and not ffn.is_exactly_sparse("gelu")


def test_neuron_value_and_projection():
    model = make()
    v = ffn.neuron_value(model, 2, 5)
    np.testing.assert_array_equal(v, model.blocks[2].mlp.W_out.weight[:, 5].detach().numpy())
    with pytest.raises(ValueError, match="Neuron 64 does not exist"):
        ffn.neuron_value(model, 0, 64)
    with pytest.raises(ValueError, match="Layer 3 does not exist"):
        ffn.neuron_value(model, 3, 0)
    proj = ffn.project_to_vocab(model, v, k=4)
    scores = model.unembed.weight.detach().numpy() @ v
    assert proj.via == "unembedding"
    np.testing.assert_array_equal(proj.top_ids, np.argsort(-scores)[:4])
    np.testing.assert_array_equal(proj.bottom_ids, np.argsort(scores)[:4])
    np.testing.assert_allclose(proj.top_scores, np.sort(scores)[::-1][:4], rtol=1e-5)
    tiny = make(vocab_size=6)
    small = ffn.project_to_vocab(tiny, ffn.neuron_value(tiny, 0, 0), k=10)
    assert len(small.top_ids) == 3 and not set(small.top_ids) & set(small.bottom_ids)
    enc = make(arch="encoder", output="hidden", tie_embeddings=False)
    assert ffn.project_to_vocab(enc, ffn.neuron_value(enc, 0, 0)).via == "embedding"
    with pytest.raises(ValueError, match="d_model=32"):
        ffn.project_to_vocab(model, np.zeros(5))


@pytest.mark.parametrize("kw", [dict(), PRE_LN["llama"], POST_LN["bert-like"], dict(arch="encoder-decoder")],
                         ids=["tied", "llama", "bert", "encdec"])
def test_parameter_breakdown(kw):
    model = make(**kw)
    parts = ffn.parameter_breakdown(model)
    assert sum(parts.values()) == model.n_params
    assert parts["other"] == 0
    stacks = 2 if model.cfg.arch == "encoder-decoder" else 1
    assert parts["ffn"] == stacks * model.cfg.n_layers * ffn.ffn_params_per_layer(model)
    if not kw:
        assert ffn.ffn_params_per_layer(model) == 2 * 32 * 64 + 64 + 32
        assert parts["embeddings"] == 40 * 32            # tied: counted once; sinusoidal has no parameters


# --------------------------------------------------------------------------- ablation


def test_zero_head_silences_that_head_only():
    model = make()
    out, trace = run(model)
    ab = ablation.Ablation(heads=((1, 2),))
    with ablation.applied(model, ab) as m:
        assert m is model                                 # hooks only, no rebuild
        out2, trace2 = run(m)
    z, z2 = trace["blocks.1.attn.hook_z"], trace2["blocks.1.attn.hook_z"]
    assert (z2[:, :, 2] == 0).all() and (z[:, :, 2] != 0).any()
    torch.testing.assert_close(z2[:, :, [0, 1, 3]], z[:, :, [0, 1, 3]])
    torch.testing.assert_close(trace2["blocks.0.hook_resid_post"], trace["blocks.0.hook_resid_post"])
    assert not torch.allclose(out, out2)
    # the hooks are gone afterwards
    torch.testing.assert_close(run(model)[0], out)


def test_remove_mask():
    dec = make()
    with ablation.applied(dec, ablation.Ablation(remove_mask=True)) as m:
        _, trace = run(m)
    assert trace["blocks.0.attn.hook_pattern"][0, :, 0, 1:].sum() > 0        # the first token now sees the future
    tiny = make(vocab_size=6)
    small = ffn.project_to_vocab(tiny, ffn.neuron_value(tiny, 0, 0), k=10)
    assert len(small.top_ids) == 3 and not set(small.top_ids) & set(small.bottom_ids)
    enc = make(arch="encoder", output="hidden", tie_embeddings=False)
    with ablation.applied(enc, ablation.Ablation(remove_mask=True)) as m:
        out = run(m)[0]
    torch.testing.assert_close(out, run(enc)[0])                          # a full mask: nothing to remove
    local = make(arch="encoder", output="hidden", tie_embeddings=False, attention=MaskSpec("local", window=1),
                 scale=1.0)
    with ablation.applied(local, ablation.Ablation(remove_mask=True)) as m:
        out, trace = run(m)
    assert trace["blocks.0.attn.hook_pattern"][0, :, 0, 2:].sum() > 0        # beyond the window
    assert not torch.allclose(out, run(local)[0])


def test_drop_positional_is_the_same_weights_without_positions():
    model = make(positional="learned")
    rebuilt = ablation.rebuild(model, ablation.Ablation(drop_positional=True))
    assert rebuilt.model is not model and rebuilt.model.cfg.positional == "none"
    assert rebuilt.dropped == ["pos_embed.weight"] and rebuilt.missing == []
    # the same as zeroing the position table of the original
    with ablation.applied(model, ablation.Ablation(drop_positional=True), rebuilt) as m:
        out = run(m)[0]
    with torch.no_grad():
        saved = model.pos_embed.weight.clone()
        model.pos_embed.weight.zero_()
        expected = run(model)[0]
        model.pos_embed.weight.copy_(saved)
    torch.testing.assert_close(out, expected)
    assert model.cfg.positional == "learned"                             # the original is untouched


@pytest.mark.parametrize("target,missing,dropped", [("rmsnorm", False, True), ("dyt", True, False)])
def test_swap_norm(target, missing, dropped):
    model = make()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    rebuilt = ablation.rebuild(model, ablation.Ablation(norm=target))
    assert rebuilt.model.cfg.norm == target
    assert bool(rebuilt.missing) == missing and bool(rebuilt.dropped) == dropped
    assert all(k.endswith("alpha") for k in rebuilt.missing) and all(k.endswith("bias") for k in rebuilt.dropped)
    torch.testing.assert_close(rebuilt.model.blocks[0].mlp.W_in.weight, model.blocks[0].mlp.W_in.weight)
    assert rebuilt.model.unembed.weight is rebuilt.model.embed.weight     # still tied
    with ablation.applied(model, ablation.Ablation(norm=target), rebuilt) as m:
        assert not torch.allclose(run(m)[0], run(model)[0])
    for k, v in model.state_dict().items():
        torch.testing.assert_close(v, before[k])


def test_ablation_validation_and_output_change():
    model = make()
    assert ablation.Ablation().empty and not ablation.Ablation(remove_mask=True).empty
    assert ablation.Ablation(heads=[(1, 2), (0, 1), (1, 2)]).heads == ((0, 1), (1, 2))
    with pytest.raises(ValueError, match="Unknown normalisation"):
        ablation.Ablation(norm="batchnorm")
    with pytest.raises(ValueError, match="does not exist"):
        with ablation.applied(model, ablation.Ablation(heads=((0, 4),))):
            pass
    out = run(model)[0]
    same = ablation.output_change(out, out, logits=True)
    np.testing.assert_allclose(same["kl"], 0, atol=1e-6)
    assert not same["changed"].any() and (same["logit_diff"] == 0).all()
    with ablation.applied(model, ablation.Ablation(heads=((0, 0), (0, 1), (0, 2), (0, 3)))) as m:
        diff = ablation.output_change(out, run(m)[0], logits=True)
    assert diff["kl"].shape == (len(IDS),) and (diff["kl"] > 0).all()
    h = torch.randn(1, 4, 8)
    hid = ablation.output_change(h, h * 2, logits=False)
    np.testing.assert_allclose(hid["cosine"], 1, atol=1e-6)
    np.testing.assert_allclose(hid["rel_change"], 1, atol=1e-6)


# --------------------------------------------------------------------------- viz_core


def test_top_neurons_and_sparsity():
    acts = np.zeros((2, 6), dtype=np.float32)
    acts[0, 4], acts[0, 1], acts[1, 2], acts[1, 1] = 5, 1, -3, 0.5
    np.testing.assert_array_equal(vz.top_neurons(acts, k_per_token=1), [4, 2])
    np.testing.assert_array_equal(vz.top_neurons(acts, k_per_token=2, max_neurons=3), [4, 2, 1])
    with pytest.raises(ValueError, match=r"\[pos, d_ff\]"):
        vz.top_neurons(acts[0])
    post = np.array([[[0, 0, 1, 2]], [[0.005, -0.2, 0, 3]]], dtype=np.float32)     # [2 layers, 1 pos, 4]
    np.testing.assert_allclose(vz.ffn_sparsity(post, exact=True), [0.5, 0.25])
    np.testing.assert_allclose(vz.ffn_sparsity(post, exact=False, tol=0.01), [0.5, 0.5])


def test_difference_and_alignment():
    np.testing.assert_array_equal(vz.difference(np.ones((2, 2)), np.eye(2)), [[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="same shape"):
        vz.difference(np.ones((2, 2)), np.ones((3, 2)))
    assert vz.differing_positions(["a", "cat", "sat"], ["a", "dog", "sat"]) == [1]
    with pytest.raises(ValueError, match="Text A has 2 tokens and text B has 3"):
        vz.differing_positions(["a", "b"], ["a", "b", "c"])


def _spec(fig) -> dict:
    return json.loads(fig.to_json())


def test_activation_heatmap_structure():
    acts = np.arange(12, dtype=np.float32).reshape(3, 4) - 6
    fig = vz.activation_heatmap(acts, ["<b>x</b>", "cat", "sat"], [7, 3, 9, 1], selected=9)
    spec = _spec(fig)
    heat, click = spec["data"]
    assert heat["type"] == "heatmap" and heat["zmin"] == -heat["zmax"]
    assert click["name"] == "click" and len(click["customdata"]) == 12
    assert click["customdata"][4 + 2] == [1, 9]                       # row 1, column 2 -> neuron 9
    assert "&lt;b&gt;" in spec["layout"]["yaxis"]["ticktext"][0] and "<b>" not in json.dumps(spec["layout"])
    assert spec["layout"]["shapes"][0]["x0"] == 1.5                   # the selected neuron's column
    with pytest.raises(ValueError, match="neuron ids"):
        vz.activation_heatmap(acts, ["a", "b", "c"], [1, 2])
    with pytest.raises(ValueError, match="too many"):
        vz.activation_heatmap(np.zeros((129, 65)), ["t"] * 129, list(range(65)))


def test_value_heatmap_and_charts():
    z = np.array([[0.1, 0.9], [0.5, 0.2]], dtype=np.float32)
    fig = vz.value_heatmap(z, ["embed", "L0"], ["a", "<i>"], text=[["x", "<s>"], ["y", "z"]], zmin=0, zmax=1)
    spec = _spec(fig)
    assert spec["data"][0]["text"][0][1] == "&lt;s&gt;" and spec["data"][0]["texttemplate"] == "%{text}"
    assert spec["layout"]["yaxis"]["range"] == [1.5, -0.5]            # first step on top
    with pytest.raises(ValueError, match="text must be"):
        vz.value_heatmap(z, ["a", "b"], ["c", "d"], text=[["x"]])
    c = _spec(vz.contribution_chart(["embed", "L0 attn", "L0 mlp"], np.array([1, 2, 3.0]), np.array([0, .5, -.5])))
    assert [d["type"] for d in c["data"]] == ["bar", "bar"] and c["layout"]["yaxis2"]["range"] == [-1.05, 1.05]
    lines = _spec(vz.lines_chart({"pre": (["e", "L0"], np.array([1.0, 2.0])), "post": (["e"], np.array([1.0]))}))
    assert [d["name"] for d in lines["data"]] == ["pre", "post"]
    pie = _spec(vz.share_chart({"ffn": 3, "attention": 1, "other": 0}))
    assert pie["data"][0]["labels"] == ["ffn", "attention"]
    bars = _spec(vz.token_bars(np.array([1.0, -1.0]), ["a", "b"], highlight=[1]))
    assert bars["data"][0]["marker"]["color"][1] == "#ff7f0e"
    vb = _spec(vz.vocab_bars(["up", "<x>"], np.array([2.0, 1.0]), ["down"], np.array([-1.0])))
    assert len(vb["data"]) == 2 and "&lt;x&gt;" in json.dumps(vb["data"][0]["y"])
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    af = _spec(vz.activation_function_figure(np.array([-1.0, 0.0, 0.5, 10.0]), x, np.maximum(x, 0), name="ReLU"))
    assert af["data"][1]["name"] == "ReLU"


def test_activation_function_histogram_counts_values_in_range():
    x = np.linspace(-2, 2, 5, dtype=np.float32)
    fig = vz.activation_function_figure(np.array([-1.0, 0.0, 0.5, 10.0]), x, x, name="id", bins=4)
    counts = fig.data[0].y
    assert int(np.sum(counts)) == 3                                   # 10.0 lies outside the drawn range


# --------------------------------------------------------------------------- the 2024-26 families


@pytest.mark.parametrize("kw", FAMILIES.values(), ids=FAMILIES.keys())
def test_new_placements_add_up_and_every_norm_is_rebuilt(kw):
    """Sandwich and output norms sit on what a sub-layer adds, so the stream is still the
    embedding plus the recorded outputs; each norm's rebuilt input (its sub-layer's own
    output for ln1_out / ln2_out) gives what the norm recorded; a missing or shared norm
    is not listed."""
    from lab import norms

    model = make(scale=2.0, **kw)
    cfg = model.cfg
    _, trace = run(model)
    dec = residual.decomposition(model, trace)
    assert dec.additive
    np.testing.assert_allclose(dec.components.sum(0), dec.final, atol=1e-4, rtol=0)
    items = residual.norm_inputs(model, trace)
    for site in items:
        with torch.no_grad():
            torch.testing.assert_close(model.get_submodule(site.module)(site.input), site.output, atol=1e-5, rtol=1e-5)
    labels = [site.label for site in items]
    assert ("L0 ln1" in labels) == (cfg.first_attn_norm and cfg.norm_position != "output")
    assert ("L0 ln2" in labels) == (cfg.norm_position != "output" and not cfg.shared_block_norm)
    assert ("L0 ln1_out" in labels) == (cfg.norm_position in ("sandwich", "output"))
    assert (labels[-1] == "ln_final") and labels.count("ln_embed") == cfg.embed_norm
    stats = residual.norm_stats(model, trace)                   # ELECTRA: ln_embed is narrower than the stream
    assert stats.inputs.shape == (len(items), len(IDS), cfg.d_model) and np.isfinite(stats.in_var).all()
    norms.norm_scatter(model, trace)
    x = norms.norm_input(model, [IDS], None, 1)               # the padded-batch view's first norm input
    assert x.shape == (1, len(IDS), cfg.d_model)
    if cfg.norm_position == "output":                     # ln1_out reads the attention's own output
        site = next(s for s in items if s.label == "L1 ln1_out")
        np.testing.assert_allclose(x[0], site.input.double().numpy(), atol=1e-5)
    # what the FFN reads: ln2's output, ln1's (one shared norm), or the stream
    mix = ffn.mixing(model, IDS, layer=1, position=2)
    assert mix.ffn_here > 0 and mix.ffn_elsewhere < 1e-5


@pytest.mark.parametrize("kw", FAMILIES.values(), ids=FAMILIES.keys())
def test_the_walkthrough_recomputes_every_layer_of_the_new_families(kw):
    """One query of one head, recomputed in float64 with the layer's own positions (a
    sliding-window layer's RoPE base, none on a NoPE layer), q/k norms, scale, soft-cap,
    output norm and residual multiplier, equals what the model added."""
    from lab import walkthrough

    model = make(scale=2.0, **kw)
    _, trace = run(model)
    for layer in range(model.cfg.n_layers):
        w = walkthrough.walk_head(model, trace, layer, head=layer % 4, query=5)
        assert w.error < 1e-4, (layer, w.error)
        np.testing.assert_allclose(w.weights, w.model_pattern, atol=1e-5)
        assert w.rope == model.cfg.layer_has_rope(layer)
    w = walkthrough.walk_head(model, trace, 0, 0, 3)
    assert w.qk_norm == model.cfg.qk_norm and w.out_norm == (model.cfg.norm_position in ("sandwich", "output"))
    assert w.softcap == model.cfg.attn_softcap and w.multiplier == model.cfg.residual_multiplier

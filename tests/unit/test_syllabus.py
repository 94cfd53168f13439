"""The input layer, LayerNorm vs BatchNorm, teacher forcing and the PE calculator
(lab/input_layer.py, lab/norms.py, lab/teacher_forcing.py, lab/positional.py), each
number against the model's own recording or a closed form."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest
import torch

import lab.positional
import models.positional
from lab import input_layer, norms, residual, teacher_forcing
from models.config import TransformerConfig
from models.trace import act_name, record_names
from models.transformer import Transformer
from models.weights import zoo

TEXT = "The students watched the model read their sentence."
SHORT = "A shorter one."


def load(key: str):
    return zoo.load(key, device="cpu")


# ---- the input layer --------------------------------------------------------------------------------
def test_input_layer_of_minilm_is_the_models_own():
    model, tok = load("minilm")
    ids = tok.encode(TEXT).ids
    r = input_layer.input_layer(model, ids)
    assert r.lookup_error == 0.0 and r.sum_error <= 1e-5
    e = model.embed.weight.detach().double()[ids]
    assert np.allclose(r.token_norm, e.norm(dim=-1).numpy())
    assert np.allclose(r.scaled_norm, r.token_norm * math.sqrt(384)) and not r.scales_embeddings
    assert r.segment_norm is not None and np.allclose(r.segment_norm, r.segment_norm[0])       # all segment 0
    assert np.allclose(r.position_norm, model.pos_embed.weight.detach().double()[: len(ids)].norm(dim=-1).numpy())
    assert np.allclose(r.position_ratio, r.position_norm / r.token_norm)
    assert r.embed_std == pytest.approx(float(model.embed.weight.detach().double().std()))


def test_input_layer_with_sinusoidal_positions_and_without_any():
    model, tok = load("custom:transformer")
    ids = tok.encode(TEXT).ids
    for stack in ("encoder", "decoder"):
        r = input_layer.input_layer(model, ids, stack, ids)
        assert np.allclose(r.position_norm, math.sqrt(model.cfg.d_model / 2))    # each (sin, cos) pair has norm 1
        assert r.lookup_error == 0.0 and r.sum_error <= 1e-5
        assert r.segment_norm is None
    model, tok = load("custom:llama")
    r = input_layer.input_layer(model, tok.encode(TEXT).ids)
    assert r.position_norm is None and r.position_ratio is None and np.allclose(r.sum_norm, r.token_norm)


# ---- LayerNorm vs BatchNorm ---------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["minilm", "custom:gpt", "custom:llama", "toy:reverse-sinusoidal-postln"])
def test_batchnorm_statistics_change_with_padding_layernorms_do_not(key):
    model, tok = load(key)
    texts = ("abcdef=fedcba", "ab=ba") if key.startswith("toy:") else (TEXT, SHORT)
    encs = [tok.encode(t) for t in texts]
    pad = tok.pad_id if getattr(tok, "pad_id", None) is not None else 0
    b = norms.batch_norms(model, [e.ids for e in encs], [e.tokens for e in encs], pad, tok.id_to_token(pad), 0)
    assert b.ln_change <= 1e-5                                  # per token: padding never enters
    assert max(b.sweep_ln) <= 1e-5
    assert b.bn_change > 100 * max(b.ln_change, 1e-7)           # per feature: padding moves the mean
    assert min(b.sweep_bn[1:]) > 0 and b.sweep_bn[0] == pytest.approx(b.bn_change)
    v = b.valid
    assert np.allclose(b.bn_mean_real, b.x[v].mean(0)) and np.allclose(b.bn_mean_all, b.x.reshape(-1, b.x.shape[2]).mean(0))
    assert b.tokens[1][-1] == tok.id_to_token(pad) and b.lengths == [len(e.ids) for e in encs]


def test_layernorm_statistics_are_the_models_own_divisor():
    model, tok = load("custom:gpt")                               # pre-LN: ln1 reads the stream
    encs = [tok.encode(t) for t in (TEXT, SHORT)]
    b = norms.batch_norms(model, [e.ids for e in encs], [e.tokens for e in encs], 0, "[PAD]", 1)
    ids = [list(encs[0].ids), list(encs[1].ids) + [0] * (len(encs[0].ids) - len(encs[1].ids))]
    valid = [[1] * len(encs[0].ids), [1] * len(encs[1].ids) + [0] * (len(encs[0].ids) - len(encs[1].ids))]
    _, tr = model.run_with_cache(ids, attention_mask=valid, names=[act_name("ln1.scale", 1)])
    scale = tr.get("ln1.scale", 1)[..., 0].double().numpy()       # sqrt(var + eps), the kernel's own
    assert np.allclose(np.sqrt(b.ln_std**2 + model.cfg.norm_eps), scale, atol=1e-5)


def test_tanh_fit_recovers_a_tanh_and_a_real_layernorm_bends():
    x = np.linspace(-6, 6, 500)
    a, g, r2 = norms.fit_tanh(x, 2.5 * np.tanh(0.7 * x))
    assert a == pytest.approx(0.7, rel=2e-3) and g == pytest.approx(2.5, rel=2e-3) and r2 > 0.99999
    model, tok = load("minilm")
    _, tr = model.run_with_cache(tok.encode(TEXT).ids, names=record_names(model.cfg, residual.KINDS))
    sc = norms.norm_scatter(model, tr, "blocks.0.ln2")
    assert sc.kind == "layernorm" and sc.formula_error <= 1e-5
    assert sc.r2_tanh > 0.9 and sc.r2_tanh > sc.r2_line + 0.2      # outlier features: the cloud bends
    with pytest.raises(ValueError):
        norms.norm_scatter(model, tr, "nope")


def test_dyt_scatter_is_its_own_tanh():
    cfg = TransformerConfig(arch="decoder", vocab_size=50, norm="dyt")
    model = Transformer(cfg, device="cpu").eval()
    _, tr = model.run_with_cache(list(range(1, 12)), names=record_names(cfg, residual.KINDS))
    sc = norms.norm_scatter(model, tr)
    assert sc.formula_error <= 1e-6 and sc.model_alpha == pytest.approx(cfg.dyt_alpha)
    assert sc.alpha == pytest.approx(cfg.dyt_alpha, rel=0.01) and sc.r2_tanh > 0.9999


# ---- teacher forcing --------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["custom:gpt", "custom:llama", "custom:alibi", "custom:t5", "custom:transformer"])
def test_teacher_forced_logits_equal_kv_cache_logits(key):
    model, tok = load(key)
    ids = tok.encode(TEXT).ids
    src = ids if model.cfg.arch == "encoder-decoder" else None
    r = teacher_forcing.teacher_forcing(model, ids, src)
    assert r.max_diff <= 1e-5
    assert (r.top_parallel == r.top_cached).all() and r.n_passes_cached == len(ids)
    with torch.no_grad():
        logits = (model(src, ids) if src else model(ids))[0].double()
    want = -logits.log_softmax(-1)[torch.arange(len(ids) - 1), torch.tensor(ids[1:])]
    assert np.allclose(r.loss, want.numpy(), atol=1e-6)      # one pass, the shifted targets
    assert r.mean_loss == pytest.approx(float(want.mean()), abs=1e-6)
    m = r.loss_matrix()
    assert m.shape == (len(ids) - 1, len(ids)) and np.allclose(np.diagonal(m, 1), r.loss)
    assert np.isnan(m[0, 2:]).all() and (m[-1, :-1] == 0).all()


@pytest.mark.parametrize("key", [e.key for e in zoo.catalogue() if e.kind == "toy" and e.available])
def test_teacher_forcing_on_every_shipped_checkpoint(key):
    """The toy models' logits reach ~15, where float32 rounds to ~2e-6: compared in float64."""
    model, tok = load(key)
    task = zoo.get(key).task
    from models.training.tasks import get_task

    ex = get_task(task).probe()
    double = copy.deepcopy(model).double()
    if model.cfg.arch == "encoder-decoder":
        r = teacher_forcing.teacher_forcing(double, ex.tgt_ids, ex.ids)
    else:
        r = teacher_forcing.teacher_forcing(double, ex.ids)
    assert r.max_diff <= 1e-5


def test_teacher_forcing_refuses_what_it_cannot_do():
    model, _ = load("minilm")
    with pytest.raises(ValueError, match="encoder"):
        teacher_forcing.teacher_forcing(model, [1, 2, 3])
    model, _ = load("custom:gpt")
    with pytest.raises(ValueError, match="two tokens"):
        teacher_forcing.teacher_forcing(model, [5])
    model, _ = load("custom:longformer")
    with pytest.raises(ValueError):
        teacher_forcing.teacher_forcing(model, [5, 6])


# ---- the PE calculator -------------------------------------------------------------------------------------
def test_pe_calculator_any_width_any_position_in_radians():
    e = lab.positional.sinusoidal_entry(10, 0, 512)
    assert e.value == pytest.approx(math.sin(10)) and round(e.value, 4) == -0.5440
    assert e.degrees == pytest.approx(math.sin(math.radians(10))) and round(e.degrees, 4) == 0.1736
    table = models.positional.sinusoidal(20, 512)
    for dim in (0, 1, 2, 3, 510, 511):
        assert lab.positional.sinusoidal_entry(10, dim, 512).value == pytest.approx(float(table[10, dim]), abs=1e-6)
    far = lab.positional.sinusoidal_entry(10**9, 7, 512)                     # no table of a billion rows is built
    assert far.value == pytest.approx(math.cos(1e9 / 10000 ** (6 / 512)), abs=1e-6)
    rows = lab.positional.notes_example()
    assert [round(r.degrees, 2) for r in rows[:4]] == [0.17, 0.98, 0.17, 0.99]   # what the notes print
    assert [round(r.value, 4) for r in rows[:2]] == [-0.5440, -0.8391]
    assert torch.equal(models.positional.sinusoidal_at(torch.arange(20), 512).float(), table)
    with pytest.raises(ValueError):
        lab.positional.sinusoidal_entry(1, 512, 512)


def test_the_wrong_exponent_takes_each_pair_off_the_unit_circle():
    """The model's table: every (sin, cos) pair has radius 1 (checked on models.positional's own
    table); with base^(i/d) per dimension, by hand with math, the radii are not 1."""
    pos, d = 37, 16
    table = models.positional.sinusoidal_at([pos], d, 10000.0)[0].numpy().astype(np.float64)
    np.testing.assert_allclose(np.hypot(table[0::2], table[1::2]), 1.0, atol=1e-6)
    radii = lab.positional.exponent_mistake_radii(pos, d)
    by_hand = [math.hypot(math.sin(pos / 10000 ** (2 * i / d)), math.cos(pos / 10000 ** ((2 * i + 1) / d)))
               for i in range(d // 2)]
    np.testing.assert_allclose(radii, by_hand, rtol=1e-12)
    assert np.abs(radii - 1).max() > 0.01
    with pytest.raises(ValueError, match="even width"):
        lab.positional.exponent_mistake_radii(1, 7)

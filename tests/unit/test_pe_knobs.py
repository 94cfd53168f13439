"""Positional knobs (issue 21): RoPE base and scaling, ALiBi slopes, T5 buckets, sinusoidal
base and layout, softmax temperature — in the model code (models/positional.py, config)
and applied to trained weights (lab/pe_knobs.py)."""
from __future__ import annotations

import dataclasses
import math

import pytest
import torch

import lab.pe_knobs
import models.positional
from models.config import TransformerConfig
from models.errors import ConfigError
from models.trace import act_name
from models.transformer import Transformer


def model(positional: str, arch: str = "decoder", **kw) -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(arch=arch, positional=positional, vocab_size=40, d_model=32, n_heads=4,
                                         n_layers=2, d_ff=64, max_len=64, **kw)).eval()


IDS = torch.randint(0, 40, (2, 24), generator=torch.Generator().manual_seed(1))


def logits(m: Transformer) -> torch.Tensor:
    with torch.no_grad():
        return m(IDS)


# ---- the model code -----------------------------------------------------------------------------
def test_stock_knobs_reproduce_the_stock_model_bitwise():
    for pe in ("rope", "alibi", "relative", "sinusoidal", "learned", "none"):
        m = model(pe)
        assert lab.pe_knobs.apply(m, lab.pe_knobs.Knobs()) is m
        explicit = lab.pe_knobs.Knobs(rope_base=10000.0, rope_scaling="linear", rope_factor=1.0, sinusoidal_base=10000.0,
                           sinusoidal_layout="interleaved", temperature=1.0, alibi_slope_scale=1.0,
                           relative_buckets=32, relative_max_distance=128)
        assert lab.pe_knobs.config_with(m.cfg, explicit) == m.cfg
        rebuilt = Transformer.from_state(lab.pe_knobs.config_with(m.cfg, explicit), dict(m.state_dict())).eval()
        assert torch.equal(logits(rebuilt), logits(m)), pe


def test_rope_base_10000_scale_1_is_the_stock_rotation_bitwise():
    pos = torch.arange(300)
    stock = models.positional.rope_cos_sin(pos, 16, 10000.0)
    for kind in ("linear", "ntk", "yarn"):
        same = models.positional.rope_cos_sin(pos, 16, 10000.0, models.positional.RopeScaling(kind, 1.0, 64))
        assert torch.equal(stock[0], same[0]) and torch.equal(stock[1], same[1])


@pytest.mark.parametrize("s", [2.0, 3.0, 4.0, 8.0])
def test_position_interpolation_on_s_times_the_length_gives_the_training_angles(s):
    L = 64
    trained = models.positional.rope_angles(torch.arange(L), 32, 10000.0)
    stretched = models.positional.rope_angles(torch.arange(0, int(s * L), int(s)), 32, 10000.0, models.positional.RopeScaling("linear", s, L))
    assert torch.equal(trained, stretched)          # positions s·m read as m: the same angles, bitwise
    # and the full stretched range stays within the trained angles
    full = models.positional.rope_angles(torch.arange(int(s * L)), 32, 10000.0, models.positional.RopeScaling("linear", s, L))
    assert full[:, 0].max() < L                    # every stretched angle is one a position < L had


def test_ntk_keeps_the_fastest_pair_and_slows_the_slowest_by_s():
    s, d = 4.0, 32
    stock = models.positional.rope_inv_freq(d, 10000.0)
    ntk = models.positional.rope_scaled_inv_freq(d, 10000.0, models.positional.RopeScaling("ntk", s, 64))[0]
    assert ntk[0] == stock[0]
    assert math.isclose(float(stock[-1] / ntk[-1]), s, rel_tol=1e-4)


def test_yarn_matches_transformers():
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    d, base, s, orig = 64, 10000.0, 4.0, 256
    hf = LlamaConfig(hidden_size=d * 4, num_attention_heads=4, max_position_embeddings=int(orig * s),
                     rope_theta=base,
                     rope_scaling={"rope_type": "yarn", "factor": s, "original_max_position_embeddings": orig})
    inv_freq, attention_factor = ROPE_INIT_FUNCTIONS["yarn"](hf, "cpu")
    ours, divisor, factor = models.positional.rope_scaled_inv_freq(d, base, models.positional.RopeScaling("yarn", s, orig))
    assert divisor == 1.0
    torch.testing.assert_close(ours, inv_freq.float(), rtol=1e-6, atol=0)
    assert math.isclose(factor, attention_factor, rel_tol=1e-9)


def test_rope_wavelengths_follow_the_scaling():
    stock = models.positional.rope_wavelengths(32, 10000.0)
    assert math.isclose(float(stock[0]), 2 * math.pi, rel_tol=1e-6)
    pi = models.positional.rope_wavelengths(32, 10000.0, models.positional.RopeScaling("linear", 4.0, 64))
    torch.testing.assert_close(pi, stock * 4)
    low = models.positional.rope_wavelengths(32, 500.0)
    assert float(low[-1]) < float(stock[-1])


def test_temperature_one_is_the_identity_and_divides_the_scores():
    for pe in ("rope", "alibi", "relative"):
        m = model(pe)
        hot = lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(temperature=2.0))
        name = act_name("scores", 0)
        with torch.no_grad():
            _, t1 = m.run_with_cache(IDS, names=[name])
            _, t2 = hot.run_with_cache(IDS, names=[name])
        torch.testing.assert_close(t2[name], t1[name] / 2.0)     # the position bias is divided too
        same = Transformer.from_state(dataclasses.replace(m.cfg, attn_temperature=1.0), dict(m.state_dict()))
        assert torch.equal(logits(same.eval()), logits(m))


def test_temperature_raises_entropy():
    m = model("alibi")
    name = act_name("pattern", 0)

    def entropy(mm):
        with torch.no_grad():
            _, tr = mm.run_with_cache(IDS, names=[name])
        p = tr[name].clamp_min(1e-12)
        return float(-(p * p.log()).sum(-1).mean())

    assert entropy(lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(temperature=0.5))) < entropy(m) < entropy(lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(temperature=4.0)))


def test_alibi_slope_scale_multiplies_the_bias():
    m = model("alibi")
    half = lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(alibi_slope_scale=0.5))
    torch.testing.assert_close(half.alibi_slopes, m.alibi_slopes * 0.5)
    assert not torch.equal(logits(half), logits(m))


def test_sinusoidal_base_and_layout_change_the_table():
    m = model("sinusoidal")
    other = lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(sinusoidal_base=500.0, sinusoidal_layout="halves"))
    torch.testing.assert_close(other.pe_table, models.positional.sinusoidal(64, 32, 500.0, "halves"))
    assert not torch.equal(logits(other), logits(m))


def test_knobs_of_another_scheme_change_nothing():
    m = model("alibi")
    assert lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(rope_base=500.0, sinusoidal_base=100.0, relative_buckets=8)) is m


def test_relative_reindex_keeps_the_table_when_buckets_are_the_same():
    m = model("relative")
    table = m.rel_bias.weight.detach()
    same = lab.pe_knobs.reindex_relative(table, m.cfg, m.cfg, bidirectional=False)
    assert torch.equal(same, table)


def test_relative_reindex_maps_each_new_bucket_to_the_old_bucket_of_its_nearest_distance():
    m = model("relative", arch="encoder")
    fine = lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(relative_buckets=64, relative_max_distance=256))
    assert fine.rel_bias.weight.shape == (64, 4)
    # at small distances (exact buckets in both) every pair keeps its trained bias
    old = models.positional.relative_bias(m.rel_bias.weight.detach(), 8, bidirectional=True, max_distance=128)
    new = models.positional.relative_bias(fine.rel_bias.weight.detach(), 8, bidirectional=True, max_distance=256)
    torch.testing.assert_close(new, old)
    coarse = lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(relative_buckets=8))
    assert coarse.rel_bias.weight.shape == (8, 4)
    with torch.no_grad():
        assert torch.isfinite(coarse(IDS)).all()


def test_out_of_range_knobs_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="rope_factor must be between"):
        lab.pe_knobs.Knobs(rope_factor=0.5)
    with pytest.raises(ValueError, match="Unknown RoPE scaling"):
        lab.pe_knobs.Knobs(rope_scaling="magic")
    assert lab.pe_knobs.RANGES["temperature"][1] == 20.0 and lab.pe_knobs.RANGES["rope_base"][0] == 10.0     # the ends a link is held at


def test_config_checks_the_new_fields():
    with pytest.raises(ConfigError):
        TransformerConfig(attn_temperature=0.0)
    with pytest.raises(ConfigError):
        TransformerConfig(rope_scaling="stretch")
    with pytest.raises(ConfigError):
        TransformerConfig(rope_factor=0.5)
    cfg = TransformerConfig(positional="rope", rope_scaling="yarn", rope_factor=4.0, rope_original_len=64)
    assert TransformerConfig.from_dict(cfg.to_dict()) == cfg


def test_yarn_on_a_model_uses_the_training_length():
    m = model("rope")
    y = lab.pe_knobs.apply(m, lab.pe_knobs.Knobs(rope_scaling="yarn", rope_factor=4.0), original_len=16)
    assert y.cfg.rope_original_len == 16 and y.cfg.rope_factor == 4.0
    assert not torch.equal(logits(y), logits(m))
    w = lab.pe_knobs.wavelengths(m.cfg, lab.pe_knobs.Knobs(rope_scaling="linear", rope_factor=2.0))
    torch.testing.assert_close(w, models.positional.rope_wavelengths(8, 10000.0) * 2)

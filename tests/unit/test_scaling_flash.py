"""√d_k and FlashAttention (lab/scaling.py, lab/flash.py), every number against a closed
form or the model itself: Var(q·k) = d_k within its sampling error, the softmax
Jacobian against autograd, the head's weights against the model's pattern, the
"no scaling" ablation against q·kᵀ recorded inside the model, and the tiled attention
against the model's own z (pattern · V) within 1e-5."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lab import flash, scaling
from models.trace import Stack, act_name
from models.hooks import hooks
from models.weights import zoo

TEXT = "The students watched the model read their sentence, and every head chose where to look."


@pytest.fixture(scope="module")
def minilm():
    model, tok = zoo.load("minilm", device="cpu")
    return model, tok.encode(TEXT).ids


def load(key: str, text: str = "the cat sat on the mat"):
    model, tok = zoo.load(key, device="cpu")
    return model, tok.encode("abcd=dcba" if key.startswith("toy:") else text).ids


# ---- the variance of q·k ----------------------------------------------------------------------------
def test_random_variance_is_d_k_within_its_sampling_error():
    c = scaling.random_variance(samples=4096, seed=1)
    assert np.all(np.abs(c.var - c.dims) <= 5 * c.stderr), (c.var, c.dims, c.stderr)
    # Var(q·k/√d) = Var(q·k)/d: the same relative error around 1
    assert np.all(np.abs(c.var_scaled - 1) <= 5 * c.stderr / c.dims)
    assert c.stderr == pytest.approx(np.sqrt((2 * c.dims**2 + 6 * c.dims) / 4096))
    with pytest.raises(ValueError):
        scaling.random_variance(samples=1)


def test_softmax_jacobian_is_autograds():
    s = torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=torch.float64)
    auto = torch.autograd.functional.jacobian(lambda x: x.softmax(-1), s).numpy()
    p = scaling.softmax(s.numpy())
    assert np.allclose(scaling.softmax_jacobian(p), auto, atol=1e-12)
    masked = scaling.softmax(np.array([0.0, -np.inf, 0.0]))
    assert masked.tolist() == [0.5, 0.0, 0.5]


def test_head_scaling_matches_the_model_and_shows_saturation(minilm):
    model, ids = minilm
    study = scaling.scaling_study(model, ids, 2, 3, 4)
    h = study.head
    assert h.model_error < 1e-6                         # the ÷√d_k row is the model's own pattern row
    assert h.d_k == model.cfg.head_dim == 32
    q = study.walk.q_all                                # MiniLM: no RoPE
    dots = q @ study.walk.keys.T
    assert h.var_dots == pytest.approx(dots.var()) and h.var_scaled == pytest.approx(dots.var() / 32)
    # the scaled scores are not squeezed into 0..1
    assert h.scaled_range[0] < 0 or h.scaled_range[1] > 1
    # softmax(c·s) sharpens as c grows: undivided, the largest weight is larger and the gradient smaller
    assert h.without.max_weight >= h.with_scale.max_weight
    assert h.without.entropy <= h.with_scale.entropy
    assert h.without.grad_scores < h.with_scale.grad_scores
    assert h.with_scale.grad_dots == pytest.approx(h.with_scale.grad_scores / math.sqrt(32))


def test_the_ablation_really_removes_the_division_inside_the_model():
    model, ids = load("custom:gpt")                     # learned positions: no score bias
    s = Stack.SELF
    names = [act_name("q", 0, s), act_name("k", 0, s), act_name("scores", 0, s)]
    with hooks(model, scaling.unscale_hooks(model)):
        _, tr = model.run_with_cache(ids, names=names)
    q = tr.get("q", 0)[0].transpose(0, 1)              # [head, pos, dh], already multiplied by the hook
    k = tr.get("k", 0)[0].transpose(0, 1)
    dots = (q / math.sqrt(model.cfg.head_dim)) @ k.transpose(-1, -2)      # q·kᵀ of the original q
    assert torch.allclose(tr.get("scores", 0)[0], dots, atol=1e-5)
    run = scaling.unscaled_run(model, ids)
    assert run.logits and run.entropy.shape == (model.cfg.n_layers,)
    assert np.all(run.max_weight_unscaled >= run.max_weight - 1e-6)
    assert float(run.change["kl"].mean()) > 0


@pytest.mark.parametrize("key,stack", [("minilm", None), ("custom:llama", None), ("custom:t5", "cross"),
                                       ("custom:alibi", None)])
def test_attention_is_not_linear_in_its_input(key, stack):
    model, ids = load(key)
    kw = {"tgt_ids": ids} if model.cfg.arch == "encoder-decoder" else {}
    assert scaling.attention_linearity(model, ids, 0, stack, factor=1.0, **kw) < 1e-6    # c = 1: exactly affine
    assert scaling.attention_linearity(model, ids, 0, stack, **kw) > 1e-3                # c = 2: the softmax moves


# ---- FlashAttention ---------------------------------------------------------------------------------
@pytest.mark.parametrize("key,stack", [("minilm", None), ("toy:reverse-rope", None), ("custom:alibi", None),
                                       ("custom:llama", None), ("custom:t5", "encoder"), ("custom:t5", "decoder"),
                                       ("custom:t5", "cross"), ("toy:copy-relative", None)])
@pytest.mark.parametrize("tile", [1, 3, 64])
def test_flash_equals_the_models_attention(key, stack, tile):
    model, ids = load(key)
    kw = {"tgt_ids": ids} if model.cfg.arch == "encoder-decoder" else {}
    run = flash.flash_head(model, ids, 0, 1, stack, tile_q=tile, tile_k=tile, **kw)
    assert run.error <= 1e-5                             # against the model's own z = pattern · V (float32)
    assert run.error_reference <= 1e-12                  # against the whole-matrix formula in float64
    assert len(run.steps) == math.ceil(run.m / tile)
    last = run.steps[-1]
    assert np.allclose(last.o, run.out) and np.all(last.l > 0)
    ms = np.stack([st.m for st in run.steps])
    assert np.all(np.diff(ms, axis=0)[np.isfinite(ms[1:]) & np.isfinite(ms[:-1])] >= 0)   # the max only grows
    # the running denominator is Σ e^(s − m) over the keys read so far (recomputed from the scores)
    s = np.where(np.isfinite(run.scores), run.scores.astype(np.float64), -np.inf)
    for st in run.steps:
        part = s[:, : st.k_stop]
        with np.errstate(invalid="ignore"):
            want = np.where(np.isfinite(st.m), np.exp(part - st.m[:, None]).sum(1), 0.0)
        assert np.allclose(st.l, want, rtol=1e-4)


def test_flash_memory_and_flops():
    mem = flash.memory(1000, 1000, 64, 64, 32)
    assert mem == {"matrix": 1_000_000, "statistics": 2000, "score_tile": 4096, "qkvo_tiles": 2 * 64 * 32 * 2}
    model, ids = load("minilm")
    run = flash.flash_head(model, ids, 0, 0, tile_q=4, tile_k=4)
    f = run.flops()
    assert f["standard"] == 4 * run.n * run.m * run.d_head
    assert f["flash"] - f["standard"] == run.n_tiles_k * run.n * (run.d_head + 1)
    assert f["flash"] / f["standard"] < 1.5                # the same O(n²) arithmetic
    with pytest.raises(ValueError):
        flash.flash_head(model, ids, 0, 0, tile_k=0)
    with pytest.raises(ValueError):
        flash.flash_head(model, ids, 9, 0)


def test_flash_rows_with_no_key_yet_stay_empty_until_one_comes():
    q = np.ones((2, 1))
    k = np.ones((4, 1))
    v = np.arange(4.0)[:, None]
    mask = np.array([[1, 1, 1, 1], [0, 0, 0, 1]], bool)           # row 1 sees only the last key
    out, steps = flash.flash_forward(q, k, v, mask, None, 1.0, 2)
    assert steps[0].l[1] == 0 and np.isneginf(steps[0].m[1])
    assert out[1, 0] == 3.0 and out[0, 0] == pytest.approx(1.5)

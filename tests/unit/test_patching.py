"""Activation patching (lab/patching.py): patches that restore A restore it exactly,
patches that change nothing change nothing, batching does not change a number."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import patching
from models import TransformerConfig
from models.errors import Refused
from models.trace import act_name
from models.weights import zoo

from tests.unit.test_attribution import trained_like


def small(**kw) -> TransformerConfig:
    base = dict(arch="decoder", vocab_size=40, d_model=32, n_layers=3, n_heads=4, d_ff=64, max_len=64)
    base.update(kw)
    return TransformerConfig(**base)


A_IDS = [5, 9, 12, 7, 20, 31, 8, 11, 14]
B_IDS = [5, 9, 12, 7, 22, 31, 8, 11, 14]          # position 4 differs
CHANGED = 4


@pytest.fixture(scope="module")
def model():
    return trained_like(small(positional="learned"))


def names(model):
    return [act_name("resid_pre", i) for i in range(model.cfg.n_layers)] + [act_name("resid_post", 2)]


def test_out_positions_is_a_slice_of_the_output(model):
    with torch.inference_mode():
        full, some = model(A_IDS), model(A_IDS, out_positions=[2, 8])
    torch.testing.assert_close(some, full[:, [2, 8]], rtol=0, atol=1e-6)


def test_every_position_of_layer_0_from_a_gives_a(model):
    out_a, trace = patching.clean_run(model, A_IDS, names(model), 8)
    with torch.inference_mode():
        full_a = model(A_IDS)
    patched = patching.run_patched(model, B_IDS, trace, [patching.Patch("resid_pre", 0)])
    assert torch.equal(patched, full_a)                                  # bit for bit: B became A
    for kind in ("logit_diff", "prob", "kl"):
        metric = patching.Metric(kind, 8, token=3, other=4)
        value = metric.of(patched[:, 8], full_a[0, 8])
        corrupted = metric.of(patching.run_patched(model, B_IDS, trace, [])[:, 8], full_a[0, 8])
        clean = metric.of(full_a[:, 8], full_a[0, 8])
        assert float(patching.recovered(float(value), float(clean), float(corrupted))) == pytest.approx(1.0, abs=1e-9)
    # A patched into A: nothing changes (and there is nothing to recover: NaN, never a division by zero)
    assert torch.equal(patching.run_patched(model, A_IDS, trace, [patching.Patch("resid_pre", 0)]), full_a)
    assert np.isnan(patching.recovered(1.0, 2.0, 2.0))


def test_the_final_stream_at_the_last_position_gives_a_exactly(model):
    out_a, trace = patching.clean_run(model, A_IDS, names(model), 8)
    patched = patching.run_patched(model, B_IDS, trace, [patching.Patch("resid_post", 2, (8,))], out_positions=[8])
    assert torch.equal(patched[0, 0], out_a)


@pytest.mark.parametrize("site", patching.SITES)
def test_sweeps(model, site):
    metric = patching.Metric("logit_diff", 8, token=3, other=4)
    s = patching.sweep(model, A_IDS, B_IDS, site, metric, batch=64)
    cols = model.cfg.n_heads if site == "head" else len(A_IDS)
    rows = model.cfg.n_layers + (site == "resid")
    assert s.values.shape == (rows, cols) and s.runs == rows * cols and s.passes == rows
    rec = s.recovered
    # (a batch of 9 runs rounds differently from one run: 1e-5 of the A-B difference, not 0 exactly)
    if site != "head":
        # before the changed token A and B are the same: a patch there changes nothing
        np.testing.assert_allclose(rec[:, :CHANGED], 0, atol=1e-4)
    if site == "resid":
        assert rec[0, CHANGED] == pytest.approx(1.0, abs=1e-4)        # the only difference, entering layer 0
        assert rec[-1, -1] == pytest.approx(1.0, abs=1e-4)            # the final stream at the read position
        np.testing.assert_allclose(rec[-1, :-1], 0, atol=1e-4)        # other positions' final stream: no effect
    # one run at a time gives the same numbers as batches
    one = patching.sweep(model, A_IDS, B_IDS, site, metric, batch=1)
    assert one.passes == one.runs
    np.testing.assert_allclose(one.values, s.values, rtol=0, atol=1e-5)


def test_progress_and_gate(model):
    seen, gated = [], []

    def gate(m, fn, n):
        gated.append(n)
        return fn(m)

    patching.sweep(model, A_IDS, B_IDS, "head", patching.Metric("kl", 8), batch=3, gate=gate,
                   progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (12, 12) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(gated) == 2 + 3 * 2                                       # A, B, then 3 layers x 2 batches
    assert max(gated) == 3 * len(A_IDS)


def test_encoders_use_the_hidden_state():
    model, tok = zoo.load("minilm")
    assert patching.metrics_for(model) == ("hidden",)
    a, b = tok.encode("the cat sat on the mat").ids, tok.encode("the dog sat on the mat").ids
    s = patching.sweep(model, a, b, "resid", patching.Metric("hidden", 2))
    assert s.clean == 0.0 and s.corrupted < 0
    assert s.recovered[0, 2] == pytest.approx(1.0, abs=1e-4)           # the changed token, entering layer 0
    assert s.recovered[-1, 2] == pytest.approx(1.0, abs=1e-4)


def test_bad_pairs_are_refused(model):
    with pytest.raises(Refused) as e:
        patching.sweep(model, A_IDS, B_IDS[:-1], "resid", patching.Metric("kl", 3))
    assert e.value.reason == "lengths_differ" and e.value.values == {"a": 9, "b": 8}
    encdec = trained_like(small(arch="encoder-decoder"))
    with pytest.raises(Refused) as e:
        patching.sweep(encdec, A_IDS, B_IDS, "resid", patching.Metric("kl", 3))
    assert e.value.reason == "patching_two_stacks"
    with pytest.raises(ValueError, match="second token"):
        patching.Metric("logit_diff", 3, token=1)
    with pytest.raises(ValueError, match="Unknown site"):
        patching.sweep(model, A_IDS, B_IDS, "everything", patching.Metric("kl", 3))
    with pytest.raises(ValueError, match="Position 9"):
        patching.sweep(model, A_IDS, B_IDS, "resid", patching.Metric("kl", 9))


def test_the_size_of_a_sweep(model):
    runs, work = patching.sweep_size(model, "resid", 9)
    assert runs == 4 * 9
    blocks = sum(p.numel() for blk in model.blocks for p in blk.parameters())
    assert work == runs * 9 * blocks
    assert patching.sweep_size(model, "head", 9)[0] == 3 * 4
    gpt2_small = zoo.build_random(small(vocab_size=100, d_model=768, n_heads=12, d_ff=3072, n_layers=12,
                                        max_len=128))
    from ui.views.attribution_patching import AUTO_WORK

    assert patching.sweep_size(gpt2_small, "resid", 128)[1] > 50 * AUTO_WORK           # asks before it starts
    assert patching.sweep_size(zoo.load("toy:induction")[0], "resid", 17)[1] < AUTO_WORK / 100

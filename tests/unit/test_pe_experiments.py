"""The positional-encoding lab's experiments on small random models (the properties are
structural: they hold for any weights, trained or not)."""
import numpy as np
import pytest
import torch

from models import Transformer, TransformerConfig
from lab import checkpoints, positional

IDS = [1, 5, 6, 7, 8, 3, 9, 2, 6, 4]


def model(pe: str, max_len: int = 64) -> Transformer:
    torch.manual_seed(0)
    cfg = TransformerConfig(arch="decoder", vocab_size=12, d_model=32, n_layers=2, n_heads=4, d_ff=64,
                            max_len=max_len, positional=pe)
    return Transformer(cfg, device="cpu").eval()


def test_shuffle_keeps_the_asked_positions():
    p = positional.shuffle(10, seed=3, keep=(0, 9))
    assert sorted(p) == list(range(10)) and p[0] == 0 and p[9] == 9 and p != list(range(10))
    assert positional.shuffle(10, seed=3, keep=(0, 9)) == p


def test_no_positions_is_permutation_equivariant_in_layer_0():
    perm = positional.shuffle(len(IDS), seed=1, keep=(0, len(IDS) - 1))
    r = checkpoints.permutation_test(model("none"), IDS, perm)
    assert r.score_error < 1e-5 and r.full_error < 1e-6
    # the causal mask is positional: the model's masked pattern does not simply permute...
    assert r.pattern_error > 1e-2
    # ...except on rows whose query sees the same set of tokens (here the first and the last)
    assert 0 in r.fixed_rows and len(IDS) - 1 in r.fixed_rows and r.fixed_rows_error < 1e-5
    np.testing.assert_allclose(r.full.sum(-1), 1.0, atol=1e-9)


@pytest.mark.parametrize("pe", ["sinusoidal", "learned", "rope", "alibi", "relative"])
def test_every_positional_scheme_breaks_equivariance(pe):
    perm = positional.shuffle(len(IDS), seed=1, keep=(0, len(IDS) - 1))
    r = checkpoints.permutation_test(model(pe), IDS, perm)
    assert r.score_error > 1e-3


@pytest.mark.parametrize("pe,changes", [("none", False), ("rope", False), ("alibi", False), ("relative", False),
                                        ("sinusoidal", True), ("learned", True)])
def test_shift_test_relative_schemes_keep_layer_0(pe, changes):
    r = checkpoints.shift_test(model(pe), IDS, k=7, filler=4)
    assert (r.score_change > 1e-3) == changes, r.score_change
    assert len(r.pattern_change) == 2 and r.pattern.shape == r.pattern_shifted.shape == (2, 4, 10, 10)
    assert r.mask.shape == (10, 10) and r.mask[3, 2] and not r.mask[2, 3]          # causal
    if not changes:
        assert r.pattern_change[0] < 1e-5                      # the renormalised rows do not move in layer 0
    np.testing.assert_allclose(r.pattern_shifted.sum(-1), 1.0, atol=1e-5)


def test_shift_zero_changes_nothing_and_bad_input():
    r = checkpoints.shift_test(model("sinusoidal"), IDS, k=0, filler=4)
    assert r.score_change == 0 and max(r.pattern_change) < 1e-6     # renormalising rounds a little
    with pytest.raises(ValueError, match="0 or more"):
        checkpoints.shift_test(model("none"), IDS, k=-1, filler=4)
    with pytest.raises(ValueError, match="permutation"):
        checkpoints.permutation_test(model("none"), IDS, [0, 0, 1])


class _LengthTask:
    """Just the part of the Task contract that `extrapolation` uses."""

    train_len = 4

    def evaluate(self, model, length=None, n=256, seed=1234):
        ids = [1] * (2 * length)
        model(ids)                                          # raises ValueError past a learned table
        return 1.0 / length

    def batch(self, n, rng, length=None):
        return length

    def accuracy(self, model, batch, exact=True):
        return 0.5 if exact else 0.75

    def probe(self, length=None):
        class Ex:
            ids = list(range(2 * (length or 4)))
        return Ex()


def test_extrapolation_reports_the_end_of_a_learned_table():
    rows = checkpoints.extrapolation(_LengthTask(), model("learned", max_len=12), factors=(1, 1.5, 2, 4))
    assert [r["length"] for r in rows] == [4, 6, 8, 16]
    assert rows[0]["accuracy"] == pytest.approx(0.25) and rows[1]["accuracy"] == pytest.approx(1 / 6)
    assert rows[2]["accuracy"] is None and "learned positions for only 12" in rows[2]["reason"]
    assert checkpoints.positions_used(_LengthTask(), 6) == 12
    rows = checkpoints.extrapolation(_LengthTask(), model("alibi", max_len=12), factors=(4,), tokens=True)
    assert rows[0]["accuracy"] == pytest.approx(1 / 16)          # ALiBi has no table to run out of
    assert rows[0]["token_accuracy"] == pytest.approx(0.75) and rows[0]["reason"] == ""
    assert checkpoints.token_accuracy(_LengthTask(), None, 4, n=300) == pytest.approx(0.75)

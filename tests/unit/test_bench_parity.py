"""benchmarks/parity.py: every family's tiny model agrees with transformers within 1e-5 on
every hidden state, attention probability and output (the README's parity table)."""
import pytest

pytest.importorskip("transformers")

from benchmarks.parity import differences  # noqa: E402
from models.weights import tiny_hf  # noqa: E402


@pytest.mark.parametrize("family", tiny_hf.families())
def test_every_family_within_1e_5(family):
    diff = differences(family)
    assert set(diff) == {"hidden", "attention", "output"}
    assert max(diff.values()) <= 1e-5, diff


def test_a_wrong_weight_shows_up(monkeypatch):
    """The measurement can fail: a model whose loader dropped a bias differs."""
    from models.weights import pretrained

    real = pretrained.load

    def broken(source, *a, **kw):
        model, tok = real(source, *a, **kw)
        model.blocks[0].attn.W_O.weight.data[0, 0] += 0.5
        return model, tok

    monkeypatch.setattr(pretrained, "load", broken)
    assert differences("gpt2")["output"] > 1e-3

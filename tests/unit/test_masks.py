import pytest
import torch

from models import MaskSpec
import models.masks
from tests.unit.helpers import bools


def test_causal():
    assert torch.equal(models.masks.causal(3), bools([[1, 0, 0], [1, 1, 0], [1, 1, 1]]))


def test_full():
    assert torch.equal(models.masks.full(2), bools([[1, 1], [1, 1]]))
    assert models.masks.full(2, 3).shape == (2, 3)


def test_local_window():
    assert torch.equal(models.masks.local(5, 1), bools("""
        1 1 . . .
        1 1 1 . .
        . 1 1 1 .
        . . 1 1 1
        . . . 1 1"""))


def test_dilated():
    assert torch.equal(models.masks.dilated(5, 2), bools("""
        1 . 1 . 1
        . 1 . 1 .
        1 . 1 . 1
        . 1 . 1 .
        1 . 1 . 1"""))
    assert torch.equal(models.masks.dilated(5, 2, window=1)[0], bools([1, 0, 1, 0, 0]))


def test_strided():
    # local block |i-k| < 3  united with every 3rd key ((i-k) mod 3 == 0)
    assert torch.equal(models.masks.strided(8, 3), bools("""
        1 1 1 1 . . 1 .
        1 1 1 1 1 . . 1
        1 1 1 1 1 1 . .
        1 1 1 1 1 1 1 .
        . 1 1 1 1 1 1 1
        . . 1 1 1 1 1 1
        1 . . 1 1 1 1 1
        . 1 . . 1 1 1 1"""))


def test_longformer():
    assert torch.equal(models.masks.longformer(5, 1, global_tokens=(0,)), bools("""
        1 1 1 1 1
        1 1 1 . .
        1 1 1 1 .
        1 . 1 1 1
        1 . . 1 1"""))
    # -1 is the last token (e.g. [SEP]); positions past the end are ignored
    m = models.masks.longformer(4, 1, global_tokens=(-1, 10))
    assert m[:, 3].all() and m[3].all() and not m[0, 2]


def test_bigbird_contains_longformer_and_is_seeded():
    base = models.masks.longformer(12, 1, (0,))
    a = models.masks.bigbird(12, 1, (0,), n_random=2, seed=3)
    assert torch.equal(a & base, base)
    assert torch.equal(a, models.masks.bigbird(12, 1, (0,), n_random=2, seed=3))
    assert not torch.equal(a, models.masks.bigbird(12, 1, (0,), n_random=2, seed=4))
    extra = (a & ~base).sum(-1)
    assert (extra <= 2).all() and extra.sum() > 0


def test_prefix_lm():
    assert torch.equal(models.masks.prefix_lm(4, 2), bools("""
        1 1 . .
        1 1 . .
        1 1 1 .
        1 1 1 1"""))


def test_padding_composes_with_and():
    valid = bools([1, 1, 0])
    assert torch.equal(models.masks.causal(3) & models.masks.padding(valid), bools([[1, 0, 0], [1, 1, 0], [1, 1, 0]]))
    batch = models.masks.padding(bools([[1, 0], [1, 1]]))
    assert batch.shape == (2, 2, 2) and torch.equal(batch[0], bools([[1, 0], [1, 0]]))


def test_xlnet_two_streams():
    content, query = models.masks.xlnet_permutation([2, 0, 1])   # factorisation order 2 -> 0 -> 1
    assert torch.equal(content, bools("""
        1 . 1
        1 1 1
        . . 1"""))
    assert torch.equal(query, bools("""
        . . 1
        1 . 1
        . . ."""))
    assert torch.equal(query | torch.eye(3, dtype=torch.bool), content)
    with pytest.raises(ValueError, match="permutation"):
        models.masks.xlnet_permutation([0, 0, 1])


def test_build_and_decoder_causality():
    spec = MaskSpec("local", window=1)
    assert torch.equal(models.masks.self_attention_mask(spec, 4, decoder=True), models.masks.local(4, 1) & models.masks.causal(4))
    assert torch.equal(models.masks.self_attention_mask(spec, 4, decoder=False), models.masks.local(4, 1))
    prefix = MaskSpec("prefix", prefix_len=2)
    assert torch.equal(models.masks.self_attention_mask(prefix, 4, decoder=True), models.masks.prefix_lm(4, 2))
    for kind in ("full", "causal", "local", "dilated", "strided", "longformer", "bigbird", "prefix"):
        m = models.masks.build(MaskSpec(kind), 9)
        assert m.shape == (9, 9) and m.dtype == torch.bool and m.diagonal().all()


def test_bad_masks_raise():
    with pytest.raises(ValueError, match="window"):
        models.masks.local(4, 0)
    with pytest.raises(ValueError, match="window"):
        MaskSpec("local", window=0)
    with pytest.raises(ValueError, match="Unknown attention pattern"):
        MaskSpec("diagonal")
    with pytest.raises(ValueError, match="nothing to attend"):
        models.masks.check_rows(bools([[1, 0], [0, 0]]))
    with pytest.raises(ValueError, match="at least one position"):
        models.masks.causal(0)

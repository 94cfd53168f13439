"""Task → architecture (lab/task_fit.py): the abilities read from the masks the models build,
checked against masks written by hand, and the fit table's rows."""
from __future__ import annotations

import dataclasses

import pytest
import torch

from lab import task_fit
from models.config import MaskSpec, TransformerConfig


def cfg_of(**kw) -> TransformerConfig:
    return TransformerConfig(**{**dict(vocab_size=8, d_model=8, n_layers=1, n_heads=1, d_ff=8, max_len=16), **kw})


def test_abilities_from_the_masks():
    n = task_fit.PROBE_LEN
    ref = task_fit.reference()
    causal_share = torch.tril(torch.ones(n, n)).mean().item()             # (n + 1) / 2n by hand
    assert ref["encoder"] == task_fit.Abilities("encoder", True, 1.0, False, False)
    assert ref["decoder"].seen_share == pytest.approx(causal_share) and not ref["decoder"].sees_later
    assert ref["decoder"].writes and not ref["decoder"].cross
    assert ref["encoder-decoder"].sees_later and ref["encoder-decoder"].writes and ref["encoder-decoder"].cross


def test_the_table():
    ref = task_fit.reference()
    table = {arch: [task_fit.fit(a, task) for task in task_fit.TASKS] for arch, a in ref.items()}
    assert table == {"encoder": ["yes", "yes", "no", "no"],
                     "decoder": ["workaround", "workaround", "yes", "workaround"],
                     "encoder-decoder": ["workaround", "workaround", "workaround", "yes"]}
    assert task_fit.best_tasks(ref["encoder"]) == ["classify", "tag"]
    with pytest.raises(ValueError):
        task_fit.fit(ref["encoder"], "dance")


def test_an_encoder_without_a_head_and_a_prefix_lm():
    hidden = task_fit.abilities(cfg_of(arch="decoder", output="hidden"))
    assert not hidden.writes and task_fit.fit(hidden, "generate") == "no"
    prefix = task_fit.abilities(cfg_of(arch="decoder", attention=MaskSpec(kind="prefix", prefix_len=3)))
    assert prefix.sees_later and task_fit.fit(prefix, "generate") == "yes"       # the prefix sees both sides
    local = task_fit.abilities(cfg_of(arch="encoder", attention=MaskSpec(kind="local", window=1)))
    assert local.sees_later and local.seen_share < 1.0
    assert dataclasses.astuple(local)[0] == "encoder"

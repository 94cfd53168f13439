"""lab/lesson_training.py: patterns, scores, the fastest loss drop and when a pattern forms,
on patterns and curves whose answers are known in closed form."""
from __future__ import annotations

import numpy as np
import pytest

from lab import lesson_training

# a reverse probe: <bos> a b c = c b a  (answer queries 4, 5, 6 predict c, b, a)
TOKENS = ["<bos>", "a", "b", "c", "=", "c", "b", "a"]
ANSWER = slice(4, 7)


def head_with(pattern: str) -> np.ndarray:
    """[1, 2, q, k] head 1 follows `pattern` exactly on the answer rows (head 0 even)."""
    n = len(TOKENS)
    even = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    sharp = even.copy()
    t = lesson_training.targets(pattern, TOKENS, ANSWER)
    rows = t.sum(-1) > 0
    sharp[rows] = t[rows] / t[rows].sum(-1, keepdims=True)
    return np.stack([even, sharp])[None]


def test_anti_diagonal_targets_are_the_mirror_of_the_inputs():
    t = lesson_training.targets("anti_diagonal", TOKENS, ANSWER)
    assert [int(np.argmax(t[q])) for q in (4, 5, 6)] == [3, 2, 1]     # "=" → c, c → b, b → a
    assert t.sum() == 3


def test_diagonal_and_previous_targets():
    assert [int(np.argmax(lesson_training.targets("diagonal", TOKENS, ANSWER)[q])) for q in (4, 5, 6)] == [4, 5, 6]
    assert [int(np.argmax(lesson_training.targets("previous", TOKENS, ANSWER)[q])) for q in (4, 5, 6)] == [3, 4, 5]


def test_induction_targets_the_token_after_an_earlier_copy():
    toks = ["<bos>", "a", "b", "c", "a", "b", "c"]
    t = lesson_training.targets("induction", toks, slice(4, 7))
    assert t[4, 2] == 1 and t[5, 3] == 1          # a → the b after the first a; b → the c
    assert t[:4].sum() == 0


def test_unknown_pattern_is_refused():
    with pytest.raises(ValueError, match="Unknown pattern"):
        lesson_training.targets("zigzag", TOKENS, ANSWER)


@pytest.mark.parametrize("pattern", ["anti_diagonal", "previous", "diagonal"])
def test_strongest_finds_the_sharp_head_and_its_pattern(pattern):
    best = lesson_training.strongest(head_with(pattern), TOKENS, ANSWER)
    assert (best.pattern, best.layer, best.head) == (pattern, 0, 1)
    assert best.score == pytest.approx(1.0)


def test_chance_is_even_attention():
    c = lesson_training.chance(TOKENS, ANSWER)
    assert c["diagonal"] == pytest.approx(np.mean([1 / 5, 1 / 6, 1 / 7]))
    assert c["anti_diagonal"] == pytest.approx(c["diagonal"])


def test_fastest_drop_finds_the_cliff_and_its_third():
    steps = np.arange(1, 301)
    loss = np.where(steps < 240, 2.0, 0.02)             # a cliff at step 240 of 300
    drop = lesson_training.fastest_drop(steps, loss, 300)
    assert abs(drop.step - 240) <= 16 and drop.phase == "late"
    assert drop.loss_before > drop.loss_after
    assert lesson_training.fastest_drop(steps, np.where(steps < 50, 2.0, 0.02), 300).phase == "early"


def test_forms_at_and_timing():
    f = lesson_training.forms_at([0, 10, 20, 30, 40], [0.1, 0.1, 0.5, 0.8, 0.9])
    assert f.step == 20 and f.start == pytest.approx(0.1) and f.end == pytest.approx(0.9)
    assert lesson_training.timing(20, 60, 10) == "before"
    assert lesson_training.timing(55, 60, 10) == "together"
    assert lesson_training.timing(90, 60, 10) == "after"


def test_at_index_and_recipes():
    assert [lesson_training.at_index(21, a) for a in lesson_training.AT] == [0, 10, 20]
    task, cfg, settings = lesson_training.RECIPES["reverse"].build(seed=3, steps=100)
    assert cfg.n_layers == 1 and settings.seed == 3 and settings.steps == 100 and settings.snapshot_every == 5
    assert task.train_len == 5

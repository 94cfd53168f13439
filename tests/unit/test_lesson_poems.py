"""lab/lesson_poems.py: a poem's lines and slots, and the couplet / rhyme scores of a head."""
import numpy as np
import pytest

from lab import lesson_poems

POEM = list("床前明月光，疑是地上霜。\n举头望明月，低头思故乡。")


def test_lines_slots_and_pairs():
    s = lesson_poems.slots(POEM)
    assert lesson_poems.n_lines(POEM) == 4
    assert s[POEM.index("霜")] == lesson_poems.Slot(1, 4, True) and s[POEM.index("，")] is None and s[12] is None  # "\n"
    couplet, rhyme = lesson_poems.pairs(POEM)
    assert (POEM.index("霜"), POEM.index("光")) in couplet and (POEM.index("地"), POEM.index("明")) in couplet
    assert len(couplet) == 15                                       # lines 2-4, five slots each
    assert rhyme[-1] == (len(POEM) - 2, [4, 10, 17])                # 乡 -> 光, 霜, 月 (the ends before it)


def causal_uniform(n: int) -> np.ndarray:
    p = np.tril(np.ones((n, n)))
    return p / p.sum(-1, keepdims=True)


def test_a_head_that_aligns_couplets_scores_one_and_uniform_scores_chance():
    n = len(POEM)
    couplet, rhyme = lesson_poems.pairs(POEM)
    aligned = np.zeros((n, n))
    aligned[np.arange(n), np.arange(n)] = 1.0
    for q, k in couplet:
        aligned[q] = 0.0
        aligned[q, k] = 1.0
    patterns = np.stack([np.stack([causal_uniform(n), aligned])])     # [layer 1, head 2, q, k]
    score, chance = lesson_poems.scores(patterns, POEM, "couplet")
    assert score[0, 1] == pytest.approx(1.0)
    assert score[0, 0] == pytest.approx(chance)                     # even attention is chance, by definition
    assert lesson_poems.best(score)[:2] == (0, 1)
    rscore, rchance = lesson_poems.scores(patterns, POEM, "rhyme")
    assert rscore[0, 0] == pytest.approx(rchance) and 0 < rchance < 0.5


def test_one_line_has_no_pairs_and_unknown_measures_are_refused():
    score, chance = lesson_poems.scores(np.stack([np.stack([causal_uniform(5)])]), list("床前明月光"), "couplet")
    assert np.isnan(score).all() and np.isnan(chance)
    with pytest.raises(ValueError, match="couplet or rhyme"):
        lesson_poems.scores(np.zeros((1, 1, 3, 3)), list("abc"), "meter")


def test_a_chinese_text_counts_its_characters_as_words():
    from lab.lesson_attention import word_count
    assert word_count("".join(POEM)) == 20                          # not 2 (split on spaces): punctuation not counted
    assert word_count("The students watched the model.") == 5
    assert word_count("GPT-2 的注意力，ok") == 6

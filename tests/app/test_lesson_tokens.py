"""Lesson 8 ("Everything becomes tokens") in the app: the lesson starts on its Chinese sentence,
every step draws one figure in English and Chinese, and every question's answer on the page is
the one an independent computation gives (tokenizers by hand and transformers' own WordPiece
for the text; numpy and torch by hand for the patches)."""
from __future__ import annotations

import pytest

import lab.lessons
from tests.unit.test_lesson_tokens import (bpe_by_hand, digit, expected_answers, rollout_by_hand, vits,
                                           wordpiece_by_transformers)
from ui.lessons import specs
from ui.strings.lesson_tokens import STRINGS

from .helpers import assert_ok
from .lesson_walk import open_lesson, reveal

LESSON = "tokens"


def lesson() -> lab.lessons.Lesson:
    return lab.lessons.shipped(specs())[0][LESSON]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lesson_starts_on_its_sentence_and_every_answer_is_computed(lang):
    at = open_lesson(LESSON, lang)
    assert_ok(at)
    text = lesson().text[lang]
    assert at.text_area(key="text").value == text          # the lesson's sentence, not the example sentence
    want = expected_answers(text)
    wp = wordpiece_by_transformers(text)
    roll = rollout_by_hand(vits()["learned"], digit(0))
    r, c = divmod(int(roll.argmax()), roll.shape[1])
    said = {"en": {"text_cuts": f"{len(text)} characters become {len(text.encode())} bytes, {len(wp)} WordPiece tokens "
                                f"and {bpe_by_hand(text, 500)} byte-level BPE tokens",
                   "wordpiece_unknown": f"{wp.count('[UNK]')} of the {len(wp)} WordPiece tokens are [UNK]",
                   "cls_patch": f"on patch {r * roll.shape[1] + c + 1} (row {r + 1}, column {c + 1}",
                   "sound_tokens": "16,000 samples"},
            "zh": {"text_cuts": f"{len(text)} 个字符变成 {len(text.encode())} 个字节",
                   "wordpiece_unknown": f"{len(wp)} 个 WordPiece 词元中有 {wp.count('[UNK]')} 个是 [UNK]",
                   "cls_patch": f"第 {r * roll.shape[1] + c + 1} 个图块上（第 {r + 1} 行、第 {c + 1} 列"}}[lang]
    steps = lesson().steps
    for i, step in enumerate(steps):
        answer = reveal(at, LESSON, i)
        if step.ask:
            assert answer == STRINGS[f"lk_opt_{want[step.kind]}"][lang], (i, step.kind, answer)
        if step.kind in said:
            notices = " ".join(x.value for x in at.info).replace("\\", "")
            assert said[step.kind] in notices, (step.kind, notices[-400:])
        assert not at.error, [e.value for e in at.error]
        if i < len(steps) - 1:
            at.button(key="ls_next").click().run()
            assert_ok(at)


def test_the_merge_curve_is_bpe_applied_by_hand():
    """The curve's every point is the sentence's length with the first n merges applied by hand."""
    import json

    from tests.unit.test_lesson_tokens import bpe_by_hand
    index = next(i for i, s in enumerate(lesson().steps) if s.kind == "bpe_merges")
    at = open_lesson(LESSON, "en", step=str(index + 1))
    assert_ok(at)
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    xs, ys = fig["data"][0]["x"], fig["data"][0]["y"]
    text = lesson().text["en"]
    assert xs[0] == 0 and xs[-1] == 2000 and len(xs) == 21
    assert ys[0] == len(text.encode("utf-8"))
    for x, y in list(zip(xs, ys))[::5]:
        assert y == bpe_by_hand(text, x), x


def test_the_readers_own_english_text_runs_every_step_and_stays_text():
    """A text the reader typed (English, with markup in it) stays in the sidebar; every step runs
    on it, and the markup is drawn as text, never as HTML."""
    from .helpers import assert_escaped, everything_rendered
    own = "The cat <b>sat</b> on the mat & smiled."
    at = open_lesson(LESSON, "en", text=own)
    assert_ok(at)
    assert at.text_area(key="text").value == own
    for i in range(len(lesson().steps)):
        reveal(at, LESSON, i)
        assert not at.error, (i, [e.value for e in at.error])
        assert_escaped(everything_rendered(at))
        if i < len(lesson().steps) - 1:
            at.button(key="ls_next").click().run()
            assert_ok(at)

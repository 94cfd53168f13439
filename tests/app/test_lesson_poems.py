"""Lesson 7 ("attention on a poem") in the app: the lesson starts on its poem, every step draws
one figure in English and Chinese on verse-lm, and the couplet head it names is the one
lab/lesson_poems.py finds in the model's own attention."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import lab.lessons
from lab import lesson_poems
from models.weights import zoo
from ui.lessons import specs

from .helpers import assert_ok
from .lesson_walk import open_lesson, reveal

LESSON = "poems"
MODEL = "toy:verse-lm"
LABEL = zoo.get(MODEL).label


def lesson() -> lab.lessons.Lesson:
    return lab.lessons.shipped(specs())[0][LESSON]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lesson_starts_on_its_poem_then_every_step_draws(lang):
    at = open_lesson(LESSON, lang, model=LABEL)
    assert_ok(at)
    assert at.text_area(key="text").value == lesson().text[lang]    # the lesson's poem, not the example sentence
    assert not [b for b in at.button if b.key == "ls_use_text"]    # offered only while another text is there
    steps = lesson().steps
    for i in range(len(steps)):
        reveal(at, LESSON, i)
        if i < len(steps) - 1:
            at.button(key="ls_next").click().run()
            assert_ok(at)


@torch.no_grad()
def test_the_couplet_notice_names_the_models_own_best_head():
    model, tok = zoo.load(MODEL, "cpu")
    text = lesson().text["en"]
    enc = tok.encode(text)
    _, trace = model.run_with_cache(enc.ids)
    patterns = np.stack([trace.pattern(i).float().numpy() for i in range(model.cfg.n_layers)])
    layer, head, value = lesson_poems.best(lesson_poems.scores(patterns, enc.tokens, "couplet")[0])
    step = next(i for i, s in enumerate(lesson().steps) if s.kind == "poem_heads")
    at = open_lesson(LESSON, "en", model=LABEL, step=str(step + 1), text=text)
    assert_ok(at)
    notices = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption) + \
        " ".join(i.value for i in at.info)
    assert f"head {layer}.{head} puts {value:.0%}" in notices.replace("\\", ""), notices[-300:]   # md_escape undone

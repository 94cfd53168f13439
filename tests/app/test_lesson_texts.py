"""The text a lesson starts on (issue 35): a lesson opened in Chinese reads Chinese, in English
English: its own text in the reader's language (the poem lesson's 静夜思), else the example
sentence of that language (`ui.examples.EXAMPLE_TEXTS`); a text the reader typed or a link
carried stays; a class keeps the class's own text; Chinese is counted in characters."""
from __future__ import annotations

import pytest

import lab.lesson_attention
import lab.lessons
from models.weights import zoo
from ui.lessons import specs
from ui.examples import EXAMPLE_TEXTS

from .helpers import TEXT, assert_ok, open_app
from .lesson_walk import open_lesson

SHIPPED = lab.lessons.shipped(specs())[0]
LESSONS = "app_pages/lessons.py"


def start_text(lesson: lab.lessons.Lesson, code: str) -> str:
    return lesson.text[code] if lesson.text else EXAMPLE_TEXTS[code]


def sidebar_text(at) -> str:
    return at.text_area(key="text").value


def test_the_chinese_example_has_no_unknown_token_on_minilm():
    _, tok = zoo.load("minilm", "cpu")
    enc = tok.encode(EXAMPLE_TEXTS["zh"])
    assert "[UNK]" not in enc.tokens and len(enc.tokens) == 23        # [CLS] + 21 characters + [SEP]


def test_the_sidebar_does_not_call_the_chinese_example_unreadable_for_minilm():
    at = open_lesson("attention", "zh")
    assert sidebar_text(at) == EXAMPLE_TEXTS["zh"]
    assert not [b for b in at.button if b.key == "sb_char_encoder"]     # "reads most characters as [UNK]": not here


@pytest.mark.parametrize("code", ["zh", "en"])
@pytest.mark.parametrize("lesson", sorted(SHIPPED))
def test_a_lesson_starts_on_its_text_in_the_readers_language(lesson, code):
    at = open_lesson(lesson, code)
    assert sidebar_text(at) == start_text(SHIPPED[lesson], code)
    if code == "zh":
        assert lab.lesson_attention.word_counts(sidebar_text(at))[0] == 0   # Chinese, not the English example


def test_switching_language_in_a_lesson_switches_its_text():
    at = open_lesson("poems", "en")
    at.radio(key="lang").set_value("中文").run()
    assert_ok(at)
    assert sidebar_text(at) == SHIPPED["poems"].text["zh"]
    at2 = open_lesson("attention", "en")
    assert sidebar_text(at2) == EXAMPLE_TEXTS["en"]
    at2.radio(key="lang").set_value("中文").run()
    assert sidebar_text(at2) == EXAMPLE_TEXTS["zh"]


def test_moving_to_another_lesson_takes_its_text():
    at = open_lesson("attention", "zh")
    assert sidebar_text(at) == EXAMPLE_TEXTS["zh"]
    at.selectbox(key="lesson__zh").set_value("poems").run()
    assert_ok(at)
    assert sidebar_text(at) == SHIPPED["poems"].text["zh"]
    at.selectbox(key="lesson__zh").set_value("heads").run()
    assert sidebar_text(at) == EXAMPLE_TEXTS["zh"]


@pytest.mark.parametrize("code", ["zh", "en"])
def test_the_readers_own_text_stays(code):
    at = open_lesson("poems", code, text=TEXT, model=zoo.get("toy:verse-lm").label)
    assert sidebar_text(at) == TEXT
    assert any(b.key == "ls_use_text" for b in at.button)            # the poem is offered, not forced
    at = open_lesson("attention", code, text=TEXT)
    assert sidebar_text(at) == TEXT


def test_a_class_keeps_its_own_text():
    teacher = open_app({"lesson": "attention", "step": "2"}, page=LESSONS)
    assert sidebar_text(teacher) == EXAMPLE_TEXTS["en"]
    teacher.button(key="cl_start").click().run()
    assert_ok(teacher)
    code = teacher.query_params["class"]
    code = code[0] if isinstance(code, list) else code
    teacher.radio(key="lang").set_value("中文").run()
    assert_ok(teacher)
    assert sidebar_text(teacher) == EXAMPLE_TEXTS["en"]              # the class's sentence, in either language
    student = open_app({"class": code, "lang": "中文"}, page=LESSONS)
    student.run()                                                     # the sidebar takes the class's text
    assert_ok(student)
    assert sidebar_text(student) == EXAMPLE_TEXTS["en"]


@pytest.mark.parametrize("code, words", [("zh", "20 个汉字被切成"), ("en", "20 Chinese characters became")])
def test_the_poem_is_counted_in_characters(code, words):
    at = open_lesson("poems", code, model=zoo.get("toy:verse-lm").label)
    assert sidebar_text(at) == SHIPPED["poems"].text[code]
    assert any(words in i.value for i in at.info), [i.value for i in at.info]


def test_word_counts():
    assert lab.lesson_attention.word_counts("床前明月光，疑是地上霜。") == (0, 10)
    assert lab.lesson_attention.word_counts("The students watched the model.") == (5, 0)
    assert lab.lesson_attention.word_counts("GPT-2 的注意力，ok") == (2, 4)

"""The Lessons page (ui/views/lessons.py): every step of every shipped lesson draws one
figure in both languages; a link opens the exact step; a question hides the figure until
the reveal and is answered by the model (another model, another answer); a teacher's own
lesson file is checked and a bad one gets a sentence naming its field and line."""
from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import lab.lesson_attention
import lab.lessons
from tests.app.helpers import MINILM_LABEL, TEXT, assert_ok, open_app
from tests.unit.test_lesson_files import GOOD
from ui.lessons import specs
from ui.serving import RunKey

LESSONS = "app_pages/lessons.py"
SHIPPED = lab.lessons.shipped(specs())[0]


def open_lesson(lesson: str, step: int | None = None, **query: str) -> AppTest:
    q = {"lesson": lesson, **query}
    if step is not None:
        q["step"] = str(step)
    return open_app(q, page=LESSONS)


def step_of(at: AppTest) -> int:
    return int(at.query_params["step"][0] if isinstance(at.query_params["step"], list) else at.query_params["step"])


def reveal_button(at: AppTest):
    return next((b for b in at.button if b.key and b.key.startswith("ls_reveal_")), None)


def walk_lesson(at: AppTest, lesson: lab.lessons.Lesson, lang: str) -> None:
    """Every step with the Next button: one figure per step (after the reveal on a question)."""
    for i, step in enumerate(lesson.steps):
        assert step_of(at) == i + 1
        assert [h.value for h in at.header] and lesson.steps[i].title[lang] in at.header[0].value.replace("\\", "")
        if step.ask:
            assert len(at.get("plotly_chart")) == 0, (lesson.id, i)          # hidden until the reveal
            reveal_button(at).click().run()
            assert_ok(at)
        assert len(at.get("plotly_chart")) == 1, (lesson.id, i, [e.value for e in at.error])
        if i < len(lesson.steps) - 1:
            at.button(key="ls_next").click().run()
            assert_ok(at)
    assert at.button(key="ls_next").disabled


@pytest.mark.parametrize("lang", ["English", "中文"])
@pytest.mark.parametrize("lesson", sorted(SHIPPED))
def test_every_step_of_every_lesson_draws_one_figure(lesson, lang):
    at = open_lesson(lesson, lang=lang)
    if SHIPPED[lesson].model and not SHIPPED[lesson].fits("encoder"):     # written for another kind of model
        at.button(key="ls_switch").click().run()
        assert_ok(at)
    walk_lesson(at, SHIPPED[lesson], "en" if lang == "English" else "zh")


def test_a_link_opens_the_exact_step_and_back_goes_back():
    at = open_lesson("attention", 4)
    assert "√d" in at.header[0].value
    at.button(key="ls_back").click().run()
    assert step_of(at) == 3 and "Compare one query" in at.header[0].value
    assert at.get("progress")[0].proto.text.endswith("step 3 of 10")


@pytest.mark.parametrize("asked", ["99", "0", "two", "1e309"])
def test_a_step_the_lesson_does_not_have_gets_a_notice(asked):
    at = open_lesson("attention", asked)
    assert step_of(at) == 1
    assert any("step=" in w.value for w in [*at.warning, *at.info])


def _answer(key: str, text: str) -> int:
    """The softmax step's answer, computed here from the model's recorded pattern."""
    from ui import serving

    data = serving.attention_data(RunKey(key, "cpu", text))
    row = data.patterns[next(iter(data.patterns))][0, 0]
    return int(np.argmax(row[lab.lesson_attention.last_word(data.tokens)]))


def test_a_guess_is_checked_against_the_model_and_tallied():
    at = open_lesson("attention", 6, text=TEXT)
    pills = at.button_group[0]
    # each label after an unseen space, which keeps Streamlit's per-label icon look cheap (ui/views/lessons.py)
    assert pills.options[:2] == [" 0·[CLS]", " 1·the"]
    right = _answer("minilm", TEXT)
    wrong = (right + 1) % len(pills.options)
    pills.set_value(wrong).run()
    reveal_button(at).click().run()
    assert_ok(at)
    assert at.warning and "the model's answer is" in at.warning[0].value
    assert any("0 of 1 guesses right" in c.value for c in at.caption)
    at.button(key="ls_again_attention_5").click().run()
    at.button_group[0].set_value(right).run()
    reveal_button(at).click().run()
    assert at.success and "Right" in at.success[0].value
    assert any("1 of 2 guesses right" in c.value for c in at.caption)


def test_another_model_gives_another_answer():
    text = "the quick brown fox jumps over the lazy dog"
    answers = {}
    for label, key in ((MINILM_LABEL, "minilm"), ("BERT-style encoder", "custom:bert")):
        at = open_lesson("attention", 6, text=text, model=label)
        reveal_button(at).click().run()
        assert_ok(at)
        shown = at.info[0].value if at.info else ""
        answers[key] = _answer(key, text)
        assert f"{answers[key]}·" in shown.replace("\\", ""), (key, shown)
    assert answers["minilm"] != answers["custom:bert"]


def _upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key="ls_upload").set_value((name, data, "application/toml")).run()
    return at


BAD_UPLOADS = {
    "unknown kind": (GOOD.replace('kind = "tokens"', 'kind = "shell"').encode(), "steps[1].kind (line 9)"),
    "missing language": (GOOD.replace('body.zh = "文本变成词元。"\n', '').encode(), "steps[1].body"),
    "binary": (bytes(range(256)) * 4, "UTF-8"),
    "1 MB": (b"#" * (1 << 20), "1,048,576"),
    "syntax": (b'id = "x\n', "line 1"),
}


@pytest.mark.parametrize("case", list(BAD_UPLOADS))
def test_a_bad_lesson_file_gets_a_sentence_naming_the_problem(case):
    data, where = BAD_UPLOADS[case]
    at = _upload(open_lesson("attention"), "mine.toml", data)
    assert not at.exception
    assert len(at.error) == 1 and where in at.error[0].value.replace("\\", ""), [e.value for e in at.error]
    assert step_of(at) == 1 and len(at.get("plotly_chart")) == 1          # the lesson on screen is untouched


def test_a_good_lesson_file_runs_and_html_in_it_stays_text():
    evil = GOOD.replace('body.en = "The text becomes tokens."', 'body.en = "<img src=x onerror=alert(1)> tokens"')
    at = _upload(open_lesson("attention"), "mine.toml", evil.encode())
    assert at.success and "A small lesson" in at.success[0].value
    at.selectbox(key="lesson__en").set_value("mini").run()
    assert_ok(at)
    assert step_of(at) == 1 and len(at.get("plotly_chart")) == 1
    body = [m.value for m in at.markdown if "tokens" in m.value and "onerror" in m.value]
    assert body and "<img" not in body[0] and "&lt;img" in body[0]


def test_a_lesson_for_another_kind_of_model_offers_the_right_one():
    decoder = GOOD.replace('model = "minilm"', 'model = "custom:gpt"\narchs = ["decoder"]').replace('"mini"', '"dec"')
    at = _upload(open_lesson("attention"), "dec.toml", decoder.encode())
    at.selectbox(key="lesson__en").set_value("dec").run()
    assert at.warning and "needs a model of another kind" in at.warning[0].value
    assert not at.get("plotly_chart")
    at.button(key="ls_switch").click().run()
    assert_ok(at)
    assert at.selectbox(key="model").value == "custom:gpt"
    assert len(at.get("plotly_chart")) == 1


def test_a_layer_the_model_does_not_have_is_named():
    deep = GOOD.replace("layer = -1", "layer = 11").replace('"mini"', '"deep"')
    at = _upload(open_lesson("attention"), "deep.toml", deep.encode())
    at.selectbox(key="lesson__en").set_value("deep").run()
    assert at.error and "steps[2].layer is 11" in at.error[0].value.replace("\\", "")
    assert "6 layers" in at.error[0].value


def test_the_overview_links_to_the_lessons():
    at = open_app(page=None)
    links = [p.proto for p in at.get("page_link")]
    assert any(p.page.endswith("lessons") and "lesson" in p.label for p in links), [(p.page, p.label) for p in links]

"""Class mode on the Lessons page (ui/views/lessons_class.py) with a teacher and students as
separate AppTest sessions sharing the class store: the student follows the teacher's step,
model and sentence; answers reach the teacher's tally; the reveal and Next move every
student; an unknown code gets a sentence. (The store's own concurrency, 30 students at
once on SQLite and PostgreSQL, is tests/unit/test_classroom.py.)"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import TEXT, assert_ok, open_app
from server import classroom

LESSONS = "app_pages/lessons.py"


def qp(at: AppTest, name: str) -> str | None:
    v = at.query_params.get(name)
    return v[0] if isinstance(v, list) else v


def teacher_at(step: int) -> AppTest:
    at = open_app({"lesson": "attention", "step": str(step), "text": TEXT}, page=LESSONS)
    at.button(key="cl_start").click().run()
    assert_ok(at)
    assert qp(at, "class") and qp(at, "teacher")
    return at


def student_at(code: str, **query: str) -> AppTest:
    at = open_app({"class": code, **query}, page=LESSONS)
    at.run()                                   # the run after the sidebar took the class's model and text
    assert_ok(at)
    return at


def test_a_student_follows_the_teacher_answers_and_sees_the_reveal():
    teacher = teacher_at(6)                                   # "Softmax turns scores into weights": a question
    code = qp(teacher, "class")
    assert any(code in m.value for m in teacher.markdown)
    assert teacher.get("imgs") or teacher.get("image")       # the QR code
    student = student_at(code)
    assert student.text_area(key="text").value == TEXT         # the class's sentence, not the default one
    assert "Softmax" in student.header[0].value
    assert not student.get("plotly_chart")
    assert not [b for b in student.button if b.key in ("ls_next", "ls_back")]      # students do not navigate
    student.button_group[0].set_value(3).run()
    student.button(key="cl_send").click().run()
    assert_ok(student)
    assert classroom.store().tally(code, 5).counts == {"3": 1}
    teacher.run()
    assert any("Answers so far: 1" in m.value for m in teacher.markdown)
    assert any("3·" in m.value and "| 1 |" in m.value for m in teacher.markdown)
    teacher.button(key="ls_reveal_attention_5").click().run()
    assert_ok(teacher)
    assert classroom.store().get(code).revealed
    student.run()
    assert len(student.get("plotly_chart")) == 1
    assert (student.success or student.warning)                # right or wrong, about the answer it sent
    teacher.button(key="ls_next").click().run()
    student.run()
    assert "weighted sum" in student.header[0].value


def test_a_second_student_and_a_changed_answer_count_once_each():
    teacher = teacher_at(6)
    code = qp(teacher, "class")
    a, b = student_at(code), student_at(code)
    for at, pick in ((a, 1), (b, 2), (a, 2)):                  # a changes its mind
        at.button_group[0].set_value(pick).run()
        at.button(key="cl_send").click().run()
    assert classroom.store().tally(code, 5).counts == {"2": 2}


def test_an_unknown_code_gets_a_sentence_and_the_lesson_still_runs():
    at = open_app({"class": "ZZZZZZ", "lesson": "attention"}, page=LESSONS, errors_ok=True)
    assert any("ZZZZZZ" in w.value for w in at.warning)
    assert len(at.get("plotly_chart")) == 1 and "class" not in at.query_params


def test_a_student_cannot_move_the_class_with_a_wrong_teacher_key():
    teacher = teacher_at(2)
    code = qp(teacher, "class")
    intruder = student_at(code, teacher="guess")
    assert not [b for b in intruder.button if b.key == "ls_next"]
    assert classroom.store().get(code).step == 1

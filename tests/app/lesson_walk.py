"""Opening one lesson step in an AppTest and revealing its question without a guess: the
model's answer read back from the page (for the lesson tests)."""
from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from .helpers import assert_ok, open_app

LESSONS_PAGE = "app_pages/lessons.py"
ANSWER = {"en": re.compile(r"^The model's answer: (.+)\.$"), "zh": re.compile(r"^模型的答案：(.+)。$")}


def open_lesson(lesson: str, lang: str = "en", **query: str) -> AppTest:
    q = {"lesson": lesson, **query}
    if lang == "zh":
        q["lang"] = "中文"
    return open_app(q, page=LESSONS_PAGE)


def n_charts(at: AppTest) -> int:
    return len(at.get("plotly_chart"))


def reveal(at: AppTest, lesson: str, index: int) -> str | None:
    """Reveal step `index` (0-based) without a guess when it asks; the answer's label, or
    None for a step that asks nothing. Asserts one figure after the reveal, none before."""
    key = f"ls_reveal_{lesson}_{index}"
    if not any(b.key == key for b in at.button):
        assert n_charts(at) == 1, f"step {index + 1}: {n_charts(at)} charts"
        return None
    assert n_charts(at) == 0, f"step {index + 1} shows its figure before the reveal"
    at.button(key=key).click().run()
    assert_ok(at)
    assert n_charts(at) == 1, f"step {index + 1}: {n_charts(at)} charts after the reveal"
    for info in at.info:
        for pattern in ANSWER.values():
            m = pattern.match(info.value)
            if m:
                return re.sub(r"\\(.)", r"\1", m.group(1))     # md_escape undone
    raise AssertionError(f"step {index + 1}: no answer shown: {[i.value for i in at.info]}")


def answer_at(lesson: str, index: int, lang: str = "en", **query: str) -> str:
    """The answer of one question step opened from its URL."""
    at = open_lesson(lesson, lang, step=str(index + 1), **query)
    answer = reveal(at, lesson, index)
    assert answer is not None
    return answer

"""Door: a lesson file (`lab.lessons.parse`), as a teacher uploads it on the Lessons page or
drops it in lessons/.

Inputs: the shipped lessons and a small good file, mutated line by line (a line dropped,
doubled, moved, or its value replaced by a hostile one: huge numbers, NaN, HTML, format
fields that reach for attributes, wide padding, nested tables, unknown kinds), random TOML
documents, random text and bytes. A file is either a Lesson or a LessonError with a
sentence in both languages; an accepted lesson's notices fill with facts of their types and
its prose renders with no HTML; nothing is executed and nothing is written.
"""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import lab.lessons
from tests.fuzz.fuzzing import examples
from tests.fuzz.props import run_door
from tests.unit.test_lesson_files import GOOD
from ui.lessons import specs
from ui.markup import lesson_markdown

SPECS = specs()
FILES = [GOOD, *(p.read_text("utf-8") for p in sorted(lab.lessons.LESSON_DIR.glob("*.toml")))]
HOSTILE_VALUES = ['"<script>alert(1)</script>"', "1e999", "nan", "-inf", "9" * 400, '"{top_key.__class__}"',
                  '"{top_value:>999999999}"', '"{0}"', '"{}"', '"{top_key!r}"', "[1, 2, 3]", "{ en = 1, zh = 2 }",
                  '{ en = "x" }', "true", '"auto"', '"' + "长" * 3000 + '"', "2000-01-01", '"\\u0000"', '"exec"',
                  '"{{top_key}}"', '"$\\\\href{javascript:alert(1)}{x}$"']


@st.composite
def mutated(draw) -> str:
    lines = draw(st.sampled_from(FILES)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.integers(0, 4))
        if how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[i])
        elif how == 2:
            lines.insert(draw(st.integers(0, len(lines))), lines.pop(i))
        elif "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            lines[i] = key + "= " + draw(st.sampled_from(HOSTILE_VALUES) if how == 3 else st.text(max_size=30))
        else:
            lines[i] = draw(st.text(max_size=40))
    return "\n".join(lines)


TOML_VALUES = st.recursive(st.one_of(st.integers(), st.floats(), st.text(max_size=20), st.booleans()),
                           lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                           max_leaves=12)


def toml_of(d) -> str:
    """A TOML-ish rendering of random data (invalid TOML is a fine input too)."""
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f'"{k}" = {value(x)}' for k, x in v.items()) + " }"
        return repr(v)
    return "\n".join(f'"{k}" = {value(v)}' for k, v in d.items())


INPUTS = st.one_of(
    mutated(),
    st.dictionaries(st.sampled_from([*lab.lessons.LESSON_FIELDS, "x"]), TOML_VALUES, max_size=6).map(toml_of),
    st.text(max_size=200),
    st.binary(max_size=200),
)
SAMPLE = {"int": 3, "num": 0.25, "text": "<b>x</b>"}


def accepted(lesson: lab.lessons.Lesson) -> None:
    for step in lesson.steps:
        facts = {name: SAMPLE[kind] for name, kind in SPECS[step.kind].facts.items()}
        for code in lab.lessons.LANGS:
            for text in (step.title[code], step.body[code], *(x[code] for x in (step.notice, step.ask) if x)):
                shown = lesson_markdown(lab.lessons.fill(text, facts) if step.notice and text == step.notice[code] else text)
                assert "<" not in shown.replace("&lt;", ""), shown


@examples("lesson_file")
@given(INPUTS)
def test_lesson_file(data):
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    shown = data if isinstance(data, str) else data.decode("utf-8", "replace")
    result = run_door("lesson_file", lambda: lab.lessons.parse(raw, SPECS, "fuzz.toml"), given=shown,
                      what=shown[:80])
    if isinstance(result, lab.lessons.Lesson):
        accepted(result)

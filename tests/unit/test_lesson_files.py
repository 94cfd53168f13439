"""Lesson files (lab/lessons.py): every shipped lesson reads, and a bad file gets an error
naming its field and line, whatever is wrong with it; nothing in a file is executed."""
from __future__ import annotations

import pytest

import lab.lessons
from ui.i18n import STRINGS
from ui.lessons import KINDS, specs
from ui.markup import lesson_markdown

GOOD = '''id = "mini"
model = "minilm"
title.en = "A small lesson"
title.zh = "一节小课"
summary.en = "Two steps."
summary.zh = "两步。"

[[steps]]
kind = "tokens"
title.en = "Tokens"
title.zh = "词元"
body.en = "The text becomes tokens."
body.zh = "文本变成词元。"

[[steps]]
kind = "score_row"
stage = "weights"
layer = -1
head = 0
title.en = "Weights"
title.zh = "权重"
body.en = "Softmax."
body.zh = "softmax。"
ask.en = "Which token?"
ask.zh = "哪个词元？"
notice.en = "{top_key} gets {top_value:.0%}."
notice.zh = "{top_key} 得到 {top_value:.0%}。"
'''


def parse(text: str | bytes) -> lab.lessons.Lesson:
    return lab.lessons.parse(text.encode() if isinstance(text, str) else text, specs(), "test.toml")


def error(text: str | bytes) -> lab.lessons.LessonError:
    with pytest.raises(lab.lessons.LessonError) as info:
        parse(text)
    return info.value


def test_a_good_file_reads():
    lesson = parse(GOOD)
    assert lesson.id == "mini" and len(lesson.steps) == 2
    assert lesson.steps[1].params == {"layer": -1, "head": 0, "query": "auto", "stage": "weights"}
    assert lesson.steps[1].ask == {"en": "Which token?", "zh": "哪个词元？"}
    assert lesson.steps[1].line == 15


def test_every_shipped_lesson_reads_and_is_a_whole_lesson():
    lessons, errors = lab.lessons.shipped(specs())
    assert not errors, [str(e) for e in errors]
    assert "attention" in lessons
    for lesson in lessons.values():
        assert 8 <= len(lesson.steps) <= 15, (lesson.id, len(lesson.steps))
        assert sum(1 for s in lesson.steps if s.ask) >= 2, lesson.id       # predict-then-reveal, at least twice
        for step in lesson.steps:
            for code in lab.lessons.LANGS:
                n = step.body[code].count(". ") + step.body[code].count("。") + 1
                assert n <= 8, (lesson.id, step.title["en"])


def test_every_kind_has_a_default_notice_that_fits_its_facts_or_none():
    for name, k in KINDS.items():
        key = f"lk_{name}_notice"
        if key in STRINGS:
            for code in lab.lessons.LANGS:
                lab.lessons.check_template(STRINGS[key][code], k.spec.facts, key)


def test_every_choice_question_has_option_labels():
    for name, k in KINDS.items():
        if k.spec.question == "choice":
            assert k.spec.options, name
            for option in k.spec.options:
                assert f"lk_opt_{option}" in STRINGS, (name, option)


# ---- bad files: one error, naming field and line ------------------------------------------------
CASES = {
    "syntax": (GOOD.replace('kind = "tokens"', 'kind = "tokens'), "syntax", "line 9"),
    "wrong type": (GOOD.replace('title.en = "Tokens"\ntitle.zh = "词元"', 'title = 3'), "wrong_type", "steps[1].title"),
    "missing id": (GOOD.replace('id = "mini"\n', ''), "missing", "id"),
    "unknown kind": (GOOD.replace('kind = "tokens"', 'kind = "exec"'), "unknown_kind", "steps[1].kind (line 9)"),
    "missing language": (GOOD.replace('body.zh = "文本变成词元。"\n', ''), "missing_lang", "steps[1].body"),
    "unknown language": (GOOD.replace('body.zh = "文本变成词元。"', 'body.zh = "x"\nbody.fr = "y"'), "unknown_lang",
                         "steps[1].body"),
    "unknown parameter": (GOOD.replace('head = 0', 'head = 0\nheads = 3'), "unknown_field", "steps[2].heads (line 20)"),
    "bad parameter": (GOOD.replace('stage = "weights"', 'stage = "everything"'), "bad_value", "steps[2].stage"),
    "layer as text": (GOOD.replace('layer = -1', 'layer = "last"'), "bad_value", "steps[2].layer (line 18)"),
    "unknown fact": (GOOD.replace('{top_key} gets', '{password} gets'), "bad_template", "steps[2].notice.en"),
    "attribute access": (GOOD.replace('{top_key} gets', '{top_key.__class__} gets'), "bad_template",
                         "steps[2].notice.en"),
    "index access": (GOOD.replace('{top_key} gets', '{top_key[0]} gets'), "bad_template", "steps[2].notice.en"),
    "conversion": (GOOD.replace('{top_key} gets', '{top_key!r} gets'), "bad_template", "steps[2].notice.en"),
    "wide padding": (GOOD.replace('{top_value:.0%}.', '{top_value:>99999999}.'), "bad_template",
                     "steps[2].notice.en"),
    "format misfit": (GOOD.replace('{top_key} gets', '{top_key:.2f} gets'), "bad_template", "steps[2].notice.en"),
    "question on a kind without one": (GOOD.replace('body.zh = "文本变成词元。"', 'body.zh = "文本变成词元。"\n'
                                                     'ask.en = "?"\nask.zh = "？"'), "no_question", "steps[1].ask"),
    "no steps": (GOOD[:GOOD.index("[[steps]]")], "no_steps", ""),
    "too many steps": (GOOD + ("\n" + "\n".join(GOOD[GOOD.index("[[steps]]"):].split("\n")[:6]) + "\n") * 30,
                       "step_count", ""),
    "steps not tables": (GOOD[:GOOD.index("[[steps]]")] + 'steps = [1, 2]\n', "wrong_type", "steps"),
    "bad id": (GOOD.replace('id = "mini"', 'id = "../../etc"'), "bad_id", "id (line 1)"),
    "unknown top field": (GOOD.replace('model = "minilm"', 'model = "minilm"\nscript = "rm -rf"'), "unknown_field",
                          "script (line 3)"),
    "text too long": (GOOD.replace('body.en = "Softmax."', f'body.en = "{"x" * 5000}"'), "too_long",
                      "steps[2].body.en"),
    "empty text": (GOOD.replace('body.en = "Softmax."', 'body.en = "  "'), "wrong_type", "steps[2].body.en"),
    "archs": (GOOD.replace('model = "minilm"', 'model = "minilm"\narchs = ["rnn"]'), "bad_value", "archs"),
    "boolean as number": (GOOD.replace('head = 0', 'head = true'), "bad_value", "steps[2].head"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_file_gets_one_error_naming_the_field_and_line(name):
    text, code, where = CASES[name]
    e = error(text)
    assert e.code == code, (name, e.code, str(e))
    assert where in str(e), (name, str(e))
    assert f"refused_lesson_{code}" in STRINGS                # the app has a sentence for it, in both languages


def test_a_huge_file_is_refused_by_its_size_before_parsing():
    e = error(GOOD.encode() + b"#" * (1 << 20))
    assert e.code == "too_big" and "1,049,148" in str(e)


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"\xff\xfe\xfd", bytes(range(256))])
def test_a_binary_file_is_not_text(data):
    assert error(data).code == "not_text"


def test_html_in_a_text_is_accepted_and_shown_literally():
    lesson = parse(GOOD.replace('body.en = "Softmax."', 'body.en = "<script>alert(1)</script> **soft** [x](http://e.com) ![i](http://e.com/i.png) $p_j$"'))
    shown = lesson_markdown(lesson.steps[1].body["en"])
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert "**soft**" in shown and "$p_j$" in shown
    assert "](http" not in shown and "\\[x\\]\\(http" in shown          # links and images are plain text


def test_layers_and_heads_are_checked_against_the_model():
    lesson = parse(GOOD.replace("layer = -1", "layer = 6"))
    lab.lessons.check_model(lesson, specs(), 12, 12, "encoder")
    with pytest.raises(lab.lessons.LessonError) as info:
        lab.lessons.check_model(lesson, specs(), 6, 12, "encoder")
    assert info.value.code == "layer_range" and "steps[2].layer is 6" in str(info.value)
    with pytest.raises(lab.lessons.LessonError, match="head"):
        lab.lessons.check_model(parse(GOOD.replace("head = 0", "head = -13")), specs(), 6, 12, "encoder")


def test_fill_formats_only_the_named_facts():
    assert lab.lessons.fill("{a} has {b:.0%} and {{braces}}", {"a": "x<y", "b": 0.614}) == "x<y has 61% and {braces}"



def test_the_teachers_guide_lists_every_step_kind():
    """docs/lessons.md's table is `python -m ui.lessons kinds` (regenerate it with
    `python -m tests.unit.test_lesson_files` after adding a kind)."""
    from ui.lessons.__main__ import kinds_markdown

    doc = DOC.read_text("utf-8")
    table = doc.split("<!-- kinds:begin -->\n", 1)[1].split("<!-- kinds:end -->", 1)[0]
    assert table.strip() == kinds_markdown().strip()


def test_the_command_line_checks_a_file(tmp_path, capsys):
    from ui.lessons.__main__ import main

    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(GOOD, "utf-8")
    bad.write_text(GOOD.replace('kind = "tokens"', 'kind = "nope"'), "utf-8")
    assert main(["check", str(good)]) == 0
    assert main(["check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "lesson 'mini', 2 steps (1 with a question)" in out and "steps[1].kind (line 9)" in out


DOC = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "lessons.md"

if __name__ == "__main__":             # rewrite docs/lessons.md's table of step kinds
    from ui.lessons.__main__ import kinds_markdown

    text = DOC.read_text("utf-8")
    head, rest = text.split("<!-- kinds:begin -->\n", 1)
    DOC.write_text(head + "<!-- kinds:begin -->\n" + kinds_markdown() + "\n<!-- kinds:end -->"
                   + rest.split("<!-- kinds:end -->", 1)[1], "utf-8")

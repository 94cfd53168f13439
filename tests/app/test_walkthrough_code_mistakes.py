"""The walk-through's section 8, common code mistakes (ui/views/walkthrough_code_mistakes.py): the
table with the right code first, each mistake's code and effect, in English and Chinese; a
model whose scores carry a position bias gets a sentence instead."""
from __future__ import annotations

import pytest

from tests.app.helpers import GPT_LABEL, TEXT, assert_ok, open_app
from ui.views.walkthrough_code_mistakes import CODE
from lab.code_mistakes import MISTAKES

WALK = "app_pages/walkthrough.py"
WORDS = {"English": ("the right code", "Wrong:", "changes nothing"), "中文": ("正确的代码", "错误写法：", "没有任何影响")}


def table(at) -> list[list[str]]:
    md = next(m.value for m in at.main.markdown if m.value.count("\n|") >= 7)
    return [[c.strip() for c in line.strip("|").split("|")] for line in md.splitlines()[2:]]


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_minilm_the_right_code_matches_and_the_masks_change_nothing(lang):
    right, wrong, nothing = WORDS[lang]
    at = open_app({"text": TEXT, "lang": lang, "wt_layer": "2"}, WALK)
    rows = table(at)
    assert rows[0][0] == right and float(rows[0][1].replace("\\", "")) < 1e-5
    assert len(rows) == 1 + len(MISTAKES)
    by_name = {r[0]: float(r[1].replace("\\", "")) for r in rows}
    assert sum(v > 0.1 for v in by_name.values()) >= 4                    # the scale and split mistakes show
    expanders = [e for e in at.expander if any(c.type == "code" for c in e.children.values())]
    assert len(expanders) == len(MISTAKES)
    text = " ".join(m.value for e in expanders for m in e.markdown)
    assert wrong in text and nothing in text                               # an encoder: the mask mistakes do nothing


def test_a_decoder_shows_every_mistake():
    at = open_app({"text": TEXT, "model": GPT_LABEL}, WALK)
    assert_ok(at)
    rows = table(at)
    right = float(rows[0][1].replace("\\", ""))
    assert all(float(r[1].replace("\\", "")) > 100 * right for r in rows[1:]), rows


def test_a_position_bias_model_gets_a_sentence():
    at = open_app({"text": TEXT, "model": "ALiBi decoder"}, WALK)
    assert any("position bias" in i.value for i in at.info), [i.value for i in at.info]


def test_every_mistake_has_its_code():
    assert set(CODE) == set(MISTAKES)

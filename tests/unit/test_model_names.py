"""Names in the UI language (ui/model_names.py, issue 35): a model's name, a setting's value,
a place in the model, and a lesson formula with words in both languages."""
from __future__ import annotations

import pytest

from lab import lessons
from models.weights import zoo
from tests.unit.test_lesson_files import GOOD
from ui import model_names
from ui.lessons import specs


@pytest.fixture
def zh(monkeypatch):
    monkeypatch.setattr(model_names, "lang", lambda: "zh")


def test_a_toy_checkpoint_is_named_from_its_task_and_scheme_in_chinese():
    toy = zoo.get("toy:reverse-sinusoidal-postln")
    assert model_names.label_in(toy, "en") == toy.label                        # links made before keep working
    assert model_names.label_in(toy, "zh") == "玩具模型：反转 · 正弦位置编码 · Post-LN"
    assert model_names.label_in(zoo.get("custom:gpt"), "zh") == "GPT-2 式解码器"
    assert model_names.label_in(zoo.get("toy:pe64-rope"), "zh") == zoo.get("toy:pe64-rope").card["label_zh"]
    verse = zoo.get("toy:verse-lm")
    assert "中文" not in model_names.label_in(verse, "en") and verse.label in model_names.aliases(verse)   # the card's name opens it
    assert model_names.label_in(zoo.folder_entry("/tmp/my-model"), "zh") == "文件夹：my-model"


def test_places_in_the_model_and_settings_are_named(zh):
    assert [model_names.site_label(x) for x in ("embed", "L5 mlp", "L2", "L1 ln2", "ln_final", "dec L0 attn", "L0 H3")] == [
        "嵌入", "第 5 层前馈网络", "第 2 层", "第 1 层归一化 2", "最终归一化", "解码器第 0 层注意力", "L0 H3"]
    assert [model_names.setting_text(f, v) for f, v in (("norm", "rmsnorm"), ("positional", "none"), ("embed_norm", "True"),
                                                ("d_model", "64"), ("activation", "gelu_tanh"))] == [
        "RMSNorm（均方根归一化）", "无", "是", "64", "GELU（tanh 近似）"]


def test_english_names_of_places_stay_the_short_ones(monkeypatch):
    monkeypatch.setattr(model_names, "lang", lambda: "en")
    assert model_names.site_label("L5 mlp") == "L5 mlp" and model_names.setting_text("norm_position", "post") == "post-norm"


def test_a_lesson_formula_may_have_a_text_per_language():
    both = GOOD.replace('body.zh = "softmax。"\n', 'body.zh = "softmax。"\nformula = \'p = 1\'\n', 1)
    assert lessons.parse(both, specs()).steps[1].formula == {"en": "p = 1", "zh": "p = 1"}
    each = GOOD.replace('body.zh = "softmax。"\n',
                        'body.zh = "softmax。"\nformula.en = \'\\text{score}\'\nformula.zh = \'\\text{得分}\'\n', 1)
    assert lessons.parse(each, specs()).steps[1].formula == {"en": r"\text{score}", "zh": r"\text{得分}"}
    half = GOOD.replace('body.zh = "softmax。"\n', 'body.zh = "softmax。"\nformula.en = \'x\'\n', 1)
    with pytest.raises(lessons.LessonError, match=r"steps\[2\]\.formula"):
        lessons.parse(half, specs())

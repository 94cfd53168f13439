"""The size calculator on the FFN page's size view (ui/widgets/size_calculator.py): the loaded
model checked against its own count, the named models' totals, the notes' wrong sizes named
beside them, a shape that makes no Transformer said in a sentence, in English and Chinese."""
from __future__ import annotations

import pytest

from tests.app.helpers import assert_ok, open_app

FFN = "app_pages/ffn.py"
WORDS = {
    "English": {"same": "exactly the parameters the loaded model has", "warn": "cannot be split into",
                "kv": "2 (K and V)", "heads": "the same"},
    "中文": {"same": "逐部分完全一致", "warn": "无法平均分给", "kv": "2（K 和 V）", "heads": "完全相同"},
}


def markdown(at) -> str:
    return "\n".join(m.value for m in at.main.markdown)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_the_loaded_model_is_checked_and_named_models_are_counted(lang):
    words = WORDS[lang]
    at = open_app({"fview": "size", "lang": lang}, FFN)
    assert at.selectbox(key="sz_preset").value == "loaded"
    assert any(words["same"] in c.value and "22,565,376" in c.value for c in at.main.caption), \
        [c.value for c in at.main.caption]                     # MiniLM: the formula = the model's own count
    assert "22,565,376" in markdown(at) and "不" not in at.number_input(key="sz_d").label
    assert words["kv"] not in markdown(at)                     # an encoder keeps no KV cache
    at.selectbox(key="sz_preset").select("gpt2").run()
    assert_ok(at)
    assert at.number_input(key="sz_d").value == 768 and at.number_input(key="sz_vocab").value == 50257
    text = markdown(at)
    assert "124,439,808" in text and words["kv"] in text and words["heads"] in text
    notes = [c for c in at.main.markdown if "768" in c.value and "124,439,808" in c.value]
    assert notes, "the note on GPT-2's '768 characters' is missing"
    at.selectbox(key="sz_preset").select("gpt3").run()
    assert "617,558,016" in markdown(at)                       # 50,257 x 12,288: GPT-3's embedding table


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_numbers_that_make_no_transformer_get_a_sentence_and_keep_the_fields(lang):
    at = open_app({"fview": "size", "lang": lang}, FFN)
    at.selectbox(key="sz_preset").select("gpt2").run()
    at.number_input(key="sz_heads").set_value(7).run()
    warnings = [w.value for w in at.warning]
    assert any(WORDS[lang]["warn"] in w and "768" in w for w in warnings), warnings
    assert at.number_input(key="sz_heads").value == 7 and at.number_input(key="sz_d").value == 768
    at.number_input(key="sz_heads").set_value(12).run()
    at.number_input(key="sz_layers").set_value(24).run()
    at.number_input(key="sz_d").set_value(1024).run()
    at.number_input(key="sz_heads").set_value(16).run()
    assert any("16" in w.value for w in at.warning)             # 12 key/value heads cannot serve 16 query heads
    at.number_input(key="sz_kv").set_value(16).run()
    at.number_input(key="sz_ff").set_value(4096).run()
    assert not at.warning and "354,823,168" in markdown(at)      # GPT-2 medium's shape, typed by hand

"""Issue 35's last details of a Chinese screen, driven through AppTest in both languages:

- why a catalogue model is not available here is said in the reader's language (review E19:
  the sidebar's "Not available on this machine" list showed raw English exception texts);
- the example sentence follows the language where the model reads it (review E21): in Chinese,
  a model trained on Chinese starts on the Chinese example, MiniLM keeps the English one and
  says why; what the reader typed is never replaced;
- the model card names a decoder's causal mask and takes the full-width colon in Chinese.
"""
from __future__ import annotations

import shutil

import pytest

from models.weights import zoo
from models.weights.checkpoint import CHECKPOINT_DIR
from ui.examples import EXAMPLE_TEXTS

from .helpers import TEXT, assert_ok, open_app, rerun

LANG = {"en": "English", "zh": "中文"}
VERSE = zoo.get("toy:verse-lm").label


def sidebar_text(at) -> str:
    return at.text_area(key="text").value


def captions(block) -> list[str]:
    return [c.value for c in block.caption]


@pytest.mark.parametrize("code, says", [("zh", "缺少 broken.safetensors：检查点的 .json 旁边必须有对应的权重文件。"),
                                        ("en", "broken.safetensors is missing: a checkpoint needs its weights")])
def test_why_a_model_is_unavailable_is_said_in_the_readers_language(tmp_path, monkeypatch, code, says):
    shutil.copy(CHECKPOINT_DIR / "sort.json", tmp_path / "broken.json")          # its weights are not beside it
    shipped = zoo.shipped_checkpoints()
    monkeypatch.setattr(zoo, "shipped_checkpoints", lambda: [*shipped, tmp_path / "broken.json"])
    monkeypatch.setattr(zoo, "_CATALOGUE_MEMO", {})    # the remembered catalogue is keyed on the real folder
    at = open_app({"lang": LANG[code]}, page=None)
    unavailable = [e for e in at.sidebar.expander if e.label == ("本机不可用" if code == "zh" else
                                                                   "Not available on this machine")]
    assert len(unavailable) == 1, [e.label for e in at.sidebar.expander]
    shown = " ".join(captions(unavailable[0]))
    assert says in shown.replace("\\", ""), shown
    if code == "zh":
        assert "is missing" not in shown and "weights of" not in shown


@pytest.mark.parametrize("code, rows", [
    ("zh", ("- **结构**：解码器", "- **注意力**：MHA，因果掩码")),
    ("en", ("- **Architecture**: decoder", "- **Attention**: MHA, causal mask")),
])
def test_the_model_card_names_the_causal_mask_with_the_languages_colon(code, rows):
    at = open_app({"lang": LANG[code], "model": VERSE, "text": TEXT}, page=None)
    card = next(m.value for m in at.markdown if m.value.startswith("- **"))
    for row in rows:
        assert row in card, card
    if code == "zh":
        assert "**:" not in card and "全注意力" not in card       # a decoder's pattern is its causal mask


def test_in_chinese_a_model_that_reads_chinese_starts_on_the_chinese_example():
    at = open_app({"lang": "中文", "model": VERSE}, page=None)
    assert sidebar_text(at) == EXAMPLE_TEXTS["zh"]
    assert not at.warning and not at.info                              # no "link adjusted" notice
    at.radio(key="lang").set_value("English")
    rerun(at)
    assert sidebar_text(at) == EXAMPLE_TEXTS["en"]                     # the app's example follows the language
    at.radio(key="lang").set_value("中文")
    rerun(at)
    assert sidebar_text(at) == EXAMPLE_TEXTS["zh"]


def test_in_chinese_minilm_keeps_the_english_example_and_says_why():
    at = open_app({"lang": "中文"}, page=None)
    assert sidebar_text(at) == EXAMPLE_TEXTS["en"]
    assert any("MiniLM 是用英文训练的" in c for c in captions(at.sidebar))
    at.selectbox(key="model").set_value("toy:verse-lm")                # a model trained on Chinese: its example
    rerun(at)
    assert sidebar_text(at) == EXAMPLE_TEXTS["zh"]
    assert not any("MiniLM 是用英文训练的" in c for c in captions(at.sidebar))
    at = open_app({}, page=None)
    assert not any("MiniLM" in c and "English" in c and "example" in c for c in captions(at.sidebar))


def test_the_readers_own_text_is_never_replaced():
    at = open_app({"lang": "中文", "model": VERSE, "text": TEXT}, page=None)
    assert sidebar_text(at) == TEXT
    at.radio(key="lang").set_value("English")
    rerun(at)
    assert sidebar_text(at) == TEXT
    at.text_area(key="text").input(EXAMPLE_TEXTS["en"])               # typed: stays, in either language
    rerun(at)
    assert sidebar_text(at) == EXAMPLE_TEXTS["en"]
    at.text_area(key="text").input("我的句子")
    rerun(at)
    at.radio(key="lang").set_value("中文")
    rerun(at)
    assert sidebar_text(at) == "我的句子"
    assert_ok(at)

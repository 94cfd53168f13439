"""Every UI string exists in English and Chinese, with the same placeholders."""
import string
from types import ModuleType

import pytest

from ui.i18n import FORMULAS, STRINGS, merge, string_modules


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_string_has_both_languages_and_the_same_placeholders():
    for key, entry in STRINGS.items():
        assert set(entry) == {"en", "zh"}, key
        assert entry["en"].strip() and entry["zh"].strip(), key
        assert placeholders(entry["en"]) == placeholders(entry["zh"]), key


def test_chinese_strings_are_translated():
    # model names and examples may stay in English; explanations may not
    for key in ("tagline", "home_intro", "ex_attention", "ex_mask", "ex_rollout", "empty_text", "truncated"):
        assert STRINGS[key]["zh"] != STRINGS[key]["en"], key
        assert any("\u4e00" <= ch <= "\u9fff" for ch in STRINGS[key]["zh"]), key


def test_formulas_are_latex():
    assert r"\sqrt{d_k}" in FORMULAS["attention"] and r"\sum_k p_{qk}=1" == FORMULAS["rows"]


def _module(name: str, **tables: dict) -> ModuleType:
    module = ModuleType(f"ui.strings.{name}")
    for table, entries in tables.items():
        setattr(module, table, entries)
    return module


def test_a_key_defined_twice_is_refused():
    first = _module("one", STRINGS={"k": {"en": "a", "zh": "甲"}}, FORMULAS={"f": "x"})
    twice = _module("two", STRINGS={"k": {"en": "b", "zh": "乙"}})
    with pytest.raises(RuntimeError, match=r"ui/strings/two\.py redefines k"):
        merge([first, twice])
    with pytest.raises(RuntimeError, match=r"ui/strings/two\.py redefines f"):
        merge([first, _module("two", FORMULAS={"f": "y"})])


def test_strings_and_formulas_merge_every_module():
    modules = string_modules()
    assert {m.__name__.rsplit(".", 1)[-1] for m in modules} >= {
        "common", "home", "attention", "positional", "masks", "walkthrough", "ffn", "residual", "generate",
        "training", "compare", "ablation"}
    assert sum(len(m.STRINGS) for m in modules) == len(STRINGS)
    assert sum(len(getattr(m, "FORMULAS", {})) for m in modules) == len(FORMULAS)


def test_every_strings_module_says_what_it_serves():
    for module in string_modules():
        doc = (module.__doc__ or "").strip()
        assert doc and "\n" not in doc, module.__name__


# Terms a Chinese reader takes the wrong way (the syllabus issue's list): the word on the left
# must not appear in any Chinese string; the right one is what we say instead.
WRONG_TERMS = {
    "注意力浏览器": "注意力探查器 (浏览器 is a web browser)",
    "全连接注意力": "全注意力（全部可见）",
    "遮挡": "掩码 / 被掩码",
    "向后看": "看后面（未来）的词元 (向后 can mean the past)",
    "几何数列": "等比数列",
    "堆栈": "编码器 / 解码器 (see ui/glossary.py)",
    "一袋词元": "词袋",
    "双胞胎模型": "孪生模型",
    "剪掉": "被剪枝",
}


@pytest.mark.parametrize("wrong", sorted(WRONG_TERMS))
def test_chinese_strings_avoid_misleading_terms(wrong):
    found = [key for key, entry in STRINGS.items() if wrong in entry["zh"]]
    assert not found, f"{wrong} in {found}: say {WRONG_TERMS[wrong]}"

"""Every UI string exists in English and Chinese, with the same placeholders."""
import string

from ui.i18n import FORMULAS, STRINGS


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

"""Every Chinese UI string uses the glossary's term, never a listed variant (ui/glossary.py, docs/glossary.md)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ui.glossary import TERMS, Term, markdown, variants_in
from ui.i18n import string_modules

ROOT = Path(__file__).resolve().parents[2]


def _toml_texts(node: object, path: str):
    """(path, zh text) of every `x.zh` string of a parsed lesson file."""
    if isinstance(node, dict):
        if isinstance(node.get("zh"), str):
            yield path, node["zh"]
        for key, value in node.items():
            yield from _toml_texts(value, f"{path}.{key}" if path else key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _toml_texts(value, f"{path}[{i}]")


def chinese_texts() -> dict[str, str]:
    """Where -> zh text, for every UI string (ui/strings/<module>.py) and every lesson text."""
    texts = {}
    for module in string_modules():
        name = module.__name__.rsplit(".", 1)[-1]
        texts.update({f"ui/strings/{name}.py {key}": entry["zh"] for key, entry in module.STRINGS.items()})
    for path in sorted((ROOT / "lessons").glob("*.toml")):
        for where, text in _toml_texts(tomllib.loads(path.read_text(encoding="utf-8")), ""):
            texts[f"lessons/{path.name} {where}"] = text
    return texts


def test_the_chinese_texts_are_all_collected():
    texts = chinese_texts()
    assert len(texts) > 2000
    assert "ui/strings/common.py nav_training" in texts
    assert "lessons/07-poems.toml steps[3].body" in texts and "lessons/07-poems.toml title" in texts


def test_no_chinese_string_uses_a_variant_the_glossary_avoids():
    found = [f"{where}: {variant!r} (say {term.zh})"
             for where, text in chinese_texts().items() for variant, term in variants_in(text)]
    assert not found, "variants the glossary avoids:\n" + "\n".join(found)


def test_a_variant_is_found_and_an_allowed_phrase_is_not():
    term = Term("cosine similarity", "余弦相似度", ("余弦",), ("余弦相似度", "余弦衰减"))
    assert variants_in("平均余弦（原模型）", (term,)) == [("余弦", term)]
    assert variants_in("平均余弦相似度，再余弦衰减", (term,)) == []
    assert [v for v, _ in variants_in("GQA（2 个键值头）")] == ["键值头"]
    assert variants_in("GQA（2 个键/值头）") == []
    assert [v for v, _ in variants_in("ln1 的输出（前置层归一化）")] == ["前置层归一化"]
    assert variants_in("Pre-LN（前置层归一化）") == []


def test_every_term_is_one_clean_entry():
    seen = set()
    for term in TERMS:
        assert term.en and term.zh, term
        assert term.en not in seen, f"{term.en} listed twice"
        seen.add(term.en)
        assert not variants_in(term.zh, (term,)), f"{term.en}: the chosen term {term.zh} uses a variant it avoids"
        for ok in term.unless:
            assert any(v in ok for v in term.avoid), f"{term.en}: {ok} holds none of the variants"


def test_docs_glossary_is_generated_from_the_module():
    doc = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert doc == markdown(), "docs/glossary.md is stale: run `python -m ui.glossary > docs/glossary.md`"


# ---- Chinese punctuation (issue 35): full-width colon and parentheses after Chinese text ----------
CJK = r"[\u3400-\u4dbf\u4e00-\u9fff]"
SLIPS = (
    (re.compile(CJK + r"\**[:;,!?]"), "a half-width colon or mark right after a Chinese character (use ：；，！？)"),
    (re.compile(CJK + r"\**\("), "a half-width parenthesis right after a Chinese character (use （）)"),
    (re.compile(CJK + r" \([^()]*" + CJK + r"[^()]*\)"), "a Chinese aside in half-width parentheses (use （）)"),
    (re.compile(r"\(([^()]*" + CJK + r"[^()]*)\)" + CJK), "a Chinese aside in half-width parentheses (use （）)"),
    (re.compile(r"（[^（）]*（[^（）]*）[^（）]*）"), "parentheses inside parentheses (rephrase, or use ——)"),
)
# Where a slip is meant: (where, fragment) -> why. Code spans (`...`) and inline LaTeX ($...$) are
# not prose and are left out before the check; a function's argument in maths, logit(目标), has a
# Latin name before its parenthesis and is not a slip.
PUNCTUATION_OK: dict[tuple[str, str], str] = {}


def punctuation_slips(text: str) -> list[tuple[str, str]]:
    """(fragment, what is wrong) for each half-width slip in a Chinese text (code and maths left out)."""
    prose = re.sub(r"`[^`]*`|\$[^$]*\$", " ", text)
    return [(m.group(), why) for pattern, why in SLIPS for m in pattern.finditer(prose)]


def test_chinese_strings_take_full_width_colons_and_parentheses():
    found = [f"{where}: {fragment!r}: {why}" for where, text in chinese_texts().items()
             for fragment, why in punctuation_slips(text) if (where, fragment) not in PUNCTUATION_OK]
    assert not found, "half-width punctuation in Chinese text:\n" + "\n".join(found)


def test_punctuation_slips_are_found_and_maths_and_code_are_not():
    assert [f for f, _ in punctuation_slips("- **结构**: 编码器")] == ["构**:"]     # bold in markdown too
    assert [f for f, _ in punctuation_slips("结构: 编码器")] == ["构:"]
    assert [f for f, _ in punctuation_slips("位置编码(可学习)")] == ["码("]
    assert [f for f, _ in punctuation_slips("位置编码 (可学习)")] == ["码 (可学习)"]
    assert [f for f, _ in punctuation_slips("（全注意力（全部可见））")] == ["（全注意力（全部可见））"]
    for fine in ("p(目标) 与 logit(目标)", "状态 (a, b, p)", "结构：编码器", "用 `x: int` 写", "$f(x)$ 的值",
                 "位置编码（可学习）", "GELU (tanh)"):
        assert punctuation_slips(fine) == [], fine

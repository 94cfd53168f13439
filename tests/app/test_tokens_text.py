"""The tokens page's text section (ui/views/tokens_text.py) in English and Chinese: the four cuts
with their counts, the UTF-8 layout, the merges table, the made-up word and the notes' box; and
bad text (empty, 20,000 characters, control characters, emoji) as sentences, never a traceback."""
from __future__ import annotations

import pytest

from lab import text, tokens
from tests.app.helpers import assert_ok, everything_rendered, open_app
from ui.markup import md_code
from ui.serving.tokens import verse_bpe
from ui.views.tokens_text import MAX_WORD, label

PAGE = "app_pages/tokens.py"
ZH = "天上有明月，水中也有明月。"


def markdown(at) -> str:
    return "\n".join(m.value for m in at.main.markdown)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_four_cuts_with_their_counts(lang):
    sample = f"The LORD is my shepherd {ZH}"
    at = open_app({"lang": lang, "text": sample, "tk_merges": "300"}, PAGE)
    md = markdown(at)
    # the table's counts are lab's: characters, bytes, byte-level BPE (256 + 300 pieces)
    assert f"| {len(sample)} |" in md and f"| {len(sample.encode())} |" in md
    assert "| 556 |" in md and "1,114,112" in md and "30,522" in md
    assert "` e5 a4 a9 `" in md                                  # 天 in UTF-8, spelled out
    bpe = text.bpe(text.bpe_tokenizer(list(verse_bpe().merges), 300), sample)
    assert (f"byte\\-level BPE, 300 merges** · {len(bpe)} tokens" in md
            or f"字节级 BPE，300 次合并** · {len(bpe)} 个词元" in md)          # the count is lab's
    assert any(d for d in at.dataframe), "the merges table is missing"
    assert len(at.dataframe[0].value) == 300
    assert "flumbersnatch" in md and at.text_input(key="tk_word").value == "flumbersnatch"
    boxes = [m for m in at.main.markdown if "1～3" in m.value or "1 to 3" in m.value]
    assert boxes, "the note on the notes' fixed token costs is missing"
    at.slider(key="tk_merges").set_value(0).run()
    assert_ok(at)
    assert at.info and f"| {len(sample.encode())} |" in markdown(at)  # no merges: BPE = the bytes
    costs = tokens.han_costs(text.bpe(text.bpe_tokenizer([], 0), sample), sample)
    assert costs["3"] == len(tokens.units(sample).han) == 11          # every Chinese character: three bytes
    line = next(m.value for m in at.main.markdown if "BPE" in m.value and "**11**" in m.value)
    assert line.count("**0**") == 4                                   # none in 1, 2, 4+ or shared
    assert not at.dataframe
    at.text_input(key="tk_word").set_value("明月").run()
    assert_ok(at)
    assert "明月" in markdown(at)


@pytest.mark.parametrize("lang", ["English", "中文"])
@pytest.mark.parametrize("bad", ["", "   ", ("天上有明月 the LORD 🤖 " * 1200)[:20_000], "a\x00b\x07c\x1b[31m\u200b\u202e",
                                 "🤖👩‍👩‍👧 ❤️ 🇨🇳"])
def test_bad_text_is_a_sentence(lang, bad):
    at = open_app({"lang": lang, "text": bad}, PAGE, errors_ok=True)
    assert not at.exception
    shown = everything_rendered(at)
    assert "Traceback" not in shown
    if not bad.strip():
        assert at.info, "an empty text gets a prompt"
        return
    assert_ok(at)
    md = markdown(at)
    if len(bad) == 20_000:
        assert "20,000" in " ".join(c.value for c in at.main.caption)
        assert "more" in md or "还有" in md                        # long cuts are listed in part
    assert "\x00" not in md and "\x07" not in md                   # control characters are named, not sent


def test_hostile_made_up_word():
    word = "<b>x</b>`|`[y](z)" + "w" * 500
    at = open_app({"tk_word": word}, PAGE)
    assert md_code(label(word[:MAX_WORD])) in markdown(at)          # shown as a code span, cut to MAX_WORD

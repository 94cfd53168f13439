"""The shipped language models in the app: the Generation page offers verse-lm first, with a
prompt in the UI language and one click for the other; the sidebar suggests the
character-level encoder (verse-mlm) for a mostly Chinese text under MiniLM."""
from __future__ import annotations

from recipes.verse import PROMPTS
from models.weights import zoo
from tests.app.helpers import assert_ok, open_app, texts

PAGE = "app_pages/generate.py"

ZH_TEXT = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"


def test_generation_offers_verse_lm_with_the_ui_language_prompt():
    at = open_app({}, PAGE)                                 # MiniLM, an encoder: the page offers a decoder
    switch = at.button(key="gen_switch")
    assert "Verse LM" in switch.label                        # the label is markdown-escaped on the button
    switch.click().run()
    assert_ok(at)
    assert at.session_state["model"] == "toy:verse-lm"
    assert at.session_state["text"] == PROMPTS["en"]        # the English UI's prompt
    run = at.session_state["_gen"]
    assert run.new_ids and run.prompt_ids
    # the other language is one click away
    assert at.button(key="gen_lm_prompt_en").disabled
    at.button(key="gen_lm_prompt_zh").click().run()
    assert_ok(at)
    assert at.session_state["text"] == PROMPTS["zh"]
    model, tok = zoo.load("toy:verse-lm")
    new = at.session_state["_gen"].new_ids
    assert set(tok.decode(new)) <= set(tok.vocab)


def test_generation_in_chinese_puts_the_chinese_prompt_first():
    at = open_app({"lang": "中文"}, PAGE)
    at.button(key="gen_switch").click().run()
    assert_ok(at)
    assert at.session_state["text"] == PROMPTS["zh"]
    labels = [b.label for b in at.button if b.key and b.key.startswith("gen_lm_prompt_")]
    assert labels[0].startswith("中文提示") and PROMPTS["en"] in labels[1]


def test_sidebar_suggests_the_character_encoder_for_chinese_text_under_minilm():
    at = open_app({"text": "the cat sat on the mat"})
    assert not [b for b in at.button if b.key == "sb_char_encoder"]
    at = open_app({"text": ZH_TEXT})
    assert any("[UNK]" in c for c in texts(at, "caption"))
    at.button(key="sb_char_encoder").click().run()
    assert_ok(at)
    assert at.session_state["model"] == "toy:verse-mlm"
    assert not [b for b in at.button if b.key == "sb_char_encoder"]
    at = open_app({"text": ZH_TEXT, "lang": "中文"})
    assert any("[UNK]" in c and "汉字" in c for c in texts(at, "caption"))

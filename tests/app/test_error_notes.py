"""The course notes' errors named where their topic is taught (issue 36, item 8): each
"common explanation → what the model shows" note is on its page in English and Chinese,
with its numbers computed (checked here against the lab functions or numpy by hand)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import lab.positional
import lab.scaling
from tests.app.helpers import TEXT, assert_ok, find_block, open_app, rerun

POSITIONAL = "app_pages/positional.py"
WALK = "app_pages/walkthrough.py"


def note(at, key: str) -> str:
    """The text of the note `mis_<key>` (fails if it is not on the page)."""
    box = find_block(at.main, f"mis_{key}")
    assert box is not None, f"the note mis_{key} is missing"
    return "\n".join(str(e.value) for e in box.children.values() if hasattr(e, "value"))


def in_language(text: str, zh: bool) -> None:
    assert ("常见说法" in text) == zh, text


def pe_section(at, name: str):
    radio = [r for r in at.radio if r.key.startswith("pe_view__")][0]
    radio.set_value(name)
    return rerun(at)


LANGS = pytest.mark.parametrize("lang", ["English", "中文"])


@LANGS
def test_positional_tables_and_calculator_notes(lang):
    zh = lang == "中文"
    at = open_app({"lang": lang}, POSITIONAL)
    assert_ok(at)
    text = note(at, "pe_wavelength")
    in_language(text, zh)
    wl = 2 * np.pi * 10000 ** (np.arange(0, 64, 2) / 64)      # d = 64 by hand: pairs' wavelengths
    assert f"{wl[0]:.1f}" in text and f"{wl[-1]:,.0f}" in text
    for key in ("pe_evenodd", "pe_vocab", "pe_source", "pe_copies"):
        in_language(note(at, key), zh)
    assert f"{math.sin(10):.6f}" in note(at, "pe_vocab")                # PE(10, 0) = sin(10)
    assert "4,096" in note(at, "pe_copies")


@LANGS
def test_positional_shift_rope_and_bias_notes(lang):
    zh = lang == "中文"
    at = pe_section(open_app({"lang": lang}, POSITIONAL), "shift")
    text = note(at, "pe_addition")
    in_language(text, zh)
    assert f"{math.sin(15):.4f}" in text and f"{math.sin(10):.4f}" in text     # pos 10, k 5, pair 0 (ω = 1)
    text = note(at, "pe_unique")
    assert f"{math.cos(10):.4f}" in text and f"{-math.cos(10):.4f}" in text
    at = pe_section(at, "rope")
    in_language(note(at, "pe_rope"), zh)
    at = pe_section(at, "bias")
    at.selectbox(key="pe_rel_src").set_value("custom:t5")
    rerun(at)
    in_language(note(at, "pe_direction"), zh)


@LANGS
def test_positional_permutation_note(lang):
    at = pe_section(open_app({"lang": lang, "pe_task": "copy"}, POSITIONAL), "attention")
    text = note(at, "pe_shuffle")
    in_language(text, lang == "中文")


@LANGS
def test_walkthrough_scaling_notes(lang):
    zh = lang == "中文"
    at = open_app({"text": TEXT, "lang": lang}, WALK)
    curve = lab.scaling.random_variance()
    text = note(at, "mean")
    in_language(text, zh)
    assert f"{curve.var[0]:.3g}" in text and f"{curve.var[-1]:.3g}" in text
    text = note(at, "paper")
    in_language(text, zh)
    assert "3.2.1" in text and f"{curve.samples:,}" in text
    in_language(note(at, "gradrisk"), zh)



# ---- the masks page ------------------------------------------------------------------------------------
MASKS = "app_pages/masks.py"


def masks_tab(at, tab: str, zh: bool):
    from ui.strings.masks import STRINGS
    at.session_state[f"mk_tab__{'zh' if zh else 'en'}"] = STRINGS[f"mk_tab_{tab}"]["zh" if zh else "en"]
    return rerun(at)


@LANGS
def test_masks_notes(lang):
    import models.masks
    zh = lang == "中文"
    at = open_app({"text": TEXT, "lang": lang}, MASKS)             # [CLS] the cat sat on the mat [SEP]: 8 tokens
    n = 8
    local, causal = models.masks.local(n, 2).numpy(), models.masks.causal(n).numpy()
    text = note(at, "mk_add")                                       # the local window with the causal triangle
    in_language(text, zh)
    assert f" {int((~local & ~causal).sum())} " in text and f" {int((local & causal).sum())} " in text
    if not zh:                   # (the Chinese page's part picker does not take a value set from AppTest)
        at.multiselect(key="mk_parts").set_value(["xlnet_content"])
        rerun(at)
        at.text_input(key="mk_order").input("3 0 1 2 4 5 6 7")
        rerun(at)
        text = note(at, "mk_xlnet")
        assert "position 3 comes first and sees 1 " in text and "position 7 comes last and sees 8" in text
    at = masks_tab(at, "gallery", zh)
    in_language(note(at, "mk_sparse"), zh)
    at = masks_tab(at, "cost", zh)
    text = note(at, "mk_cost")
    assert "256" in text and "1,024" in text and ("是原来的 4 倍" if zh else "×4") in text   # n = 16 → 32
    at = masks_tab(at, "padding", zh)
    at.text_input(key="mk_text2").input("a b")
    rerun(at)
    text = note(at, "mk_convention")
    in_language(text, zh)
    assert " 4 " in text                                            # [CLS] a b [SEP] + 4 [PAD]


# ---- the attention page, the walk-through's cross-attention, generation ---------------------------------
@LANGS
def test_attention_page_notes(lang):
    from lab import sizes
    from models.weights import zoo
    zh = lang == "中文"
    at = open_app({"text": TEXT, "lang": lang, "view": "heads"})
    text = note(at, "at_heads")
    in_language(text, zh)
    model, _ = zoo.load("minilm", device="cpu")
    w = sizes.single_vs_multi_head(model.cfg.d_model, model.cfg.n_heads)
    assert f"{w['multi']:,}" in text and w["multi"] == 3 * model.cfg.d_model ** 2
    text = note(at, "at_dv")
    assert "8 × 8" in text                                          # [CLS] the cat sat on the mat [SEP]
    in_language(note(at, "at_pair"), zh)


@LANGS
def test_walkthrough_cross_attention_has_no_causal_mask(lang):
    at = open_app({"text": TEXT, "model": "T5-style encoder-decoder", "target": "one two", "wt_stack": "cross",
                   "lang": lang}, WALK)
    text = note(at, "cross_mask")
    in_language(text, lang == "中文")
    assert " 8 " in text                                            # every one of the 8 source tokens


@LANGS
def test_generation_notes(lang):
    from lab import teacher_forcing
    from models.weights import zoo
    zh = lang == "中文"
    at = open_app({"text": "jggifhic=", "model": "Toy: reverse · rope", "gen_n": "2", "lang": lang},
                  "app_pages/generate.py")
    model, tok = zoo.load("toy:reverse-rope", device="cpu")
    r = teacher_forcing.teacher_forcing(model, tok.encode("jggifhic=").ids)
    text = note(at, "sampling")
    in_language(text, zh)
    assert f"{r.mean_loss:.3f}" in text
    at = open_app({"text": TEXT, "lang": lang}, "app_pages/generate.py")      # MiniLM: an encoder
    in_language(note(at, "encoder_generation"), zh)


# ---- the residual page's norms, the beyond page, the overview's model map --------------------------------
@LANGS
def test_norm_notes(lang):
    zh = lang == "中文"
    at = open_app({"text": TEXT, "rview": "batchnorm", "lang": lang}, "app_pages/residual.py")
    for key in ("rmsnorm_speed", "ln_rnn", "dyt"):
        in_language(note(at, key), zh)
    assert "384" in note(at, "rmsnorm_speed")                      # MiniLM's width
    assert "13" in note(at, "ln_rnn")                               # embedding norm + 2 per block × 6


@LANGS
def test_beyond_notes(lang):
    from lab import ternary
    from models.weights import zoo
    zh = lang == "中文"
    at = open_app({"text": TEXT, "lang": lang, "bx_view": "ternary", "bxm_layer": "1", "bxm_matrix": "W_Q"},
                  "app_pages/beyond.py")
    m, _ = zoo.load("minilm")
    q = ternary.absmean(ternary.weights(m, "self", 1, "W_Q"))
    rows, cols = q.codes.shape
    text = note(at, "bxm_adds")
    in_language(text, zh)
    assert f"{round(rows * cols * (1 - q.shares[1])):,}" in text and f"{rows + cols:,}" in text
    at = open_app({"text": TEXT, "lang": lang, "bx_view": "recurrent", "bxr_form": "retention"}, "app_pages/beyond.py")
    text = note(at, "bxr_speed")
    in_language(text, zh)
    assert "8.4" in text


@LANGS
def test_model_map_decoder_note(lang):
    at = open_app({"text": TEXT, "lang": lang, "model": "GPT-2-style decoder"}, page=None)
    text = note(at, "map_decoder")
    in_language(text, lang == "中文")
    at = open_app({"text": TEXT, "lang": lang}, page=None)            # MiniLM: an encoder, no such note
    assert find_block(at.main, "mis_map_decoder") is None


@LANGS
def test_embedding_table_note(lang):
    from models.weights import zoo
    at = open_app({"text": TEXT, "rview": "input", "lang": lang}, "app_pages/residual.py")
    model, tok = zoo.load("minilm", device="cpu")
    ids = tok.encode(TEXT).ids
    text = note(at, "embedding_table")
    in_language(text, lang == "中文")
    assert f"{model.cfg.vocab_size:,} × {model.cfg.d_model}" in text
    assert f"{min(ids):,}" in text and f"{max(ids):,}" in text

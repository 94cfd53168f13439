"""The walk-through's section 9, before attention (ui/views/walkthrough_before_attention.py), in
English and Chinese: the four score functions on the walked head, attention without weights
beside the head, the GRU against the Transformer, the cost table with this text's numbers,
and the notes on the notes; a decoder's causal mask, and cross-attention's sentence."""
from __future__ import annotations

import re

import numpy as np
import pytest

from tests.app.helpers import GPT_LABEL, T5_LABEL, TEXT, assert_ok, decode, open_app, spec

WALK = "app_pages/walkthrough.py"
CHARTS = ("ba_scores_chart", "ba_raw_chart", "ba_model_chart", "ba_gru_chart")
WORDS = {"English": ("additive (Bahdanau)", "self-attention", "recurrent", "Common explanation"),
         "中文": ("加性（Bahdanau）", "自注意力", "循环层", "常见说法")}


def section_text(at) -> str:
    """The page's markdown and captions, without markdown's escapes (tables escape their cells)."""
    text = "\n".join(m.value for m in at.main.markdown) + "\n".join(c.value for c in at.main.caption)
    return re.sub(r"\\(.)", r"\1", text)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_the_section_in_both_languages(lang):
    additive, sa, rnn, common = WORDS[lang]
    at = open_app({"text": TEXT, "lang": lang}, WALK)
    ids = [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]
    assert all(k in ids for k in CHARTS), ids
    text = section_text(at)
    assert additive in text and sa in text and rnn in text
    # MiniLM, 8 tokens, d 384: n²d and nd² in the cost table
    assert "24,576" in text and "1,179,648" in text, text[-3000:]
    notes = [m.value for m in at.main.markdown if common in m.value]
    assert any("Σ|v" in n for n in notes) and any("= 8" in n for n in notes)
    scores = spec(at, "ba_scores_chart")
    z = decode(scores["data"][0]["z"])
    assert z.shape == (4, 8)
    gru = spec(at, "ba_gru_chart")
    g, tr = (decode(d["y"]) for d in gru["data"])
    assert g[0] > 0.9 and g[-1] < 0.2 and tr[-1] > g[-1]
    caption = " ".join(c.value for c in at.main.caption)
    assert "e-" in caption                                 # the scaled-dot row matches the model to ~1e-8


def test_a_decoder_masks_and_rotates():
    at = open_app({"text": TEXT, "model": GPT_LABEL}, WALK)
    assert_ok(at)
    raw = decode(spec(at, "ba_raw_chart")["data"][0]["z"])
    assert raw.shape[0] > 2
    assert np.isnan(raw[0, 1:]).all() and not np.isnan(np.diag(raw)).any()   # the causal triangle


def test_cross_attention_gets_a_sentence():
    at = open_app({"text": TEXT, "model": T5_LABEL, "wt_stack": "cross"}, WALK)
    assert_ok(at)
    assert any("compares a sequence with itself" in i.value for i in at.info), [i.value for i in at.info]


def test_a_position_bias_is_said_not_hidden():
    at = open_app({"text": TEXT, "model": T5_LABEL}, WALK)                 # T5's relative bias is added to q·k
    text = section_text(at)
    assert "also adds a position bias" in text and "dividing by √d = 4" in text, text[-4000:]

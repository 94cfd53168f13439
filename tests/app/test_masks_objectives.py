"""The masks page's "MLM vs causal LM" tab (ui/views/masks_objectives.py), English and
Chinese: both shipped character models predict the chosen character, the table's numbers are
lab/objectives.py's, and the mismatch note gives the hidden and shown probabilities."""
from __future__ import annotations

import pytest

from lab import objectives
from tests.app.helpers import assert_ok, open_app
from ui.serving import load_model

MASKS = "app_pages/masks.py"
TABS = {"English": ("en", "MLM vs causal LM"), "中文": ("zh", "掩码语言模型与因果语言模型")}


def open_objectives(lang: str, text: str, pos: int):
    at = open_app({"lang": lang, "text": text, "ob_pos": str(pos)}, MASKS)
    code, label = TABS[lang]
    at.session_state[f"mk_tab__{code}"] = label
    at.run()
    assert_ok(at)
    return at


@pytest.mark.parametrize("lang,text,pos", [("English", "The students watched the model read.", 13),
                                           ("中文", "床前明月光，疑是地上霜。", 8)])
def test_both_objectives_predict_the_chosen_character(lang, text, pos):
    at = open_objectives(lang, text, pos)
    table = next(m.value for m in at.main.markdown if m.value.count("\n|") >= 5)
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    mlm, tok = load_model("toy:verse-mlm", "cpu")
    expected = objectives.masked(mlm, tok, text, pos)
    assert [float(r[2].replace("\\", "")) for r in rows] == pytest.approx([p for _, p in expected.top], abs=6e-4)
    lm, ltok = load_model("toy:verse-lm", "cpu")
    causal = objectives.next_token(lm, ltok, text, pos)
    assert [float(r[4].replace("\\", "")) for r in rows] == pytest.approx([p for _, p in causal.top], abs=6e-4)
    shown = objectives.masked(mlm, tok, text, pos, hide=False)
    note = next(m.value for m in at.main.markdown if "80" in m.value)
    assert f"{expected.actual_prob:.3f}" in note and f"{shown.actual_prob:.3f}" in note

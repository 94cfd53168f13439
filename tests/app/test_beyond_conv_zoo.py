"""The Beyond page's convolution section (ui/views/beyond_conv_zoo.py) in English and Chinese:
the zoo's parameter counts at the model's width, the measured reach, and LSRA's table."""
from __future__ import annotations

import pytest

from tests.app.helpers import assert_ok, open_app

BEYOND = "app_pages/beyond.py"
TEXT = "the students read the books in the quiet library"


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_conv_zoo_and_lsra(lang):
    at = open_app({"lang": lang, "text": TEXT, "bx_view": "conv", "cz_k": "3", "cz_dil": "2", "cz_layers": "2"},
                  BEYOND)
    assert_ok(at)
    tables = [m.value.replace("\\", "") for m in at.main.markdown if m.value.startswith("|")]
    assert len(tables) == 2
    zoo, lsra = tables
    d = 384                                                         # MiniLM
    assert f"{d * d * 3 + d:,}" in zoo and f"{d * 3 + d:,}" in zoo                  # standard, depthwise
    assert "11 → 22" in zoo and "11 → 11" in zoo                                    # transposed doubles the length
    assert "5 (3–7)" in zoo                                                         # standard: 1 + 2·2 tokens around 5
    assert f"{4 * d * d + 4 * d:,}" in lsra                                         # nn.MultiheadAttention(384)
    at.slider(key="cz_layers").set_value(4).run()
    assert_ok(at)
    assert "9 (1–9)" in [m.value.replace("\\", "") for m in at.main.markdown if m.value.startswith("|")][0]

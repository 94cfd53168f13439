"""The walk-through's fused-kernel section (ui/views/walkthrough_fused.py) in English and
Chinese: both ways agree with the model, every length timed, the ratio shown. No time is
asserted, only that times were measured."""
from __future__ import annotations

import pytest

from tests.app.helpers import assert_ok, chart_ids, decode, open_app, spec

WALK = "app_pages/walkthrough.py"
TEXT = "the students read the books in the quiet library"


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_fused_section(lang):
    at = open_app({"lang": lang, "text": TEXT, "fu_runs": "3"}, WALK)
    assert_ok(at)
    assert "fu_chart" in chart_ids(at)
    ratios = decode(spec(at, "fu_chart")["data"][0]["y"])
    assert len(ratios) == 3 and (ratios > 0).all()                  # 11, 44, 176 (11 × 64 > 512: left out)
    table = next(m.value for m in at.main.markdown if m.value.startswith("|") and "×16" in m.value.replace(" ", ""))
    assert "176 × 176" in table
    check = next(c.value for c in at.main.caption if "e-" in c.value and ("fused" in c.value or "融合" in c.value))
    assert check
    at.button(key="fu_again").click().run()
    assert_ok(at)

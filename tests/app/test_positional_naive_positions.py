"""The positional lab's "before sinusoidal" section (ui/views/positional_naive_positions.py) in English
and Chinese: five distance panels, the gap table, the notes' examples and their notes."""
from __future__ import annotations

import pytest

from tests.app.helpers import assert_ok, chart_ids, open_app, spec

LAB = "app_pages/positional.py"


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_naive_schemes_beside_sinusoidal(lang):
    at = open_app({"lang": lang, "pe_view": "naive", "pn_n": "20", "pn_trained": "8"}, LAB)
    assert chart_ids(at) == ["pn_grid"]
    fig = spec(at, "pn_grid")
    heat = [tr for tr in fig["data"] if tr["type"] == "heatmap" and tr.get("hoverinfo") != "skip"]   # not the grey underlays
    assert len(heat) == 5
    markdown = "\n".join(m.value for m in at.main.markdown)
    assert "0\\.375" in markdown and "0, 0\\.2, 0\\.4, 0\\.6, 0\\.8, 1" in markdown    # the notes' example, right
    boxes = [c for c in at.main.markdown if "0.16" in c.value]
    assert boxes, "the note on the notes' 0, 0.16, 0.32 is missing"
    caption = " ".join(c.value for c in at.main.caption)
    assert "8" in caption and ("3 bits" in caption or "3 位" in caption)                # 8 trained positions: 3 bits
    at.slider(key="pn_trained").set_value(20).run()
    assert_ok(at)

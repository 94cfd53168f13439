"""The positional lab's "RoPE's cost" section (ui/views/positional_rope_cost.py) in English
and Chinese: the three schemes and the forward pass timed, the ratio shown, the counts
right for the loaded model. No time is asserted, only that times were measured."""
from __future__ import annotations

import pytest

from tests.app.helpers import assert_ok, chart_ids, open_app

LAB = "app_pages/positional.py"
TEXT = "the students read the books in the quiet library"


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_rope_cost_is_measured(lang):
    at = open_app({"lang": lang, "pe_view": "cost", "rc_repeats": "5", "text": TEXT}, LAB)
    assert_ok(at)
    assert chart_ids(at) == ["rc_chart"]
    metrics = {m.label: m.value for m in at.main.metric}
    assert len(metrics) == 3
    ratio, ops, share = metrics.values()
    assert float(ratio.rstrip("×")) > 0 and float(share.rstrip("%")) > 0
    # MiniLM: 6 layers, 12 heads of 32 dims, d_model 384, 11 tokens ([CLS] ... [SEP])
    rope = 3 * 11 * (12 + 12) * 32 * 6 + 2 * 11 * 32
    table = 11 * 384
    assert ops == f"{rope / table:.0f}×"
    markdown = "\n".join(m.value for m in at.main.markdown)
    assert f"{rope:,}" in markdown and f"{table:,}" in markdown
    at.button(key="rc_again").click().run()
    assert_ok(at)
    assert len(at.main.metric) == 3

"""The residual page's ResiDual view (ui/views/residual_dual_residual.py) in English and
Chinese: two curves of three wirings each, the table and the note."""
from __future__ import annotations

import pytest

from tests.app.helpers import assert_ok, chart_ids, decode, open_app, spec

RESIDUAL = "app_pages/residual.py"
TEXT = "the students read the books in the quiet library"


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_resi_dual(lang):
    at = open_app({"lang": lang, "text": TEXT, "rview": "dual", "rd_layers": "6"}, RESIDUAL)
    assert_ok(at)
    assert {"rd_grad", "rd_share"} <= set(chart_ids(at))
    share = spec(at, "rd_share")["data"]
    assert [tr["name"] for tr in share] == ["Post-LN", "Pre-LN", "ResiDual"]
    pre = decode(share[1]["y"])
    assert len(pre) == 6 and pre[-1] < pre[0]                       # Pre-LN: later layers are a smaller share
    table = next(m.value for m in at.main.markdown if m.value.startswith("|"))
    assert table.count("\n") == 4
    at.slider(key="rd_layers").set_value(3).run()
    assert_ok(at)

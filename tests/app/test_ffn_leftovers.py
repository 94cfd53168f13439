"""The FFN page's two views of a split FFN, in English and Chinese: "split across devices"
(ui/views/ffn_sharding.py: the parts add up to the FFN, the cut along d does not) and
"mixture of experts" (ui/views/ffn_experts.py: routing table, load per expert, compute)."""
from __future__ import annotations

import pytest

from tests.app.helpers import assert_ok, chart_ids, decode, open_app, spec

FFN = "app_pages/ffn.py"
TEXT = "the students read the books in the quiet library"


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.main.metric}


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_sharding_parts_add_up(lang):
    at = open_app({"lang": lang, "fview": "sharding", "fs_k": "3", "text": TEXT}, FFN)
    assert_ok(at)
    vals = list(metrics(at).values())
    assert len(vals) == 3
    assert float(vals[0]) < 1e-4 and float(vals[1]) < 1e-3          # the parts' sum is the FFN output
    assert float(vals[2]) > 1e-2                                     # the cut along d is not
    table = "\n".join(m.value for m in at.main.markdown if m.value.startswith("|"))
    assert len([ln for ln in table.splitlines() if ln.startswith("| ")]) == 2 + 1 + 3        # header, rule, whole, 3 devices
    assert any("d_ff" in m.value and "d_model" in m.value and "3" in m.value for m in at.main.markdown)   # the note
    at.slider(key="fs_k").set_value(8).run()
    assert_ok(at)
    table = "\n".join(m.value for m in at.main.markdown if m.value.startswith("|"))
    assert len([ln for ln in table.splitlines() if ln.startswith("| ")]) == 2 + 1 + 8


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_experts_route_every_token(lang):
    at = open_app({"lang": lang, "fview": "experts", "fe_e": "4", "fe_k": "2", "text": TEXT}, FFN)
    assert_ok(at)
    assert chart_ids(at) == ["fe_load"]
    load = decode(spec(at, "fe_load")["data"][0]["y"])
    table = [m.value for m in at.main.markdown if m.value.startswith("|")][0]
    n_rows = len(table.splitlines()) - 2
    assert sum(load) == pytest.approx(2 * n_rows)                   # every token, two experts
    assert table.count("(") >= 2 * n_rows and ("expert" in table or "专家" in table)
    ratio = float(list(metrics(at).values())[2].rstrip("%"))
    assert 40 < ratio < 60                                          # 2 of 4 experts, plus the router
    at.number_input(key="fe_seed").set_value(3).run()
    assert_ok(at)
    at.slider(key="fe_k").set_value(4).run()
    assert_ok(at)

"""The masks page's block-sparse tab (ui/views/masks_block_sparse.py) in English and Chinese:
the block layout and the token mask drawn on the sidebar's text, the share of blocks right."""
from __future__ import annotations

import numpy as np
import pytest

from lab import block_sparse
from tests.app.helpers import assert_ok, heatmap_z, open_app, rerun, spec
from ui.i18n import STRINGS

MASKS = "app_pages/masks.py"
TEXT = "the students read the books in the quiet library"
N = 11                                   # MiniLM: [CLS] + 9 words + [SEP]


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_block_sparse_tab(lang):
    code = "zh" if lang == "中文" else "en"
    at = open_app({"lang": lang, "text": TEXT, "bsp_b": "3", "bsp_local": "0", "bsp_global": "1"}, MASKS)
    at.session_state[f"mk_tab__{code}"] = STRINGS["mk_tab_blocks"][code]
    at = rerun(at)
    assert_ok(at)
    want = block_sparse.block_sparse(N, 3, 0, 1)
    layout = heatmap_z(spec(at, "bsp_layout"))
    tokens = heatmap_z(spec(at, "bsp_tokens"))
    assert layout.shape == (4, 4) and tokens.shape == (N, N)
    np.testing.assert_array_equal(tokens == 1, want.mask)
    np.testing.assert_array_equal(layout == 1, want.blocks)
    metrics = [m.value for m in at.main.metric]
    assert metrics[0] == f"{want.computed} / 16 ({want.share:.0%})" == "10 / 16 (62%)"   # own 4 + global row 3 + column 3
    at.slider(key="bsp_random").set_value(2).run()
    assert_ok(at)


def test_the_composed_mask_touches_whole_blocks():
    at = open_app({"text": TEXT, "bsp_b": "4"}, MASKS)
    at.session_state["mk_tab__en"] = STRINGS["mk_tab_blocks"]["en"]
    at = rerun(at)
    assert_ok(at)
    i = np.arange(N)
    window = np.abs(i[:, None] - i[None, :]) <= 2                       # the composer's default: a local window of 2
    hit = block_sparse.touched(window, 4)
    note = next(m.value for m in at.main.markdown if "touches" in m.value)
    assert f"{window.mean():.0%}" in note and f"{int(hit.sum())} of the {hit.size} blocks" in note

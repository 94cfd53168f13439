"""The browser payload of all heads (viz_core/attention_pack.py) and the standalone
HTML export (viz_core/attention_html.py)."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from viz_core.attention_html import script_safe_json, standalone_html
from viz_core.attention_pack import pack_attention, payload_json, unpack_attention


def _patterns(L=2, H=3, n=7, causal=False, seed=0):
    rng = np.random.default_rng(seed)
    s = rng.normal(size=(L, H, n, n)) * 3
    mask = np.tril(np.ones((n, n), bool)) if causal else np.ones((n, n), bool)
    s = np.where(mask, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)).astype(np.float32), mask


@pytest.mark.parametrize("compress", [True, False])
def test_round_trip_within_the_stated_error(compress):
    p, _ = _patterns()
    payload = pack_attention(p, [f"t{i}" for i in range(7)], compress=compress)
    back, err = unpack_attention(payload)
    assert back.shape == p.shape and err.shape == (2, 3)
    assert np.all(np.abs(back - p) <= err[:, :, None, None] + 1e-7)
    np.testing.assert_allclose(err, p.reshape(6, -1).max(1).reshape(2, 3) / 510, rtol=1e-6)
    # the largest weight of every head is exact (it is the scale)
    np.testing.assert_allclose(back.reshape(6, -1).max(1), p.reshape(6, -1).max(1), rtol=1e-6)
    json.loads(payload_json(payload))                                   # JSON-safe


def test_masked_cells_are_nan_and_cost_nothing():
    p, mask = _patterns(causal=True)
    payload = pack_attention(p, list("abcdefg"), mask=mask)
    back, err = unpack_attention(payload)
    assert np.isnan(back[:, :, ~mask]).all()
    assert np.all(np.abs(back[:, :, mask] - p[:, :, mask]) <= err.max() + 1e-7)
    # NaN in the patterns is masked too
    p2 = p.copy()
    p2[:, :, 0, 3] = np.nan
    back2, _ = unpack_attention(pack_attention(p2, list("abcdefg")))
    assert np.isnan(back2[:, :, 0, 3]).all() and np.isfinite(back2[:, :, 1, 0]).all()


def test_compression_keeps_the_payload_small():
    p, _ = _patterns(L=6, H=12, n=64)
    packed = pack_attention(p, [str(i) for i in range(64)])
    assert len(payload_json(packed)) < 6 * 12 * 64 * 64 * 4 / 3          # under base64 of the raw bytes


@pytest.mark.parametrize("bad", [np.zeros((2, 3, 4)), np.zeros((1, 1, 4, 4, 1))])
def test_wrong_shape_is_a_value_error(bad):
    with pytest.raises(ValueError, match="shape"):
        pack_attention(bad, ["a"] * 4)


def test_wrong_token_count_and_mask_are_value_errors():
    p, _ = _patterns(n=4)
    with pytest.raises(ValueError, match="tokens"):
        pack_attention(p, ["a"] * 3)
    with pytest.raises(ValueError, match="mask"):
        pack_attention(p, ["a"] * 4, mask=np.ones((3, 4), bool))


def test_cross_attention_shapes():
    p = np.full((1, 2, 3, 5), 0.2, np.float32)
    back, _ = unpack_attention(pack_attention(p, list("abc"), list("vwxyz")))
    np.testing.assert_allclose(back, p, atol=0.2 / 510 + 1e-7)


HOSTILE = ["<b>x</b>", "</script><script>alert(1)</script>", "<!--", "&amp;", "\u2028"]


def test_export_cannot_be_closed_by_a_token():
    p, _ = _patterns(L=1, H=1, n=len(HOSTILE))
    doc = standalone_html(pack_attention(p, HOSTILE), title="<i>t</i>")
    data = re.search(r'<script type="application/json" id="gb-data">(.*?)</script>', doc, re.S).group(1)
    assert "<" not in data and ">" not in data and "&" not in data
    assert json.loads(data)["q_tokens"] == HOSTILE                        # the escapes read back as text
    assert doc.count("<script") == 2 and doc.count("</script>") == 2
    assert "<i>t</i>" not in doc and "&lt;i&gt;t&lt;/i&gt;" in doc
    assert "http://" not in doc and "https://" not in doc                # nothing to fetch


def test_script_safe_json_round_trips():
    obj = {"a": "</script><!-- & \u2029"}
    assert json.loads(script_safe_json(obj)) == obj


def test_the_id_follows_what_the_viewer_shows():
    p, _ = _patterns(L=1, H=1, n=4)
    a = pack_attention(p, list("abcd"))
    assert pack_attention(p, list("abcd"))["id"] == a["id"]
    assert pack_attention(p, list("abce"))["id"] != a["id"]
    assert pack_attention(p, list("abcd"), cmap="cividis")["id"] != a["id"]
    assert pack_attention(p, list("abcd"), labels={"heading": "x"})["id"] != a["id"]

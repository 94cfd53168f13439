"""The residual page's compression view (ui/views/residual_compression.py), English and
Chinese: the loaded model's two curves, every trained text model in the table, the count
of models that compress and sparsify, the numbers those of lab/compression.py."""
from __future__ import annotations

import numpy as np
import pytest

from lab import compression
from tests.app.helpers import TEXT, chart_ids, decode, open_app, spec
from ui.serving import RunKey, internals

RESIDUAL = "app_pages/residual.py"


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_compression_view(lang):
    at = open_app({"text": TEXT, "lang": lang, "rview": "compression"}, RESIDUAL)
    assert chart_ids(at) == ["cr_rate", "cr_sparsity"]
    rate = decode(spec(at, "cr_rate")["data"][0]["y"])
    data = internals(RunKey("minilm", "cpu", TEXT))
    expected = compression.compression(data.labels, data.stream)
    np.testing.assert_allclose(rate, expected.rate, rtol=1e-6)
    table = next(m.value for m in at.main.markdown if m.value.count("\n|") >= 3)
    rows = table.splitlines()[2:]
    assert "MiniLM" in rows[0] and len(rows) >= 3                           # the loaded model first, then the rest
    assert f"{expected.rate[0]:.2f}".replace(".", "\\.") in rows[0]
    claim = [m.value for m in at.main.markdown if "CRATE" in m.value and str(len(rows)) in m.value]
    assert claim, "the paper's claim and the count of our models are missing"

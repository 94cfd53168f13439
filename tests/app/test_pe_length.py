""""Train short, test long" through AppTest: the curves are lab.length_curve's numbers on
the shipped pe64 models, the learned table stops at its end, the knobs re-evaluate the
curves (cached per setting), the distance profile is the library's."""
from __future__ import annotations

import numpy as np
import pytest

from lab import length_curve, pe_knobs
from models.weights import zoo
from tests.app.helpers import chart_ids, decode, open_app, spec
from ui.serving import positional

PAGE = "app_pages/positional.py"
SCHEMES = ["none", "sinusoidal", "learned", "RoPE", "ALiBi", "T5 relative"]


@pytest.fixture(scope="module")
def stock():
    return open_app({"pe_view": "length"}, page=PAGE)


def row(df, scheme: str) -> list:
    return df[df.iloc[:, 0] == scheme].iloc[0].tolist()


def test_the_six_models_are_offered_and_the_curves_drawn(stock):
    assert chart_ids(stock)[-1] == "pe_l_curve"
    df = stock.dataframe[0].value
    assert list(df.iloc[:, 0]) == SCHEMES
    assert df.shape[1] == 1 + len(positional.LENGTH_FACTORS)
    learned = row(df, "learned")
    assert learned[1] != "beyond the learned table" and learned[2] == "beyond the learned table"
    fig = spec(stock, "pe_l_curve")
    assert any(tr["name"] == "learned table ends" for tr in fig["data"])
    assert any("Train Short, Test Long" in i.value for i in stock.info)


def test_the_numbers_are_the_library_s(stock):
    model, tok = zoo.load("toy:pe64-alibi")
    ids = length_curve.heldout_ids(tok, "en")
    want = length_curve.curve(model, ids, 64, (1.0, 2.0), budget=positional.LENGTH_BUDGET)
    got = row(stock.dataframe[0].value, "ALiBi")
    assert got[1] == f"{want[0][2]:.3f}" and got[3] == f"{want[1][2]:.3f}"


def test_knobs_re_evaluate_the_curves():
    at = open_app({"pe_view": "length", "pe_k_alibi": "4.0"}, page=PAGE)
    df = at.dataframe[0].value
    model, tok = zoo.load("toy:pe64-alibi")
    knobbed = pe_knobs.apply(model, pe_knobs.Knobs(alibi_slope_scale=4.0), 64)
    want = length_curve.curve(knobbed, length_curve.heldout_ids(tok, "en"), 64, (1.0,), budget=positional.LENGTH_BUDGET)
    assert row(df, "ALiBi")[1] == f"{want[0][2]:.3f}"
    fig = spec(at, "pe_l_curve")
    assert any(tr["line"].get("dash") == "dash" for tr in fig["data"])     # the trained curves beside, dashed
    assert any("ALiBi slopes ×4" in c.value for c in at.caption)


def test_distance_profile_is_the_library_s():
    at = open_app({"pe_view": "length", "pe_l_view": "distance", "lang": "中文"}, page=PAGE)
    assert chart_ids(at)[-1] == "pe_l_distance"
    fig = spec(at, "pe_l_distance")
    model, tok = zoo.load("toy:pe64-rope")
    d, w = length_curve.distance_profile(model, length_curve.heldout_ids(tok, "en"), 64, n_windows=4)   # English text: the default
    rope = [tr for tr in fig["data"] if tr.get("xaxis") == "x4"][0]     # RoPE is the fourth panel
    y = decode(rope["y"]).astype(np.float64)
    want = w.mean(axis=(0, 1))
    np.testing.assert_allclose(y[np.isfinite(y)], want[want > 0], rtol=1e-5)
    learned_lines = [tr for tr in fig["data"] if tr.get("xaxis") == "x3"]
    assert len(learned_lines) == 1                                         # ×2, ×4 are past its table
    assert any("平均注意力权重" in a["text"] for a in fig["layout"]["annotations"]) or \
        "平均注意力权重" in str(fig["layout"])

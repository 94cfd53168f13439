"""viz_core.pe_knobs, length_curve and checkpoints: the knob and length figures draw what they are given, escape
names, and refuse malformed input with a sentence."""
from __future__ import annotations

import numpy as np
import pytest

from viz_core import checkpoints, length_curve, pe_knobs


def test_wavelength_chart_lines_and_training_length():
    stock = np.array([6.28, 62.8, 628.0], dtype=np.float32)
    fig = pe_knobs.wavelength_chart(stock, stock * 4, 64, 256)
    assert [tr.name for tr in fig.data] == ["stock", "with the knobs", "training length 64", "evaluation length 256"]
    np.testing.assert_allclose(fig.data[1].y, stock * 4)
    assert list(fig.data[2].y) == [64, 64]
    assert fig.layout.yaxis.type == "log"
    only = pe_knobs.wavelength_chart(stock, None, 64)
    assert len(only.data) == 2 and only.data[0].line.dash == "solid"


def test_length_curves_stop_at_none_and_mark_the_table_end():
    fig = length_curve.length_curves([1, 2, 4], {"learned": [2.0, None, None], "<b>ALiBi</b>": [2.0, 2.1, 2.1]},
                           stock={"learned": [2.0, None, None]}, table_end=1.0)
    names = [tr.name for tr in fig.data]
    assert "&lt;b&gt;ALiBi&lt;/b&gt;" in names and "<b>ALiBi</b>" not in names
    learned = [tr for tr in fig.data if tr.name == "learned"][0]
    assert np.isnan(learned.y[1]) and learned.y[0] == 2.0
    assert any(tr.line.dash == "dash" for tr in fig.data)              # the stock curve beside
    assert [tr.name for tr in fig.data].count("stock") == 1 or sum(tr.showlegend is not False for tr in fig.data if tr.name == "stock") == 1
    end = [tr for tr in fig.data if tr.name == "learned table ends"][0]
    assert list(end.x) == [1.0, 1.0]
    with pytest.raises(ValueError, match="2 values for 3 lengths"):
        length_curve.length_curves([1, 2, 4], {"x": [1.0, 2.0]})
    with pytest.raises(ValueError, match="no schemes"):
        length_curve.length_curves([1], {})


def test_length_curves_keep_a_blow_up_off_the_scale():
    fig = length_curve.length_curves([1, 2], {"a": [2.0, 2.1], "b": [2.0, 40.0]})
    assert fig.layout.yaxis.range[1] < 40.0


def test_distance_profile_panels_and_log_axes():
    d = np.arange(8)
    y = np.linspace(0.5, 0.01, 8)
    fig = length_curve.distance_profile({"RoPE": {"×1": (d, y), "×2": (d, y / 2)}, "ALiBi": {"×1": (d, y)}})
    assert len(fig.data) == 3
    assert fig.data[0].x[0] == 0.5                      # distance 0 drawn at 0.5 on the log axis
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert [a.text for a in fig.layout.annotations][:2] == ["RoPE", "ALiBi"]


def test_entropy_chart_bars_per_head():
    e = np.array([[0.5, 1.0, 2.0, 3.0]], dtype=np.float32)
    fig = checkpoints.entropy_chart({"RoPE": e}, stock={"RoPE": e + 0.5})
    assert fig.data[0].type == "bar" and list(fig.data[0].y) == [0.5, 1.0, 2.0, 3.0]
    assert fig.data[1].mode == "markers"
    with pytest.raises(ValueError):
        checkpoints.entropy_chart({"x": np.zeros(3)})

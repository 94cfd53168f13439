"""The figures the attribution page and the training lab's detector chart add to viz_core."""
from __future__ import annotations

import numpy as np
import pytest

import viz_core as vz
from viz_core.colors import DIVERGING


def test_signed_head_grid_is_centred_on_zero():
    z = np.array([[0.5, -2.0], [1.0, 0.0]], np.float32)
    fig = vz.head_metrics_chart({"share": z}, "share", cmap=DIVERGING, zmid=0.0)
    assert fig.data[0].zmid == 0.0
    click = next(tr for tr in fig.data if tr.name == "click")
    assert [list(c) for c in click.customdata] == [[0, 0], [0, 1], [1, 0], [1, 1]]


def test_named_bars():
    fig = vz.token_bars(np.array([1.0, -2.0], np.float32), ["L0 MLP", "<b>x</b>"], numbered=False)
    assert list(fig.data[0].customdata) == ["L0 MLP", "&lt;b&gt;x&lt;/b&gt;"]
    assert list(fig.data[0].marker.color) == ["#1f77b4", "#d62728"]
    assert list(vz.token_bars(np.array([1.0]), ["a"]).data[0].customdata) == ["0·a"]


def test_detector_curves():
    fig = vz.detector_curves([0, 25, 50], {"induction": [0.1, 0.5, 0.95], "<i>x</i>": [0.2, 0.2, 0.2]},
                             [1, 2, 3], [2.0, 1.0, 0.5], chance={"induction": 0.08}, marker_step=25)
    names = [tr.name for tr in fig.data]
    assert names[:2] == ["induction", "&lt;i&gt;x&lt;/i&gt;"] and len(fig.data) == 3
    assert fig.layout.yaxis2.type == "log"
    hlines = [s for s in fig.layout.shapes if s.y0 == s.y1 == 0.08]
    assert len(hlines) == 1
    with pytest.raises(ValueError, match="scores"):
        vz.detector_curves([0, 1], {"induction": [0.1]}, [], [])

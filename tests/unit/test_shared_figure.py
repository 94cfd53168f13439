"""A shared figure is serialised once (ui/serving/figures.py, `share`): `SharedFigure.to_dict`
hands out one dict until the figure changes, and says exactly what a plain figure says."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import plotly.io
import plotly.tools
import pytest

from ui.serving.figures import SharedFigure, share


def heat_map() -> go.Figure:
    fig = go.Figure(go.Heatmap(z=np.random.default_rng(0).random((12, 12)), x=[f"t{i}" for i in range(12)]))
    fig.update_layout(title="a heat map", height=300)
    return fig


def test_share_keeps_the_object_and_what_it_serialises_to():
    fig = heat_map()
    shared = share(fig)
    assert shared is fig and type(shared) is SharedFigure
    assert plotly.io.to_json(shared) == plotly.io.to_json(heat_map())
    first = shared.to_dict()
    assert shared.to_dict() is first                                   # serialised once
    as_streamlit_does = plotly.tools.return_figure_from_figure_or_data(shared, validate_figure=True)
    plain = heat_map().to_dict()
    assert plotly.io.to_json(as_streamlit_does, validate=False) == plotly.io.to_json(plain, validate=False)
    assert type(go.Figure(shared)) is go.Figure                        # a copy is a plain figure again


def test_only_a_plain_figure_is_shared():
    as_dict = heat_map().to_dict()
    assert share(None) is None and share(as_dict) is as_dict and type(as_dict) is dict
    twice = share(share(heat_map()))
    assert type(twice) is SharedFigure


CHANGES = {
    "update_layout": lambda f: f.update_layout(title="changed"),
    "a layout property": lambda f: setattr(f.layout.title, "text", "changed"),
    "a trace property": lambda f: setattr(f.data[0], "zmax", 3),
    "update_traces": lambda f: f.update_traces(zmin=0),
    "add_trace": lambda f: f.add_scatter(x=[1], y=[2]),
    "traces removed": lambda f: setattr(f, "data", f.data[:0]),
    "batch_update": lambda f: _in_batch(f),
}


def _in_batch(fig: go.Figure) -> None:
    with fig.batch_update():
        fig.layout.width = 300
        fig.data[0].zmin = -1


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_drops_the_kept_dict(change):
    plain, shared = heat_map(), share(heat_map())
    before = shared.to_dict()
    CHANGES[change](plain)
    CHANGES[change](shared)
    assert shared.to_dict() is not before
    assert plotly.io.to_json(shared) == plotly.io.to_json(plain)

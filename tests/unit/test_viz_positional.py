"""viz_core.positional: structural checks of the lab's figures (no torch, no streamlit)."""
import json

import numpy as np
import plotly.graph_objects as go
import pytest

import viz_core.positional


def spec(fig: go.Figure) -> dict:
    return json.loads(fig.to_json())


def test_pe_table_with_wavelengths_and_table_end():
    pe = np.random.default_rng(0).normal(size=(40, 16)).astype(np.float32)
    pe[30:] = np.nan                                         # a learned table that ends at 30
    fig = viz_core.positional.pe_table(pe, wavelengths=np.linspace(6, 60000, 16), table_end=30, title="learned",
                      terms={"table_end": "ends at {n}"})
    s = spec(fig)
    kinds = [d["type"] for d in s["data"]]
    assert kinds[0] == "scatter" and "heatmap" in kinds
    assert s["layout"]["yaxis"]["type"] == "log"                                 # wavelength strip
    assert s["layout"]["yaxis2"]["range"] == [39.5, -0.5]                        # position 0 on top
    assert any(a["text"] == "ends at 30" for a in s["layout"]["annotations"])
    assert s["layout"]["shapes"][0]["y0"] == 29.5
    nan_layer = [d for d in s["data"] if d.get("name") == "nan"]
    assert nan_layer, "rows past the table are drawn grey"
    # no wavelengths: the same two-row layout (tables side by side line up), a note instead
    s2 = spec(viz_core.positional.pe_table(pe[:30], terms={"no_wavelength": "none here"}))
    assert s2["data"][0]["text"] == ["none here"] and s2["layout"]["yaxis"]["visible"] is False


def test_pe_table_large_is_an_image_that_fills_the_panel():
    pe = np.sin(np.arange(300 * 128, dtype=np.float32).reshape(300, 128))
    s = spec(viz_core.positional.pe_table(pe))
    assert any(d["type"] == "image" for d in s["data"])
    assert s["layout"]["yaxis2"]["scaleanchor"] is False


def test_matrix_and_bad_input():
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    s = spec(viz_core.positional.matrix(m, title="<b>sim</b>", tick_labels=["a", "<b>", "c", "d"], center=None))
    assert s["layout"]["title"]["text"] == "&lt;b&gt;sim&lt;/b&gt;"
    assert s["layout"]["xaxis"]["ticktext"][1] == "&lt;b&gt;"
    assert s["data"][0]["zmin"] == 0 and s["data"][0]["zmax"] == 15
    with pytest.raises(ValueError, match="shape"):
        viz_core.positional.matrix(np.zeros(3))
    with pytest.raises(ValueError, match="empty"):
        viz_core.positional.matrix(np.zeros((0, 0)))
    with pytest.raises(ValueError, match="tick labels"):
        viz_core.positional.matrix(m, tick_labels=["a"])
    with pytest.raises(ValueError, match="wavelengths"):
        viz_core.positional.pe_table(m, wavelengths=np.ones(3))


def test_curves_rotation_arrows_bars():
    x = np.arange(5)
    s = spec(viz_core.positional.curves({"a": (x, x * 1.0), "b": (x, x * 2.0)}, overlap=True))
    assert [d["name"] for d in s["data"]] == ["a", "b"]
    assert s["data"][0]["line"]["width"] > s["data"][1]["line"]["width"]       # the first lies underneath
    with pytest.raises(ValueError, match="no series"):
        viz_core.positional.curves({})
    pts = np.array([[[1, 0], [0, 1]], [[0.5, 0.5], [-1, 0]]], dtype=np.float32)  # 2 panels, 2 arrows
    s = spec(viz_core.positional.rotation_arrows(pts, panel_titles=["p0\nline2", "p1"], arrow_names=["q", "k"]))
    arrows = [d for d in s["data"] if d["mode"] == "lines+markers"]
    assert len(arrows) == 4 and arrows[1]["x"] == [0.0, 0.0] and arrows[1]["y"] == [0.0, 1.0]
    assert s["layout"]["annotations"][0]["text"] == "p0<br>line2"
    with pytest.raises(ValueError, match="panel titles"):
        viz_core.positional.rotation_arrows(pts, panel_titles=["one"], arrow_names=["q", "k"])
    s = spec(viz_core.positional.bars(np.array([0.5, np.nan], dtype=np.float32), ["h0", "h1"]))
    assert s["data"][0]["text"] == ["0.5", "n/a"]


def test_matrix_grid_shares_one_scale():
    mats = np.stack([np.full((5, 5), v, dtype=np.float32) for v in (-1.0, 2.0, 0.5)])
    s = spec(viz_core.positional.matrix_grid(mats, panel_titles=["a", "b", "c"], cols=2, tick_labels=list("vwxyz")))
    heat = [d for d in s["data"] if d["type"] == "heatmap" and d.get("name") != "nan"]
    assert len(heat) == 3 and all(d["coloraxis"] == "coloraxis" for d in heat)
    assert s["layout"]["coloraxis"]["cmin"] == -2 and s["layout"]["coloraxis"]["cmax"] == 2
    assert [a["text"] for a in s["layout"]["annotations"]] == ["a", "b", "c"]
    assert "xaxis3" in s["layout"] and s["layout"]["xaxis"]["ticktext"] == list("vwxyz")
    with pytest.raises(ValueError, match="titles"):
        viz_core.positional.matrix_grid(mats, panel_titles=["a"])


def test_extrapolation_chart_marks_unmeasurable_lengths():
    fig = viz_core.positional.extrapolation_chart([1, 1.5, 2, 4], {"learned": [1.0, 0.5, np.nan, np.nan], "alibi": [1, 1, 0.9, 0.7]})
    s = spec(fig)
    names = [d["name"] for d in s["data"]]
    assert names == ["learned", "", "alibi"]                               # an x marker layer for the gaps
    assert list(fig.data[1].x) == [2.0, 4.0] and list(fig.data[1].y) == [0.0, 0.0]
    assert s["layout"]["xaxis"]["ticktext"] == ["×1", "×1.5", "×2", "×4"]
    assert s["layout"]["yaxis"]["tickformat"] == ".0%"
    with pytest.raises(ValueError, match="values for"):
        viz_core.positional.extrapolation_chart([1, 2], {"a": [1.0]})

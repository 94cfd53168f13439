"""Presenter mode (?present=1, the sidebar toggle) and the palette (?palette=) in AppTest:
every page renders with the presenter stylesheet in both languages; the toggle writes
the link; a bad link value gets the notice; the heat maps follow the palette."""
from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import pytest

from tests.app.helpers import ROOT, TEXT, assert_ok, instant_data, open_app, points, rerun, select, spec
from ui import presenter
from viz_core import colors

PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app_pages").glob("*.py"))


def styles(at) -> list[str]:
    return [h.proto.body for h in at.get("html") if presenter.CSS in h.proto.body]


def toggle(at):
    return next(w for w in at.toggle if w.key.startswith(f"{presenter.PARAM}__"))


def heat_scale(at, key: str) -> list:
    heat = next(tr for tr in spec(at, key)["data"] if tr.get("type") == "heatmap")
    return [list(s) for s in heat["colorscale"]]


def test_the_app_has_ten_pages_and_the_css_meets_the_sizes():
    assert len(PAGES) >= 10 and "app_pages/home.py" in PAGES
    assert "html { font-size: 24px" in presenter.CSS and "h1 { font-size: 2rem" in presenter.CSS


@pytest.mark.parametrize("lang", ["English", "中文"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_presenter_mode(page, lang):
    """Each page opened from a presenter link (a fresh session, as a teacher's link does)."""
    at = open_app({"present": "1", "lang": lang, "text": TEXT}, page=page, direct=True)
    assert len(styles(at)) == 1                      # injected once per run
    assert toggle(at).value is True
    assert at.query_params["present"] in ("1", ["1"])


def test_without_the_param_there_is_no_presenter_css():
    at = open_app({"text": TEXT}, page=None)
    assert not styles(at) and toggle(at).value is False
    assert "present" not in at.query_params


def test_the_toggle_writes_the_link_and_takes_it_back():
    at = open_app({"text": TEXT}, page=None)
    toggle(at).set_value(True)
    rerun(at)
    assert at.query_params["present"] in ("1", ["1"]) and styles(at)
    toggle(at).set_value(False)
    rerun(at)
    assert "present" not in at.query_params and not styles(at)


def test_the_toggle_survives_a_language_switch():
    at = open_app({"present": "1", "text": TEXT}, page=None)
    at.radio(key="lang").set_value("中文")
    rerun(at)
    assert toggle(at).value is True and toggle(at).label == "演示模式" and styles(at)


@pytest.mark.parametrize("param, value", [("palette", "jet"), ("present", "maybe")])
def test_invalid_link_values_get_the_notice(param, value):
    at = open_app({param: value, "text": TEXT}, page=None)
    assert any(f"{param}=" in w.value and value in w.value and "not valid" in w.value for w in at.warning), \
        [w.value for w in at.warning]
    assert not styles(at)


def instant_lut(at) -> str:
    return instant_data(at)["payload"]["lut"]


def lut_of(palette: str) -> str:
    with colors.use_palette(palette):
        return base64.b64encode(np.ascontiguousarray(colors.colormap_lut(), dtype=np.uint8).tobytes()).decode()


def test_the_heat_maps_follow_the_palette_in_both_paths():
    # the default (instant) view: the canvas colours every head with the palette's LUT
    at = open_app({"palette": "cividis", "text": TEXT})
    assert instant_lut(at) == lut_of("cividis") != lut_of("viridis")
    # the heads view's plotly heatmap and all-heads image
    at.radio(key="view__en").set_value("heads")
    rerun(at)
    cividis = [list(s) for s in colors.plotly_colorscale("cividis")]
    assert heat_scale(at, "head_map") == cividis
    assert at.query_params["palette"] in ("cividis", ["cividis"])
    # the click reruns the view's fragment (without app.py): still cividis
    select(at, "head_map", points([1, -1]))
    assert heat_scale(at, "head_map") == cividis
    # the all-heads grid is a PNG coloured by the LUT: its colour bar-free image changes with the palette
    grid_cividis = spec(at, "model_view")
    at.selectbox(key="palette__en").set_value("inferno")
    rerun(at)
    assert heat_scale(at, "head_map") == [list(s) for s in colors.plotly_colorscale("inferno")]
    assert at.query_params["palette"] in ("inferno", ["inferno"])
    assert spec(at, "model_view")["data"] != grid_cividis["data"]
    at.radio(key="view__en").set_value("instant")
    rerun(at)
    assert instant_lut(at) == lut_of("inferno")
    at.selectbox(key="palette__en").set_value("viridis")
    rerun(at)
    assert "palette" not in at.query_params


def test_lessons_api():
    at = open_app({"present": "1", "palette": "inferno", "text": TEXT}, page=None)
    assert_ok(at)
    # outside a session: the defaults
    assert presenter.palette() == "viridis"
    assert Path(presenter.__file__).name == "presenter.py"

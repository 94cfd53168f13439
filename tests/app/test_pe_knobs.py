"""The positional knobs through AppTest: link values reach the models, out-of-range link
values are clamped with a notice, the attention maps and the extrapolation table are
recomputed under the knobs, the pictures are the library's numbers."""
from __future__ import annotations

import numpy as np
import torch

import models.positional
from lab import pe_knobs
from models.training import tasks
from models.trace import act_name
from models.weights import zoo
from tests.app.helpers import chart_ids, decode, open_app, rerun, spec

PAGE = "app_pages/positional.py"


def lab(query: dict[str, str]):
    return open_app({"pe_task": "copy", **query}, page=PAGE)


def heatmaps(fig: dict) -> list[np.ndarray]:
    return [decode(tr["z"]).astype(np.float64) for tr in fig["data"] if tr.get("type") == "heatmap" and tr.get("name") != "nan"]


def rope_panel_stock_and_knobbed(query: dict[str, str]):
    at = lab({"pe_view": "attention", "pe_head": "0", **query})
    return at, heatmaps(spec(at, "pe_attn_grid"))[3]         # none, sinusoidal, learned, RoPE, ...


def test_a_link_sets_the_knobs_and_the_maps_are_the_knobbed_models():
    at, z = rope_panel_stock_and_knobbed({"pe_k_theta": "50.0", "pe_k_temp": "0.5"})
    assert at.number_input(key="pe_k_theta").value == 50.0
    assert at.number_input(key="pe_k_temp").value == 0.5
    assert any("θ = 50" in c.value and "T = 0.5" in c.value for c in at.caption)
    model, _ = zoo.load("toy:copy-rope")
    knobbed = pe_knobs.apply(model, pe_knobs.Knobs(rope_base=50.0, temperature=0.5))
    ex = tasks.get_task("copy").probe()
    layer = model.cfg.n_layers - 1
    _, trace = knobbed.run_with_cache(ex.ids)
    want = trace.numpy(act_name("pattern", layer), batch=0)[0]
    got = np.where(np.isnan(z), 0.0, z)
    np.testing.assert_allclose(got, want, atol=1e-5)
    _, stock_trace = model.run_with_cache(ex.ids)
    stock = stock_trace.numpy(act_name("pattern", layer), batch=0)[0]
    assert np.abs(stock - want).max() > 1e-3                     # the knobs changed the map
    assert "pe_entropy" in chart_ids(at)
    ent = spec(at, "pe_entropy")
    assert any(tr["type"] == "scatter" for tr in ent["data"])    # the trained setting beside


def test_out_of_range_link_values_are_clamped_with_a_notice():
    at = lab({"pe_view": "attention", "pe_k_temp": "99", "pe_k_theta": "1", "pe_k_factor": "1000",
              "pe_k_buckets": "1000"})
    assert at.number_input(key="pe_k_temp").value == 20.0
    assert at.number_input(key="pe_k_theta").value == 10.0
    assert at.number_input(key="pe_k_factor").value == 64.0
    assert at.number_input(key="pe_k_buckets").value == 128
    notes = " ".join(i.value for i in at.info)
    for key in ("pe\\_k\\_temp", "pe\\_k\\_theta", "pe\\_k\\_factor", "pe\\_k\\_buckets"):
        assert key in notes
    assert "20.0" in notes
    bad = lab({"pe_view": "attention", "pe_k_temp": "hot"})
    assert bad.number_input(key="pe_k_temp").value == 1.0
    assert "pe\\_k\\_temp" in " ".join(w.value for w in bad.warning)


def test_wavelength_picture_is_the_library_s_and_follows_the_scaling():
    at = lab({"pe_view": "attention", "pe_k_scaling": "linear", "pe_k_factor": "4.0"})
    fig = spec(at, "pe_kfig_wave")
    model, _ = zoo.load("toy:copy-rope")
    d = model.cfg.rotary_dim
    stock = decode(fig["data"][0]["y"])
    now = decode(fig["data"][1]["y"])
    np.testing.assert_allclose(stock, models.positional.rope_wavelengths(d).numpy(), rtol=1e-6)
    np.testing.assert_allclose(now, 4 * models.positional.rope_wavelengths(d).numpy(), rtol=1e-6)


def test_extrapolation_table_recomputes_under_the_knobs():
    base = lab({"pe_view": "extrapolation", "pe_extra_n": "64"})
    steep = lab({"pe_view": "extrapolation", "pe_extra_n": "64", "pe_k_alibi": "16.0", "pe_k_temp": "3.0"})
    a, b = base.dataframe[0].value, steep.dataframe[0].value
    assert list(a.columns) == list(b.columns)
    assert not a.equals(b)
    # the ALiBi row is Task.evaluate's on the knobbed checkpoint
    model, _ = zoo.load("toy:copy-alibi")
    knobbed = pe_knobs.apply(model, pe_knobs.Knobs(alibi_slope_scale=16.0, temperature=3.0))
    row = b[b.iloc[:, 0] == "ALiBi"].iloc[0].tolist()
    assert row[1] == f"{tasks.get_task('copy').evaluate(knobbed, length=8, n=64):.1%}"
    torch.testing.assert_close(knobbed.alibi_slopes, model.alibi_slopes * 16)


def test_bucket_map_redrawn_and_reindexing_said():
    at = lab({"pe_view": "attention", "pe_k_buckets": "8", "pe_k_maxdist": "16"})
    z = heatmaps(spec(at, "pe_kfig_buckets"))[0]
    want = models.positional.relative_bucket_map(z.shape[0], z.shape[0], False, 8, 16).numpy()
    np.testing.assert_array_equal(z, want)
    assert any("never saw these buckets" in i.value for i in at.info)


def test_chinese_panel():
    at = lab({"pe_view": "attention", "lang": "中文", "pe_k_temp": "2.0"})
    assert any("当前生效的调整" in c.value for c in at.caption)


def test_reset_returns_to_the_trained_settings():
    at = lab({"pe_view": "attention", "pe_k_temp": "2.0"})
    at.button(key="pe_kfig_reset").click()
    rerun(at)
    assert at.number_input(key="pe_k_temp").value == 1.0
    assert at.query_params.get("pe_k_temp") in (None, ["1.0"], "1.0")

"""The positional-encoding lab through AppTest (no browser): every section runs, the
numbers in the charts are the library's, bad input gets a sentence."""
from __future__ import annotations

import re

import numpy as np
import pytest

import models.positional
from tests.app.helpers import assert_ok, chart_ids, decode, heatmap_z, open_app, rerun, spec

PAGE = "app_pages/positional.py"


def lab(query: dict[str, str] | None = None):
    return open_app(query, page=PAGE)


def section(at, name: str):
    radio = [r for r in at.radio if r.key.startswith("pe_view__")][0]
    radio.set_value(name)
    return rerun(at)


def table(at, index: int):
    """The index-th dataframe of the page (st.dataframe without on_select keeps no key)."""
    return at.dataframe[index].value


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"\d\.\d+e[-+]\d+", text)]


def test_tables_default_schemes_real_numbers():
    at = lab()
    assert chart_ids(at) == ["pe_table_sinusoidal", "pe_table_learned", "pe_table_rope",
                             "pe_sim_sinusoidal", "pe_sim_learned", "pe_sim_rope", "pe_curves"]
    fig = spec(at, "pe_table_sinusoidal")
    z = heatmap_z(fig)
    np.testing.assert_allclose(z, models.positional.sinusoidal(64, 64).numpy(), atol=1e-6)
    assert z[10, 0] == pytest.approx(-0.5440, abs=1e-4)                 # sin(10 rad), not degrees
    wave = decode(fig["data"][0]["y"])
    np.testing.assert_allclose(wave, models.positional.sinusoidal_wavelengths(64).numpy(), rtol=1e-6)
    learned = spec(at, "pe_table_learned")
    assert [d["type"] for d in learned["data"]][:2] == ["scatter", "image"]   # 64 x 384 cells: one PNG
    assert learned["layout"]["xaxis2"]["range"] == [-0.5, 383.5]          # MiniLM's real table, its own width
    assert learned["layout"]["yaxis2"]["range"] == [63.5, -0.5]
    assert any("512 positions × 384" in c.value for c in at.caption)
    curves = spec(at, "pe_curves")
    assert [d["name"] for d in curves["data"]] == ["sinusoidal", "learned", "RoPE"]
    assert decode(curves["data"][0]["y"])[0] == pytest.approx(1.0, abs=1e-5)    # cosine at distance 0


def test_switching_schemes_changes_the_charts():
    at = lab()
    at.multiselect(key="pe_schemes").set_value(["none", "alibi", "sinusoidal"])
    rerun(at)
    assert chart_ids(at) == ["pe_table_sinusoidal", "pe_sim_sinusoidal", "pe_curves"]
    infos = " ".join(i.value for i in at.info)
    assert "No position information" in infos and "ALiBi has no position vectors" in infos
    at.multiselect(key="pe_schemes").set_value([])
    rerun(at)
    assert chart_ids(at) == [] and any("at least one scheme" in i.value for i in at.info)
    at.multiselect(key="pe_schemes").set_value(["rope"])
    rerun(at)
    at.radio(key="pe_sim__en").set_value("dot")
    rerun(at)
    sim = heatmap_z(spec(at, "pe_sim_rope"))
    assert sim[0, 0] == pytest.approx(32.0, abs=1e-4)                    # d/2 unit pairs
    assert sim[5, 2] == pytest.approx(sim[40, 37], abs=1e-4)            # depends on m - n only


def test_a_length_past_the_learned_table_shows_where_it_ends():
    at = lab({"pe_n": "600"})
    assert any("512 positions only" in i.value and "512–599" in i.value for i in at.info)
    fig = spec(at, "pe_table_learned")
    assert fig["layout"]["shapes"][0]["y0"] == 511.5
    curves = spec(at, "pe_curves")
    y = decode(curves["data"][1]["y"])
    assert np.isfinite(y[:512]).all() and np.isnan(y[512:]).all()


def test_odd_dimension_gets_a_sentence():
    at = lab({"pe_d": "63"})
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 2 and all("63 is odd" in w and "62 or 64" in w for w in warnings)
    assert "pe_table_learned" in chart_ids(at)                           # learned keeps its own width
    at = section(at, "rope")
    assert any("63 is odd" in w.value for w in at.warning) and chart_ids(at) == []


def test_bounded_controls_clamp_link_values():
    at = lab({"pe_n": "0", "pe_d": "100000"})
    assert at.slider(key="pe_n").value == 64 and at.number_input(key="pe_d").value == 64
    notes = " ".join(w.value for w in at.warning)                        # the link's invalid values are reported
    assert "pe\\_n" in notes and "pe\\_d" in notes


def test_shift_section_numbers():
    at = section(lab(), "shift")
    assert chart_ids(at) == ["pe_shift_m", "pe_shift_arrows"]
    ok = [s.value for s in at.success][0]
    assert numbers(ok)[0] < 1e-5
    m = heatmap_z(spec(at, "pe_shift_m"))
    np.testing.assert_allclose(m, models.positional.sinusoidal_shift_matrix(5, 64).numpy()[:16, :16], atol=1e-6)
    at.slider(key="pe_k").set_value(200)
    rerun(at)
    assert numbers([s.value for s in at.success][0])[0] < 1e-5


def test_rope_section_curves_coincide():
    at = section(lab(), "rope")
    assert chart_ids(at) == ["pe_rope_arrows", "pe_rope_scores"]
    fig = spec(at, "pe_rope_scores")
    ys = [decode(d["y"]) for d in fig["data"]]
    assert len(ys) >= 3
    for y in ys[1:]:
        np.testing.assert_allclose(y, ys[0], atol=1e-4)
    assert numbers([s.value for s in at.success][0])[0] < 1e-4
    # the arrows: q at m and k at m - 2 turn together, so their angle is the same for every m
    arrows = [d for d in spec(at, "pe_rope_arrows")["data"] if d["mode"] == "lines+markers"]
    assert len(arrows) == 4 * 6                                       # 4 frequencies x (q, k) at 3 positions
    for panel in range(4):
        a = arrows[6 * panel: 6 * panel + 6]
        angles = [np.angle(complex(a[j]["x"][1], a[j]["y"][1]) / complex(a[j + 1]["x"][1], a[j + 1]["y"][1]))
                  for j in (0, 2, 4)]
        np.testing.assert_allclose(angles, angles[0], atol=1e-4)
    assert "q at m = 2" in arrows[0]["name"] and "k at n = 0" in arrows[1]["name"]


def test_bias_section_alibi_and_relative():
    at = section(lab(), "bias")
    assert chart_ids(at) == ["pe_alibi_slopes", "pe_alibi_grid", "pe_buckets", "pe_rel_grid", "pe_rel_curve"]
    slopes = decode(spec(at, "pe_alibi_slopes")["data"][0]["y"])
    np.testing.assert_allclose(slopes, [1 / 2 ** i for i in range(1, 9)])
    at.selectbox(key="pe_rel_src").set_value("custom:t5")
    rerun(at)
    buckets = decode(spec(at, "pe_buckets")["data"][0]["z"])
    np.testing.assert_array_equal(buckets, models.positional.relative_bucket_map(32).numpy())        # encoder: bidirectional
    at.slider(key="pe_heads").set_value(3)
    rerun(at)
    assert len(decode(spec(at, "pe_alibi_slopes")["data"][0]["y"])) == 3


def test_chinese_and_formulas():
    at = lab({"lang": "中文", "pe_task": "copy", "pe_extra_n": "64"})
    assert at.title[0].value == "位置编码实验室"
    for name in ("attention", "extrapolation", "shifttest", "shift", "rope", "bias"):
        at = section(at, name)
        assert_ok(at)
    md = " ".join(m.value for m in at.markdown)
    assert "ALiBi" in md and "计算示例" in md


def test_worked_numbers_are_computed():
    at = lab()
    md = " ".join(m.value for m in at.markdown)
    assert "sin(10 rad) = -0.5440" in md and "sin(10°) = 0.1736" in md
    at.number_input(key="pe_ex_pos").set_value(3)
    at.number_input(key="pe_ex_dim").set_value(3)
    rerun(at)
    md = " ".join(m.value for m in at.markdown)
    expected = float(models.positional.sinusoidal(4, 64)[3, 3])
    assert f"= {expected:.6f}" in md and "cos(" in md


# ---- the sections on the toy checkpoints (one per scheme: toy:<task>-<scheme>) -------------------
SCHEME_LABELS = ["none", "sinusoidal", "learned", "RoPE", "ALiBi", "T5 relative"]


def checkpoint_lab(name: str, query: dict[str, str] | None = None):
    at = lab({"pe_task": "copy", **(query or {})})
    return section(at, name)


def test_checkpoint_sections_are_offered():
    at = lab()
    radio = [r for r in at.radio if r.key.startswith("pe_view__")][0]
    assert list(radio.options)[6:] == ["Effect on attention", "Length extrapolation", "Shift test",
                                       "Train short, test long", "Query–key geometry"]


def test_attention_side_by_side_and_permutation():
    from models.training import tasks
    from models.weights import zoo

    at = checkpoint_lab("attention")
    grid = spec(at, "pe_attn_grid")
    assert [a["text"] for a in grid["layout"]["annotations"]][:6] == SCHEME_LABELS
    ex = tasks.get_task("copy").probe()
    z = heatmap_z(grid)
    assert z.shape == (len(ex.ids), len(ex.ids))
    np.testing.assert_allclose(np.nansum(z, -1), 1.0, atol=1e-4)        # mean of heads: rows still sum to 1
    assert np.isnan(z[0, 1])                                            # causal: the future is masked
    # the permutation panel: the unmasked softmax of the no-PE model permutes exactly
    ok = [s.value for s in at.success][0]
    assert numbers(ok)[0] < 1e-4 and numbers(ok)[1] < 1e-4
    df = table(at, 1)
    errs = dict(zip(df.iloc[:, 0], df.iloc[:, 1]))
    assert errs["none"] < 1e-4 and all(errs[s] > 1e-3 for s in SCHEME_LABELS[1:])
    # the numbers are the checkpoint's own: recompute the no-PE model's layer-0 map
    model, _ = zoo.load("toy:copy-none")
    _, trace = model.run_with_cache(ex.ids)
    p = trace.numpy("blocks.0.attn.hook_pattern", batch=0)
    assert p.shape[0] == model.cfg.n_heads
    # a longer probe than the training length still runs for every scheme that can hold it
    at.slider(key="pe_probe_len").set_value(16)
    rerun(at)
    assert "pe_attn_grid" in chart_ids(at)


def test_extrapolation_table_and_chart():
    at = checkpoint_lab("extrapolation", {"pe_extra_n": "64"})
    fig = spec(at, "pe_extra_chart")
    lines = [d for d in fig["data"] if d["name"]]
    assert [d["name"] for d in lines] == SCHEME_LABELS
    df = table(at, 0)
    assert list(df.iloc[:, 0]) == SCHEME_LABELS and df.shape[1] == 6      # scheme + 1x 1.5x 2x 4x 8x
    learned = df[df.iloc[:, 0] == "learned"].iloc[0].tolist()
    assert learned[-1] == "beyond the learned table"                    # 8x needs more rows than it has
    assert all(v.endswith("%") for v in df[df.iloc[:, 0] == "ALiBi"].iloc[0].tolist()[1:])
    assert any("table ends at" in i.value for i in at.info)
    # the numbers are Task.evaluate's on the shipped checkpoint
    from models.training import tasks
    from models.weights import zoo

    model, _ = zoo.load("toy:copy-rope")
    rope = df[df.iloc[:, 0] == "RoPE"].iloc[0].tolist()
    assert rope[1] == f"{tasks.get_task('copy').evaluate(model, length=8, n=64):.1%}"
    # per-token accuracy on the same examples: never below exact match
    at.radio(key="pe_metric__en").set_value("token_accuracy")
    rerun(at)
    tok = table(at, 0)
    for s_ in SCHEME_LABELS:
        exact_row = df[df.iloc[:, 0] == s_].iloc[0].tolist()[1:]
        tok_row = tok[tok.iloc[:, 0] == s_].iloc[0].tolist()[1:]
        for e, t_ in zip(exact_row, tok_row):
            if e.endswith("%"):
                assert float(t_[:-1]) >= float(e[:-1]) - 1e-9
    assert "per-token accuracy" in spec(at, "pe_extra_chart")["layout"]["yaxis"]["title"]["text"]


def test_shift_test_relative_schemes_do_not_move():
    at = checkpoint_lab("shifttest")
    df = table(at, 0)
    change = dict(zip(df.iloc[:, 0], df.iloc[:, 1]))
    for s in ("none", "RoPE", "ALiBi", "T5 relative"):
        assert change[s] < 1e-4, (s, change[s])
    for s in ("sinusoidal", "learned"):
        assert change[s] > 1e-3, (s, change[s])
    at.slider(key="pe_fk").set_value(0)
    rerun(at)
    df = table(at, 0)
    assert (df.iloc[:, 1] == 0).all()


@pytest.mark.parametrize("query", [{"pe_n": "2", "pe_d": "2", "pe_base": "2.0", "pe_bn": "2", "pe_heads": "1"},
                                   {"pe_n": "1024", "pe_d": "1024", "pe_base": "10000000.0", "pe_bn": "1024",
                                    "pe_heads": "32"}])
def test_extreme_controls_still_draw(query):
    at = lab(query)
    assert "pe_curves" in chart_ids(at)
    for name in ("shift", "rope", "bias"):
        at = section(at, name)
        assert chart_ids(at), name


def test_learned_table_of_a_checkpoint_says_which_rows_were_trained():
    from models.training import tasks

    at = lab()
    at.selectbox(key="pe_learned_src").set_value("toy:copy-learned")
    rerun(at)
    trained = len(tasks.get_task("copy").probe().ids)
    assert any(f"0..{trained}−1 of its 128 rows" in c.value for c in at.caption)
    at.selectbox(key="pe_learned_src").set_value("minilm")
    rerun(at)
    assert not any("of its 512 rows" in c.value for c in at.caption)     # MiniLM saw all its rows


def test_relative_bias_of_a_trained_checkpoint_is_its_weights():
    from models.weights import zoo

    at = section(lab(), "bias")
    at.selectbox(key="pe_rel_src").set_value("toy:copy-relative")
    rerun(at)
    model, _ = zoo.load("toy:copy-relative")
    buckets = decode(spec(at, "pe_buckets")["data"][0]["z"])
    np.testing.assert_array_equal(buckets, models.positional.relative_bucket_map(32, bidirectional=False).numpy())  # a decoder
    grid = spec(at, "pe_rel_grid")
    z = heatmap_z(grid)
    want = models.positional.relative_bias(model.rel_bias.weight.detach(), 32, bidirectional=False)[0].numpy()
    np.testing.assert_allclose(z, want, atol=1e-6)
    assert not any("random weights" in c.value for c in at.caption)

"""Pages at real size (issue 32): every page, every view and every shipped lesson on a
24-layer, 14-head model with 2 key/value heads (tests/real_size.py: Qwen2.5-0.5B's shape,
narrow and random), loaded through the sidebar's "Load a model" panel as this session's
model. No exception and no error anywhere; the pickers reach layer 23 and head 13; the
grids hold all 336 heads; the map draws 24 blocks and the two K/V groups."""
from __future__ import annotations

import json

import numpy as np
import pytest

import lab.lessons
from tests import real_size
from tests.app.helpers import (assert_no_exception, assert_ok, chart_ids, decode, instant_data, new_app, open_folded,
                               spec)
from tests.app.test_model_map import check_map
from ui.lessons import specs

TEXT = "The cat sat on the mat, and the dog ran."          # 40 characters: 40 tokens of the character tokenizer
TEXT_B = "The dog sat on the mat, and the cat ran."        # the same length: the A/B views and patching run
L, H, KV = real_size.LAYERS, real_size.HEADS, real_size.KV_HEADS

# page -> (its view radio, {view: the charts it must draw}); None: the page has no view radio
VIEWS: dict[str, tuple[str | None, dict[str, set[str]]]] = {
    "home": (None, {"": {"model_map"}}),
    "attention": ("view", {"heads": {"model_view", "head_map"}, "lines": {"line_view"}, "metrics": {"metrics_chart"},
                           "rollout": {"rollout_map"}, "compare": {"ab_attn_a", "ab_attn_b", "ab_attn_diff"},
                           "instant": set()}),
    "attribution": ("aview", {"dla": {"dla_heads", "dla_parts"}, "head": {"head_writes", "head_ov"},
                              "patching": {"patch_map"}, "detectors": {"det_map"}}),
    "ffn": ("fview", {"activations": {"ffn_map", "neuron_acts", "neuron_vocab"},
                      "function": {"ffn_function", "ffn_sparsity"}, "size": {"ffn_share"},
                      "compare": {"ab_ffn_a", "ab_ffn_b", "ab_ffn_diff"}, "ablation": set()}),
    "residual": ("rview", {"input": {"in_parts"}, "stream": {"res_norm", "res_contrib"}, "norms": {"res_norms"},
                           "batchnorm": {"bn_ln_map", "bn_features", "bn_scatter"},
                           "prepost": {"res_prepost"}, "lens": {"res_lens"}, "compare": {"ab_resid"},
                           "ablation": set()}),
    "beyond": ("bx_view", {"long": {"bxl_xl_soft", "bxl_xl", "bxl_terms", "bxl_reach"},
                           "recurrent": {"bxr_ret_soft", "bxr_ret"}, "memory": {"bxm_memory_chart"},
                           "mixer": {"bxm_mix_attention", "bxm_mix_model"}, "ternary": {"bxm_ternary_hist"}}),
    # the sections that read the shipped toy checkpoints, not the sidebar's model, are left to their own tests
    "positional": ("pe_view", {"tables": {"pe_curves"}, "shift": {"pe_shift_m"}, "rope": {"pe_rope_scores"},
                               "bias": {"pe_alibi_grid"}}),
    "masks": (None, {"": {"mk_composed", "mk_scores", "mk_masked", "mk_softmax", "mk_change"}}),
    "walkthrough": (None, {"": {"wt_Q", "wt_K", "wt_V", "wt_heads", "wt_out", "wt_kv_diagram", "fa_grid"}}),
    "generate": (None, {"": {"gen_bars", "gen_attn_row", "gen_cache_grid", "gen_paged", "tf_matrix"}}),
    "training": (None, {"": set()}),
    "lessons": (None, {"": {"ls_fig_attention_0"}}),
}
# every layer / head picker a page draws for the sidebar's model
PICKERS = {"home": {"mlayer": L}, "attention": {"layer": L, "head": H}, "ffn": {"layer": L},
           "beyond": {"bx_layer": L, "bx_head": H}, "masks": {"mk_layer": L, "mk_head": H},
           "walkthrough": {"wt_layer": L, "wt_head": H}, "generate": {"gen_layer": L}}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return real_size.save(tmp_path_factory.mktemp("real-size"))


def loaded(folder, lang: str = "English", **query: str):
    """A session whose sidebar model is the 24 × 14 folder, loaded through the panel."""
    at = new_app()
    at.query_params.update({"text": TEXT, "lang": lang} | query)
    at.run()
    assert_ok(at)
    open_folded(at, "_ml_open")                                         # the panel is built only while open
    at.text_input(key="_ml_source").input(str(folder))
    at.button(key="_ml_load").click()
    at.run()
    assert_ok(at)
    assert at.selectbox(key="model").format_func(at.selectbox(key="model").value).startswith(real_size.NAME)
    return at


def model_of(at):
    from ui.serving import trained

    return trained.find(at.selectbox(key="model").value).model


def test_every_page_and_view_on_the_24_layer_gqa_model(folder):
    at = loaded(folder, text_b=TEXT_B, psite="head")      # patching: 336 runs (every head) rather than 1,000
    key = at.selectbox(key="model").value
    for page, (radio, views) in VIEWS.items():
        at.switch_page(f"app_pages/{page}.py").run()
        assert_ok(at)
        for name, n in PICKERS.get(page, {}).items():                           # on the page's first view
            slider = at.slider(key=name)
            assert (slider.min, slider.max) == (0, n - 1), (page, name, slider.min, slider.max)
        for view, charts in views.items():
            if radio and view:
                at.radio(key=f"{radio}__en").set_value(view).run()
                assert_ok(at)
            assert at.selectbox(key="model").value == key, (page, view)          # the loaded model stays chosen
            assert charts <= set(chart_ids(at)), (page, view, chart_ids(at))
    # the receptive field reaches all 24 layers (it stopped at 12)
    at.switch_page("app_pages/masks.py").run()
    at.session_state["mk_tab__en"] = "Receptive field"
    at.run()
    assert_ok(at)
    reach = at.number_input(key="mk_reach_layers")
    assert reach.value == L and reach.max == L
    assert {"mk_reach_map", "mk_coverage"} <= set(chart_ids(at))


def test_every_head_is_in_the_grids_the_map_and_the_instant_view(folder):
    at = loaded(folder, view="instant")
    at.switch_page("app_pages/attention.py").run()
    assert_ok(at)
    cfg = model_of(at).cfg
    assert (cfg.n_layers, cfg.n_heads, cfg.kv_heads) == (L, H, KV)
    payload = json.loads(next(n for n in at.get("bidi_component")
                              if n.proto.id.endswith("-instant_canvas")).proto.bytes)["payload"]
    assert (payload["n_layers"], payload["n_heads"], payload["n_q"]) == (L, H, len(TEXT))
    at.radio(key="view__en").set_value("heads").run()
    assert_ok(at)
    grid = spec(at, "model_view")
    assert (grid["layout"]["meta"]["layers"], grid["layout"]["meta"]["heads"]) == (L, H)
    assert len(grid["data"][1]["customdata"]) == L * H                   # one click target per head: 336
    assert grid["layout"]["height"] <= 700                               # one screen, not a 24-row tower
    at.slider(key="layer").set_value(L - 1)
    at.slider(key="head").set_value(H - 1).run()
    assert_ok(at)
    assert "Layer 23, head 13" in json.dumps(spec(at, "head_map"))
    at.radio(key="view__en").set_value("metrics").run()
    metrics = spec(at, "metrics_chart")
    assert decode(metrics["data"][0]["z"]).shape == (L, H)
    assert metrics["data"][0].get("texttemplate") is None                # 336 numbers would not be legible

    at.switch_page("app_pages/home.py").run()
    assert_ok(at)
    check_map(spec(at, "model_map"), cfg)                                # × 24 blocks, 14 heads, 2 K/V groups

    at.switch_page("app_pages/attribution.py").run()
    assert_ok(at)
    assert decode(spec(at, "dla_heads")["data"][0]["z"]).shape == (L, H)
    parts = spec(at, "dla_parts")["data"][0]
    values = decode(parts["y"])
    assert len(values) >= L and {c for c, v in zip(parts["marker"]["color"], values) if v > 0} <= {"#d62728"}


def test_patching_every_head_waits_for_a_click_over_the_size_limit(folder, monkeypatch):
    from ui.views import attribution_patching

    monkeypatch.setattr(attribution_patching, "AUTO_WORK", 1e6)         # as a real 0.5B model would be: over it
    a, b = "The cat sat.", "The dog sat."                              # short: 336 runs of 12 tokens
    at = loaded(folder, text=a, text_b=b, aview="patching", psite="head")
    at.switch_page("app_pages/attribution.py").run()
    assert_ok(at)
    assert "patch_map" not in chart_ids(at)
    said = " ".join(i.value for i in at.info)
    assert f"This sweep is {L * H} patched runs of {len(a)} tokens" in said, said
    at.button(key="sweep_start").click().run()
    assert_ok(at)
    z = decode(spec(at, "patch_map")["data"][0]["z"])
    assert z.shape == (L, H) and np.isfinite(z).all()


def test_ablating_the_last_head_of_the_last_layer(folder):
    at = loaded(folder)
    at.switch_page("app_pages/ffn.py").run()
    at.radio(key="fview__en").set_value("ablation").run()
    assert_ok(at)
    heads = at.multiselect(key="abl_heads")
    assert len(heads.options) == L * H
    heads.select(f"L{L - 1} H{H - 1}").run()
    assert_ok(at)
    assert at.get("plotly_chart")


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_the_attention_page_and_overview_in_both_languages(folder, lang):
    at = loaded(folder, lang=lang)
    for page in ("attention", "home"):
        at.switch_page(f"app_pages/{page}.py").run()
        assert_ok(at)
    assert "model_map" in chart_ids(at)
    at.switch_page("app_pages/attention.py").run()
    # the default view: every head in the browser's viewer, its words in the UI language
    payload = instant_data(at)["payload"]
    assert (payload["n_layers"], payload["n_heads"]) == (L, H)
    assert payload["labels"]["heading"] == ("Layer {layer}, head {head}" if lang == "English" else "第 {layer} 层，第 {head} 个头")
    at.radio(key="view__en" if lang == "English" else "view__zh").set_value("heads").run()
    assert_ok(at)
    assert {"model_view", "head_map"} <= set(chart_ids(at))


SHIPPED = lab.lessons.shipped(specs())[0]


def test_every_step_of_every_shipped_lesson(folder):
    """Each step draws its one figure on the 24-layer model (after the reveal on a question)."""
    at = loaded(folder)
    at.switch_page("app_pages/lessons.py").run()
    assert_ok(at)
    for lesson in SHIPPED.values():
        at.selectbox(key="lesson__en").set_value(lesson.id).run()
        assert_ok(at)
        for i, step in enumerate(lesson.steps):
            reveal = next((b for b in at.button if b.key and b.key.startswith("ls_reveal_")), None)
            if reveal is not None:
                reveal.click().run()
                assert_ok(at)
            assert len(at.get("plotly_chart")) == 1, (lesson.id, i + 1, step.kind, [e.value for e in at.error])
            if i < len(lesson.steps) - 1:
                at.button(key="ls_next").click().run()
                assert_no_exception(at)

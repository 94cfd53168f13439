"""The views that follow the course notes, in English and Chinese, through the whole app:
the walk-through's √d_k (section 6) and FlashAttention (section 7), the residual page's
input layer and LayerNorm vs BatchNorm, the generation page's training vs generation,
the positional page's calculator, and the notes beside the views. What the page shows is
compared with the lab functions that compute it."""
from __future__ import annotations

import numpy as np
import pytest

from lab import flash, input_layer, teacher_forcing
from models.weights import zoo
from tests.app.helpers import (EVIL, GPT_LABEL, T5_LABEL, TEXT, assert_escaped, assert_ok, chart_ids, decode,
                               everything_rendered, find_block, heatmap_z, open_app, rerun, spec, texts)

WALK = "app_pages/walkthrough.py"
RESIDUAL = "app_pages/residual.py"
GENERATE = "app_pages/generate.py"
FFN = "app_pages/ffn.py"
REVERSE_ROPE = "Toy: reverse · rope"
SPELL = "Toy: spell digits (encoder-decoder) · sinusoidal"


def notes(at) -> list[str]:
    return [m for m in texts(at, "markdown") if ":material/lightbulb:" in m]


def block_notes(block) -> list[str]:
    """The notes inside one container (other sections' notes left out)."""
    out = []
    for child in getattr(block, "children", {}).values():
        value = getattr(child, "value", None)
        if isinstance(value, str) and ":material/lightbulb:" in value:
            out.append(value)
        out += block_notes(child)
    return out


def frame(at, column: str):
    """The first table on the page with this column (plain st.dataframe has no key in AppTest)."""
    found = [d.value for d in at.dataframe if column in d.value.columns]
    assert found, [list(d.value.columns) for d in at.dataframe]
    return found[0]


# ---- the walk-through: √d_k and FlashAttention -------------------------------------------------------
@pytest.mark.parametrize("lang", ["English", "中文"])
def test_scaling_and_flash_sections(lang):
    at = open_app({"text": TEXT, "wt_layer": "2", "wt_head": "3", "lang": lang}, WALK)
    ids = chart_ids(at)
    for key in ("sc_variance", "sc_softmax", "sc_entropy", "sc_maxw", "fa_grid", "fa_stats", "fa_partial", "fa_memory"):
        assert key in ids, key
    assert find_block(at.main, "sc_section") is not None and find_block(at.main, "fa_section") is not None
    zh = lang == "中文"
    subheaders = texts(at, "subheader")
    assert ("6. 为什么要除以 √d_k？" if zh else "6. Why divide by √d_k?") in subheaders
    assert any(s.startswith("7. FlashAttention") for s in subheaders)
    assert len(block_notes(find_block(at.main, "sc_section"))) == 6   # mean, paper, 0–1, gradients, linearity, risk
    assert all(("常见说法" in n) == zh for n in notes(at))
    success = " ".join(texts(at, "success"))
    assert ("一致" if zh else "equals the model's own attention output") in success
    # the variance chart: the random points and the closed form d_k, the head's star
    fig = spec(at, "sc_variance")
    line = decode(fig["data"][0]["y"])
    assert np.array_equal(line, decode(fig["data"][0]["x"]))            # Var = d_k
    assert float(decode(fig["data"][4]["x"])[0]) == 32                   # this head: d_k = 32


def test_flash_steps_through_the_tiles():
    at = open_app({"text": TEXT, "wt_head": "1"}, WALK)
    model, tok = zoo.load("minilm", device="cpu")
    ids = tok.encode(TEXT).ids
    run = flash.flash_head(model, ids, 0, 1, tile_q=4, tile_k=4)
    assert at.slider(key="fa_step").value == len(run.steps) == 2        # 8 tokens in tiles of 4
    z = heatmap_z(spec(at, "fa_grid"))
    assert np.isfinite(z).all()                                          # every tile read
    at.slider(key="fa_step").set_value(1)
    rerun(at)
    z = heatmap_z(spec(at, "fa_grid"))
    assert np.isfinite(z[:, :4]).all() and np.isnan(z[:, 4:]).all()     # the second tile is not read yet
    assert any("After 1 of 2 key tiles" in m for m in texts(at, "markdown"))
    at.select_slider(key="fa_tile").set_value(1)
    rerun(at)
    assert at.slider(key="fa_step").value == len(ids)                    # one key per tile, opened on the last
    assert any(f"{flash.flash_head(model, ids, 0, 1, tile_q=1, tile_k=1).error:.1e}" in s for s in texts(at, "success"))


def test_walkthrough_cross_attention_note_and_a_gqa_decoder():
    at = open_app({"text": TEXT, "model": T5_LABEL, "target": "one two", "wt_stack": "cross"}, WALK)
    cross = [n for n in notes(at) if "Q comes from the decoder" in n]
    assert len(cross) == 1 and "here 4 query rows" in cross[0]           # [CLS] one two [SEP]
    at = open_app({"text": TEXT, "model": "LLaMA-style decoder", "wt_head": "3"}, WALK)
    assert "fa_grid" in chart_ids(at)


# ---- the residual page: the input layer and LayerNorm vs BatchNorm -------------------------------------
@pytest.mark.parametrize("lang", ["English", "中文"])
def test_input_layer_view(lang):
    at = open_app({"text": TEXT, "rview": "input", "lang": lang}, RESIDUAL)
    assert find_block(at.main, "in_view") is not None
    model, tok = zoo.load("minilm", device="cpu")
    ids = tok.encode(TEXT).ids
    want = input_layer.input_layer(model, ids)
    table = frame(at, "id")
    assert table["id"].tolist() == ids
    assert np.allclose(table.iloc[:, 2].to_numpy(dtype=float), want.token_norm)
    fig = spec(at, "in_parts")
    assert len(fig["data"]) == 4                                         # token, segment, position, sum
    at.toggle(key="in_scaled").set_value(True)
    rerun(at)
    fig = spec(at, "in_parts")
    assert len(fig["data"]) == 5 and np.allclose(decode(fig["data"][1]["y"]), want.scaled_norm, rtol=1e-5)
    shown = " ".join(texts(at, "markdown"))
    assert ("√d_model = 19.6" in shown) and (("本模型不做这个乘法" in shown) == (lang == "中文"))


def test_input_layer_without_position_vectors_and_for_an_encoder_decoder():
    at = open_app({"text": TEXT, "rview": "input", "model": "LLaMA-style decoder"}, RESIDUAL)
    assert any("adds no position vector" in i for i in texts(at, "info"))
    at = open_app({"text": TEXT, "rview": "input", "model": T5_LABEL, "in_stack": "decoder", "target": "one"}, RESIDUAL)
    assert frame(at, "id").shape[0] == 3               # [CLS] one [SEP]


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_layernorm_vs_batchnorm_view(lang):
    at = open_app({"text": TEXT, "rview": "batchnorm", "lang": lang}, RESIDUAL)
    for key in ("bn_ln_map", "bn_features", "bn_sweep", "bn_scatter"):
        assert key in chart_ids(at), key
    assert frame(at, "statistics over").shape == (4, 3) if lang == "English" else True
    assert len(notes(at)) == 4                      # Add & Norm ≠ BN, RMSNorm's speed, LN not for RNNs only, DyT's α
    # the padded batch: text 2 ("A shorter one.") is padded to text 1's length
    z = heatmap_z(spec(at, "bn_ln_map"))
    assert z.shape == (2, 8) and np.isnan(z[1, 6:]).all() and np.isfinite(z[0]).all()
    at.text_input(key="bn_text2").input("")
    rerun(at)
    assert len(at.info) >= 1 and "bn_ln_map" not in chart_ids(at)
    assert "bn_scatter" in chart_ids(at)                                   # the scatter needs one text only


def test_batchnorm_view_for_an_encoder_decoder_keeps_the_scatter():
    at = open_app({"text": TEXT, "rview": "batchnorm", "model": T5_LABEL}, RESIDUAL)
    assert "bn_scatter" in chart_ids(at) and "bn_ln_map" not in chart_ids(at)


def test_residual_notes_on_variance_and_post_ln():
    at = open_app({"text": TEXT, "rview": "norms"}, RESIDUAL)
    assert any("biased" in n for n in notes(at))
    at = open_app({"text": TEXT, "rview": "prepost"}, RESIDUAL)
    assert any("Xiong et al. (2020)" in n and "post-norm" in n for n in notes(at))


# ---- generation: training vs generation ---------------------------------------------------------------
@pytest.mark.parametrize("lang", ["English", "中文"])
def test_training_vs_generation(lang):
    at = open_app({"text": "jggifhic=", "model": REVERSE_ROPE, "gen_n": "2", "lang": lang}, GENERATE)
    assert find_block(at.main, "tf_section") is not None
    model, tok = zoo.load("toy:reverse-rope", device="cpu")
    ids = tok.encode("jggifhic=").ids
    r = teacher_forcing.teacher_forcing(model, ids)
    metrics = [m.value for m in at.metric]
    assert f"{r.max_diff:.1e}" in metrics and any(f"{r.mean_loss:.3f}" in m for m in metrics)
    z = heatmap_z(spec(at, "tf_matrix"))                                  # the context layer
    assert z.shape == (len(ids) - 1, len(ids))
    table = frame(at, "loss −log p" if lang == "English" else "损失 −log p")
    assert np.allclose(table.iloc[:, 4].to_numpy(dtype=float), r.loss, atol=1e-5)
    assert len(notes(at)) == 2                                            # parallel training, sampling ≠ training
    assert ("教师强制" in " ".join(texts(at, "markdown"))) == (lang == "中文")


def test_training_vs_generation_for_an_encoder_decoder_and_a_short_text():
    at = open_app({"text": "307", "model": SPELL, "target": "three zero seven", "gen_n": "2"}, GENERATE)
    assert "tf_matrix" in chart_ids(at)
    at = open_app({"text": TEXT, "model": GPT_LABEL, "gen_n": "2"}, GENERATE)
    assert "tf_diffs" in chart_ids(at)


# ---- the positional page, the FFN page -------------------------------------------------------------------
def test_pe_calculator_takes_512_and_shows_the_notes_table():
    at = open_app({"pe_view": "tables"}, "app_pages/positional.py")
    at.number_input(key="pe_ex_d").set_value(512)
    rerun(at)
    at.number_input(key="pe_ex_dim").set_value(510)
    rerun(at)
    shown = " ".join(texts(at, "markdown"))
    assert "PE(10, 510) = sin(10 / 10000^(510/512))" in shown
    notes_table = frame(at, "PE")
    assert notes_table.iloc[0, 3] == pytest.approx(-0.5440, abs=1e-4)    # radians: the model
    assert notes_table.iloc[0, 4] == pytest.approx(0.1736, abs=1e-4)     # degrees: the notes' 0.17
    assert find_block(at.main, "pe_calc") is not None


def test_extrapolation_note():
    at = open_app({"pe_view": "extrapolation", "pe_extra_n": "64", "lang": "中文"}, "app_pages/positional.py")
    assert any("*训练*长度" in n for n in notes(at))


def test_ffn_notes():
    at = open_app({"text": TEXT, "fview": "function"}, FFN)
    found = notes(at)
    assert any("no parameters" in n for n in found) and any("token-mixing" in n for n in found)
    assert any("at the other 7 tokens by 0.0e+00" in n for n in found)


def test_hostile_text_is_escaped_in_the_new_views():
    for page, extra in ((WALK, {}), (RESIDUAL, {"rview": "input"}), (RESIDUAL, {"rview": "batchnorm"}),
                        (GENERATE, {"model": GPT_LABEL, "gen_n": "1"})):
        at = open_app({"text": EVIL, **extra}, page)
        assert_ok(at)
        assert_escaped(everything_rendered(at))

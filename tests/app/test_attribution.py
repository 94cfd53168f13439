"""The attribution page through AppTest: direct logit attribution adds up, a click opens
what a head writes, activation patching sweeps a pair, head detectors find the induction
head and open it in the attention explorer; bad input gets a sentence. And the training
lab's detector chart."""
from __future__ import annotations

import json
import time

import numpy as np
import pytest

from tests.app.helpers import (ATTENTION, EVIL, GPT_LABEL, MINILM_LABEL, T5_LABEL, TEXT, assert_escaped, chart_ids,
                               decode, everything_rendered, heatmap_z, open_app, points, rerun, select, spec)

PAGE = "app_pages/attribution.py"
INDUCTION = "Toy: induction (repeated sequence) · rope"
A = "abcdefghabcdefg"                 # the second g: the earlier g was followed by h
B = "abcdefgzabcdefg"                 # ... by z


def page(query: dict[str, str], **kw):
    return open_app(query, PAGE, **kw)


def metric_values(at) -> list[str]:
    return [m.value for m in at.metric]


def texts(at, kind: str) -> str:
    return " ".join(str(e.value) for e in getattr(at, kind))


# --------------------------------------------------------------------------- direct logit attribution


def test_dla_adds_up_to_the_logit_and_predicts_the_induction_answer():
    at = page({"model": INDUCTION, "text": A})
    assert at.title[0].value == "Attribution: what each part contributes"
    assert chart_ids(at) == ["dla_heads", "dla_parts"]
    assert "Top predictions after position 15" in texts(at, "caption") and "` h `" in texts(at, "caption")
    logit, total, error = metric_values(at)
    assert abs(float(logit) - float(total)) <= 1e-4 and abs(float(error)) <= 1e-4
    heads = heatmap_z(spec(at, "dla_heads"))
    assert heads.shape == (2, 4)
    parts = decode(spec(at, "dla_parts")["data"][0]["y"])
    assert heads.sum() + parts.sum() == pytest.approx(float(logit), abs=1e-3)
    assert heads[1].sum() > heads[0].sum()                            # the induction heads (layer 1) write it
    assert "frozen" in texts(at, "caption")
    formulas = [x.value for x in at.latex]                            # the explanations' formulas
    assert len(formulas) == 3 and r"W_U[t]" in formulas[0]


def test_target_tokens_typed_and_refused():
    at = page({"model": INDUCTION, "text": A, "tok": "c", "tok_b": "h"})
    heading = " ".join(m.value for m in at.markdown if m.value.startswith("**Logit"))
    assert "` c ` − ` h `" in heading
    assert float(metric_values(at)[0]) < 0                             # the model prefers h to c
    for typed, says in (("Z", "is not in this model's vocabulary"), ("ab", "splits into")):
        at = page({"model": INDUCTION, "text": A, "tok": typed}, errors_ok=True)
        assert says in texts(at, "warning"), texts(at, "warning")
        assert not chart_ids(at)


def test_clicking_a_head_shows_what_it_writes():
    at = page({"model": INDUCTION, "text": A})
    select(at, "dla_heads", points([1, 2]))
    assert at.session_state["_aview"] == "head" and at.radio(key="aview__en").value == "head"
    assert chart_ids(at) == ["head_writes", "head_ov"]
    assert at.slider(key="layer").value == 1 and at.slider(key="head").value == 2
    heading = next(m.value for m in at.markdown if m.value.startswith("**Layer 1, head 2"))
    assert "attends most to position 8 (` h `)" in heading           # the token after the earlier g
    writes = spec(at, "head_writes")["data"][0]
    assert "h" in writes["y"][0]                                      # it promotes h most
    assert "unembedding" in texts(at, "caption")


def test_an_encoder_without_lm_head_says_what_applies():
    at = page({"text": TEXT})
    assert at.radio(key="aview__en").value == "detectors"             # it opens on what applies to it
    assert chart_ids(at) == ["det_map"]
    at = page({"text": TEXT, "aview": "dla"})
    assert not chart_ids(at)
    note = texts(at, "info")
    assert "no language-model head" in note and "Activation patching" in note
    at = page({"text": TEXT, "aview": "head"})
    assert chart_ids(at) == ["head_writes", "head_ov"] and "token embeddings" in texts(at, "caption")


def test_encoder_decoder_gets_its_cross_heads():
    at = page({"model": T5_LABEL, "text": TEXT, "target": "the dog"})
    assert chart_ids(at) == ["dla_heads", "dla_cross", "dla_parts"]
    logit, total, _ = metric_values(at)
    assert abs(float(logit) - float(total)) <= 1e-4
    at = page({"model": T5_LABEL, "text": TEXT, "aview": "patching"})
    assert "encoder-decoder reads two sequences" in texts(at, "info")


# --------------------------------------------------------------------------- activation patching


def test_patching_sweep_of_the_induction_pair():
    at = page({"model": INDUCTION, "text": A, "aview": "patching", "text_b": B})
    assert "1 position(s) differ: 8: h → z" in texts(at, "caption")
    assert "A predicts ` h `, B predicts ` z `" in texts(at, "caption")
    clean, corrupted, runs = metric_values(at)
    assert float(clean) > 0 > float(corrupted) and runs == "48"        # 3 rows x 16 positions
    z = heatmap_z(spec(at, "patch_map"))
    assert z.shape == (3, 16)
    assert z[-1, -1] == pytest.approx(1.0, abs=1e-4)                  # the final stream at the read position
    assert z[0, 8] == pytest.approx(1.0, abs=1e-4)                    # the changed token entering layer 0
    np.testing.assert_allclose(z[:, :8], 0, atol=1e-4)                # before it nothing differs
    # per head and per sublayer, another metric: each its own sweep, cached per pair
    at.radio(key="psite__en").set_value("head")
    at.radio(key="pmetric__en").set_value("kl")
    rerun(at)
    assert heatmap_z(spec(at, "patch_map")).shape == (2, 4)
    assert "Recovered: each head" in spec(at, "patch_map")["layout"]["title"]["text"]


def test_patching_bad_pairs():
    at = page({"model": INDUCTION, "text": A, "aview": "patching", "text_b": "abc"}, errors_ok=True)
    assert "same number of tokens" in texts(at, "warning") and not chart_ids(at)
    at = page({"model": INDUCTION, "text": A, "aview": "patching", "text_b": B, "ptok": "Z"}, errors_ok=True)
    assert "not in this model's vocabulary" in texts(at, "warning") and not chart_ids(at)


def test_patching_an_encoder_scores_the_hidden_state():
    at = page({"text": TEXT, "aview": "patching", "text_b": "the dog sat on the mat"})
    assert [r.options for r in at.radio if r.key == "pmetric__en"][0] == ["Distance to A's hidden state"]
    z = heatmap_z(spec(at, "patch_map"))
    assert z.shape == (7, 8) and z[0, 2] == pytest.approx(1.0, abs=1e-4)


def test_patching_a_gpt_style_preset():
    at = page({"model": GPT_LABEL, "text": TEXT, "aview": "patching", "text_b": "the dog sat on the mat"})
    assert heatmap_z(spec(at, "patch_map")).shape == (3, 8)


# --------------------------------------------------------------------------- head detectors


def test_detectors_find_the_induction_heads_and_open_one():
    at = page({"model": INDUCTION, "text": A, "aview": "detectors"})
    fig = spec(at, "det_map")
    z = heatmap_z(fig)
    assert z.shape == (2, 4) and z[1].min() > 0.9 and z[0].max() < 0.5
    assert "Chance level" in texts(at, "caption")
    table = at.dataframe[0].value
    assert list(table.columns[:2]) == ["Layer", "Head"] and len(table) == 8
    select(at, "det_map", points([1, 3]))
    assert at.session_state["_detector_head"] == (1, 3)
    button = at.button(key="det_open")
    assert button.label == "Open L1 H3 on this sequence in the attention explorer"
    button.click().run()
    assert at.session_state["layer"] == 1 and at.session_state["head"] == 3
    assert at.query_params["layer"] in (["1"], "1") and at.query_params["head"] in (["3"], "3")
    assert at.title[0].value.startswith("Attention")
    assert at.text_area(key="text").value != A                        # the detector sequence is read there


def test_detectors_on_the_text_and_bad_offsets():
    at = page({"text": TEXT, "aview": "detectors", "dsource": "text", "offsets": "1, 2"})
    assert heatmap_z(spec(at, "det_map")).shape == (6, 12)
    assert "Diagonal offsets: 1, 2" in texts(at, "caption")
    at = page({"text": TEXT, "aview": "detectors", "offsets": "x"}, errors_ok=True)
    assert "whole numbers" in texts(at, "warning") and not chart_ids(at)


# --------------------------------------------------------------------------- languages and escaping


def test_chinese_page():
    at = page({"model": INDUCTION, "text": A, "lang": "中文"})
    assert at.title[0].value == "归因：每个部分贡献了什么"
    assert "固定" in texts(at, "caption")
    at = page({"model": INDUCTION, "text": A, "lang": "中文", "aview": "detectors"})
    assert "随机水平" in texts(at, "caption")


def test_html_in_the_text_is_shown_literally():
    at = page({"model": GPT_LABEL, "text": EVIL})
    rendered = everything_rendered(at)
    for view in ("head", "detectors"):
        rendered += everything_rendered(page({"model": GPT_LABEL, "text": EVIL, "aview": view, "dsource": "text"}))
    rendered += everything_rendered(page({"model": GPT_LABEL, "text": EVIL, "aview": "patching",
                                          "text_b": EVIL.replace("x", "y")}))
    assert_escaped(rendered)


# --------------------------------------------------------------------------- the training lab


def test_training_lab_charts_the_detectors_over_the_snapshots():
    at = open_app(page="app_pages/training.py", errors_ok=True)
    at.selectbox(key="tr_task").set_value("induction").run()
    at.number_input(key="tr_steps_induction").set_value(60)
    at.number_input(key="tr_every").set_value(20)
    at.button(key="tr_start").click().run()
    rec = at.session_state["_train_runs"][-1]
    deadline = time.monotonic() + 240
    while not rec.run.finished and time.monotonic() < deadline:
        time.sleep(0.2)
    at.run()
    fig = spec(at, "tr_detectors")
    names = [tr.get("name") for tr in fig["data"]]
    assert names[:4] == ["induction", "previous token", "duplicate token", "first token (sink)"]
    assert len(decode(fig["data"][0]["y"])) == 4                      # steps 0, 20, 40, 60
    assert any("best induction head" in c.value for c in at.caption)
    assert json.loads(at.get("plotly_chart")[-1].proto.spec)["frames"]   # the replay is still last


def test_a_large_sweep_waits_for_a_click(monkeypatch):
    from ui.views import attribution_patching

    monkeypatch.setattr(attribution_patching, "AUTO_WORK", 0)          # every sweep counts as large here
    at = page({"model": INDUCTION, "text": A, "aview": "patching", "text_b": B, "psite": "mlp_out"})
    assert "starts when you ask" in texts(at, "info") and not chart_ids(at)
    at.button(key="sweep_start").click()
    rerun(at)
    assert chart_ids(at) == ["patch_map"]
    rerun(at)                                                          # kept for this pair: no second click
    assert chart_ids(at) == ["patch_map"]

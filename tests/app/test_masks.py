"""The masks lab and the Q/K/V walk-through through AppTest (no browser).

Charts are read back from their plotly specs and compared with models.masks (the
builders the model uses) and with the model itself."""
from __future__ import annotations

import numpy as np
import pytest

import models.masks
from tests.app.helpers import (EMPTY_PROMPT, EVIL, GPT_LABEL, LLAMA_LABEL, T5_LABEL, TEXT, TEXT_TOKENS, assert_escaped,
                               assert_ok, assert_rows_sum_to_one, chart_ids, decode, everything_rendered, heatmap_z,
                               open_app, rerun, set_text, spec, warnings_text)

MASKS = "app_pages/masks.py"
WALK = "app_pages/walkthrough.py"
N = len(TEXT_TOKENS)


def composed(at) -> np.ndarray:
    return heatmap_z(spec(at, "mk_composed"))


def open_tab(at, label: str, lang: str = "en"):
    """Switch the masks page's tabs (only the open tab runs)."""
    at.session_state[f"mk_tab__{lang}"] = label
    return rerun(at)


def set_parts(at, parts: list[str]):
    at.multiselect(key="mk_parts").set_value(parts)
    return rerun(at)


def test_masks_page_default_is_a_local_window_applied_to_minilm():
    at = open_app({"text": TEXT}, MASKS)
    assert np.array_equal(composed(at) == 1, models.masks.local(N, 2).numpy())
    soft = heatmap_z(spec(at, "mk_softmax"))
    assert np.array_equal(np.isnan(soft), ~models.masks.local(N, 2).numpy())
    assert_rows_sum_to_one(soft)
    # masked scores: −∞ written in every masked cell and in the hover of the grey layer
    masked = spec(at, "mk_masked")
    neg = [tr for tr in masked["data"] if tr.get("name") == "neg_inf"]
    assert len(neg[0]["text"]) == int((~models.masks.local(N, 2)).sum()) and set(neg[0]["text"]) == {"−∞"}
    assert any("−∞" in tr.get("hovertemplate", "") for tr in masked["data"])
    assert any("differs from the one the model was trained with" in i.value for i in at.info)
    for key in ("mk_per_query", "mk_scores", "mk_change"):
        spec(at, key)
    for tab, keys in (("Gallery", ["mk_gallery_bigbird", "mk_gallery_xlnet_query"]),
                      ("Padding (a batch)", ["mk_pad_mask_1"]), ("Cost", ["mk_cost"]),
                      ("Receptive field", ["mk_reach_map", "mk_coverage"]),
                      ("Without softmax", ["mk_v_soft", "mk_v_lin", "mk_v_ret"])):
        open_tab(at, tab)
        for key in keys:
            spec(at, key)
    assert "mk_composed" not in chart_ids(at)


def test_bigbird_composed_with_causal_matches_the_builders():
    at = open_app({"text": TEXT}, MASKS)
    set_parts(at, ["bigbird", "causal"])
    at.number_input(key="mk_window").set_value(1)
    at.number_input(key="mk_random").set_value(1)
    at.number_input(key="mk_seed").set_value(4)
    rerun(at)
    expected = (models.masks.bigbird(N, 1, (0,), 1, 4) & models.masks.causal(N)).numpy()
    assert np.array_equal(composed(at) == 1, expected)
    assert np.array_equal(np.isnan(heatmap_z(spec(at, "mk_softmax"))), ~expected)
    open_tab(at, "Cost")
    cost = spec(at, "mk_cost")
    names = [tr["name"] for tr in cost["data"]]
    assert names == ["full (n²)", "BigBird (window + global + random)", "Causal (decoder)", "composed mask"]
    full = decode(cost["data"][0]["y"])
    assert full.tolist() == [n * n for n in (16, 32, 64, 128, 256, 512, 1024)]


def test_full_pattern_on_minilm_is_what_it_was_trained_with():
    at = open_app({"text": TEXT}, MASKS)
    set_parts(at, ["full"])
    assert any("the pattern the model uses on its own" in s.value for s in at.success)


def test_xlnet_query_stream_row_with_nothing_to_attend_to_is_explained_not_nan():
    at = open_app({"text": TEXT}, MASKS)
    set_parts(at, ["xlnet_query"])
    z = composed(at)
    # default order: reversed, so the last position comes first in the order and sees nothing
    assert (z[N - 1] == 2).all()                       # drawn as "nothing to attend to"
    assert "nothing" in warnings_text(at) and "itself only" in warnings_text(at)
    soft = heatmap_z(spec(at, "mk_softmax"))
    assert not np.isnan(soft[~np.isnan(soft)]).any()
    assert soft[N - 1, N - 1] == pytest.approx(1.0)    # attends to itself, weight 1
    assert np.isnan(np.delete(soft[N - 1], N - 1)).all()
    assert_rows_sum_to_one(soft)


@pytest.mark.parametrize("order, why", [("0 0 1 2 3 4 5 6", "more than once"), ("0 1 2", "missing"),
                                         ("a b", "whole numbers")])
def test_an_order_that_is_not_a_permutation_is_refused(order, why):
    at = open_app({"text": TEXT}, MASKS)
    set_parts(at, ["xlnet_content"])
    at.text_input(key="mk_order").input(order)
    rerun(at)
    assert "cannot be used" in warnings_text(at) and why in warnings_text(at)
    assert np.all(composed(at) == 1)                  # left out: nothing else chosen -> full


def test_random_order_button_gives_a_permutation():
    at = open_app({"text": TEXT}, MASKS)
    set_parts(at, ["xlnet_content"])
    at.button(key="mk_shuffle").click()
    rerun(at)
    order = [int(x) for x in at.text_input(key="mk_order").value.split()]
    assert sorted(order) == list(range(N))
    content, _ = models.masks.xlnet_permutation(order)
    assert np.array_equal(composed(at) == 1, content.numpy())


def test_parameters_from_a_longer_text_are_clamped():
    at = open_app({"text": "one two three four five six seven eight nine ten eleven twelve"}, MASKS)
    set_parts(at, ["local", "strided", "prefix"])
    at.number_input(key="mk_window").set_value(12)
    at.number_input(key="mk_stride").set_value(13)
    rerun(at)
    set_text(at, "hi")                                  # 3 tokens
    assert at.number_input(key="mk_window").value == 2
    assert at.number_input(key="mk_stride").value == 3
    assert composed(at).shape == (3, 3)


def test_decoder_preset_warns_when_the_mask_sees_the_future():
    at = open_app({"text": TEXT, "model": GPT_LABEL}, MASKS)
    set_parts(at, ["full"])
    assert any("see later tokens" in w.value for w in at.warning)
    set_parts(at, ["causal"])
    assert any("the pattern the model uses on its own" in s.value for s in at.success)


def test_masks_page_for_an_encoder_decoder_and_in_chinese():
    at = open_app({"text": TEXT, "model": T5_LABEL, "lang": "中文"}, MASKS)
    at.radio(key="mk_stack__zh").set_value("decoder")
    rerun(at)
    assert at.title[0].value == "掩码与注意力变体"
    spec(at, "mk_softmax")


def test_walkthrough_checks_against_hook_attn_out_for_minilm():
    at = open_app({"text": TEXT, "wt_layer": "4", "wt_head": "7"}, WALK)
    ok = [s.value for s in at.success]
    assert any("equals the model's `hook_attn_out`" in s for s in ok), ok
    table = at.dataframe[0].value
    assert list(table["key"]) == [t for t in TEXT_TOKENS]
    np.testing.assert_allclose(table["softmax"], table["model's weight"], atol=1e-6)
    assert table["softmax"].sum() == pytest.approx(1.0)
    q = heatmap_z(spec(at, "wt_Q"))
    assert q.shape == (N, 32)
    kv = at.dataframe[1].value
    assert list(kv["kv heads"]) == [1, 2, 3, 4, 6, 12]


def test_walkthrough_gqa_decoder_shows_masked_keys_and_shared_heads():
    at = open_app({"text": TEXT, "model": LLAMA_LABEL, "wt_head": "3"}, WALK)
    assert any("equals the model's" in s.value for s in at.success)
    table = at.dataframe[0].value
    q = 2                                               # default query position
    assert list(table["masked score"])[q + 1:] == ["−∞"] * (N - q - 1)
    assert (table["softmax"][q + 1:] == 0).all()
    assert any("reads key/value head 1" in c.value for c in at.caption)
    diagram = spec(at, "wt_kv_diagram")
    assert len([tr for tr in diagram["data"] if tr.get("mode") == "lines"]) == 4


def test_walkthrough_neuron_view_for_a_masked_key():
    at = open_app({"text": TEXT, "model": GPT_LABEL}, WALK)
    at.selectbox(key="wt_query").set_value(1)
    at.selectbox(key="wt_key").set_value(5)
    rerun(at)
    assert any("masked for this query" in i.value for i in at.info)
    z = heatmap_z(spec(at, "wt_neuron"))
    assert np.allclose(z[4], 0)                        # p · v of a masked key is exactly zero


def test_walkthrough_encoder_decoder():
    at = open_app({"text": TEXT, "model": T5_LABEL, "target": "one two"}, WALK)
    at.radio(key="wt_stack__en").set_value("decoder")
    rerun(at)
    assert any("equals the model's" in s.value for s in at.success)
    assert "+ bias" in at.dataframe[0].value.columns
    assert len(at.dataframe[0].value) == 4                      # [CLS] one two [SEP]
    # cross-attention: target queries against source keys, checked against hook_cross_attn_out
    at.radio(key="wt_stack__en").set_value("cross")
    rerun(at)
    assert any("`hook_cross_attn_out`" in s.value for s in at.success), [s.value for s in at.success]
    table = at.dataframe[0].value
    assert list(table["key"]) == TEXT_TOKENS and "+ bias" not in table.columns
    assert len(at.selectbox(key="wt_query").options) == 4
    assert heatmap_z(spec(at, "wt_K")).shape[0] == N and heatmap_z(spec(at, "wt_Q")).shape[0] == 4


@pytest.mark.parametrize("page", [MASKS, WALK])
def test_empty_text_prompts_and_html_is_escaped(page):
    at = open_app({"text": TEXT}, page)
    set_text(at, "  ")
    assert any(i.value == EMPTY_PROMPT for i in at.info)
    set_text(at, EVIL)
    assert_ok(at)
    assert_escaped(everything_rendered(at))


def test_padding_tab_runs_a_real_batch():
    at = open_app({"text": TEXT}, MASKS)
    open_tab(at, "Padding (a batch)")
    at.text_input(key="mk_text2").input("a b")
    rerun(at)
    mask = heatmap_z(spec(at, "mk_pad_mask_1"))               # [CLS] a b [SEP] + 4 [PAD]
    assert mask.shape == (N, N)
    assert (mask[:4, 4:] == 0).all() and (mask[:4, :4] == 1).all()
    weights = heatmap_z(spec(at, "mk_pad_pattern_1"))
    assert np.isnan(weights[:4, 4:]).all()
    assert_rows_sum_to_one(weights)
    assert any("exactly zero" in c.value for c in at.caption)


def test_receptive_field_table_shows_why_strided_covers_everything():
    at = open_app({"text": "a b c d e f g h i j k l m n"}, MASKS)   # 16 tokens
    open_tab(at, "Receptive field")
    table = at.dataframe[0].value
    layers = dict(zip(table["pattern (& causal)"], table["layers needed"]))
    reaches = dict(zip(table["pattern (& causal)"], table["reaches every earlier token"]))
    assert layers["local window 2"] == 8 and reaches["local window 2"] == "yes"
    assert layers["strided 4 (local block + every 4-th, ≈√n)"] == 2
    assert reaches["dilated 4 (every 4-th key only)"] == "no"


def test_variants_tab_compares_with_the_models_softmax():
    at = open_app({"text": TEXT, "model": GPT_LABEL}, MASKS)
    open_tab(at, "Without softmax")
    assert at.toggle(key="mk_linear_causal").value is True
    lin = heatmap_z(spec(at, "mk_v_lin"))
    assert np.allclose(np.triu(lin, 1), 0) and np.allclose(lin.sum(-1), 1, atol=1e-4)
    ret = heatmap_z(spec(at, "mk_v_ret"))
    assert np.allclose(np.triu(ret, 1), 0)
    assert any("equals the parallel form" in c.value for c in at.caption)


def test_walkthrough_download_holds_every_number():
    import json

    from ui.views.walkthrough import walk_json
    from lab import walkthrough
    from models.weights import zoo

    model, tok = zoo.load("custom:gpt")
    enc = tok.encode(TEXT)
    _, trace = model.run_with_cache(enc.ids)
    w = walkthrough.walk_head(model, trace, 1, 2, 3)
    doc = json.loads(walk_json(w, enc.tokens, enc.tokens))
    assert doc["query_tokens"] == enc.tokens and doc["layer"] == 1
    assert doc["masked"][4:] == [None] * (len(enc.ids) - 4)       # −∞ is null
    np.testing.assert_allclose(doc["out"], w.out)


def test_encoder_decoder_stacks_read_their_own_text():
    at = open_app({"text": "a b c", "target": "one two three four five", "model": T5_LABEL}, MASKS)
    assert composed(at).shape == (5, 5)                # encoder: [CLS] a b c [SEP]
    at.radio(key="mk_stack__en").set_value("decoder")
    rerun(at)
    assert composed(at).shape == (7, 7)                # decoder: the target text


def test_long_text_is_cut_for_the_lab_and_the_walkthrough():
    long = " ".join(["word"] * 300)
    at = open_app({"text": long}, MASKS)
    assert any("first 64 tokens" in i.value for i in at.info)
    assert composed(at).shape == (64, 64)
    at = open_app({"text": long, "wt_layer": "5"}, WALK)
    assert any("this view shows the first 128" in i.value for i in at.info)
    assert len(at.dataframe[0].value) == 128
    assert any("equals the model's" in s.value for s in at.success)


def test_global_token_picker_shows_tokens_as_typed():
    at = open_app({"text": "<b>x</b>"}, MASKS)
    set_parts(at, ["longformer"])
    picker = at.multiselect(key="mk_global")
    assert picker.options[1] == "1·<" and all("&lt;" not in o for o in picker.options)
    picker.set_value([0, 2])
    rerun(at)
    assert np.array_equal(composed(at) == 1, models.masks.longformer(len(picker.options), 2, (0, 2)).numpy())


@pytest.mark.parametrize("key", ["toy:reverse-rope", "toy:copy-alibi", "toy:spell"])
def test_shipped_toy_checkpoints_on_both_pages(key):
    from models.training import tasks
    from models.weights import zoo

    entry = zoo.get(key)
    card = next(c for c in tasks.shipped() if c["key"] == key)
    probe = tasks.get_task(card["task"]).probe()
    query = {"text": "".join(s for s in probe.tokens if s != "<bos>"), "model": entry.label}
    if probe.tgt_tokens:
        query["target"] = "".join(s for s in probe.tgt_tokens if not s.startswith("<"))
    at = open_app(query, MASKS)
    assert at.selectbox(key="model").value == key
    set_parts(at, ["bigbird", "causal"])
    assert_rows_sum_to_one(heatmap_z(spec(at, "mk_softmax")))
    at = open_app(query, WALK)
    assert any("equals the model's" in s.value for s in at.success)

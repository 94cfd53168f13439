"""The FFN and residual-stream pages, the A/B view and the ablation toggles through
Streamlit's AppTest (see helpers.py for the helpers and how chart clicks are sent)."""
from __future__ import annotations

import numpy as np
import pytest

from models.training.tasks import get_task
from tests.app.helpers import (ATTENTION, EVIL, GPT_LABEL, LLAMA_LABEL, MINILM_LABEL, TEXT, TEXT_TOKENS, chart_ids,
                               decode, everything_rendered, open_app, points, rerun, select, spec)

FFN, RESIDUAL = "app_pages/ffn.py", "app_pages/residual.py"
REVERSE = "Toy: reverse · sinusoidal"
PROBE = get_task("reverse").probe().text                 # e.g. "jggifhic=cihfiggj"


def info_text(at) -> str:
    return " ".join(e.value for e in [*at.info, *at.warning, *at.success])


# --------------------------------------------------------------------------- FFN page


def test_ffn_activations_and_neuron_click():
    at = open_app({"text": TEXT}, FFN)
    assert chart_ids(at) == ["ffn_map", "neuron_acts", "neuron_vocab"]
    fig = spec(at, "ffn_map")
    click = next(d for d in fig["data"] if d.get("name") == "click")
    pairs = click["customdata"]
    assert len(pairs) % len(TEXT_TOKENS) == 0 and {p[0] for p in pairs} == set(range(len(TEXT_TOKENS)))
    neuron = pairs[3][1]
    assert neuron != 0
    select(at, "ffn_map", points(pairs[3]))
    assert at.number_input(key="neuron").value == neuron
    assert at.query_params["neuron"] == [str(neuron)] or at.query_params["neuron"] == str(neuron)
    md = " ".join(m.value for m in at.markdown)
    assert f"Layer 0, neuron {neuron}" in md
    # the neuron's bars: one per token, the values of that neuron's column
    bars = spec(at, "neuron_acts")["data"][0]
    assert len(decode(bars["y"])) == len(TEXT_TOKENS)
    vocab = spec(at, "neuron_vocab")
    assert len(vocab["data"]) == 2                                    # promoted and suppressed
    assert "token embeddings" in everything_rendered(at)              # MiniLM has no unembedding
    topk = at.dataframe[0].value                                      # the only table in this view
    assert len(topk) == len(TEXT_TOKENS) and list(topk.columns)[1:] == ["#1", "#2", "#3", "#4", "#5"]


def test_ffn_all_neurons_and_layer_from_link():
    at = open_app({"text": TEXT, "forder": "all", "layer": "3", "fwhich": "pre"}, FFN)
    assert "ffn_all" in chart_ids(at)
    assert "Layer 3: every neuron" in everything_rendered(at)


@pytest.mark.parametrize("model,exact", [(MINILM_LABEL, False), (LLAMA_LABEL, False), ("Original Transformer", True)])
def test_ffn_function_and_sparsity(model, exact):
    at = open_app({"text": TEXT, "fview": "function", "model": model}, FFN)
    assert chart_ids(at) == ["ffn_function", "ffn_sparsity"]
    frac = decode(spec(at, "ffn_sparsity")["data"][0]["y"])
    assert frac.shape == (6 if model.startswith("MiniLM") else 2,)
    assert ((0 <= frac) & (frac <= 1)).all()
    text = everything_rendered(at)
    assert ("exact zeros" in text) == exact
    if exact:
        assert frac.min() > 0.2                                     # ReLU: many exact zeros


def test_ffn_size_view():
    at = open_app({"fview": "size"}, FFN)
    assert chart_ids(at) == ["ffn_share"]
    assert [m.value for m in at.metric][0] == "31.4%"             # MiniLM: 7,089,408 of 22,565,376
    pie = spec(at, "ffn_share")["data"][0]
    assert "FFN" in pie["labels"]


def test_ffn_in_chinese():
    at = open_app({"text": TEXT, "lang": "中文"}, FFN)
    assert at.title[0].value == "前馈网络（FFN）"


# --------------------------------------------------------------------------- residual page


def test_residual_stream_post_ln():
    at = open_app({"text": TEXT}, RESIDUAL)
    assert chart_ids(at) == ["res_norm", "res_contrib"]
    z = decode(spec(at, "res_norm")["data"][0]["z"])
    assert z.shape == (1 + 2 * 6, len(TEXT_TOKENS))
    assert "Post-LN" in info_text(at)


def test_residual_stream_pre_ln_sum_is_checked():
    at = open_app({"text": TEXT, "model": GPT_LABEL}, RESIDUAL)
    ok = " ".join(s.value for s in at.success)
    assert "exactly the embedding plus every sub-layer" in ok
    err = float(ok.split("difference in this text: ")[1].split(")")[0])
    assert err < 1e-5


def test_residual_norms_view():
    at = open_app({"text": TEXT, "rview": "norms", "model": LLAMA_LABEL}, RESIDUAL)
    assert chart_ids(at) == ["res_norms"]
    names = [d["name"] for d in spec(at, "res_norms")["data"]]
    assert len(names) == 4                                          # RMSNorm: std in/out, scale, |mean|
    table = at.dataframe[0].value
    assert list(table.iloc[:, 0])[-1] == "ln_final" and len(table) == 2 * 2 + 1


def test_residual_prepost_view_reads_the_shipped_twins():
    at = open_app({"text": TEXT, "rview": "prepost"}, RESIDUAL)
    assert chart_ids(at) == ["res_prepost", "res_pre_map", "res_post_map"]
    pre_map = decode(spec(at, "res_pre_map")["data"][0]["z"])
    assert pre_map.shape == (3, len(PROBE) + 1)                      # embed, L0, L1 x <bos> + the probe
    lines = spec(at, "res_prepost")["data"]
    assert [line["name"] for line in lines] == ["Pre-LN: stream", "Post-LN: stream (after the norm)",
                                                 "Post-LN: x + FFN(x) before the norm"]
    assert "The shipped twins" in everything_rendered(at) and PROBE in everything_rendered(at)
    pre, post = (float(m.value.lstrip("×")) for m in at.metric)
    assert pre > 2 and post < 1.5                       # pre-LN's stream grows with depth, post-LN's is reset


def test_task_example_button_and_logit_lens_on_a_toy_decoder():
    at = open_app({"rview": "lens", "model": REVERSE}, RESIDUAL)
    assert "unknown to this model" in info_text(at)     # the sidebar's English sentence
    at.button(key="use_task_example").click()
    rerun(at)
    assert at.text_area(key="text").value == PROBE
    heat = spec(at, "res_lens")["data"][0]
    top = heat["text"][-1]                               # the model's own predictions (last row)
    eq = PROBE.index("=") + 1                            # position of "=" after <bos>
    x = PROBE.split("=")[0]
    assert top[eq:eq + len(x)] == list(x[::-1])          # a trained reverse model: the answer, letter by letter


def test_ablation_shows_the_task_accuracy_on_a_toy_checkpoint():
    at = open_app({"fview": "ablation", "model": REVERSE, "text": PROBE}, FFN)
    at.checkbox(key="abl_pe").check()
    rerun(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Accuracy on the reverse task"] == "100%"
    assert int(metrics["… with the ablation"].rstrip("%")) < 50     # without positions it cannot reverse


def test_logit_lens_unavailable_for_minilm():
    at = open_app({"text": TEXT, "rview": "lens"}, RESIDUAL)
    assert chart_ids(at) == []
    assert "needs an unembedding" in info_text(at)


def test_logit_lens_for_a_decoder():
    at = open_app({"text": TEXT, "rview": "lens", "model": GPT_LABEL}, RESIDUAL)
    assert chart_ids(at) == ["res_lens"]
    heat = spec(at, "res_lens")["data"][0]
    assert decode(heat["z"]).shape == (3, len(TEXT_TOKENS))              # embed, L0, L1
    assert len(heat["text"]) == 3
    table = at.dataframe[0].value
    assert list(table.iloc[:, 0]) == ["embed", "L0", "L1"]


# --------------------------------------------------------------------------- A/B


def test_ab_same_length_shows_a_b_and_difference():
    at = open_app({"text": TEXT, "fview": "compare", "text_b": "the dog sat on the mat"}, FFN)
    assert chart_ids(at) == ["ab_ffn_a", "ab_ffn_b", "ab_ffn_diff"]
    a = decode(spec(at, "ab_ffn_a")["data"][0]["z"])
    b = decode(spec(at, "ab_ffn_b")["data"][0]["z"])
    d = decode(spec(at, "ab_ffn_diff")["data"][0]["z"])
    np.testing.assert_allclose(d, a - b, atol=1e-6)
    assert np.abs(d[2]).max() > 0                                   # the changed token
    assert "1 position(s) differ: 2: cat → dog" in everything_rendered(at).replace("\\", "")


def test_ab_different_lengths_are_refused_with_a_note():
    at = open_app({"text": TEXT, "rview": "compare", "text_b": "the dog sat on a big mat"}, RESIDUAL)
    assert chart_ids(at) == []
    assert "Text A has 8 tokens and text B has 9" in info_text(at)


def test_ab_on_the_attention_page():
    at = open_app({"text": TEXT, "view": "compare", "text_b": "the dog sat on the mat", "layer": "2", "head": "5"},
                  ATTENTION)
    assert chart_ids(at) == ["ab_attn_a", "ab_attn_b", "ab_attn_diff"]
    diff = decode(spec(at, "ab_attn_diff")["data"][0]["z"])
    assert diff.shape == (len(TEXT_TOKENS), len(TEXT_TOKENS))
    np.testing.assert_allclose(np.nansum(diff, axis=1), 0, atol=1e-5)   # rows of both patterns sum to 1


def test_ab_residual_causal_positions_before_the_change_stay_equal():
    at = open_app({"text": TEXT, "rview": "compare", "text_b": "the cat sat on the rug", "model": GPT_LABEL}, RESIDUAL)
    dist = decode(spec(at, "ab_resid")["data"][0]["z"])              # [steps, pos]
    changed = TEXT_TOKENS.index("mat")
    np.testing.assert_allclose(dist[:, :changed], 0, atol=1e-6)      # a decoder cannot look ahead
    assert dist[:, changed].min() > 0


# --------------------------------------------------------------------------- ablation


def test_ablation_on_a_decoder():
    at = open_app({"text": TEXT, "fview": "ablation", "model": GPT_LABEL}, FFN)
    assert "Choose something to switch off" in info_text(at)
    at.multiselect(key="abl_heads").select("L0 H1")
    rerun(at)
    assert chart_ids(at) == ["abl_chart"]
    kl = decode(spec(at, "abl_chart")["data"][0]["y"])
    assert kl.shape == (len(TEXT_TOKENS),) and (kl >= 0).all() and kl.max() > 0
    table = at.dataframe[0].value
    assert len(table) == len(TEXT_TOKENS)
    at.checkbox(key="abl_mask").check()
    rerun(at)
    kl2 = decode(spec(at, "abl_chart")["data"][0]["y"])
    assert not np.allclose(kl, kl2)


def test_ablation_on_minilm_hidden_states():
    at = open_app({"text": TEXT, "rview": "ablation"}, RESIDUAL)
    at.checkbox(key="abl_pe").check()
    rerun(at)
    assert chart_ids(at) == ["abl_chart"]
    assert "Weights with no place" in everything_rendered(at)       # pos_embed.weight is dropped
    at.checkbox(key="abl_pe").uncheck()
    at.checkbox(key="abl_mask").check()
    rerun(at)
    rel = decode(spec(at, "abl_chart")["data"][0]["y"])
    np.testing.assert_allclose(rel, 0, atol=1e-6)                   # BERT sees everything already
    assert "already sees every token" in everything_rendered(at)
    at.selectbox(key="abl_norm").select("rmsnorm")
    rerun(at)
    assert decode(spec(at, "abl_chart")["data"][0]["y"]).max() > 0.01


def test_long_text_is_cut_and_every_view_still_draws():
    long = " ".join(["the students read every word of the long sentence"] * 80)     # > 512 MiniLM tokens
    at = open_app({"text": long, "fview": "compare", "text_b": long.replace("students", "teachers")}, FFN)
    assert chart_ids(at) == ["ab_ffn_a", "ab_ffn_b", "ab_ffn_diff"]
    assert "this view shows the first 512" in info_text(at)
    at = open_app({"text": long}, FFN)
    assert chart_ids(at)[0] == "ffn_map"


def test_hostile_text_is_escaped_everywhere():
    for page, query in ((FFN, {"fview": "compare"}), (RESIDUAL, {"rview": "lens", "model": LLAMA_LABEL}),
                        (RESIDUAL, {"rview": "compare"})):
        at = open_app({"text": EVIL, "text_b": EVIL, **query}, page)
        text = everything_rendered(at)
        assert "<script>" not in text and "<b>" not in text and "<style>" not in text


def test_prepost_without_the_shipped_pair_compares_random_twins(monkeypatch):
    from ui.views import residual

    monkeypatch.setattr(residual, "PAIR", ("toy:missing-pre", "toy:missing-post"))
    at = open_app({"text": TEXT, "rview": "prepost"}, RESIDUAL)
    assert "not shipped here" in info_text(at)
    assert chart_ids(at) == ["res_prepost", "res_pre_map", "res_post_map"]
    assert [m.label for m in at.metric][0] == "Pre-LN: growth from the first layer to the last"


def test_task_example_fills_source_and_target_of_an_encoder_decoder():
    ex = get_task("spell").probe()
    at = open_app({"rview": "lens", "model": "Toy: spell digits (encoder-decoder) · sinusoidal", "text": "123"},
                  RESIDUAL)
    at.button(key="use_task_example").click()
    rerun(at)
    assert at.text_area(key="text").value == ex.text and at.text_input(key="target").value == ex.tgt_text
    predicted = "".join(spec(at, "res_lens")["data"][0]["text"][-1]).replace("␣", " ")
    assert predicted.startswith(ex.tgt_text)          # the decoder's own next-token predictions spell the number

"""The generation page through AppTest: what it shows is what lab.generate computes."""
from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from models.weights import zoo
from lab import generate, repetition
from tests.app.helpers import EVIL, GPT_LABEL, LLAMA_LABEL, T5_LABEL, assert_ok, decode, open_app, spec, texts

PAGE = "app_pages/generate.py"
PROMPT = "the cat sat on the mat and the dog"


def open_page(**query: str) -> AppTest:
    """The generation page opened with `query` as the link's parameters."""
    return open_app(query, PAGE)


def direct(key: str, text: str, settings: generate.Settings) -> generate.Result:
    """What the page should show, computed without the page."""
    model, tok = zoo.load(key)
    ids, _ = generate.encode_prompt(tok, text)
    return generate.generate(model, ids, settings, eos=generate.eos_id(tok)), tok


def test_greedy_page_shows_the_real_generation_and_steps():
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="10")
    res, tok = direct("custom:gpt", PROMPT, generate.Settings(max_new_tokens=10))
    assert at.session_state["_gen"].new_ids == res.new_ids
    assert at.slider(key="gen_step").value == len(res.steps)
    bars = spec(at, "gen_bars")
    last = res.steps[-1]
    # the faint bars are the model's probabilities of the top candidates, in order
    np.testing.assert_allclose(_arr(bars["data"][0]["x"]), last.model_probs, rtol=1e-5)
    # greedy: only the top candidate survives, the others are marked cut
    labels = bars["layout"]["yaxis"]["ticktext"]
    assert labels[0].endswith(tok.id_to_token(last.token_id))
    assert sum("(cut)" in s for s in bars["data"][1]["text"]) == len(last.candidates) - 1
    # the attention row: one row per head over the context, rows sum to 1
    z = _arr(spec(at, "gen_attn_row")["data"][0]["z"])
    assert z.shape == (4, last.position)
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-4)
    assert "Greedy decoding takes the most probable token." in " ".join(texts(at, "markdown"))

    # step back: the views follow the slider
    at.slider(key="gen_step").set_value(3).run()
    assert_ok(at)
    assert f"**Step 3: candidates for position {res.steps[2].position}**" in texts(at, "markdown")
    assert _arr(spec(at, "gen_attn_row")["data"][0]["z"]).shape == (4, res.steps[2].position)


def _arr(v):
    return decode(v).astype(np.float64)


def test_kv_cache_tab_reports_real_sizes_and_kv_heads():
    at = open_page(model=LLAMA_LABEL, text=PROMPT, gen_n="4")
    run = at.session_state["_gen"]
    last = run.steps[-1]
    # LLaMA preset: 4 query heads, 2 kv heads, d_head 16, 2 layers, float32
    assert last.cache_bytes == [2 * 2 * 16 * last.cache_rows * 4] * 2
    md = " ".join(texts(at, "markdown"))
    assert "**2** key/value heads (GQA)" in md
    table = at.dataframe[0].value
    assert list(table["K"]) == [f"[1, {last.cache_rows}, 2, 16]"] * 2
    mem = spec(at, "gen_cache_memory")
    assert [tr["name"] for tr in mem["data"] if tr.get("name")] == ["MHA, 4 kv", "GQA, 2 kv", "MQA, 1 kv"]
    grid = _arr(spec(at, "gen_cache_grid")["data"][0]["z"])
    assert grid.shape == (2, last.cache_rows) and (grid[:, -1] == 2).all() and (grid[:, :-1] == 1).all()


def test_sampling_top_k_one_equals_greedy_and_cuts_are_explained():
    greedy = open_page(model=GPT_LABEL, text=PROMPT, gen_n="6")
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="6", strategy="sample", gen_t="1.5", gen_k="1", gen_seed="5")
    assert at.session_state["_gen"].new_ids == greedy.session_state["_gen"].new_ids
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="6", strategy="sample", gen_t="0.0")
    assert "Temperature 0 means greedy: the most probable token every time." in texts(at, "caption")
    assert at.session_state["_gen"].new_ids == greedy.session_state["_gen"].new_ids
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="6", strategy="sample", gen_p="0.0")
    assert any(c.startswith("Top-p 0 keeps only the most probable token") for c in texts(at, "caption"))
    assert at.session_state["_gen"].new_ids == greedy.session_state["_gen"].new_ids


def test_seeded_sampling_is_reproducible_in_the_page():
    q = dict(model=GPT_LABEL, text=PROMPT, gen_n="8", strategy="sample", gen_t="1.2", gen_k="20", gen_seed="11")
    a, b = open_page(**q), open_page(**q)
    res, _ = direct("custom:gpt", PROMPT, generate.Settings("sample", 8, 1.2, 20, 1.0, 11))
    assert a.session_state["_gen"].new_ids == b.session_state["_gen"].new_ids == res.new_ids
    assert "survived the cut" in " ".join(texts(a, "markdown"))


def test_beam_search_tree_and_width_one():
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="5", strategy="beam", gen_width="3")
    res, _ = direct("custom:gpt", PROMPT, generate.Settings("beam", 5, beam_width=3))
    assert at.session_state["_gen"].new_ids == res.new_ids
    tree = spec(at, "gen_beam_tree")
    assert any(tr.get("mode") == "markers+text" for tr in tree["data"])
    assert any(m.startswith("Returned sequence: 5 tokens") for m in texts(at, "markdown"))
    one = open_page(model=GPT_LABEL, text=PROMPT, gen_n="5", strategy="beam", gen_width="1")
    greedy = open_page(model=GPT_LABEL, text=PROMPT, gen_n="5")
    assert one.session_state["_gen"].new_ids == greedy.session_state["_gen"].new_ids


def test_encoder_decoder_cross_attention_grows_per_step():
    at = open_page(model=T5_LABEL, text=PROMPT, gen_n="5")
    run = at.session_state["_gen"]
    z = _arr(spec(at, "gen_cross")["data"][0]["z"])
    assert z.shape == (len(run.steps), len(run.source_tokens))
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-4)
    at.slider(key="gen_step").set_value(2).run()
    assert _arr(spec(at, "gen_cross")["data"][0]["z"]).shape[0] == 2
    assert any(c.startswith("Cross-attention also keeps the K/V") for c in texts(at, "caption"))


def test_encoder_only_model_explains_and_switches_to_a_decoder():
    at = open_page()                                       # the default model is MiniLM (an encoder)
    assert any("so it does not generate" in i for i in texts(at, "info"))
    assert not at.get("plotly_chart")
    at.button(key="gen_switch").click().run()
    assert_ok(at)
    assert at.session_state["_gen"].new_ids                # a decoder generated


def test_long_prompt_is_truncated_with_a_note():
    long = " ".join(["word"] * 600)
    at = open_page(model=GPT_LABEL, text=long, gen_n="5")
    notes = [i for i in texts(at, "info") if i.startswith("The prompt was too long")]
    assert notes and "last 507 kept" in notes[0]
    assert len(at.session_state["_gen"].prompt_ids) == 507


def test_stop_keeps_what_was_produced():
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="10")
    run = at.session_state["_gen"]
    # as if the stop button had interrupted the run after 4 tokens
    run.steps, run.done = run.steps[:4], False
    at.session_state["_gen_stop"] = True
    at.run()
    assert_ok(at)
    assert "Stopped after 4 tokens: what was produced is kept below. Press \"Generate again\" to start over." \
        in texts(at, "warning")
    assert at.slider(key="gen_step").value == 4
    at.button(key="gen_again").click().run()
    assert len(at.session_state["_gen"].steps) == 10


def test_user_text_is_escaped():
    at = open_page(model=GPT_LABEL, text=EVIL, gen_n="3")
    for md in texts(at, "markdown"):
        assert "<script>" not in md and "<style>" not in md


def test_chinese_ui():
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="3", lang="中文")
    assert at.title[0].value == "逐个词元地生成"
    assert any(m.startswith("**生成结果：**") for m in texts(at, "markdown"))


@pytest.mark.parametrize("query", [dict(gen_n="999"), dict(gen_t="-3", strategy="sample"), dict(gen_width="0",
                                                                                                strategy="beam")])
def test_bad_link_values_fall_back_with_a_notice(query):
    at = open_page(model=GPT_LABEL, text=PROMPT, **query)
    assert at.session_state["_gen"].new_ids
    param = next(iter(query.keys() - {"strategy"}))
    assert f"The link's {param.replace('_', chr(92) + '_')}=` {query[param]} ` is not valid here; using the default " \
        "instead." in texts(at, "warning")


def test_repetition_compares_greedy_with_sampling():
    at = open_page(model=GPT_LABEL, text=PROMPT, gen_n="12")
    run = at.session_state["_gen"]
    rate = repetition.repetition_rate(run.prompt_ids + run.new_ids, 3, start=len(run.prompt_ids))
    assert f"{rate:.0%} of the generated tokens complete an 3-gram that already occurred (orange)." \
        in texts(at, "markdown")
    at.toggle(key="gen_compare_on").set_value(True).run()
    assert_ok(at)
    table = next(d.value for d in at.dataframe if "setting" in d.value.columns)
    assert list(table["setting"]) == ["greedy", "T=0.7, k=40", "T=1.0", "T=1.5"]
    _, tok = zoo.load("custom:gpt")
    assert table["repeated tokens"].iloc[0] == f"{rate:.0%}"                 # greedy = the run above
    assert table["generated text"].iloc[0] == tok.decode(run.new_ids)


TOY = "Toy: reverse · rope"
SPELL = "Toy: spell digits (encoder-decoder) · sinusoidal"


def test_shipped_checkpoint_offers_its_task_example_and_reverses_it():
    at = open_page(model=TOY, gen_n="8")                     # the sidebar still has the English sentence
    example = at.button(key="gen_example")
    assert "jggifhic=" in example.label
    example.click().run()
    assert_ok(at)
    assert at.text_area(key="text").value == "jggifhic="
    model, tok = zoo.load("toy:reverse-rope")
    assert tok.decode(at.session_state["_gen"].new_ids) == "cihfiggj"      # a trained model: the reversed input
    assert at.session_state["_gen"].steps[0].chosen_prob > 0.9


def test_shipped_encoder_decoder_spells_the_digits():
    at = open_page(model=SPELL, text="96685", gen_n="30")
    _, tok = zoo.load("toy:spell")
    run = at.session_state["_gen"]
    assert tok.decode(run.new_ids) == "nine six six eight five"
    assert run.new_ids[-1] == generate.eos_id(tok)
    assert "The model chose the end-of-sequence token, so generation ended there." in texts(at, "caption")
    z = _arr(spec(at, "gen_cross")["data"][0]["z"])
    assert z.shape == (len(run.steps), len(run.source_tokens))
    beam = open_page(model=SPELL, text="96685", gen_n="30", strategy="beam", gen_width="3")
    assert tok.decode(beam.session_state["_gen"].new_ids) == "nine six six eight five"

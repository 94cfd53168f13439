"""The beyond-softmax page's recurrent-family and long-memory sections through AppTest:
every variant with the model's head and with random vectors, in English and Chinese; the
recurrence-vs-sum differences shown are tiny; bad settings give a sentence."""
from __future__ import annotations

import numpy as np
import pytest

from tests.app.helpers import (EVIL, TEXT, TEXT_TOKENS, assert_escaped, assert_ok, chart_ids, everything_rendered,
                               heatmap_z, open_app, spec)

BEYOND = "app_pages/beyond.py"
N = len(TEXT_TOKENS)
SOURCES = ({"text": TEXT}, {"bx_src": "random", "bx_n": "24", "bx_d": "8", "bx_seed": "3"})
LANGS = ({}, {"lang": "中文"})


def shown_differences(at) -> list[float]:
    return [float(m.value) for m in at.metric]


def open_beyond(query: dict) -> object:
    at = open_app(query, page=BEYOND)
    assert_ok(at)
    return at


def assert_section(at, keys: list[str], source: dict, diffs: list[float] | None) -> None:
    """The section's charts are there (the softmax weights beside the first one for the model
    source only), its first map is n×n, and every difference shown is at most 1e-5."""
    charts = chart_ids(at)
    for key in keys:
        assert key in charts, (key, charts)
    model = "text" in source
    assert (f"{keys[0]}_soft" in charts) == model
    n = N if model else 24
    assert heatmap_z(spec(at, keys[0])).shape == (n, n)
    if diffs is not None:
        assert diffs and all(0 <= x <= 1e-5 for x in diffs), diffs


# --------------------------------------------------------------------------- the recurrent family

RECURRENT = {
    "retention": ["bxr_ret", "bxr_ret_norms", "bxr_ret_state"],
    "gated": ["bxr_gated", "bxr_gates", "bxr_gated_norms", "bxr_gated_state"],
    "rwkv": ["bxr_rwkv", "bxr_rwkv_norms", "bxr_rwkv_state"],
    "ssm": ["bxr_ssm", "bxr_delta", "bxr_ssm_norms", "bxr_ssm_state"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("form", RECURRENT)
def test_each_recurrent_form_runs_and_matches_its_unrolled_sum(form, source, lang):
    at = open_beyond({"bx_view": "recurrent", "bxr_form": form, **source, **lang})
    assert_section(at, RECURRENT[form], source, shown_differences(at))


def test_retention_chunks_and_its_sentence_for_a_chunk_longer_than_the_text():
    at = open_beyond({"bx_view": "recurrent", "bxr_chunk": "3", "text": TEXT})
    assert not at.info
    assert any(f"Chunks: **{-(-N // 3)}** (at most 3 positions" in m.value for m in at.markdown)
    at = open_beyond({"bx_view": "recurrent", "bxr_chunk": "100", "text": TEXT})
    assert any("one chunk" in i.value for i in at.info)
    assert all(x <= 1e-5 for x in shown_differences(at))
    at = open_beyond({"bx_view": "recurrent", "bxr_chunk": "100", "text": TEXT, "lang": "中文"})
    assert any("一个块" in i.value for i in at.info)


def test_retention_matrix_is_q_k_times_the_decay_on_random_vectors():
    from lab import recurrent
    from ui.serving.beyond import random_qkv
    src = random_qkv(24, 8, 3)
    at = open_beyond({"bx_view": "recurrent", "bxr_gamma": "0.9", **SOURCES[1]})
    want = recurrent.retention_forms(src.q, src.k, src.v, 0.9, 8).weights
    shown = heatmap_z(spec(at, "bxr_ret"))
    low = np.tril(np.ones_like(want, dtype=bool))
    np.testing.assert_allclose(shown[low], want[low], rtol=1e-4, atol=1e-5)
    assert np.isnan(shown[~low]).all()          # the future is blank: no recurrence reads it


def test_recurrent_state_size_sentence_counts_numbers():
    at = open_beyond({"bx_view": "recurrent", "bxr_form": "ssm", "bxr_state": "4", **SOURCES[1]})
    text = " ".join(m.value for m in at.markdown)
    assert "8 × 4 = **32** numbers" in text and "**384** numbers after these 24 positions" in text
    assert "From 2 positions on" in text


def test_recurrent_section_escapes_tokens():
    at = open_beyond({"bx_view": "recurrent", "bxr_form": "rwkv", "text": EVIL})
    assert_escaped(everything_rendered(at))


# --------------------------------------------------------------------------- long memory

LONG = {
    "xl": ["bxl_xl", "bxl_terms", "bxl_reach"],
    "infini": ["bxl_infini", "bxl_memory", "bxl_bytes"],
    "longnet": ["bxl_longnet", "bxl_pattern", "bxl_keys"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("part", LONG)
def test_each_long_memory_method_runs(part, source, lang):
    at = open_beyond({"bx_view": "long", "bxl_part": part, **source, **lang})
    # infini shows the gate first; XL shows a difference only with one segment (tested below)
    diffs = {"infini": shown_differences(at)[1:], "xl": None}.get(part, shown_differences(at))
    assert_section(at, LONG[part], source, diffs)


def test_xl_one_segment_equals_plain_attention_on_the_page():
    at = open_beyond({"bx_view": "long", "bxl_seg": "100", "text": TEXT})
    assert any("one segment" in i.value for i in at.info)
    assert shown_differences(at) and all(x <= 1e-5 for x in shown_differences(at))
    at = open_beyond({"bx_view": "long", "bxl_seg": "3", "text": TEXT})
    assert not at.info and not at.metric
    z = heatmap_z(spec(at, "bxl_xl"))
    from lab import long_memory
    np.testing.assert_array_equal(~np.isnan(z), long_memory.xl_mask(N, 3))
    np.testing.assert_allclose(np.nansum(z, axis=1), 1, atol=1e-5)


def test_xl_four_terms_and_reach_on_the_page():
    at = open_beyond({"bx_view": "long", "bxl_seg": "2", "bxl_layers": "5", "bxl_query": "5", **SOURCES[1]})
    bars = [tr for tr in spec(at, "bxl_terms")["data"] if tr["type"] == "bar"]
    assert len(bars) == 4 and all(len(b["x"]) == 4 for b in bars)   # query 5 reads positions 2..5
    reach = [tr for tr in spec(at, "bxl_reach")["data"] if tr["type"] == "bar"]
    from lab import long_memory
    from tests.app.helpers import decode
    assert decode(reach[0]["y"]).tolist() == long_memory.xl_reach(24, 2, 5)[0].tolist() == [4, 6, 8, 10, 12]
    at = open_beyond({"bx_view": "long", "bxl_seg": "4", "bxl_layers": "6", "text": TEXT})     # 8 tokens: counted on 28
    reach = [tr for tr in spec(at, "bxl_reach")["data"] if tr["type"] == "bar"]
    assert decode(reach[0]["y"]).tolist() == [8, 12, 16, 20, 24, 28]


def test_infini_memory_difference_and_the_gate():
    at = open_beyond({"bx_view": "long", "bxl_part": "infini", "bxl_beta": "2.0", "text": TEXT})
    gate, err = shown_differences(at)
    assert abs(gate - 1 / (1 + np.exp(-2.0))) < 1e-3 and err <= 1e-5
    assert any("**" in m.value and "numbers however long the text" in m.value for m in at.markdown)


@pytest.mark.parametrize("pairs, words, kind", [
    ("4:0", "dilation must be at least 1", "warning"),
    ("8 2", "not a pair", "warning"),
    ("4:1, 64:8", "longer than the text", "info"),
    ("8:2", "No pattern reads anything", "info"),
])
def test_longnet_bad_settings_give_a_sentence(pairs, words, kind):
    at = open_beyond({"bx_view": "long", "bxl_part": "longnet", "bxl_pairs": pairs, "text": TEXT})
    assert any(words in str(e.value) for e in getattr(at, kind)), [str(e.value) for e in getattr(at, kind)]


def test_longnet_sentence_in_chinese_and_mix_difference():
    at = open_beyond({"bx_view": "long", "bxl_part": "longnet", "bxl_pairs": "4:0", "text": TEXT, "lang": "中文"})
    assert any("这些设置无法计算" in w.value for w in at.warning)
    at = open_beyond({"bx_view": "long", "bxl_part": "longnet", "text": TEXT, "lang": "中文"})
    assert all(x <= 1e-5 for x in shown_differences(at))


def test_long_section_escapes_tokens():
    for part in LONG:
        at = open_beyond({"bx_view": "long", "bxl_part": part, "text": EVIL})
        assert_escaped(everything_rendered(at))

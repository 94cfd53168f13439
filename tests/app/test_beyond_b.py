"""The beyond-softmax page's memory, ternary and Mixer sections through AppTest: what they
show is what lab/kv_families.py, lab/ternary.py and lab/mixer.py compute."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from lab import mixer, ternary
from lab.positional import shuffle
from models.weights import zoo
from tests.app.helpers import DEFAULT_TOKENS, LLAMA_LABEL, chart_ids, decode, heatmap_z, open_app, spec

PAGE = "app_pages/beyond.py"
MODELS = {"minilm": None, "llama": LLAMA_LABEL}
SHAPES = {"minilm": dict(L=6, h=12, kv=12, dh=32, d=384), "llama": dict(L=2, h=4, kv=2, dh=16, d=64)}


def open_page(**query: str) -> AppTest:
    return open_app(query, PAGE)


def query(model: str, lang: str, **more: str) -> dict[str, str]:
    q = dict(more)
    if MODELS[model]:
        q["model"] = MODELS[model]
    if lang == "zh":
        q["lang"] = "中文"
    return q


def table(at: AppTest, i: int = 0) -> pd.DataFrame:
    return at.dataframe[i].value


def bytes_formula(family: str, n: int, b: int, g: int, w: int, L: int, h: int, kv: int, dh: int, d: int) -> int:
    """The bytes held at context n (written again here, independently of lab/)."""
    return {"mha": 2 * L * h * dh * b * n, "gqa": 2 * L * g * dh * b * n, "mqa": 2 * L * dh * b * n,
            "window": 2 * L * kv * dh * b * min(n, w), "yoco": 2 * kv * dh * b * ((L // 2) * min(n, w) + n),
            "retention": L * h * dh * dh * b, "rwkv": 5 * L * d * b, "mamba": L * 2 * d * (16 + 3) * b}[family]


# ---- memory per generated token ------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["minilm", "llama"])
def test_memory_chart_and_table_are_the_formulas(model, lang):
    at = open_page(**query(model, lang, bx_view="memory", bxm_hi="50000", bxm_dtype="fp32", bxm_window="1024"))
    assert "bxm_memory_chart" in chart_ids(at)
    fig = spec(at, "bxm_memory_chart")
    s = SHAPES[model]
    g = 3 if model == "minilm" else 2                     # default groups: nearest √12, the LLaMA model's own 2
    fams = ["mha", "gqa", "mqa", "yoco", "window", "retention", "rwkv", "mamba"]
    lines = [tr for tr in fig["data"] if tr.get("legendgroup") and tr.get("xaxis", "x") == "x"]
    assert len(lines) == len(fams)
    for fam, tr in zip(fams, lines):                      # the left panel: bytes held, every context
        n = decode(tr["x"]).astype(int)
        want = [bytes_formula(fam, int(c), 4, g, 1024, **s) for c in n]
        assert decode(tr["y"]).astype(np.int64).tolist() == want, fam
    df = table(at)
    assert len(df) == len(fams)
    for fam, (_, row) in zip(fams, df.iterrows()):        # the table at the longest context
        assert int(row.iloc[2]) == bytes_formula(fam, 50000, 4, g, 1024, **s), fam
        assert row.iloc[3] == pytest.approx(row.iloc[2] / bytes_formula("mha", 50000, 4, g, 1024, **s))
        assert int(row.iloc[1]) == bytes_formula(fam, 50001, 4, g, 1024, **s) - bytes_formula(
            fam, 50000, 4, g, 1024, **s), fam
    assert len(at.table) == 1 and len(at.table[0].value) == 7   # the impossible triangle


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("bad, word", [({"bxm_lo": "500", "bxm_hi": "20"}, "500"), ({"bxm_window": "0"}, "0")])
def test_bad_memory_settings_get_a_sentence(bad, word, lang):
    at = open_page(**query("minilm", lang, bx_view="memory", **bad))
    assert at.warning and word in at.warning[0].value
    assert "bxm_memory_chart" not in chart_ids(at)


def test_groups_that_do_not_divide_the_heads_leave_gqa_out():
    at = open_page(bx_view="memory", bxm_groups="5")
    assert any("5" in i.value and "12" in i.value for i in at.info)
    assert "bxm_memory_chart" in chart_ids(at) and len(table(at)) == 7


# ---- ternary weights -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model, key, matrix", [("minilm", "minilm", "W_out"), ("llama", "custom:llama", "W_gate")])
def test_ternary_shows_the_quantised_matrix_and_its_errors(model, key, matrix, lang):
    at = open_page(**query(model, lang, bx_view="ternary", bxm_layer="1", bxm_matrix=matrix, text="the cat sat on the mat"))
    assert "bxm_ternary_hist" in chart_ids(at)
    m, tok = zoo.load(key)
    w = ternary.weights(m, "self", 1, matrix)
    q = ternary.absmean(w)
    bars = [tr for tr in spec(at, "bxm_ternary_hist")["data"] if tr.get("type") == "bar"]
    assert decode(bars[0]["y"]).sum() == w.size
    assert np.allclose(decode(bars[1]["y"]), q.shares)
    ids = tok.encode("the cat sat on the mat").ids
    err = ternary.matrix_error(m, ids, "self", 1, matrix)
    shown = table(at, 0).iloc[:, 1].to_numpy(float)
    assert np.allclose(shown, [err.matrix_out, err.layer_out, err.final], rtol=1e-4)
    sizes = table(at, 1)
    assert sizes.iloc[:, 1].tolist() == pytest.approx([32, 16, np.log2(3), 2])
    assert sizes.iloc[0, 2] == 4 * w.size and sizes.iloc[0, 3] == 4 * sum(p.numel() for p in m.parameters())


# ---- MLP-Mixer vs attention ---------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["minilm", "llama"])
def test_mixer_matrix_stays_while_attention_moves(model, lang):
    q = query(model, lang, bx_view="mixer")
    plain = open_page(**q)
    moved = open_page(**q, bxm_shuffle="true", bxm_pseed="7")
    for at in (plain, moved):
        assert {"bxm_mix_attention", "bxm_mix_tokens"} <= set(chart_ids(at))
    a0, a1 = (heatmap_z(spec(at, "bxm_mix_attention")) for at in (plain, moved))
    m0, m1 = (heatmap_z(spec(at, "bxm_mix_tokens")) for at in (plain, moved))
    p = np.asarray(shuffle(len(a0), 7))
    assert np.array_equal(m0, m1)                              # the Mixer's matrix: the same
    assert np.allclose(a1, a0[np.ix_(p, p)], atol=1e-6)        # attention: moved with the tokens
    assert not np.allclose(a1, a0, atol=1e-3)
    assert np.allclose(m0, a0, atol=1e-6)                      # fitted to this head's weights


def test_mixer_on_random_vectors_and_a_random_matrix():
    at = open_page(bx_view="mixer", bx_src="random", bx_n="12", bxm_mix="random", bxm_shuffle="true")
    z = heatmap_z(spec(at, "bxm_mix_tokens"))
    assert np.allclose(z, mixer.random_token_mixing(12, 0), atol=1e-6)
    numbers = table(at).iloc[:, 1].to_numpy(float)
    assert numbers[0] < 1e-9 and numbers[3] > 1e-3           # attention moved along; the Mixer's output changed


def test_mixer_tokens_are_the_texts():
    at = open_page(bx_view="mixer")
    fig = spec(at, "bxm_mix_attention")
    assert len(heatmap_z(fig)) == len(DEFAULT_TOKENS)

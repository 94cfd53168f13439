"""The beyond page's retrieval section (ui/views/beyond_retrieval.py) through AppTest, in English
and Chinese: the neighbours' cosines are those of MiniLM embeddings computed here, best first;
the cross-attention figure's masked cells are RETRO's chunk rule written out here; bad input
is a sentence, not a traceback."""
from __future__ import annotations

import numpy as np
import pytest

from lab import retrieval
from models.weights import pretrained
from tests.app.helpers import EVIL, assert_ok, chart_ids, heatmap_z, open_app, spec

PAGE = "app_pages/beyond.py"
SENTENCE = "A time to be born and a time to die, a time to plant and a time to pluck up."


def open_section(**query: str):
    return open_app({"bx_view": "retrieval", **query}, PAGE)


def cosine_column(df) -> np.ndarray:
    return df[[c for c in df.columns if c in ("Cosine", "余弦相似度")][0]].to_numpy(float)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_neighbours_and_the_chunk_mask(lang):
    at = open_section(lang=lang, bx_rt_q=SENTENCE, bx_rt_k="4", bx_rt_m="4", bx_rt_nb="2")
    assert chart_ids(at) == ["bx_rt_cca"]
    heads = [h.value for h in at.main.subheader]
    assert len(heads) == 3 and heads[0].startswith("1 ·") and heads[2].startswith("3 ·")
    # 1. the k nearest chunks: best first, their cosines the dot products of MiniLM vectors computed here
    table = at.dataframe[0].value
    assert len(table) == 4
    cos = cosine_column(table)
    assert np.all(np.diff(cos) <= 0)
    chunk_col = table.columns[3]
    assert "a time to" in table[chunk_col].iloc[0]                  # Ecclesiastes 3
    model, tok = pretrained.load("minilm")
    texts = [s.replace(" / ", "\n") for s in table[chunk_col]]
    e = retrieval.embed_texts(model, tok, [SENTENCE, *texts])
    np.testing.assert_allclose(cos, e[1:] @ e[0], atol=1e-4)
    # 2. the cross-attention mask: the first m - 1 = 3 rows read nothing; the rest exactly RETRO's rule
    z = heatmap_z(spec(at, "bx_rt_cca"))
    n = len(tok.encode(SENTENCE).ids) - 2
    per_chunk = at.dataframe[1].value                  # one row per (your chunk, neighbour)
    chunk_ids = per_chunk[per_chunk.columns[0]].tolist()
    nb_texts = per_chunk[per_chunk.columns[-1]].tolist()
    order = list(dict.fromkeys(chunk_ids))
    widths = [sum(min(16, len(tok.encode(txt.replace(" / ", "\n"), add_special_tokens=False).ids))
                  for c, txt in zip(chunk_ids, nb_texts) if c == u) for u in order]
    assert len(order) == -(-n // 4) and z.shape == (n, sum(widths))
    reading = ~np.isnan(z)
    for i in range(n):
        for u in range(len(order)):
            cols = slice(sum(widths[:u]), sum(widths[:u + 1]))
            assert reading[i, cols].all() == (u * 4 + 3 <= i <= u * 4 + 6), (i, u)
            assert reading[i, cols].any() == reading[i, cols].all()
    assert not reading[:3].any()
    np.testing.assert_allclose(np.nansum(z[3:], axis=1), 1.0, atol=1e-3)
    notes = [m.value for m in at.main.markdown if "9, 12, 15, 18, 21, 24, 27, 30" in m.value]
    assert notes, "the note on the layer list 9, 12, 15 … 32 is missing"


def test_k_follows_the_slider():
    at = open_section(bx_rt_q=SENTENCE)
    at.slider(key="bx_rt_k").set_value(7).run()
    assert_ok(at)
    assert len(at.dataframe[0].value) == 7


def test_identity_weights_and_another_seed_change_only_the_weights():
    a = heatmap_z(spec(open_section(bx_rt_q=SENTENCE, bx_rt_seed="1"), "bx_rt_cca"))
    b = heatmap_z(spec(open_section(bx_rt_q=SENTENCE, bx_rt_w="identity"), "bx_rt_cca"))
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
    assert np.nanmax(np.abs(a - b)) > 1e-3


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_bad_input_is_a_sentence(lang):
    at = open_section(lang=lang, bx_rt_q="   ")
    assert any(i.value in ("Type a sentence to search the database.", "请输入一个句子来检索数据库。") for i in at.info)
    assert chart_ids(at) == []
    at = open_section(lang=lang, bx_rt_q="vanity", bx_rt_m="16")
    assert any("16" in i.value for i in at.info)                        # fewer tokens than m: said so
    at = open_section(lang=lang, bx_rt_q=EVIL, bx_rt_k="99", bx_rt_m="-3", bx_rt_w="nope")
    assert_ok(at)
    labels = " ".join(map(str, spec(at, "bx_rt_cca")["data"][0].get("y") or []))
    assert "<script" not in labels and "<b>" not in labels

"""viz_core.masks figures: shapes checked, labels escaped, masked cells marked."""
import numpy as np
import pytest

from viz_core import masks, walkthrough

EVIL = "<b>x</b>"


def test_mask_figure_marks_empty_rows_and_escapes_labels():
    m = np.array([[1, 0], [0, 0]], dtype=bool)
    fig = masks.mask_figure(m, ["a", EVIL])
    z = np.asarray(fig.data[0].z)
    assert z.tolist() == [[1, 0], [2, 2]]                      # row 1 has nothing: drawn as "empty"
    assert "&lt;b&gt;" in " ".join(fig.layout.yaxis.ticktext)
    assert EVIL not in str(fig.to_json())
    with pytest.raises(ValueError, match=r"\[q, k\]"):
        masks.mask_figure(np.ones(3, dtype=bool), ["a", "b", "c"])


def test_masked_scores_show_minus_infinity():
    s = np.arange(4, dtype=np.float32).reshape(2, 2)
    fig = masks.masked_scores_figure(s, np.array([[1, 0], [1, 1]], dtype=bool), ["a", "b"])
    z = np.asarray(fig.data[0].z, dtype=np.float32)
    assert np.isnan(z[0, 1]) and z[1, 1] == 3
    texts = [tr for tr in fig.data if tr.name == "neg_inf"]
    assert texts and list(texts[0].text) == [masks.NEG_INF]
    assert masks.NEG_INF in fig.data[1].hovertemplate             # the grey layer's hover says −∞
    with pytest.raises(ValueError, match="differ in shape"):
        masks.masked_scores_figure(s, np.ones((3, 3), dtype=bool), ["a", "b"])


def test_cost_chart_and_coverage():
    fig = masks.cost_chart([4, 8], {"full": [16, 64], "local": [10, 22]})
    assert [tr.name for tr in fig.data] == ["full", "local"] and fig.layout.yaxis.type == "log"
    with pytest.raises(ValueError, match="points"):
        masks.cost_chart([4, 8], {"full": [16]})
    reach = np.stack([np.eye(3, dtype=bool), np.ones((3, 3), dtype=bool)])
    cov = masks.coverage_chart(reach)
    assert np.allclose(np.asarray(cov.data[0].y), [1 / 3, 1.0])


def test_kv_sharing_figure_draws_one_line_per_query_head():
    fig = walkthrough.kv_sharing_figure([0, 0, 1, 1])
    lines = [tr for tr in fig.data if tr.mode == "lines"]
    assert len(lines) == 4
    kv = fig.data[-1]
    assert list(kv.text) == ["KV0", "KV1"]


def test_vector_figure_and_per_query_bars():
    fig = walkthrough.vector_figure({"q": np.ones(4), "k": np.zeros(4)})
    assert np.asarray(fig.data[0].z).shape == (2, 4)
    with pytest.raises(ValueError, match="same length"):
        walkthrough.vector_figure({"q": np.ones(4), "k": np.zeros(3)})
    bars = masks.per_query_bars(np.array([2, 0, 1]), ["a", "b", "c"])
    assert list(bars.data[0].marker.color) == [masks.ALLOWED, masks.EMPTY, masks.ALLOWED]

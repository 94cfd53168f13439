"""The positional lab's query–key geometry section through AppTest: it draws, a link
reopens it (model, layer, head), an out-of-range link value is clamped with a notice."""
from __future__ import annotations

import numpy as np

from lab import qk_geometry
from models.training.tasks import get_task
from models.weights import zoo
from tests.app.helpers import chart_ids, decode, open_app, spec

PAGE = "app_pages/positional.py"


def geometry(query: dict[str, str] | None = None):
    return open_app({"pe_view": "geometry", **(query or {})}, page=PAGE)


def points(fig: dict) -> np.ndarray:
    """The query and key markers' coordinates [2n, 2] (queries first), as the lab orders them."""
    q, k = [d for d in fig["data"] if d.get("mode") == "markers"]
    return np.concatenate([np.stack([decode(d["x"]), decode(d["y"])], 1) for d in (q, k)])


def test_geometry_section_draws_one_head_and_the_schemes():
    at = geometry()
    ids = chart_ids(at)
    assert ids[0] == "pe_g_chart" and {"pe_g_side_rope", "pe_g_side_none", "pe_g_side_sinusoidal"} <= set(ids)
    fig = spec(at, "pe_g_chart")
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("PC1 · ")
    assert fig["layout"]["xaxis"]["title"]["text"].endswith("%")
    captions = " ".join(c.value for c in at.caption)
    assert "after their rotation" in captions and "What to look for (RoPE)" in captions
    assert "What to look for (no PE)" in captions
    # layer 0: position is in q and k only for the schemes that put it there
    df = at.dataframe[0].value
    spread = dict(zip(df.iloc[:, 0], df.iloc[:, 2]))
    assert spread["none"] < 1e-5 and spread["ALiBi"] < 1e-5 and spread["T5 relative"] < 1e-5
    assert min(spread["sinusoidal"], spread["learned"], spread["RoPE"]) > 0.1
    assert all(0 < v <= 1 for v in df.iloc[:, 1])                  # the variance the panels show


def test_a_link_reopens_model_layer_and_head():
    at = geometry({"pe_gm": "toy:copy-rope", "pe_g_layer": "1", "pe_g_head": "3", "pe_g_norm": "False"})
    assert at.slider(key="pe_g_layer").value == 1 and at.slider(key="pe_g_head").value == 3
    model, _ = zoo.load("toy:copy-rope")
    g = qk_geometry.qk_geometry(model, get_task("copy").probe().ids, 1, 3, normalised=False, top_k=12)
    np.testing.assert_allclose(points(spec(at, "pe_g_chart")), g.coords, atol=1e-4)
    assert not at.warning


def test_an_out_of_range_head_is_clamped_with_a_notice():
    at = geometry({"pe_g_head": "99", "pe_g_blayer": "-3"})
    assert at.slider(key="pe_g_head").value == 0 and at.slider(key="pe_g_blayer").value == 0
    notes = " ".join(w.value for w in at.warning) + " ".join(i.value for i in at.info)
    assert "pe\\_g\\_head" in notes and "pe\\_g\\_blayer" in notes
    assert "pe_g_chart" in chart_ids(at)


def test_text_model_and_chinese():
    at = geometry({"pe_gm": "toy:verse-lm", "lang": "中文", "pe_g_probes": "2", "pe_gc": "token"})
    assert "pe_g_chart" in chart_ids(at)
    fig = spec(at, "pe_g_chart")
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("主成分1")
    assert any("观察要点（RoPE）" in c.value for c in at.caption)


def test_scheme_sets_offer_the_pe64_language_models():
    """The six character LMs trained identically but for their scheme (pe64-*) are a set,
    in POSITIONALS order, beside the per-task sets; the side by side reads them."""
    from ui.serving.positional import scheme_sets

    sets = scheme_sets()
    assert {"reverse", "copy", "pe64"} <= set(sets)
    assert sets["pe64"] == {s: f"toy:pe64-{s}" for s in ("none", "sinusoidal", "learned", "rope", "alibi",
                                                         "relative")}
    assert sets["reverse"]["rope"] == "toy:reverse-rope"
    at = geometry({"pe_gset": "pe64"})
    assert {"pe_g_side_rope", "pe_g_side_none", "pe_g_side_alibi"} <= set(chart_ids(at))

def test_hostile_and_blank_text():
    from tests.app.helpers import EVIL

    at = geometry({"pe_gm": "toy:verse-lm", "text": EVIL})
    hover = " ".join(h for d in spec(at, "pe_g_chart")["data"] for h in d.get("hovertext") or [])
    assert "&lt;" in hover and "<b>" not in hover and "<script" not in hover
    at = geometry({"pe_gm": "toy:verse-lm", "text": "   "})
    assert "pe_g_chart" not in chart_ids(at) and any("Type a sentence" in i.value for i in at.info)
    assert "pe_g_side_rope" in chart_ids(at)                  # the task checkpoints read their own probe

"""AppTest: the memory caption of the attention page and the memory budget (cut or
refused before the forward pass)."""
from __future__ import annotations

from tests.app.helpers import (ATTENTION, TEXT, TEXT_TOKENS, assert_no_exception, assert_ok, heatmap_z, instant_data,
                               open_app, spec)
from viz_core.attention_pack import unpack_attention

from ui import serving as loaders


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def _warnings(at) -> str:
    return "\n".join(w.value for w in at.warning)


def test_attention_page_shows_the_bytes_of_this_trace(monkeypatch):
    monkeypatch.delenv(loaders.BUDGET_ENV, raising=False)
    at = open_app({"text": TEXT})
    n = len(TEXT_TOKENS)
    shown = _captions(at)
    assert "Memory of this trace" in shown
    # 6 layers x 12 heads x n² x 4 B of patterns + one shared n x n bool mask, in MB
    held = (6 * 12 * n * n * 4 + n * n) / 1e6
    assert f"{held:.3f} MB held ({n} tokens" in shown
    assert f"6 × 12 × {n}² × 4 B = {6 * 12 * n * n * 4 / 1e6:.3f} MB" in shown
    assert f"{loaders.DEFAULT_TRACE_BUDGET_MB} MB" in shown
    at.sidebar.radio(key="lang").set_value("中文").run()
    assert_ok(at)
    assert "本次记录占用内存" in _captions(at)


def test_a_text_over_the_budget_is_cut_with_a_warning(monkeypatch):
    text = "the cat sat on the mat " * 12
    model, tok = loaders.load_model("minilm", "cpu")
    n = len(loaders.encode(tok, model, text).ids)
    budget = loaders.pass_bytes(model, 20, None, ["*.hook_pattern", "*.hook_mask"])
    monkeypatch.setenv(loaders.BUDGET_ENV, str(budget / 1e6))
    at = open_app({"text": text})
    warned = _warnings(at)
    assert f"This text has {n} tokens" in warned and "The views show the first 20 tokens" in warned
    assert not any("the model's limit" in i.value for i in at.info)   # a budget cut is not the model's limit
    payload = instant_data(at)["payload"]            # the default view's payload: the cut text only
    assert (payload["n_q"], payload["n_k"]) == (20, 20) and len(payload["q_tokens"]) == 20
    assert unpack_attention(payload)[0].shape[2:] == (20, 20)
    at.radio(key="view__en").set_value("heads").run()
    assert_ok(at)
    z = heatmap_z(spec(at, "head_map"))
    assert z.shape == (20, 20)


def test_a_model_too_big_for_the_budget_is_refused_with_a_message(monkeypatch):
    monkeypatch.setenv(loaders.BUDGET_ENV, "0.001")                 # 1 kB: not even one token fits
    at = open_app({"text": TEXT}, page=None)
    at.switch_page(ATTENTION).run()
    assert_no_exception(at)
    errors = "\n".join(e.value for e in at.error)
    assert "too large for this server's memory budget" in errors
    assert not at.get("plotly_chart")

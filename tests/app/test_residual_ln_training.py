"""The residual page's *Training: Pre-LN vs Post-LN* view (ui/views/residual_ln_training.py) in
English and Chinese: the four loss curves and the gradient norms read from the shipped file,
the live residual-path gradients of the reverse twins equal to lab/ln_training.py's on the
checkpoints, the two notes; the loaded model on the reader's text (a decoder) or the sentence
saying it needs one (the default encoder)."""
from __future__ import annotations

import numpy as np
import pytest

from lab import ln_training
from models.training.tasks import get_task
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint
from tests.app.helpers import GPT_LABEL, TEXT, assert_ok, chart_ids, decode, open_app, spec
from tests.app.language_leak import leaks, screen

RESIDUAL = "app_pages/residual.py"
CHARTS = ["lnt_loss", "lnt_lr", "lnt_grads", "lnt_res_pre", "lnt_res_post", "lnt_carried"]


def boxes(at) -> list[str]:
    return [m.value for m in at.main.markdown if "**" in m.value and ":material/lightbulb:" in m.value]


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_training_view(lang):
    at = open_app({"text": TEXT, "lang": lang, "rview": "training"}, RESIDUAL)
    assert chart_ids(at) == CHARTS                       # the default MiniLM is an encoder: no text chart
    assert any(i.value and ("decoder" in i.value or "解码器" in i.value) for i in at.main.info)
    res = ln_training.load_results()
    loss = spec(at, "lnt_loss")["data"]
    assert len(loss) == 4
    pre0 = res.run("pre", False)
    np.testing.assert_allclose(decode(loss[0]["y"]), ln_training.smooth(pre0.loss), rtol=1e-6)
    grads = spec(at, "lnt_grads")["data"]
    assert len(grads) == 4
    np.testing.assert_allclose(decode(grads[0]["y"]), pre0.grad_norms[-1], rtol=1e-6)
    # the live part: the shipped pre-LN twin on its task's example, recomputed here
    model, _, _ = load_checkpoint(CHECKPOINT_DIR / "reverse-sinusoidal.json")
    ex = get_task("reverse").probe()
    g = ln_training.residual_gradients(model, ex.ids, ex.answer)
    np.testing.assert_allclose(decode(spec(at, "lnt_res_pre")["data"][0]["y"]), g.total, rtol=1e-5)
    np.testing.assert_allclose(decode(spec(at, "lnt_carried")["data"][0]["y"]), 1.0, rtol=1e-5)
    assert len(boxes(at)) == 2                            # the +1 note and the warm-up note
    # at step 0 the runs with and without warm-up are the same weights: one line per placement
    radio = next(r for r in at.radio if r.options[0] in ("0 (initial weights)", "0（初始权重）"))
    radio.set_value(radio.options[0]).run()
    assert_ok(at)
    assert len(spec(at, "lnt_grads")["data"]) == 2


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_initial_weights_and_a_decoder_on_the_text(lang):
    at = open_app({"text": TEXT, "lang": lang, "rview": "training", "lnt_w": "initial", "model": GPT_LABEL}, RESIDUAL)
    assert chart_ids(at) == [*CHARTS, "lnt_res_text"]
    text = spec(at, "lnt_res_text")["data"]
    assert len(text) == 3 and all(np.all(decode(s["y"]) > 0) for s in text)
    code = "zh" if lang == "中文" else "en"
    assert leaks([screen(at, "residual/training")], code) == []      # the decoder's part speaks the language too


def test_bad_step_in_the_link():
    at = open_app({"rview": "training", "lnt_step": "7"}, RESIDUAL)      # not a measured step: a notice, no error
    assert "lnt_grads" in chart_ids(at)

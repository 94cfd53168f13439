"""The tokens page's Pairing (CLIP-style) section (ui/views/tokens_pairing.py) in English and
Chinese: the towers' zero-shot accuracy beside chance and the logistic regression (computed),
a batch's similarity matrix with the true pairs on the diagonal, its contrastive loss written
out and equal to the lab's, the notes' "mixed" corrected, zero-shot of a held-out digit by the
captions of either language; uploads good and bad, each bad one a sentence."""
from __future__ import annotations

import io
import numpy as np
import pytest

from lab import pairing
from tests.app.helpers import assert_ok, chart_ids, open_app, spec

PAGE = "app_pages/tokens.py"
CODE = {"English": "en", "中文": "zh"}


def markdown(at) -> str:
    return "\n".join(m.value for m in at.main.markdown)


def shown(share: float) -> str:
    """A share as the section's table shows it (markdown-escaped, without the % sign)."""
    return f"{share:.1%}".replace("%", "").replace(".", "\\.")


def png(image: np.ndarray) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray((image * 255).astype(np.uint8)).save(buf, format="PNG")
    return buf.getvalue()


def ticks(fig: dict, axis: str) -> list[str]:
    return fig["layout"][axis]["ticktext"]


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_batch_loss_and_zero_shot(lang):
    code = CODE[lang]
    at = open_app({"lang": lang, "tk_view": "pairing", "tpr_seed": "5", "tpr_i": "7"}, PAGE)
    assert chart_ids(at) == ["tpr_pictures", "tpr_similarity", "tpr_digit_picture", "tpr_probs"]
    model, meta = pairing.load()
    images, labels = pairing.held_out()
    md = markdown(at)
    base = pairing.baselines()
    for lg in pairing.LANGS:                                          # the accuracies shown are computed
        assert shown(pairing.accuracy(model, images, labels, lg)) in md
    assert shown(base["logreg"]) in md and shown(0.1) in md
    b = pairing.batch(model, images, labels, 5, code)                 # captions follow the UI language
    sim = spec(at, "tpr_similarity")
    assert ticks(sim, "xaxis") == b["captions"]
    parts = pairing.loss_parts(b["sim"], b["scale"])
    assert f"{parts['loss']:.4f}".replace(".", "\\.") in md or f"{parts['loss']:.4f}" in md
    assert "KOSMOS-1" in md                                           # the note on the notes' "mixed"
    probs = pairing.zero_shot(model, images[7], code)[0]
    bars = next(tr for tr in spec(at, "tpr_probs")["data"] if tr["type"] == "bar")
    assert bars["x"] == list(pairing.CAPTIONS[code])
    best = pairing.CAPTIONS[code][int(probs.argmax())]
    assert best in md
    # the other language's captions, another batch
    at.radio(key=f"tpr_lang__{code}").set_value("zh" if code == "en" else "en").run()
    assert_ok(at)
    other = "zh" if code == "en" else "en"
    assert ticks(spec(at, "tpr_similarity"), "xaxis") == pairing.batch(model, images, labels, 5, other)["captions"]
    at.number_input(key="tpr_seed").set_value(11).run()
    at.number_input(key="tpr_i").set_value(100).run()
    assert_ok(at)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_uploads_good_and_bad(lang):
    at = open_app({"lang": lang, "tk_view": "pairing", "tpr_src": "upload"}, PAGE)
    assert at.info and "tpr_probs" not in chart_ids(at)              # nothing chosen yet: one sentence
    images, labels = pairing.held_out()
    paper = 1.0 - np.kron(images[0], np.ones((10, 10), dtype=np.float32))     # dark ink on white, 80×80
    at.file_uploader(key="tpr_upload").set_value(("seven.png", png(paper), "image/png")).run()
    assert_ok(at)
    assert "tpr_probs" in chart_ids(at)
    assert any(w in c.value for c in at.main.caption for w in ("inverted", "反色"))
    for name, data, word in (("x.png", b"GIF89 nothing", ("not a picture", "不是能读取的图片")),
                             ("dot.png", png(np.ones((1, 1))), ("1×1", "1×1"))):
        at.file_uploader(key="tpr_upload").set_value((name, data, "image/png")).run()
        assert_ok(at)
        assert at.warning and any(w in at.warning[0].value for w in word), (name, at.warning[0].value)
        assert "tpr_probs" not in chart_ids(at)

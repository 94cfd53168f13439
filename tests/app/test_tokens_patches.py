"""The tokens page's Images (ViT) section (ui/views/tokens_patches.py) in English and Chinese:
the digit cut into patches, the sequence, the projection equal to a stride-P convolution, the
notes' CNN corrected, the ViT's held-out accuracy beside its baselines, attention from [CLS]
per head and as rollout, the shuffle test; uploads good and bad, each bad one a sentence."""
from __future__ import annotations

import io
import re

import pytest

from lab import patches
from tests.app.helpers import assert_ok, chart_ids, open_app, spec

PAGE = "app_pages/tokens.py"


def markdown(at) -> str:
    return "\n".join(m.value for m in at.main.markdown)


def shown(share: float) -> str:
    """A share as the section's table shows it (markdown-escaped, without the % sign)."""
    return f"{share:.1%}".replace("%", "").replace(".", "\\.")


def png(w: int, h: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.linear_gradient("L").resize((w, h)).save(buf, format="PNG")
    return buf.getvalue()


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_digit_patches_vit_and_shuffle(lang):
    at = open_app({"lang": lang, "tk_view": "images", "tim_i": "3"}, PAGE)
    assert chart_ids(at) == ["tim_picture", "tim_order", "tim_sequence", "tim_attention", "tim_shuffle"]
    heat = [tr for tr in spec(at, "tim_attention")["data"] if tr["type"] == "heatmap"]
    assert len(heat) == 2 * 4 + 1                                    # 2 layers × 4 heads + rollout
    md = markdown(at)
    assert "16 × 4" in md and "17 × 32" in md                         # the shapes: 16 patches of 2×2, d = 32
    boxes = [m for m in at.main.markdown if "CNN" in m.value]
    assert boxes, "the note on the notes' CNN is missing"
    caption = " ".join(c.value for c in at.main.caption)
    diff = re.search(r"\*\*([0-9.e+-]+)\*\*", caption)
    assert diff and float(diff.group(1)) < 1e-5                       # linear map == conv2d, stride P
    images, labels = patches.held_out()
    for stem in patches.STEMS.values():                               # the accuracies shown are computed
        model, _ = patches.load_vit(stem)
        assert shown(patches.accuracy(model, images, labels)) in md
    base = patches.baselines()
    assert shown(base["logreg"]) in md and shown(base["majority"]) in md
    at.selectbox(key=f"tim_q__{'zh' if lang == '中文' else 'en'}").set_value("5").run()
    at.number_input(key="tim_seed").set_value(7).run()
    assert_ok(at)
    at.select_slider(key="tim_p").set_value(4).run()
    assert_ok(at)
    assert "4 × 16" in markdown(at)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_uploads_good_and_bad(lang):
    at = open_app({"lang": lang, "tk_view": "images", "tim_src": "upload"}, PAGE)
    assert at.info and not chart_ids(at)                              # nothing chosen yet: one sentence
    at.file_uploader(key="tim_upload").set_value(("photo.png", png(600, 300), "image/png")).run()
    assert_ok(at)
    assert "tim_picture" in chart_ids(at)
    assert any("600" in c.value for c in at.main.caption)             # shrunk, and said so
    for name, data, word in (("x.png", b"GIF89 nothing", ("not a picture", "不是能读取的图片")),
                             ("dot.png", png(1, 1), ("1×1", "1×1")), ("long.png", png(5000, 2), ("4096", "4096"))):
        at.file_uploader(key="tim_upload").set_value((name, data, "image/png")).run()
        assert_ok(at)
        assert at.warning and any(w in at.warning[0].value for w in word), (name, at.warning[0].value)
        assert not chart_ids(at)

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
    assert chart_ids(at) == ["tim_picture", "tim_order", "tim_sequence", "tim_pos_learned", "tim_pos_sincos2d",
                             "tim_attention", "tim_shuffle"]
    sims = [tr for tr in spec(at, "tim_pos_sincos2d")["data"] if tr["type"] == "heatmap"]
    assert len(sims) == 16                                           # one grid per patch
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
    at.radio(key=f"tim_vit__{'zh' if lang == '中文' else 'en'}").set_value("sincos2d").run()
    assert_ok(at)
    assert "tim_attention" in chart_ids(at)
    at.select_slider(key="tim_p").set_value(4).run()
    assert_ok(at)
    assert "4 × 16" in markdown(at)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_live_training_replaces_the_model_for_this_session_only(lang):
    """Train the sin-cos ViT for 50 steps: its held-out accuracy (the same as the lab's own run
    of the same recipe) replaces the shipped one in the table; the shipped model is untouched;
    "back to the shipped models" restores the shipped number."""
    at = open_app({"lang": lang, "tk_view": "images", "tim_i": "3"}, PAGE)
    images, labels = patches.held_out()
    shipped, _ = patches.load_vit(patches.STEMS["sincos2d"])
    before = patches.accuracy(shipped, images, labels)
    assert shown(before) in markdown(at)
    at.radio(key=f"tim_live_pos__{'zh' if lang == '中文' else 'en'}").set_value("sincos2d")
    at.slider(key="tim_live_steps").set_value(50)
    at.button(key="tim_live_go").click().run()
    assert_ok(at)
    want = patches.train_vit("sincos2d", seed=0, steps=50, batch=64, lr=3e-3).accuracy
    assert at.success and shown(want).replace("\\", "") in at.success[0].value.replace("\\", "")
    assert shown(want) in markdown(at) and ("50" in markdown(at))
    again = open_app({"lang": lang, "tk_view": "images", "tim_i": "3"}, PAGE)   # another session: shipped
    assert shown(before) in markdown(again) and not again.success
    at.button(key="tim_live_reset").click().run()
    assert_ok(at)
    assert not at.success and shown(before) in markdown(at)


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


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_a_hugging_face_vit_folder_on_an_uploaded_photo(lang, tmp_path):
    """A tiny random ViTForImageClassification saved to a folder (nothing downloaded): its top-5
    labels on the uploaded photo are transformers' own; a folder that is not a ViT is one sentence."""
    import torch
    from PIL import Image
    from transformers import ViTConfig, ViTForImageClassification, ViTImageProcessor

    cfg = ViTConfig(image_size=32, patch_size=8, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=37, num_labels=6, id2label={i: f"label{i}" for i in range(6)})
    torch.manual_seed(0)
    hf = ViTForImageClassification(cfg).eval()
    hf.save_pretrained(tmp_path / "vit")
    ViTImageProcessor(size={"height": 32, "width": 32}).save_pretrained(tmp_path / "vit")
    photo = png(64, 48)
    at = open_app({"lang": lang, "tk_view": "images", "tim_src": "upload"}, PAGE)
    at.file_uploader(key="tim_upload").set_value(("photo.png", photo, "image/png")).run()
    at.text_input(key="tim_hf_source").input(str(tmp_path / "vit")).run()
    at.button(key="tim_hf_go").click().run()
    assert_ok(at)
    assert {"tim_hf_photo", "tim_hf_heads"} <= set(chart_ids(at))
    pixels = ViTImageProcessor(size={"height": 32, "width": 32})(
        images=Image.open(io.BytesIO(photo)).convert("RGB"), return_tensors="pt")["pixel_values"]
    with torch.no_grad():
        probs = hf(pixel_values=pixels).logits[0].softmax(-1)
    top = probs.topk(5)
    md = markdown(at)
    for p_ in top.values:
        assert shown(float(p_)) in md
    order = [md.index(f"label{int(i)}") for i in top.indices]
    assert order == sorted(order)                                    # most likely first
    heads = [tr for tr in spec(at, "tim_hf_heads")["data"] if tr["type"] == "heatmap"]
    assert len(heads) == 4                                            # the 4 heads of the chosen layer
    from tests.app import language_leak

    code = "zh" if lang == "中文" else "en"
    found = language_leak.leaks([language_leak.screen(at, "hf vit")], code)
    assert not [f for f in found if "label" not in f], found          # the model's own labels are its words
    at.text_input(key="tim_hf_source").input(str(tmp_path)).run()    # no config.json there
    at.button(key="tim_hf_go").click().run()
    assert_ok(at)
    assert at.warning and "tim_hf_heads" not in chart_ids(at)

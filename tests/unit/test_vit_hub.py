"""A Hugging Face ViT folder on a photo (lab/vit_hub.py), with tiny random transformers models
saved to a temporary folder (nothing downloaded): the attention from [CLS], the rollout and
the top-5 labels equal transformers' own run on the processor's pixels; each bad folder is a
Refused with its reason, before a weight is read."""
from __future__ import annotations

import io
import json
import shutil

import numpy as np
import pytest
import torch

from lab import attention, vit_hub
from models.errors import Refused


def png(w: int = 50, h: int = 40) -> bytes:
    from PIL import Image

    rng = np.random.default_rng(0)
    buf = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (h, w, 3), dtype=np.uint8)).save(buf, format="PNG")
    return buf.getvalue()


def save_tiny(folder, head: bool = True, labels: int = 7) -> torch.nn.Module:
    from transformers import ViTConfig, ViTForImageClassification, ViTImageProcessor, ViTModel

    cfg = ViTConfig(image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=37, num_labels=labels,
                    id2label={i: f"thing {i}" for i in range(labels)}, attn_implementation="eager")
    torch.manual_seed(0)
    hf = (ViTForImageClassification(cfg) if head else ViTModel(cfg, add_pooling_layer=False)).eval()
    hf.save_pretrained(folder)
    ViTImageProcessor(size={"height": 32, "width": 32}).save_pretrained(folder)
    return hf


@pytest.mark.parametrize("head", [True, False])
def test_attention_and_labels_equal_transformers(tmp_path, head):
    hf = save_tiny(tmp_path, head)
    vit = vit_hub.load_folder(tmp_path)
    photo = vit_hub.read_photo(png())
    seen = vit_hub.look(vit, photo)
    pixels = vit.processor(images=photo, return_tensors="pt")["pixel_values"]
    with torch.no_grad():
        ref = hf(pixel_values=pixels, output_attentions=True)
    att = np.stack([a[0].numpy() for a in ref.attentions])                 # [layer, head, q, k]
    np.testing.assert_allclose(seen["heads"], att[:, :, 0, 1:].reshape(2, 4, 4, 4), atol=1e-6)
    np.testing.assert_allclose(seen["cls"], att[:, :, 0, 0], atol=1e-6)
    np.testing.assert_allclose(seen["rollout"], attention.rollout(att)[-1][0, 1:].reshape(4, 4), atol=1e-6)
    # the processor's pixels, the normalisation undone by hand: (x - 0.5) / 0.5 back to x
    np.testing.assert_allclose(seen["pixels"], pixels[0].permute(1, 2, 0).numpy() * 0.5 + 0.5, atol=1e-6)
    if head:
        probs = ref.logits[0].softmax(-1)
        want = [(f"thing {int(i)}", float(p)) for p, i in zip(*probs.topk(5))]
        assert [n for n, _ in seen["top"]] == [n for n, _ in want]
        np.testing.assert_allclose([p for _, p in seen["top"]], [p for _, p in want], atol=1e-6)
    else:
        assert seen["top"] is None


def test_lit_scales_each_patch_by_its_weight():
    pixels = np.ones((4, 4, 3))
    w = np.array([[1.0, 0.5], [0.0, 0.25]])
    out = vit_hub.lit(pixels, w)
    assert out.shape == (4, 4) and out[0, 0] == 1.0 and out[0, 3] == 0.5 and out[3, 0] == 0.0 and out[3, 3] == 0.25


def refusal(folder) -> str:
    with pytest.raises(Refused) as e:
        vit_hub.load_folder(folder)
    assert "\n" not in str(e.value) and "Traceback" not in str(e.value)
    return e.value.reason


def test_bad_folders_are_refused(tmp_path):
    assert refusal(tmp_path / "nowhere") == "not_folder"
    assert refusal(tmp_path) == "no_config"
    good = tmp_path / "good"
    save_tiny(good)

    def variant(name, change):
        folder = tmp_path / name
        shutil.copytree(good, folder)
        change(folder)
        return refusal(folder)

    def config(**edits):
        def change(folder):
            doc = json.loads((folder / "config.json").read_text())
            (folder / "config.json").write_text(json.dumps({**doc, **edits}))
        return change

    assert variant("bert", config(model_type="bert")) == "not_vit"
    assert variant("relu2", config(hidden_act="relu")) == "vit_unsupported"
    assert variant("no_weights", lambda f: (f / "model.safetensors").unlink()) == "vit_missing_file"
    assert variant("no_processor", lambda f: (f / "preprocessor_config.json").unlink()) == "vit_missing_file"
    assert variant("junk", lambda f: (f / "model.safetensors").write_bytes(b"\x00" * 20)) == "weights_corrupt"
    assert variant("wider", config(hidden_size=64)) == "weights_shape"
    assert variant("nonsense", config(hidden_size="wide")) == "vit_config"
    assert variant("huge", config(hidden_size=65536, intermediate_size=262144, num_hidden_layers=96)) == "model_too_big"
    assert variant("bad_proc", lambda f: (f / "preprocessor_config.json").write_text("[1, 2")) == "vit_processor"
    assert variant("bad_proc2", lambda f: (f / "preprocessor_config.json").write_text('{"size": "big"}')) \
        == "vit_processor"


def test_a_bad_photo_is_refused_as_the_grey_reader_refuses_it():
    from lab import patches

    with pytest.raises(patches.BadImage):
        vit_hub.read_photo(b"not a picture")
    assert vit_hub.read_photo(png(3, 5)).size == (3, 5)


def test_a_hub_name_offline_is_refused_before_anything_is_asked(monkeypatch):
    from models.weights import hub

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hub, "reachable", lambda *a, **k: pytest.fail("the hub was asked while offline"))
    with pytest.raises(Refused) as e:
        vit_hub.fetch("google/vit-base-patch16-224")
    assert e.value.reason == "offline"


def test_the_config_alone_says_no_to_a_huge_or_foreign_model():
    with pytest.raises(Refused) as e:
        vit_hub.check_config({"model_type": "vit", "hidden_size": 65536, "num_hidden_layers": 96,
                              "num_attention_heads": 16, "intermediate_size": 262144})
    assert e.value.reason == "model_too_big"
    with pytest.raises(Refused) as e:
        vit_hub.check_config({"model_type": "deit"})
    assert e.value.reason == "not_vit"

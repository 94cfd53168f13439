"""Doors of the Hugging Face ViT on the reader's photo (lab/vit_hub.py, the tokens page's
Images section): the model folder — a tiny random ViTForImageClassification saved with
`save_pretrained`, then broken in its config.json (a value changed to anything, another
model_type, its bytes), its safetensors weights (header, data, a lying header), its
preprocessor_config.json (a value, its bytes), or a file missing — gives a model that
fits the budget and reads a photo, or a Refused with one sentence; and any bytes as the
photo give an RGB picture or a BadImage."""
from __future__ import annotations

import functools
import io
import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lab import patches, vit_hub
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import examples
from tests.fuzz.props import check_model_fits, run_door
from tests.fuzz.test_image_upload import pictures

FILES = ("config.json", "model.safetensors", "preprocessor_config.json")


@functools.cache
def tiny() -> dict[str, bytes]:
    import torch
    from transformers import ViTConfig, ViTForImageClassification, ViTImageProcessor

    cfg = ViTConfig(image_size=16, patch_size=8, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                    intermediate_size=20, num_labels=3)
    torch.manual_seed(0)
    with tempfile.TemporaryDirectory() as d:
        ViTForImageClassification(cfg).save_pretrained(d)
        ViTImageProcessor(size={"height": 16, "width": 16}).save_pretrained(d)
        return {name: (Path(d) / name).read_bytes() for name in FILES}


@st.composite
def folders(draw) -> tuple[str, dict[str, bytes]]:
    files = dict(tiny())
    part = draw(st.sampled_from(["config", "value", "model_type", "config bytes", "weights", "processor",
                                 "processor bytes", "missing", "none"]))
    hf = json.loads(files["config.json"])
    if part == "config":
        hf = artefacts.mutate_value(draw, hf)
    elif part == "value":
        hf[draw(st.sampled_from(sorted(hf)))] = draw(st.one_of(artefacts.NUMBERS, artefacts.JSON, st.integers(0, 200)))
    elif part == "model_type":
        hf["model_type"] = draw(st.one_of(st.sampled_from(["bert", "", None, 7, ["vit"], "deit"]), artefacts.ODD_TEXT))
    files["config.json"] = json.dumps(hf, allow_nan=True).encode()
    if part == "config bytes":
        files["config.json"] = artefacts.mutate_bytes(draw, files["config.json"])
    elif part == "weights":
        files["model.safetensors"] = draw(artefacts.safetensors_bytes(files["model.safetensors"]))
    elif part == "processor":
        doc = json.loads(files["preprocessor_config.json"])
        files["preprocessor_config.json"] = json.dumps(artefacts.mutate_value(draw, doc), allow_nan=True).encode()
    elif part == "processor bytes":
        files["preprocessor_config.json"] = artefacts.mutate_bytes(draw, files["preprocessor_config.json"])
    elif part == "missing":
        del files[draw(st.sampled_from(FILES))]
    return part, files


def photo() -> object:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (10, 200, 90)).save(buf, format="PNG")
    return vit_hub.read_photo(buf.getvalue())


@examples("vit_folder")
@given(folders())
def test_vit_folder(case):
    part, files = case
    with tempfile.TemporaryDirectory() as d:
        for name, data in files.items():
            (Path(d) / name).write_bytes(data)

        def run():
            vit = vit_hub.load_folder(d)
            return vit, vit_hub.look(vit, photo())

        result = run_door("vit_folder", run, temp_paths=(d,), what=part)
    if isinstance(result, Exception):
        return
    vit, seen = result
    check_model_fits(vit.model.body, 64)
    assert seen["rollout"].shape == (vit.grid, vit.grid)


@examples("vit_photo")
@given(pictures())
def test_vit_photo(case):
    how, data = case
    result = run_door("vit_photo", lambda: vit_hub.read_photo(data), allow=(patches.BadImage,), what=how)
    if not isinstance(result, patches.BadImage):
        assert result.mode == "RGB" and min(result.size) >= 2 and max(result.size) <= patches.MAX_SIDE

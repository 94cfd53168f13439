"""A Hugging Face ViT (the `vit` family: google/vit-base-patch16-224 and its kin) looking at the
reader's photo: the folder checked before a tensor is read, its weights put into our own ViT
(lab/patches.py `from_hf_vit`: our Transformer, their numbers), the photo prepared by
transformers' own `ViTImageProcessor` (offline), and what the section draws: the attention
from [CLS] to every patch in each layer and head, the rollout through all layers, and the
five most likely labels when the model has a classifier head (its config's id2label).

The folder's doors (docs/hostile-files.md): config.json read by the project's reader
(`models.weights.files.read_hf_config`: size and JSON checked), `model_type` must be "vit",
the model sized from the config against the server's budget (`models.weights.safety.
check_model`) and the safetensors header checked (every tensor named, float, the right
shape, no more data than the config needs) before any weight is read; the preprocessor's
JSON read with the same limits and only its known keys passed on. Every refusal is a
`models.errors.Refused` with a reason code and one sentence.
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import torch

from models import TransformerConfig
from models.errors import Refused
from models.weights import safety
from models.weights.files import read_hf_config

from . import attention, patches

WEIGHTS = "model.safetensors"
PROCESSOR = "preprocessor_config.json"
PROCESSOR_KEYS = ("do_resize", "size", "resample", "do_rescale", "rescale_factor", "do_normalize", "image_mean",
                  "image_std", "do_convert_rgb")
TOP = 5


@dataclass
class HubViT:
    model: patches.ViT
    processor: Any                   # transformers.ViTImageProcessor
    labels: dict[int, str] | None    # id2label when the model has a classifier head
    name: str                        # the folder's name
    grid: int                        # patches per side


def body_config(hf: dict, head: bool) -> TransformerConfig:
    """Our Transformer's config for a ViT config.json (as `from_hf_vit` builds it), for sizing."""
    try:
        d, layers, heads = int(hf["hidden_size"]), int(hf["num_hidden_layers"]), int(hf["num_attention_heads"])
        image, patch = int(hf.get("image_size", 224)), int(hf.get("patch_size", 16))
        labels = len(hf.get("id2label") or {}) or int(hf.get("num_labels", 2))
        return TransformerConfig(arch="encoder", vocab_size=labels if head else 1, d_model=d, n_layers=layers,
                                 n_heads=heads, d_ff=int(hf["intermediate_size"]),
                                 max_len=(image // patch) ** 2 + 1, positional="learned", norm="layernorm",
                                 norm_position="pre", activation="gelu", tie_embeddings=False, unembed_bias=head,
                                 output="logits" if head else "hidden")
    except (KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError) as e:
        if isinstance(e, Refused):
            raise
        raise Refused("vit_config", "This config.json does not describe a ViT that can be read.") from None


def check_config(hf: dict, head: bool = True) -> int:
    """A config.json's checks alone: a ViT this code reads, within the server's budget (its
    float32 bytes returned); a Refused otherwise."""
    if hf.get("model_type") != "vit":
        raise Refused("not_vit", "This folder holds no ViT (its config.json's model_type is not \"vit\").",
                      kind=str(hf.get("model_type"))[:40])
    if hf.get("hidden_act", "gelu") != "gelu" or not hf.get("qkv_bias", True):
        raise Refused("vit_unsupported", "Only ViT checkpoints with exact GELU and biased Q/K/V are supported.")
    return safety.check_model(body_config(hf, head), "This ViT")


def fetch(name: str) -> Path:
    """The local folder of the hub model `name` (or the mirror HF_ENDPOINT names): its
    config.json first, checked (a ViT, within the budget), then config, safetensors and
    processor files (never pickles). Refused offline, for an unknown or gated model, or when
    the config says no."""
    from models.weights import hub

    if hub.offline() or not hub.reachable():
        raise hub.offline_error(name)
    try:
        from huggingface_hub import hf_hub_download

        config = Path(hf_hub_download(name, "config.json", endpoint=hub.endpoint(), etag_timeout=5))
    except Exception as e:  # noqa: BLE001 - network errors, unknown or gated repos: the hub's own refusals
        raise hub.refusal(name, e) from e
    check_config(read_hf_config(config.parent))
    return hub.download(name)


def check_folder(folder: str | Path) -> tuple[dict, bool]:
    """(the config.json, whether the model has a classifier head), everything checked before
    a weight is read; a Refused with one sentence otherwise."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise Refused("not_folder", f"{folder.name or folder} is not a folder.", folder=folder.name[:80])
    hf = read_hf_config(folder)
    check_config(hf)
    for name in (WEIGHTS, PROCESSOR):
        if not (folder / name).is_file():
            raise Refused("vit_missing_file", f"This folder has no {name}.", file=name)
    header = safety.read_header(folder / WEIGHTS)
    head = any(k.endswith("classifier.weight") for k in header.tensors)
    cfg = body_config(hf, head)
    need = safety.check_model(cfg, "This ViT")
    image, patch = int(hf.get("image_size", 224)), int(hf.get("patch_size", 16))
    if image % patch:
        raise Refused("vit_unsupported", "Only ViT checkpoints with whole patches are supported.")
    p = "vit." if any(k.startswith("vit.") for k in header.tensors) else ""
    d, c = cfg.d_model, int(hf.get("num_channels", 3))
    safety.check_tensors({f"{p}embeddings.patch_embeddings.projection.weight": (d, c, patch, patch),
                          f"{p}embeddings.position_embeddings": (1, cfg.max_len, d),
                          f"{p}embeddings.cls_token": (1, 1, d)}, header)
    safety.check_data_size(header, need)
    return hf, head


def read_processor(folder: Path) -> Any:
    """transformers' ViTImageProcessor from the folder's preprocessor_config.json (its known
    keys only; the JSON's size and form checked as config.json's are)."""
    try:                              # transformers' Pillow backend (torchvision is not installed here)
        from transformers import ViTImageProcessorPil as ViTImageProcessor
    except ImportError:
        from transformers import ViTImageProcessor

    path = folder / PROCESSOR
    if path.stat().st_size > safety.MAX_JSON_BYTES:
        raise Refused("vit_processor", f"{PROCESSOR} is not a processor config.")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            raise ValueError
        return ViTImageProcessor(**{k: doc[k] for k in PROCESSOR_KEYS if k in doc})
    except (ValueError, TypeError, KeyError, RecursionError, UnicodeDecodeError):
        raise Refused("vit_processor", f"{PROCESSOR} is not a processor config that can be read.") from None


def load_folder(folder: str | Path) -> HubViT:
    """The checked folder's ViT as our own model, with its processor and labels."""
    from safetensors.torch import load_file
    from transformers import ViTConfig

    folder = Path(folder).expanduser()
    hf, head = check_folder(folder)
    processor = read_processor(folder)
    keys = ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "image_size",
            "patch_size", "num_channels", "layer_norm_eps", "hidden_act", "qkv_bias", "id2label", "label2id")
    config = ViTConfig(**{k: hf[k] for k in keys if k in hf})
    try:
        weights = load_file(str(folder / WEIGHTS))
        model = patches.from_hf_vit(SimpleNamespace(config=config, state_dict=lambda: weights))
    except KeyError as e:
        raise Refused("weights_missing", f"{WEIGHTS} is missing {str(e)[:80]}.", file=WEIGHTS) from None
    except (RuntimeError, ValueError) as e:
        if isinstance(e, Refused):
            raise
        raise Refused("weights_shape", f"{WEIGHTS} does not match its config.json.", file=WEIGHTS) from None
    labels = {int(k): str(v) for k, v in (config.id2label or {}).items()} if head else None
    return HubViT(model, processor, labels, folder.name, config.image_size // config.patch_size)


def read_photo(data: bytes) -> Any:
    """The reader's photo as an RGB PIL image, with the limits of lab/patches.py `read_image`
    (a BadImage for a file that is not a picture, too big or too small)."""
    from PIL import Image

    patches.read_image(data)                               # every refusal of the grey reader, first
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def look(vit: HubViT, photo: Any) -> dict:
    """The ViT on the photo: "pixels" the photo as the model sees it [H, W, 3] in 0..1 (after
    the processor's resize, the normalisation undone), "heads" the attention from [CLS] to
    each patch [layer, head, g, g], "cls" what each head keeps on [CLS] [layer, head],
    "rollout" [g, g], and "top" [(label, probability)] (None without a classifier head)."""
    pixels = vit.processor(images=photo, return_tensors="pt")["pixel_values"]
    side = vit.grid * vit.model.front.p
    if tuple(pixels.shape[-2:]) != (side, side):
        raise Refused("vit_processor", f"The processor makes {pixels.shape[-1]}×{pixels.shape[-2]} pictures; "
                      f"this ViT reads {side}×{side}.")
    out, trace = vit.model.run_with_cache(pixels)
    pat = trace.patterns().float().cpu().numpy()                         # [layer, head, q, k]
    g = vit.grid
    mean = np.asarray(vit.processor.image_mean if vit.processor.do_normalize else 0.0, dtype=np.float32)
    std = np.asarray(vit.processor.image_std if vit.processor.do_normalize else 1.0, dtype=np.float32)
    seen = np.clip(pixels[0].permute(1, 2, 0).numpy() * std + mean, 0.0, 1.0)
    top = None
    if vit.labels is not None:
        probs = out[0].softmax(-1)
        p, i = probs.topk(min(TOP, probs.numel()))
        top = [(vit.labels.get(int(k), str(int(k))), float(v)) for v, k in zip(p, i)]
    return {"pixels": seen, "heads": pat[:, :, 0, 1:].reshape(*pat.shape[:2], g, g), "cls": pat[:, :, 0, 0],
            "rollout": attention.rollout(pat)[-1][0, 1:].reshape(g, g), "top": top}


def lit(pixels: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The photo [H, W, 3] in grey, each patch's pixels scaled by its weight ÷ the largest
    weight [g, g]: the picture where the model looks, dark where it does not."""
    h, w = pixels.shape[:2]
    g = weights.shape[0]
    up = np.kron(weights / max(float(weights.max()), 1e-12), np.ones((h // g, w // g)))
    return pixels.mean(-1)[: up.shape[0], : up.shape[1]] * up

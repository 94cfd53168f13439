"""Images as tokens (ViT, Dosovitskiy et al. 2021): a picture cut into P×P patches, read in
reading order, each patch flattened and projected to d_model by one linear map, a [CLS]
vector in front, positions added; then our own `Transformer` reads the vectors through its
input-vectors entry (`inputs_embeds`, DESIGN.md "Input vectors"). No second model: the
front end here is a Linear and a vector, everything after it is `models.Transformer`.

- `patchify` cuts [B, C, H, W] into [B, n, C·P·P] in reading order (row by row, left to
  right), each patch flattened channel-major like a convolution's weight;
- `PatchEmbed` is the front end; `conv_difference` measures it against
  `torch.nn.functional.conv2d` with stride P on the same weights (the same linear map);
- `ViT` = PatchEmbed + Transformer (encoder; its unembedding reads the [CLS] position and
  maps it to the 10 digit classes), trained on scikit-learn's 8×8 digits by `train_vit`,
  saved by the project's checkpoint code (`save_vit` / `load_vit`); its positions learned,
  none, or the fixed 2-D sin-cos table (lab/vit_positions.py) held frozen in the
  Transformer's learned slot (the Transformer has no option for a fixed 2-D table);
- `baselines` (majority class, logistic regression on the same pixels), `cls_attention`
  (per head and rollout) and `shuffle_test` are the numbers the section shows;
- `from_hf_vit` puts a transformers ViT's weights (the `vit` family) into the same ViT: its
  output and attention equal transformers' (tests/unit/test_patches.py, tiny random models).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import Transformer, TransformerConfig
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint, save_checkpoint

from . import attention, vit_positions
from .fit import fit

SIDE = 8                      # scikit-learn's digits are 8×8, grey levels 0..16
PATCH = 2                     # the shipped ViT's patch: 2×2 pixels, 16 patches + [CLS] = 17 positions
N_CLASSES = 10
FOLDER = CHECKPOINT_DIR / "vit-digits"
STEMS = {"learned": "vit-learned", "none": "vit-none", "sincos2d": "vit-sincos2d"}  # learned, none, fixed 2-D table
POSITIONS = tuple(STEMS)
MAX_SIDE = 4096               # an upload larger than this on a side is refused
SHOW_SIDE = 256               # and one larger than this is shrunk to it (the figures' cells stay visible)


# ---- pictures -------------------------------------------------------------------------------
def digits() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's handwritten digits (ships inside the package, offline): images
    [1797, 8, 8] float32 in [0, 1] (grey level ÷ 16) and labels [1797] int64."""
    from sklearn.datasets import load_digits

    d = load_digits()
    return (d.images / 16.0).astype(np.float32), d.target.astype(np.int64)


def split(labels: np.ndarray, seed: int = 0, test: float = 0.25) -> tuple[np.ndarray, np.ndarray]:
    """(train indices, held-out indices): a stratified split, fixed by the seed."""
    from sklearn.model_selection import train_test_split

    idx = np.arange(len(labels))
    tr, te = train_test_split(idx, test_size=test, random_state=seed, stratify=labels)
    return np.sort(tr), np.sort(te)


class BadImage(ValueError):
    """An upload that is not a usable picture: an English sentence, and `reason` + `values`
    for the UI's sentence in either language."""

    SENTENCES = {"not_image": "This file is not a picture that can be read.",
                 "too_big": "This picture is {w}×{h} pixels; the limit is {limit} on a side.",
                 "too_small": "This picture is {w}×{h} pixels: too small to cut into patches.",
                 "huge": "This picture declares more pixels than can be read safely (at most {limit} on a side)."}

    def __init__(self, reason: str, **values) -> None:
        super().__init__(self.SENTENCES[reason].format(**values))
        self.reason, self.values = reason, values


def read_image(data: bytes) -> tuple[np.ndarray, tuple[int, int]]:
    """(grey image [H, W] float32 in [0, 1], the original (width, height)) from an image
    file's bytes (PNG, JPEG, anything Pillow reads). Refused with a BadImage: not an image
    (`not_image`), a side over MAX_SIDE (`too_big`; `huge` when Pillow's bomb check says so
    first), a side under 2 pixels (`too_small`);
    a side over SHOW_SIDE is shrunk to it."""
    from PIL import Image, UnidentifiedImageError

    try:
        img = Image.open(io.BytesIO(data))
        size = img.size
        if max(size) > MAX_SIDE:
            raise BadImage("too_big", w=size[0], h=size[1], limit=MAX_SIDE)
        img.load()
    except BadImage:
        raise
    except Image.DecompressionBombError:                 # Pillow's own limit, met before ours
        raise BadImage("huge", limit=MAX_SIDE) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise BadImage("not_image") from None
    if min(size) < 2:
        raise BadImage("too_small", w=size[0], h=size[1])
    img = img.convert("L")
    if max(size) > SHOW_SIDE:
        scale = SHOW_SIDE / max(size)
        img = img.resize((max(2, round(size[0] * scale)), max(2, round(size[1] * scale))), Image.Resampling.BILINEAR)
    return np.asarray(img, dtype=np.float32) / 255.0, size


def crop(image: np.ndarray, p: int) -> np.ndarray:
    """The image [H, W] cut to whole patches (the bottom and right remainders dropped)."""
    h, w = image.shape[-2:]
    if p < 1 or p > min(h, w):
        raise ValueError(f"A {p}×{p} patch does not fit a {w}×{h} image.")
    return image[..., : h - h % p, : w - w % p]


# ---- patches and the front end -------------------------------------------------------------
def as_batch(images: np.ndarray | torch.Tensor) -> torch.Tensor:
    """[H, W], [B, H, W] or [B, C, H, W] -> a float32 tensor [B, C, H, W]."""
    x = torch.as_tensor(np.asarray(images) if not torch.is_tensor(images) else images, dtype=torch.float32)
    if x.dim() == 2:
        x = x[None]
    return x[:, None] if x.dim() == 3 else x


def patchify(images: np.ndarray | torch.Tensor, p: int) -> torch.Tensor:
    """[B, C, H, W] (H, W multiples of p) -> [B, n, C·p·p]: patches in reading order (row
    of patches by row, left to right), each flattened channel, row, column — the order of a
    convolution weight's [C, p, p]."""
    x = as_batch(images)
    b, c, h, w = x.shape
    if h % p or w % p:
        raise ValueError(f"The image ({w}×{h}) is not a whole number of {p}×{p} patches: crop it first.")
    x = x.reshape(b, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)     # [b, rows, cols, c, p, p]
    return x.reshape(b, (h // p) * (w // p), c * p * p)


class PatchEmbed(nn.Module):
    """The ViT front end: a linear map of each flattened patch to d_model (`proj`, [d, C·p·p]
    and a bias) and a learned [CLS] vector put in front. Positions are the Transformer's."""

    def __init__(self, p: int, d_model: int, channels: int = 1) -> None:
        super().__init__()
        self.p, self.channels = p, channels
        self.proj = nn.Linear(channels * p * p, d_model)
        self.cls = nn.Parameter(torch.zeros(d_model))

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """[B, C, H, W] -> input vectors [B, 1 + n, d]: [CLS], then the projected patches."""
        v = self.proj(patchify(images, self.p))
        return torch.cat([self.cls.expand(v.shape[0], 1, -1), v], dim=1)

    def as_conv(self, images: torch.Tensor) -> torch.Tensor:
        """The same projection as a convolution: the weight reshaped to [d, C, p, p], stride
        p, the output's grid read in reading order -> [B, n, d]."""
        w = self.proj.weight.reshape(-1, self.channels, self.p, self.p)
        return F.conv2d(as_batch(images), w, self.proj.bias, stride=self.p).flatten(2).transpose(1, 2)


@torch.no_grad()
def conv_difference(front: PatchEmbed, images: np.ndarray | torch.Tensor) -> float:
    """max |patches · Wᵀ + b − conv2d(image, W, b, stride=p)| over every patch and channel."""
    x = as_batch(images)
    return float((front.proj(patchify(x, front.p)) - front.as_conv(x)).abs().max())


# ---- the small ViT ----------------------------------------------------------------------------
def vit_config(positional: str, n_patches: int = (SIDE // PATCH) ** 2) -> TransformerConfig:
    """Our Transformer as a ViT encoder: full attention, learned positions (or none; the fixed
    2-D table "sincos2d" sits in the learned slot), the unembedding = the classifier over the
    10 digits (read at the [CLS] position)."""
    if positional not in POSITIONS:
        raise ValueError(f"positions are one of {', '.join(POSITIONS)}, not {positional!r}")
    return TransformerConfig(arch="encoder", vocab_size=N_CLASSES, d_model=32, n_layers=2, n_heads=4, d_ff=64,
                             max_len=1 + n_patches, positional="none" if positional == "none" else "learned", norm="layernorm", norm_position="pre",
                             activation="gelu", tie_embeddings=False)


class ViT(nn.Module):
    """PatchEmbed + our Transformer (fed through `inputs_embeds`; its token embedding is unused)."""

    def __init__(self, front: PatchEmbed, body: Transformer, positions: str | None = None) -> None:
        super().__init__()
        self.front, self.body = front, body
        self.positions = positions or body.cfg.positional

    @property
    def positional(self) -> str:
        """learned, none or sincos2d (the Transformer's own option is "learned" for the last)."""
        return self.positions

    def forward(self, images) -> torch.Tensor:
        """Class logits [B, 10], read at the [CLS] position."""
        return self.body(inputs_embeds=self.front(as_batch(images)), out_positions=[0])[:, 0]

    def run_with_cache(self, images, names=None):
        """(class logits [B, 10], the Trace of every hook) for a batch of images."""
        with torch.inference_mode():
            vectors = self.front(as_batch(images))
        out, trace = self.body.run_with_cache(inputs_embeds=vectors, names=names)
        return out[:, 0], trace


def fix_sincos(body: Transformer) -> None:
    """Write the 2-D sin-cos table into the learned slot and freeze it."""
    g = SIDE // PATCH
    with torch.no_grad():
        body.pos_embed.weight.copy_(vit_positions.sincos_2d(g, g, body.cfg.d_model))
    body.pos_embed.weight.requires_grad_(False)


def build_vit(positional: str, seed: int = 0) -> ViT:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        front = PatchEmbed(PATCH, 32)
        nn.init.normal_(front.proj.weight, 0.0, 0.2)
        body = Transformer(vit_config(positional), device="cpu")
    if positional == "sincos2d":
        fix_sincos(body)
    return ViT(front, body, positional)


@dataclass
class TrainResult:
    model: ViT
    seconds: float
    losses: list[float]
    accuracy: float              # held-out


def accuracy(model: ViT, images: np.ndarray, labels: np.ndarray) -> float:
    model.eval()
    with torch.inference_mode():
        return float((model(images).argmax(-1).numpy() == labels).mean())


def train_vit(positional: str = "learned", seed: int = 0, steps: int = 1500, batch: int = 128,
              lr: float = 3e-3, progress: Callable[[int, float], None] | None = None) -> TrainResult:
    """Train the small ViT on the training split of the digits: AdamW, linear warm-up then
    cosine decay, batches drawn by numpy's generator from `seed`; the same seed gives the same
    weights on the same CPU build (a frozen sin-cos table stays as built). `progress(step,
    loss)` is called every 20 steps and at the end. Returns the model and its held-out accuracy."""
    images, labels = digits()
    tr, te = split(labels)
    x, y = torch.as_tensor(images[tr]), torch.as_tensor(labels[tr])
    model = build_vit(positional, seed)
    rng = np.random.default_rng(seed)

    def loss() -> torch.Tensor:
        i = torch.as_tensor(rng.integers(0, len(x), batch))
        return F.cross_entropy(model(x[i]), y[i])

    fitted = fit(model, loss, steps=steps, lr=lr, warmup=50, floor=0.1, progress=progress)
    return TrainResult(model, fitted.seconds, fitted.losses, accuracy(model, images[te], labels[te]))


def save_vit(model: ViT, stem: str, meta: dict, folder: Path = FOLDER) -> Path:
    """The Transformer as a Glassbox checkpoint (`stem.json` + `stem.safetensors`), the front
    end beside it (`stem-front.safetensors`). Returns the JSON path."""
    from safetensors.torch import save_file

    path = save_checkpoint(model.body, None, folder / stem,
                           {**meta, "patch": model.front.p, "side": SIDE, "positions": model.positional})
    save_file({k: v.detach().contiguous() for k, v in model.front.state_dict().items()},
              str(folder / f"{stem}-front.safetensors"))
    return path


def load_vit(stem: str, folder: Path = FOLDER) -> tuple[ViT, dict]:
    """(model, the checkpoint's meta) written by `save_vit`; every front-end tensor's shape checked."""
    from safetensors.torch import load_file

    body, _, meta = load_checkpoint(folder / f"{stem}.json")
    front = PatchEmbed(int(meta.get("patch", PATCH)), body.cfg.d_model)
    state = load_file(str(folder / f"{stem}-front.safetensors"))
    want = {k: tuple(v.shape) for k, v in front.state_dict().items()}
    if {k: tuple(v.shape) for k, v in state.items()} != want:
        raise ValueError(f"{stem}-front.safetensors does not match the patch projection of {stem}.json.")
    front.load_state_dict(state)
    positions = meta.get("positions", body.cfg.positional)
    if positions == "sincos2d":
        body.pos_embed.weight.requires_grad_(False)
    return ViT(front, body, positions).eval(), meta


# ---- what the section shows --------------------------------------------------------------------
def baselines(seed: int = 0) -> dict[str, float]:
    """Held-out accuracy of the majority class (of the training labels) and of a logistic
    regression on the same 64 pixels (scikit-learn), on the split the ViT is tested on."""
    from sklearn.linear_model import LogisticRegression

    images, labels = digits()
    tr, te = split(labels, seed)
    majority = np.bincount(labels[tr]).argmax()
    flat = images.reshape(len(images), -1)
    logreg = LogisticRegression(max_iter=2000).fit(flat[tr], labels[tr])
    return {"majority": float((labels[te] == majority).mean()), "logreg": float(logreg.score(flat[te], labels[te])),
            "n_test": int(len(te)), "n_train": int(len(tr))}


def held_out() -> tuple[np.ndarray, np.ndarray]:
    """The held-out images and labels (the ViT never trained on them)."""
    images, labels = digits()
    _, te = split(labels)
    return images[te], labels[te]


def cls_attention(model: ViT, image: np.ndarray, query: int = 0) -> dict:
    """Attention from one query position (0 = [CLS], i = patch i) to every patch, each laid
    back on the patch grid: "heads" [layer, head, rows, cols], "rollout" [rows, cols], "cls"
    the weight each head gives [CLS] itself [layer, head], and the class probabilities."""
    logits, trace = model.run_with_cache(image)
    pat = trace.patterns().float().cpu().numpy()                   # [layer, head, q, k]
    g = SIDE // model.front.p
    return {"heads": pat[:, :, query, 1:].reshape(*pat.shape[:2], g, g), "cls": pat[:, :, query, 0],
            "rollout": attention.rollout(pat)[-1][query, 1:].reshape(g, g),     # through every layer
            "probs": logits.softmax(-1)[0].float().cpu().numpy()}


def shuffle_test(model: ViT, image: np.ndarray, seed: int = 0) -> dict:
    """The patches shuffled (the [CLS] stays first): the class probabilities before and
    after, and max |difference| of the [CLS] output's logits. Without positions attention
    cannot tell the order, so the output is the same; with positions it changes."""
    x = as_batch(image)
    perm = torch.as_tensor(np.random.default_rng(seed).permutation((SIDE // model.front.p) ** 2))
    with torch.inference_mode():
        v = model.front(x)
        shuffled = torch.cat([v[:, :1], v[:, 1:][:, perm]], dim=1)
        a = model.body(inputs_embeds=v, out_positions=[0])[0, 0]
        b = model.body(inputs_embeds=shuffled, out_positions=[0])[0, 0]
    return {"perm": perm.numpy(), "before": a.softmax(-1).numpy(), "after": b.softmax(-1).numpy(),
            "max_diff": float((a - b).abs().max())}


def unshuffle_image(image: np.ndarray, perm: np.ndarray, p: int) -> np.ndarray:
    """The picture the shuffled sequence would be if read back in reading order."""
    h, w = image.shape
    patches = patchify(image, p)[0][torch.as_tensor(perm)]
    g = w // p
    return patches.reshape(h // p, g, p, p).permute(0, 2, 1, 3).reshape(h, w).numpy()


def with_gaps(image: np.ndarray, p: int) -> np.ndarray:
    """The image [H, W] (whole patches) with a NaN row and column between patches: drawn,
    the NaN cells are grey lines that show where it was cut."""
    h, w = image.shape
    out = np.full((h + h // p - 1, w + w // p - 1), np.nan)
    rows, cols = np.arange(h) + np.arange(h) // p, np.arange(w) + np.arange(w) // p
    out[np.ix_(rows, cols)] = image
    return out


# ---- Hugging Face ViT (`vit` family): the same front end and our Transformer, their weights ------------
# a layer's modules as transformers 5 names them (`layers.{i}.`), and as 4.x did (`encoder.layer.{i}.`)
HF_LAYER = {"layers": {"layernorm_before": "ln1", "attention.q_proj": "attn.W_Q", "attention.k_proj": "attn.W_K",
                       "attention.v_proj": "attn.W_V", "attention.o_proj": "attn.W_O", "layernorm_after": "ln2",
                       "mlp.fc1": "mlp.W_in", "mlp.fc2": "mlp.W_out"},
            "encoder.layer": {"layernorm_before": "ln1", "attention.attention.query": "attn.W_Q",
                              "attention.attention.key": "attn.W_K", "attention.attention.value": "attn.W_V",
                              "attention.output.dense": "attn.W_O", "layernorm_after": "ln2",
                              "intermediate.dense": "mlp.W_in", "output.dense": "mlp.W_out"}}


def from_hf_vit(hf: nn.Module) -> ViT:
    """Our ViT holding the weights of a transformers `ViTForImageClassification` (class logits
    at [CLS]) or `ViTModel` (the final hidden state at [CLS]): the patch projection is their
    stride-P convolution's weight flattened, their [CLS] and position table ours, each layer
    pre-LN with exact GELU. Refused (ValueError) where the architectures differ."""
    c = hf.config
    if c.hidden_act != "gelu" or not getattr(c, "qkv_bias", True) or c.image_size % c.patch_size:
        raise ValueError("Only ViT checkpoints with exact GELU, biased Q/K/V and whole patches are supported.")
    s = {k: v.detach().float() for k, v in hf.state_dict().items()}
    p = "vit." if any(k.startswith("vit.") for k in s) else ""
    head = "classifier.weight" in s
    n, d = (c.image_size // c.patch_size) ** 2, c.hidden_size
    cfg = TransformerConfig(arch="encoder", vocab_size=c.num_labels if head else 1, d_model=d,
                            n_layers=c.num_hidden_layers, n_heads=c.num_attention_heads, d_ff=c.intermediate_size,
                            max_len=n + 1, positional="learned", norm="layernorm", norm_position="pre",
                            activation="gelu", norm_eps=c.layer_norm_eps, tie_embeddings=False, unembed_bias=head,
                            output="logits" if head else "hidden")
    state = {"embed.weight": torch.zeros(cfg.vocab_size, d),
             "pos_embed.weight": s[f"{p}embeddings.position_embeddings"][0], "ln_final.weight": s[f"{p}layernorm.weight"], "ln_final.bias": s[f"{p}layernorm.bias"]}
    stack = "layers" if f"{p}layers.0.layernorm_before.weight" in s else "encoder.layer"
    for i in range(c.num_hidden_layers):
        for theirs, ours in HF_LAYER[stack].items():
            for w in ("weight", "bias"):
                state[f"blocks.{i}.{ours}.{w}"] = s[f"{p}{stack}.{i}.{theirs}.{w}"]
    if head:
        state |= {"unembed.weight": s["classifier.weight"], "unembed.bias": s["classifier.bias"]}
    front = PatchEmbed(c.patch_size, d, c.num_channels)
    conv = f"{p}embeddings.patch_embeddings.projection"
    front.load_state_dict({"proj.weight": s[f"{conv}.weight"].reshape(d, -1), "proj.bias": s[f"{conv}.bias"],
                           "cls": s[f"{p}embeddings.cls_token"].reshape(d)})
    return ViT(front, Transformer.from_state(cfg, state, "cpu")).eval()

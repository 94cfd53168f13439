"""Pairing pictures with words, the CLIP idea (Radford et al. 2021) at the size of a lesson:
two towers that never read each other's input, each ending in a vector of the same width,
L2-normalised; a pair's score is the dot product of the two unit vectors (a cosine), and the
towers are trained so that in a batch each picture's own caption scores highest in its row
and each caption's own picture highest in its column (symmetric InfoNCE, learned temperature).

- image tower: lab/patches.py's `PatchEmbed` (2×2 patches of scikit-learn's 8×8 digits,
  [CLS] in front) + our `Transformer` through `inputs_embeds`, the final hidden state at [CLS]
  projected to the shared space;
- text tower: our `Transformer` on characters (a `CharTokenizer` over the 20 captions'
  characters, <bos> in front and read as the summary), projected the same way. A bag of
  character embeddings would be enough for 20 fixed captions; the Transformer is used
  because it is the model the rest of the app shows, and because it reads any string (a
  misspelt caption gets a vector too);
- pairs: a digit's picture with the digit's word, in English ("seven") or Chinese ("七"),
  each pair's language drawn at random, so one text tower learns both;
- `contrastive` is the loss the trainer uses and the section shows; `zero_shot` classifies a
  picture by the 10 captions of one language (no classifier was trained on labels).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import CharTokenizer, Transformer, TransformerConfig
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint, save_checkpoint

from . import patches
from .fit import fit

CAPTIONS = {"en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
            "zh": ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")}
LANGS = tuple(CAPTIONS)
D_MODEL = 32                  # both towers' width
D_SHARED = 32                 # the shared space
MAX_CHARS = 8                 # a caption's characters read (more are cut): <bos> + 8 positions
GROUP = 10                    # a training batch is made of groups of 10 pairs, one per digit
FOLDER = CHECKPOINT_DIR / "pairing-digits"
INIT_SCALE = 1 / 0.07         # CLIP's starting temperature τ = 0.07
MAX_SCALE = 100.0             # and its ceiling on 1/τ


def tokenizer() -> CharTokenizer:
    """One token per character of the 20 captions (NFC, lowercased), <bos> put in front."""
    chars = sorted({c for lang in LANGS for word in CAPTIONS[lang] for c in word})
    return CharTokenizer(["<pad>", "<unk>", "<bos>", "<eos>"] + chars, lowercase=True, add_bos=True)


def image_config() -> TransformerConfig:
    return TransformerConfig(arch="encoder", vocab_size=1, d_model=D_MODEL, n_layers=2, n_heads=4, d_ff=64,
                             max_len=1 + (patches.SIDE // patches.PATCH) ** 2, positional="learned",
                             norm="layernorm", norm_position="pre", activation="gelu", tie_embeddings=False,
                             output="hidden")


def text_config(vocab_size: int) -> TransformerConfig:
    return TransformerConfig(arch="encoder", vocab_size=vocab_size, d_model=D_MODEL, n_layers=1, n_heads=4, d_ff=64,
                             max_len=1 + MAX_CHARS, positional="learned", norm="layernorm", norm_position="pre",
                             activation="gelu", tie_embeddings=False, output="hidden")


class Towers(nn.Module):
    """The two towers and the learned temperature (`logit_scale` = log(1/τ), as CLIP stores it)."""

    def __init__(self, front: patches.PatchEmbed, image_body: Transformer, text_body: Transformer,
                 tok: CharTokenizer) -> None:
        super().__init__()
        self.front, self.image_body, self.text_body, self.tok = front, image_body, text_body, tok
        self.image_proj = nn.Linear(D_MODEL, D_SHARED, bias=False)
        self.text_proj = nn.Linear(D_MODEL, D_SHARED, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(INIT_SCALE)))

    @property
    def scale(self) -> torch.Tensor:
        """1/τ, clipped at MAX_SCALE as CLIP does."""
        return self.logit_scale.exp().clamp(max=MAX_SCALE)

    def inverse_temperature(self) -> float:
        """1/τ as a number (what the section shows)."""
        return float(self.scale.detach())

    def encode_images(self, images) -> torch.Tensor:
        """[B, 8, 8] grey levels in [0, 1] -> unit vectors [B, D_SHARED]."""
        h = self.image_body(inputs_embeds=self.front(patches.as_batch(images)), out_positions=[0])[:, 0]
        return F.normalize(self.image_proj(h), dim=-1)

    def ids(self, texts: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        """(ids [B, 1 + longest], padding mask) of captions, each cut to MAX_CHARS characters."""
        enc = [self.tok.encode(t, max_len=1 + MAX_CHARS).ids for t in texts]
        n = max(len(e) for e in enc)
        ids = torch.tensor([e + [self.tok.pad_id] * (n - len(e)) for e in enc])
        return ids, torch.tensor([[1] * len(e) + [0] * (n - len(e)) for e in enc])

    def encode_texts(self, texts: list[str]) -> torch.Tensor:
        """Captions -> unit vectors [B, D_SHARED] (the hidden state at <bos>)."""
        ids, valid = self.ids(texts)
        h = self.text_body(ids, attention_mask=valid, out_positions=[0])[:, 0]
        return F.normalize(self.text_proj(h), dim=-1)


def build(seed: int = 0) -> Towers:
    tok = tokenizer()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        front = patches.PatchEmbed(patches.PATCH, D_MODEL)
        nn.init.normal_(front.proj.weight, 0.0, 0.2)
        return Towers(front, Transformer(image_config(), device="cpu"),
                      Transformer(text_config(tok.vocab_size), device="cpu"), tok)


# ---- the loss -------------------------------------------------------------------------------------
def similarity(image_vecs: torch.Tensor, text_vecs: torch.Tensor) -> torch.Tensor:
    """Cosines [images, captions]: the dot products of the unit vectors."""
    return image_vecs @ text_vecs.transpose(-1, -2)


def contrastive(sim: torch.Tensor, scale: torch.Tensor | float) -> torch.Tensor:
    """Symmetric InfoNCE on [..., n, n] cosines whose diagonal holds the true pairs: the mean of
    cross-entropy over each row (picture -> its caption among n) and over each column
    (caption -> its picture among n), the logits being cosine × 1/τ."""
    logits = sim * scale
    target = torch.arange(sim.shape[-1]).expand(sim.shape[:-1])
    i2t = F.cross_entropy(logits.flatten(0, -2), target.flatten())
    t2i = F.cross_entropy(logits.transpose(-1, -2).flatten(0, -2), target.flatten())
    return (i2t + t2i) / 2


def loss_parts(sim: np.ndarray, scale: float) -> dict:
    """The loss of one batch written out: p(row's own caption) under the row softmax, p(column's
    own picture) under the column softmax, −log of each, each direction's mean, the total."""
    logits = np.asarray(sim, dtype=np.float64) * scale
    rows = np.exp(logits - logits.max(1, keepdims=True))
    rows /= rows.sum(1, keepdims=True)
    cols = np.exp(logits - logits.max(0, keepdims=True))
    cols /= cols.sum(0, keepdims=True)
    p_i2t, p_t2i = np.diag(rows), np.diag(cols)
    i2t, t2i = float(-np.log(p_i2t).mean()), float(-np.log(p_t2i).mean())
    return {"rows": rows, "cols": cols, "p_i2t": p_i2t, "p_t2i": p_t2i, "i2t": i2t, "t2i": t2i,
            "loss": (i2t + t2i) / 2}


# ---- training -----------------------------------------------------------------------------------
@dataclass
class TrainResult:
    model: Towers
    seconds: float
    losses: list[float]
    accuracy: dict[str, float]          # held-out zero-shot accuracy by caption language


def groups(labels: np.ndarray, rng: np.random.Generator, n_groups: int) -> np.ndarray:
    """[n_groups, 10] indices: in each group one picture of every digit, in a random order (so no
    picture in a group has a second true caption in it)."""
    by_digit = [np.flatnonzero(labels == d) for d in range(10)]
    out = np.empty((n_groups, GROUP), dtype=np.int64)
    for g in range(n_groups):
        order = rng.permutation(10)
        out[g] = [rng.choice(by_digit[d]) for d in order]
    return out


def train(seed: int = 0, steps: int = 400, n_groups: int = 16, lr: float = 3e-3) -> TrainResult:
    """AdamW, warm-up then cosine decay; each step n_groups groups of 10 pairs from the training
    split, each caption's language drawn at random; the loss is `contrastive` within each group.
    One CPU thread; the same seed gives the same weights on the same CPU build. (Shifting the
    pictures by a pixel as augmentation was tried: at 1000 steps it still underfits, 76 %.)"""
    images, labels = patches.digits()
    tr, _ = patches.split(labels)
    x, y = torch.as_tensor(images[tr]), labels[tr]
    model = build(seed)
    every = [w for lang in LANGS for w in CAPTIONS[lang]]                   # the 20 captions
    rng = np.random.default_rng(seed)

    def loss() -> torch.Tensor:
        idx = groups(y, rng, n_groups)                                  # [g, 10]
        lang = rng.integers(0, len(LANGS), idx.shape)                   # 0 English, 1 Chinese
        img = model.encode_images(x[torch.as_tensor(idx.reshape(-1))]).reshape(n_groups, GROUP, -1)
        words = model.encode_texts(every)                               # all 20 once, then indexed
        txt = words[torch.as_tensor(lang * 10 + y[idx])]                 # [g, 10, D]
        return contrastive(similarity(img, txt), model.scale)

    fitted = fit(model, loss, steps=steps, lr=lr, warmup=30, floor=0.05)
    ims, labs = held_out()
    return TrainResult(model, fitted.seconds, fitted.losses, {lang: accuracy(model, ims, labs, lang) for lang in LANGS})


# ---- zero-shot ------------------------------------------------------------------------------------
@torch.no_grad()
def zero_shot(model: Towers, images, lang: str) -> np.ndarray:
    """Probabilities [B, 10] over the 10 captions of `lang` ("a photo of ..." is not needed: the
    captions are the words): softmax of cosine × 1/τ along each row."""
    sim = similarity(model.encode_images(images), model.encode_texts(list(CAPTIONS[lang])))
    return (sim * model.scale).softmax(-1).numpy()


def accuracy(model: Towers, images: np.ndarray, labels: np.ndarray, lang: str) -> float:
    return float((zero_shot(model, images, lang).argmax(-1) == labels).mean())


def held_out() -> tuple[np.ndarray, np.ndarray]:
    """The held-out digits (the same split as the ViT's: neither model trained on them)."""
    return patches.held_out()


def baselines() -> dict[str, float]:
    """Chance (1 in 10) and the supervised logistic regression on the same 64 pixels."""
    b = patches.baselines()
    return {"chance": 0.1, "logreg": b["logreg"], "n_test": b["n_test"], "n_train": b["n_train"]}


@torch.no_grad()
def batch(model: Towers, images: np.ndarray, labels: np.ndarray, seed: int, lang: str) -> dict:
    """One held-out picture of every digit, in an order drawn from `seed`, and each one's caption
    in `lang` (so the true pairs lie on the diagonal): the indices, digits, captions, cosines
    [10, 10] and 1/τ."""
    rng = np.random.default_rng(seed)
    idx = groups(labels, rng, 1)[0]
    digits = labels[idx]
    captions = [CAPTIONS[lang][d] for d in digits]
    sim = similarity(model.encode_images(images[idx]), model.encode_texts(captions)).numpy()
    return {"idx": idx, "digits": digits, "captions": captions, "sim": sim, "scale": model.inverse_temperature()}


@torch.no_grad()
def word_agreement(model: Towers) -> np.ndarray:
    """Cosines [10, 10] between the English captions (rows) and the Chinese ones (columns)."""
    return similarity(model.encode_texts(list(CAPTIONS["en"])), model.encode_texts(list(CAPTIONS["zh"]))).numpy()


def as_digit(image: np.ndarray) -> tuple[np.ndarray, bool]:
    """A grey picture [H, W] in [0, 1] made to look like scikit-learn's digits: dark ink on light
    paper inverted (light strokes on black, as the digits are), cut to the ink's bounding box,
    padded to a square, averaged down to 8×8, stretched to 0..1. Returns (8×8, inverted)."""
    img = np.asarray(image, dtype=np.float32)
    inverted = bool(img.mean() > 0.5)
    if inverted:
        img = 1.0 - img
    img = img - img.min()
    ink = np.argwhere(img > 0.25 * img.max()) if img.max() > 0 else np.empty((0, 2))
    if len(ink):
        (r0, c0), (r1, c1) = ink.min(0), ink.max(0) + 1
        img = img[r0:r1, c0:c1]
    h, w = img.shape
    side = max(h, w, 8)
    square = np.zeros((side, side), dtype=np.float32)
    square[(side - h) // 2:(side - h) // 2 + h, (side - w) // 2:(side - w) // 2 + w] = img
    small = F.adaptive_avg_pool2d(torch.as_tensor(square)[None, None], 8)[0, 0].numpy()
    top = small.max()
    return (small / top if top > 0 else small).astype(np.float32), inverted


# ---- saving ---------------------------------------------------------------------------------------
HEADS = ("front.proj.weight", "front.proj.bias", "front.cls", "image_proj.weight", "text_proj.weight", "logit_scale")


def save(model: Towers, meta: dict, folder: Path = FOLDER) -> Path:
    """image.json/.safetensors and text.json/.safetensors (the project's checkpoint code; the text
    tower's with its tokenizer), heads.safetensors (patch projection, [CLS], both projections,
    the temperature). Returns the image tower's JSON path (it holds the meta)."""
    from safetensors.torch import save_file

    path = save_checkpoint(model.image_body, None, folder / "image", meta)
    save_checkpoint(model.text_body, model.tok, folder / "text", {"recipe": meta.get("recipe")})
    state = model.state_dict()
    save_file({k: state[k].detach().contiguous() for k in HEADS}, str(folder / "heads.safetensors"))
    return path


def load(folder: Path = FOLDER) -> tuple[Towers, dict]:
    """(towers, the meta) written by `save`; every head's shape checked."""
    from safetensors.torch import load_file

    image_body, _, meta = load_checkpoint(folder / "image.json")
    text_body, tok, _ = load_checkpoint(folder / "text.json")
    if not isinstance(tok, CharTokenizer):
        raise ValueError("pairing-digits/text.json has no character tokenizer.")
    model = Towers(patches.PatchEmbed(patches.PATCH, D_MODEL), image_body, text_body, tok)
    heads = load_file(str(folder / "heads.safetensors"))
    want = {k: tuple(v.shape) for k, v in model.state_dict().items() if k in HEADS}
    if {k: tuple(v.shape) for k, v in heads.items()} != want:
        raise ValueError("pairing-digits/heads.safetensors does not match the towers.")
    model.load_state_dict(heads, strict=False)
    return model.eval(), meta

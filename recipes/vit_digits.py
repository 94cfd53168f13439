"""The recipe of the three small ViTs the "Tokens from anything" page's Images section ships
(lab/patches.py): our own Transformer (encoder, 2 layers × 4 heads, d_model 32) fed with
2×2 patches of scikit-learn's 8×8 digits through its input-vectors entry, one with learned
positions, one with none (the shuffle test) and one with the fixed 2-D sin-cos table
(lab/vit_positions.py, frozen in the learned slot), seed 0, one CPU thread. Trained on the
stratified 75 % split and saved with the project's checkpoint code to
models/weights/checkpoints/vit-digits/ (`vit-learned`, `vit-none`, `vit-sincos2d`:
safetensors + JSON, and the patch projection beside each). Run: `python -m cli.vit_digits`.
"""
from __future__ import annotations

from pathlib import Path

import lab.patches

SEED = 0
STEPS = 800
BATCH = 64
LR = 3e-3


def train_one(positional: str, out_dir: Path = lab.patches.FOLDER, log=print) -> Path:
    """Train and save one ViT; returns the JSON path."""
    r = lab.patches.train_vit(positional, seed=SEED, steps=STEPS, batch=BATCH, lr=LR)
    meta = {"recipe": "recipes/vit_digits.py", "seed": SEED, "steps": STEPS, "batch": BATCH, "lr": LR,
            "seconds": round(r.seconds, 1), "held_out_accuracy": round(r.accuracy, 4),
            "final_loss": round(r.losses[-1], 4), "data": "sklearn.datasets.load_digits, stratified 75/25 split"}
    path = lab.patches.save_vit(r.model, lab.patches.STEMS[positional], meta, out_dir)
    log(f"{positional}: held-out accuracy {r.accuracy:.3f}, {r.seconds:.0f} s -> {path}")
    return path


def main(only: str | None = None, out_dir: Path = lab.patches.FOLDER, log=print) -> None:
    for positional in lab.patches.STEMS:
        if only in (None, positional):
            train_one(positional, out_dir, log)

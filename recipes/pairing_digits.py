"""The recipe of the two towers the "Tokens from anything" page's Pairing (CLIP-style) section
ships (lab/pairing.py): an image tower (2×2 patches of scikit-learn's 8×8 digits through our
Transformer, 2 layers × 4 heads, d_model 32) and a text tower (our Transformer on the
characters of the digit words, 1 layer × 4 heads), both projected to a 32-wide shared space
and L2-normalised, trained together with the symmetric contrastive loss (learned
temperature) on pairs picture ↔ word, each word in English or Chinese at random; seed 0, one
CPU thread, the stratified 75 % split. Saved with the project's checkpoint code to
models/weights/checkpoints/pairing-digits/ (`image`, `text`: safetensors + JSON; `heads`:
the patch projection, both projections and the temperature). Run: `python -m cli.pairing_digits`.
"""
from __future__ import annotations

from pathlib import Path

import lab.pairing

SEED = 0
STEPS = 1000
GROUPS = 16          # groups of 10 pairs (one per digit) in each step: 160 pairs
LR = 3e-3


def main(out_dir: Path = lab.pairing.FOLDER, log=print) -> Path:
    """Train and save the towers; returns the image tower's JSON path (it holds the meta)."""
    r = lab.pairing.train(seed=SEED, steps=STEPS, n_groups=GROUPS, lr=LR)
    meta = {"recipe": "recipes/pairing_digits.py", "seed": SEED, "steps": STEPS, "groups": GROUPS, "lr": LR,
            "seconds": round(r.seconds, 1), "final_loss": round(r.losses[-1], 4),
            "temperature": round(1 / r.model.inverse_temperature(), 4),
            "zero_shot_accuracy": {lang: round(a, 4) for lang, a in r.accuracy.items()},
            "data": "sklearn.datasets.load_digits, stratified 75/25 split; captions zero..nine / 零..九"}
    path = lab.pairing.save(r.model, meta, out_dir)
    log(f"zero-shot held-out accuracy {r.accuracy}, {r.seconds:.0f} s -> {path}")
    return path

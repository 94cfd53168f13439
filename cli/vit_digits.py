"""Train the three small ViTs of the "Tokens from anything" page's Images section
(recipes/vit_digits.py): 2×2 patches of scikit-learn's digits; learned, no or 2-D sin-cos positions, seeded.

    python -m cli.vit_digits                      # all three
    python -m cli.vit_digits --only learned       # or --only none, --only sincos2d
    python -m cli.vit_digits --out /tmp/vit       # somewhere else
"""
from __future__ import annotations

import argparse
from pathlib import Path

import lab.patches
from recipes import vit_digits


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.vit_digits", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=tuple(lab.patches.STEMS), default=None)
    ap.add_argument("--out", type=Path, default=lab.patches.FOLDER,
                    help="output folder (default models/weights/checkpoints/vit-digits)")
    a = ap.parse_args(argv)
    vit_digits.main(a.only, a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

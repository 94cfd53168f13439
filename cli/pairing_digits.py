"""Train the two towers of the "Tokens from anything" page's Pairing (CLIP-style) section
(recipes/pairing_digits.py): digit pictures ↔ their words in English or Chinese, contrastive, seeded.

    python -m cli.pairing_digits                   # into models/weights/checkpoints/pairing-digits
    python -m cli.pairing_digits --out /tmp/pair   # somewhere else
"""
from __future__ import annotations

import argparse
from pathlib import Path

import lab.pairing
from recipes import pairing_digits


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.pairing_digits", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=lab.pairing.FOLDER,
                    help="output folder (default models/weights/checkpoints/pairing-digits)")
    a = ap.parse_args(argv)
    pairing_digits.main(a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

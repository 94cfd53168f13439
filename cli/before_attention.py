"""Train the two copy-task models of the walk-through's "Before attention" section
(recipes/before_attention.py): a GRU encoder–decoder and a toy Transformer, both on inputs
of 2..16 symbols, seeded.

    python -m cli.before_attention                      # both
    python -m cli.before_attention --only gru           # or --only transformer
    python -m cli.before_attention --out /tmp/ba        # somewhere else
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from recipes import before_attention


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.before_attention", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("gru", "transformer"), default=None)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    ap.add_argument("--out", type=Path, default=before_attention.OUT,
                    help="output folder (default models/weights/checkpoints/before-attention)")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    before_attention.main(a.only, a.out)
    return 0


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    sys.exit(main())

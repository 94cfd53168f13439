"""Train toy models from the command line, and reproduce the shipped checkpoints.

    python -m cli.train --task reverse --positional rope          # one model -> models/weights/checkpoints/
    python -m cli.train --task reverse --norm-position post --out /tmp/rev
    python -m cli.train --all                                     # every shipped checkpoint
    python -m cli.train --all --only reverse-rope copy-none       # some of them

Every run is seeded (same command, same CPU build -> same weights) and writes
`<stem>.safetensors` + `<stem>.json`, whose "meta" card holds the config, seed, steps,
final accuracy, training length and the command that made it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from models.config import POSITIONALS
from models.training.tasks import TASKS
from models.weights.checkpoint import CHECKPOINT_DIR
from recipes.toys import SHIPPED, Recipe, run_recipe


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.train", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", choices=sorted(TASKS))
    ap.add_argument("--positional", choices=POSITIONALS)
    ap.add_argument("--norm-position", choices=("pre", "post"), default="pre")
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's choice)")
    ap.add_argument("--out", type=Path, default=CHECKPOINT_DIR, help="output folder (default models/weights/checkpoints)")
    ap.add_argument("--all", action="store_true", help="train every shipped checkpoint")
    ap.add_argument("--only", nargs="*", default=None, help="with --all: just these stems")
    args = ap.parse_args(argv)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    try:
        if args.all:
            recipes = [r for r in SHIPPED if args.only is None or r.stem in args.only]
            unknown = set(args.only or ()) - {r.stem for r in SHIPPED}
            if unknown:
                ap.error(f"unknown checkpoint(s): {', '.join(sorted(unknown))}")
        elif args.task:
            recipes = [Recipe(args.task, args.positional, args.norm_position, steps=args.steps, lr=args.lr)]
        else:
            ap.error("give --task (and options) or --all")
        for r in recipes:
            path = run_recipe(r, args.out, args.seed, args.device)
            print(f"wrote {path}")
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

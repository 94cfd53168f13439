"""Train toy models from the command line, and reproduce the shipped checkpoints.

    python -m models.train --task reverse --positional rope          # one model -> models/checkpoints/
    python -m models.train --task reverse --norm-position post --out /tmp/rev
    python -m models.train --all                                     # every shipped checkpoint
    python -m models.train --all --only reverse-rope copy-none       # some of them

Every run is seeded (same command, same CPU build -> same weights) and writes
`<stem>.safetensors` + `<stem>.json`, whose "meta" card holds the config, seed, steps,
final accuracy, training length and the command that made it.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checkpoint import CHECKPOINT_DIR, save_checkpoint
from .config import POSITIONALS
from .tasks import TASKS, checkpoint_stem, get_task
from .training import TrainSettings, train

# the toy models the PE, mask, FFN and generation pages compare: one size for all
BASE = dict(n_layers=2, n_heads=4, d_model=64, d_ff=256)


@dataclass(frozen=True)
class Recipe:
    task: str
    positional: str | None = None          # None: the task's default, not part of the name
    norm_position: str = "pre"
    model: dict[str, Any] = field(default_factory=dict)
    steps: int = 1500
    lr: float = 3e-3
    warmup: int = 30

    @property
    def stem(self) -> str:
        return checkpoint_stem(self.task, self.positional, self.norm_position)


SHIPPED: tuple[Recipe, ...] = (
    *(Recipe("copy", pe) for pe in POSITIONALS),
    *(Recipe("reverse", pe) for pe in POSITIONALS),
    # post-LN needs a gentler start (Xiong et al. 2020: warm-up matters most without pre-LN)
    Recipe("reverse", "sinusoidal", "post", lr=1e-3, warmup=300),
    Recipe("sort", model={"positional": "sinusoidal"}),
    Recipe("induction", model={"positional": "rope"}),
    Recipe("brackets", model={"positional": "rope", "n_layers": 3}, steps=3000),
    Recipe("spell", model={"positional": "sinusoidal"}, steps=1500),
)


def run_recipe(r: Recipe, out_dir: Path = CHECKPOINT_DIR, seed: int = 0, device: str = "cpu",
               target: float | None = 0.995, log=print) -> Path:
    """Train one recipe and save it; returns the JSON path."""
    task = get_task(r.task)
    overrides = {**BASE, **r.model, "norm_position": r.norm_position}
    if r.positional is not None:
        overrides["positional"] = r.positional
    cfg = task.default_config(**overrides)
    settings = TrainSettings(steps=r.steps, lr=r.lr, warmup=r.warmup, seed=seed, target_accuracy=target,
                             snapshot_every=r.steps)           # no probe snapshots needed here

    def report(run):
        if run.step % 250 == 0 or run.finished:
            acc = f"{run.final_accuracy:.3f}" if run.accuracy else "-"
            log(f"  {r.stem}: step {run.step}/{r.steps} loss {run.loss[-1] if run.loss else float('nan'):.4f} "
                f"accuracy {acc} ({run.seconds:.0f} s)")

    run = train(task, cfg, settings, device=device, callback=report)
    if run.state == "failed":
        raise RuntimeError(f"{r.stem} failed: {run.error}")
    accuracy = task.evaluate(run.model)                        # fresh examples, not the training eval batch
    pe = cfg.positional
    meta = {**run.card(), "accuracy": round(accuracy, 4),
            "label": f"Toy: {task.title.lower()} · {pe}" + (" · post-LN" if r.norm_position == "post" else ""),
            "description": f"{task.description} Trained {run.step} steps on inputs of {task.train_len} symbols; "
                           f"exact-sequence accuracy {accuracy:.1%}.",
            "command": f"python -m models.train --all --only {r.stem}"}
    return save_checkpoint(run.model, task.tokenizer, out_dir / r.stem, meta)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", choices=sorted(TASKS))
    ap.add_argument("--positional", choices=POSITIONALS)
    ap.add_argument("--norm-position", choices=("pre", "post"), default="pre")
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's choice)")
    ap.add_argument("--out", type=Path, default=CHECKPOINT_DIR, help="output folder (default models/checkpoints)")
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

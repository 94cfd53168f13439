"""The recipes of the shipped toy checkpoints: one size for all, one seed, the
settings each task needs. `run_recipe` trains one and saves it (safetensors + JSON card);
`python -m cli.train` is the command line around it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.config import POSITIONALS
from models.training.tasks import checkpoint_stem, get_task
from models.training.trainer import TrainSettings, train
from models.weights.checkpoint import CHECKPOINT_DIR, save_checkpoint

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
            "command": f"python -m cli.train --all --only {r.stem}"}
    return save_checkpoint(run.model, task.tokenizer, out_dir / r.stem, meta)

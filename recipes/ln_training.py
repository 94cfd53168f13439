"""The experiment of the residual page's *Training: Pre-LN vs Post-LN* section: one small
decoder (MODEL) trained four times on the reverse task with the project's trainer
(models/training/trainer.py, its defaults: AdamW, gradient clipping at 1, cosine decay), the
norm before (pre-LN) or after (post-LN) each sub-layer, with no warm-up or with WARMUP steps of
linear warm-up; the same seed, so the same initial weights (up to the norms' place) and the
same batches in all four. Per run: the loss and learning rate of every step, the accuracy every
25 steps, and the gradient norm of every layer's parameters at GRAD_STEPS on one fixed batch
(lab/ln_training.py `layer_grad_norms`). The result is a small JSON file (lab.ln_training.RESULTS)
holding the command that remakes it:

    python -m recipes.ln_training                  # the shipped file (a few minutes on 2 CPU cores)
    python -m recipes.ln_training --steps 20 --out /tmp/x.json     # a quick check
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from lab.ln_training import FORMAT, RESULTS, check_results, layer_grad_norms
from models.training.tasks import get_task
from models.training.trainer import TrainSettings, build_model, train

TASK = "reverse"
MODEL = dict(n_layers=6, n_heads=4, d_model=64, d_ff=256, positional="sinusoidal")
STEPS, LR, WARMUP, SEED = 600, 3e-3, 300, 0
GRAD_STEPS = (0, 10, 50, 150, 300, 600)
GRAD_BATCH = 64
COMMAND = "python -m recipes.ln_training"


def grad_steps_for(steps: int) -> list[int]:
    """GRAD_STEPS that a run of `steps` reaches, and its last step."""
    return sorted({s for s in GRAD_STEPS if s <= steps} | {steps})


def run_one(norm_position: str, warmup: int, steps: int = STEPS, lr: float = LR, seed: int = SEED,
            log=print) -> dict:
    """One training run, as the JSON's run record."""
    task = get_task(TASK)
    cfg = task.default_config(**MODEL, norm_position=norm_position)
    settings = TrainSettings(steps=steps, lr=lr, warmup=warmup, seed=seed, snapshot_every=steps)
    batch = task.batch(GRAD_BATCH, np.random.default_rng(seed + 20_000))
    wanted = grad_steps_for(steps)
    labels, norms = layer_grad_norms(build_model(cfg, seed), batch)      # step 0: the initial weights
    measured, rows = [0], [norms]

    def at_step(run) -> None:
        if run.step in wanted and run.step not in measured and run.model is not None:
            measured.append(run.step)
            rows.append(layer_grad_norms(run.model, batch)[1])
        if run.finished or run.step % 100 == 0:
            log(f"  {norm_position}-LN warm-up {warmup}: step {run.step}/{steps} "
                f"loss {run.loss[-1] if run.loss else float('nan'):.4f} ({run.seconds:.0f} s)")

    t0 = time.perf_counter()
    run = train(task, cfg, settings, callback=at_step)
    return {"norm_position": norm_position, "warmup": warmup, "state": run.state, "error": run.error,
            "loss": [round(x, 5) for x in run.loss], "lr": [float(f"{x:.6g}") for x in run.lr],
            "eval_steps": run.eval_steps, "accuracy": [round(a, 4) for a in run.accuracy],
            "grad_steps": measured, "grad_labels": labels,
            "grad_norms": [[float(f"{v:.5g}") for v in row] for row in rows],
            "seconds": round(time.perf_counter() - t0, 1)}


def run_all(steps: int = STEPS, lr: float = LR, warmup: int = WARMUP, seed: int = SEED, log=print) -> dict:
    """The four runs and what they were run with."""
    command = COMMAND + ("" if (steps, lr, warmup, seed) == (STEPS, LR, WARMUP, SEED)
                         else f" --steps {steps} --lr {lr} --warmup {warmup} --seed {seed}")
    runs = [run_one(n, w, steps, lr, seed, log) for n in ("pre", "post") for w in (0, warmup)]
    data = {"format": FORMAT, "version": 1, "command": command, "task": TASK, "model": MODEL,
            "steps": steps, "lr": lr, "warmup": warmup, "seed": seed, "grad_steps": grad_steps_for(steps),
            "grad_batch": GRAD_BATCH, "torch": torch.__version__, "runs": runs}
    check_results(data)
    return data


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=STEPS)
    p.add_argument("--lr", type=float, default=LR)
    p.add_argument("--warmup", type=int, default=WARMUP)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", type=Path, default=RESULTS)
    a = p.parse_args(argv)
    torch.set_num_threads(1)            # the same numbers on any machine's thread count
    data = run_all(a.steps, a.lr, a.warmup, a.seed)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {a.out}")
    return a.out


if __name__ == "__main__":
    main()

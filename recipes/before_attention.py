"""The two copy-task models of the walk-through's "Before attention" section, trained on the
SAME task at the SAME input lengths (2..MAX_LEN symbols, uniform), seeded:

- gru-copy: a GRU encoder–decoder without attention (lab/before_attention.py `GRUSeq2Seq`),
  the decoder sees the input only through the encoder's last hidden state;
- transformer-copy: the toy decoder of recipes/toys.py (2 layers, 4 heads, d 64) with RoPE,
  trained with the project's trainer until 99.5% exact on its evaluation batch. (The
  shipped copy-* checkpoints were trained at 8 symbols only and fail at every other length,
  a matter of positions, not of attention; with sinusoidal positions and mixed lengths
  1500 steps left this one at 62% on 10 symbols, with RoPE it learns every length.)

Both ship in models/weights/checkpoints/before-attention/ (a subfolder: they are not
catalogue models); lab/before_attention.py loads them (`load_gru`, `load_transformer`) and
the app evaluates them live on a fixed seeded batch per length.

    python -m cli.before_attention              # both (the GRU about a minute on one CPU thread, the Transformer a few)
    python -m cli.before_attention --only gru   # one of them
"""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import save_file

from lab.before_attention import (COMMAND, GRU_STEM, MAX_LEN, OUT, TRANSFORMER_STEM, GRUSeq2Seq, copy_accuracy,
                                  copy_batch, copy_task, eval_batches, load_gru, load_transformer)
from models.training.trainer import TrainSettings, train
from models.weights.checkpoint import save_checkpoint

from .toys import BASE

SEED = 0
GRU = dict(hidden=64, embed=32)
GRU_STEPS, GRU_LR, BATCH = 3000, 3e-3, 64
TRANSFORMER_STEPS = 3000


def train_gru(steps: int = GRU_STEPS, seed: int = SEED, log=print) -> tuple[GRUSeq2Seq, dict]:
    """The GRU encoder–decoder, Adam with a cosine decay, one input length per batch."""
    torch.manual_seed(seed)
    task = copy_task(MAX_LEN)
    model = GRUSeq2Seq(task.tokenizer.vocab_size, **GRU)
    opt = torch.optim.Adam(model.parameters(), lr=GRU_LR)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps, eta_min=GRU_LR / 10)
    rng = np.random.default_rng(seed)
    loss_fn = torch.nn.CrossEntropyLoss()
    t0, loss = time.perf_counter(), float("nan")
    for step in range(1, steps + 1):
        model.train()
        b = copy_batch(task, BATCH, int(rng.integers(2, MAX_LEN + 1)), rng)
        logits = model(b.src, b.dec_in)
        out = loss_fn(logits.reshape(-1, logits.shape[-1]), b.answer.reshape(-1))
        opt.zero_grad()
        out.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        loss = float(out.detach())
        if step % 250 == 0 or step == steps:
            log(f"  {GRU_STEM}: step {step}/{steps} loss {loss:.4f} ({time.perf_counter() - t0:.0f} s)")
    meta = {"stem": GRU_STEM, "task": "copy", "dtype": "float16", "lengths": [2, MAX_LEN], "seed": seed, "steps": steps, "lr": GRU_LR,
            "batch_size": BATCH, **GRU, "vocab": task.tokenizer.vocab_size, "loss": round(loss, 4),
            "seconds": round(time.perf_counter() - t0, 1), "command": COMMAND + " --only gru"}
    return model, meta


def save_gru(model: GRUSeq2Seq, meta: dict, out_dir: Path = OUT) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    save_file({k: v.detach().half().contiguous() for k, v in model.state_dict().items()},      # fp16 on disk
              str(out_dir / f"{GRU_STEM}.safetensors"))
    path = out_dir / f"{GRU_STEM}.json"
    path.write_text(json.dumps(meta, indent=1) + "\n")
    return path


def train_transformer(steps: int = TRANSFORMER_STEPS, seed: int = SEED, log=print):
    """The toy decoder on the same task and lengths (the project's trainer)."""
    task = copy_task(MAX_LEN)
    cfg = task.default_config(**BASE, positional="rope")
    settings = TrainSettings(steps=steps, lr=3e-3, warmup=100, seed=seed, target_accuracy=0.995,
                             snapshot_every=steps)

    def report(run):
        if run.step % 250 == 0 or run.finished:
            log(f"  {TRANSFORMER_STEM}: step {run.step}/{steps} loss {run.loss[-1] if run.loss else float('nan'):.4f}"
                f" ({run.seconds:.0f} s)")

    run = train(task, cfg, settings, device="cpu", callback=report)
    if run.state == "failed":
        raise RuntimeError(f"{TRANSFORMER_STEM} failed: {run.error}")
    return run, task


def save_transformer(run, task, out_dir: Path = OUT) -> Path:
    meta = {**run.card(), "lengths": [2, MAX_LEN], "dtype": "float16", "label": "Toy: copy · 2–16 symbols",
            "description": f"The copy task on inputs of 2 to {MAX_LEN} symbols (the Before attention section).",
            "command": COMMAND + " --only transformer"}
    return save_checkpoint(copy.deepcopy(run.model).half(), task.tokenizer, out_dir / TRANSFORMER_STEM, meta)


def main(only: str | None = None, out_dir: Path = OUT, log=print) -> None:
    """Train, save (fp16) and report each model's accuracy per length as the app will compute it
    (the saved weights read back in float32)."""
    lengths = list(range(2, MAX_LEN + 1, 2))
    batches = eval_batches(lengths)
    if only in (None, "gru"):
        model, meta = train_gru(log=log)
        path = save_gru(model, meta, out_dir)
        log(f"wrote {path}; accuracy {dict(zip(lengths, copy_accuracy(load_gru(out_dir)[0], batches)))}")
    if only in (None, "transformer"):
        run, task = train_transformer(log=log)
        path = save_transformer(run, task, out_dir)
        log(f"wrote {path}; accuracy {dict(zip(lengths, copy_accuracy(load_transformer(out_dir)[0], batches)))}")

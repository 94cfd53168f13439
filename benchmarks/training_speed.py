"""Training speed: steps per second of the lab's default model, side by side with a plain
PyTorch baseline of the same shape, and the time to 95% on the reverse task.

1. Steps/s. One AdamW step (forward, loss on the answer tokens, backward, update) on a
   reverse batch (64 sequences of 18 tokens), for our instrumented `Transformer` and for
   `torch.nn.TransformerEncoder` (the same width, heads, FFN, pre-LN, GELU, causal mask,
   sinusoidal positions, untied unembedding), timed as interleaved medians
   (benchmarks/_timing.py). The ratio shows what our readable model and its hook points
   cost while training (no hook is recorded while training).
2. Time to 95%: the lab's default reverse run (1 layer, 4 heads, d_model 64, sinusoidal,
   lr 3e-3, batch 64, seed 0), stopping at the first evaluation with >= 95% exact-sequence
   accuracy on 256 held-out examples; then `Task.evaluate` on fresh examples confirms it.
   Target: <= 30 s on the 2-core CPU machine. Run with and without the app's setting of
   one intra-op thread (the lab trains on one thread; see ui/views/training.py).

    python -m benchmarks.training_speed [--repeats 30] [--device cpu] [--no-doc]
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from benchmarks._timing import interleaved_medians, load_average, machine, publish  # noqa: E402
from models import positional  # noqa: E402
from models.training.tasks import IGNORE, get_task  # noqa: E402
from models.training.trainer import TrainSettings, build_model, train  # noqa: E402

TARGET_S = 30.0


class Baseline(torch.nn.Module):
    """torch.nn.TransformerEncoder with a causal mask: the same shape as our toy decoder."""

    def __init__(self, vocab: int, d: int, heads: int, d_ff: int, layers: int, max_len: int) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, d)
        layer = torch.nn.TransformerEncoderLayer(d, heads, d_ff, dropout=0.0, activation="gelu", batch_first=True,
                                                 norm_first=True)
        self.blocks = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.ln = torch.nn.LayerNorm(d)
        self.unembed = torch.nn.Linear(d, vocab, bias=False)
        self.register_buffer("pe", positional.sinusoidal(max_len, d))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        n = ids.shape[1]
        x = self.embed(ids) + self.pe[:n]
        mask = torch.nn.Transformer.generate_square_subsequent_mask(n, device=ids.device)
        return self.unembed(self.ln(self.blocks(x, mask=mask, is_causal=True)))


def step_fn(model, opt, ids, targets):
    def step():
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=IGNORE)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def steps_per_second(device: str, repeats: int) -> dict[str, float]:
    task = get_task("reverse")
    cfg = task.default_config()
    ours = build_model(cfg, 0, device).train()
    torch.manual_seed(0)
    base = Baseline(cfg.vocab_size, cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.n_layers, cfg.max_len).to(device).train()
    b = task.batch(64, np.random.default_rng(0))
    ids, targets = b.ids.to(device), b.targets.to(device)
    fns = {"glassbox": step_fn(ours, torch.optim.AdamW(ours.parameters(), 1e-3), ids, targets),
           "torch.nn": step_fn(base, torch.optim.AdamW(base.parameters(), 1e-3), ids, targets)}
    med = interleaved_medians(fns, repeats=repeats, warmup=5)
    return {k: 1.0 / v for k, v in med.items()}


def time_to_95(device: str) -> tuple[float, int, float]:
    task = get_task("reverse")
    t0 = time.perf_counter()
    run = train(task, task.default_config(), TrainSettings(steps=1000, seed=0, target_accuracy=0.95), device=device)
    seconds = time.perf_counter() - t0
    return seconds, run.step, task.evaluate(run.model)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--no-doc", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = ap.parse_args()
    rows, default_threads = [], torch.get_num_threads()
    for threads in sorted({default_threads, 1}, reverse=True):
        torch.set_num_threads(threads)
        sps = steps_per_second(args.device, args.repeats)
        secs, steps, acc = time_to_95(args.device)
        rows.append((threads, sps, secs, steps, acc))
        print(f"{threads} thread(s): steps/s glassbox {sps['glassbox']:.1f}, torch.nn {sps['torch.nn']:.1f} "
              f"(ratio {sps['glassbox'] / sps['torch.nn']:.2f}); reverse to 95%: {secs:.1f} s, {steps} steps, "
              f"fresh accuracy {acc:.1%}")
    torch.set_num_threads(default_threads)
    load = load_average()
    lines = [f"## Training: steps/s and time to 95% on reverse, {args.device}", "",
             f"{time.strftime('%Y-%m-%d')}, {machine()}, load average {load}. "
             "`python -m benchmarks.training_speed`. Steps/s: one AdamW step on a reverse batch (64 x 18 tokens), "
             "our model vs `torch.nn.TransformerEncoder` of the same shape, interleaved medians. Time to 95%: the "
             f"lab's default reverse run until the first evaluation at >= 95% (target <= {TARGET_S:.0f} s).", "",
             "| intra-op threads | glassbox steps/s | torch.nn steps/s | ratio | reverse to 95% | steps | fresh accuracy |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for threads, sps, secs, steps, acc in rows:
        ok = "yes" if secs <= TARGET_S else "NO"
        lines.append(f"| {threads} | {sps['glassbox']:.1f} | {sps['torch.nn']:.1f} | "
                     f"{sps['glassbox'] / sps['torch.nn']:.2f} | {secs:.1f} s ({ok}) | {steps} | {acc:.1%} |")
    publish("training", "\n".join(lines), write_doc=not args.no_doc)
    if not all(math.isfinite(r[2]) for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()

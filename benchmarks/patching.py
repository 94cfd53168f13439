"""Activation patching: the cost of a full layer x position residual-stream sweep, as a
ratio to one forward pass.

A sweep (lab/patching.py, site "resid") patches the stream entering every layer, and the
stream leaving the last one, at every position: (layers + 1) x positions patched runs,
plus A's recorded pass and B's pass. Done naively, each run is one forward pass, so the
floor of the naive approach is about layers x positions forward passes; the issue's goal
is <= 1.2 x layers x positions. The sweep batches the runs of one layer (one row per
patched position) and unembeds only the position the metric reads
(`Transformer.forward(out_positions=...)`), so it should land well below.

Models: every shipped toy decoder checkpoint on its task's example (text B: one input
symbol changed), and a 6-layer GPT-2-style preset (the catalogue's "gpt" preset with
n_layers=6: d_model 64, 4 heads, the 30,522-token WordPiece vocabulary; random weights,
speed does not depend on them) at 32 tokens. Times are medians of interleaved
repetitions (benchmarks/_timing.py): one forward pass (batch 1, every position's logits),
the sweep as the app runs it (batch as the memory budget allows, at most 64 rows), and
the sweep one run at a time (batch 1: the single-position unembedding alone).

    python -m benchmarks.patching [--repeats 5] [--threads N] [--device cpu] [--no-doc]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOAL = 1.2                 # x layers x positions forward passes


def pair(model, tok, key: str) -> tuple[list[int], list[int]]:
    """(A, B) ids: the task's example and the same with one symbol changed."""
    from models.training.tasks import get_task
    from models.weights import zoo

    task = get_task(zoo.get(key).task)
    a = task.probe().ids
    b = list(a)
    i = 1 + task.train_len // 2                               # an input symbol (after <bos>)
    b[i] = next(j for j in task.tokenizer.encode(task.symbols, add_special_tokens=False).ids if j != a[i])
    return a, b


def measure(model, a, b, repeats: int, device: str) -> dict:
    import torch

    from benchmarks._timing import interleaved_medians
    from lab import patching
    from lab.memory import working_bytes
    from models.limits import megabytes

    n = len(a)
    with torch.inference_mode():
        logits = model(a)[0, -1]
    top = int(logits.argmax())
    metric = patching.Metric("logit_diff", n - 1, top, int(logits.topk(2).indices[1]))
    batch = max(1, min(64, megabytes("trace_mb") // max(1, working_bytes(model.cfg, n))))
    ids = torch.tensor([a], device=device)

    def forward() -> None:
        with torch.inference_mode():
            model(ids)

    fns = {"forward": forward,
           "sweep": lambda: patching.sweep(model, a, b, "resid", metric, batch=batch),
           "sweep_1": lambda: patching.sweep(model, a, b, "resid", metric, batch=1)}
    med = interleaved_medians(fns, repeats=repeats, warmup=1)
    sweep = patching.sweep(model, a, b, "resid", metric, batch=batch)
    L = model.cfg.n_layers
    return {"L": L, "n": n, "runs": sweep.runs, "passes": sweep.passes, "batch": batch,
            "forward_ms": med["forward"] * 1e3, "sweep_ms": med["sweep"] * 1e3, "sweep1_ms": med["sweep_1"] * 1e3,
            "ratio": med["sweep"] / med["forward"], "ratio1": med["sweep_1"] / med["forward"],
            "goal": GOAL * L * n}


def main() -> None:
    import torch

    from benchmarks._timing import load_average, machine, publish, timing_args

    args = timing_args(__doc__, repeats=5)
    from benchmarks.summary import summary_line
    from models.weights import zoo

    load_at_start = load_average()
    rows = []
    for e in zoo.toy_entries():
        if not e.available or e.config.arch != "decoder":
            continue
        model, tok = zoo.load(e.key, device=args.device)
        a, b = pair(model, tok, e.key)
        rows.append((e.key, measure(model, a, b, args.repeats, args.device)))
        print(e.key, {k: round(v, 2) for k, v in rows[-1][1].items()}, flush=True)
    cfg = zoo.PRESETS["gpt"][2].replace(n_layers=6)
    gpt = zoo.build_random(cfg, seed=0, device=args.device)
    a = torch.randint(1000, cfg.vocab_size, (32,), generator=torch.Generator().manual_seed(0)).tolist()
    b = list(a)
    b[10] = (a[10] + 1) % cfg.vocab_size
    rows.append(("6-layer GPT-2-style preset, 32 tokens", measure(gpt, a, b, args.repeats, args.device)))
    print(rows[-1], flush=True)

    lines = [f"## Activation patching: a full layer x position residual sweep, {args.device}\n",
             f"`python -m benchmarks.patching{f' --threads {args.threads}' if args.threads else ''}`: "
             "lab/patching.py, site \"resid\": the stream entering every layer and leaving the last, patched at "
             "every position ((layers + 1) x positions runs, plus A's recorded pass and B's), scored by the logit "
             "difference at the last position. Ratios are the sweep's time over one forward pass (batch 1, "
             "every position's logits) of the same model, medians of "
             f"{args.repeats} interleaved repetitions. Goal: <= {GOAL} x layers x positions. \"batched\" is the "
             "app's sweep (one batched pass per layer, only the read position unembedded); \"one at a time\" "
             "runs each patch alone (still one position unembedded): on the toy models, ~1 ms a pass, the fixed "
             "cost of a pass with a hook dominates, so one run at a time can cost more than a plain forward each; "
             "batching pays it once per layer. Toy checkpoints read their task's example, "
             "text B with one input symbol changed. "
             f"Machine: {machine()}; load average {load_at_start} at the start (a shared machine: absolute "
             "times are noisy, the ratios are measured side by side).\n",
             "| model | layers x positions | patched runs | batched passes (rows) | forward ms | sweep ms "
             "(batched) | ratio batched | ratio one at a time | goal (1.2 x L x n) | met |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for name, r in rows:
        lines.append(f"| {name} | {r['L']} x {r['n']} | {r['runs']} | {r['passes']} ({r['batch']}) | "
                     f"{r['forward_ms']:.2f} | {r['sweep_ms']:.1f} | {r['ratio']:.1f} | {r['ratio1']:.1f} | "
                     f"{r['goal']:.0f} | {'yes' if r['ratio'] <= r['goal'] else '**no**'} |")
    gpt_row = rows[-1][1]
    toys = [r for _, r in rows[:-1]]
    worst = max(toys, key=lambda r: r["ratio"] / r["goal"]) if toys else None
    lines.append("")
    lines.append(f"6-layer GPT-2-style preset at 32 tokens: the sweep costs {gpt_row['ratio']:.1f} forward passes "
                 f"= {gpt_row['ratio'] / (gpt_row['L'] * gpt_row['n']):.3f} x layers x positions (goal <= {GOAL}).")
    lines.append(summary_line("Patching sweep / forward, 6-layer GPT-2-style preset, 32 tokens (x L x n)",
                              f"{gpt_row['ratio'] / (gpt_row['L'] * gpt_row['n']):.3f}", f"<= {GOAL}",
                              gpt_row["ratio"] <= gpt_row["goal"]))
    if worst is not None:
        lines.append(f"Toy checkpoints: at worst {worst['ratio'] / (worst['L'] * worst['n']):.3f} x layers x "
                     f"positions.")
        lines.append(summary_line("Patching sweep / forward, toy checkpoints, worst (x L x n)",
                                  f"{worst['ratio'] / (worst['L'] * worst['n']):.3f}", f"<= {GOAL}",
                                  all(r["ratio"] <= r["goal"] for r in toys)))
    publish("patching", "\n".join(lines), write_doc=not args.no_doc)


if __name__ == "__main__":
    main()

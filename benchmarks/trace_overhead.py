"""Cost of recording: run_with_cache (all hooks) / plain forward, same process.

Config: 6 layers, 12 heads, d_model=384 (MiniLM's shape), 128 tokens, CPU.
Target (issue: core): ratio <= 1.10 with the allocator setting the app uses
(`models.runtime.tune_allocator`); the default glibc allocator is measured beside it,
each in its own process.

    python -m benchmarks.trace_overhead [--tokens 128] [--repeats 40]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def measure(tokens: int, repeats: int, device: str, tuned: bool) -> None:
    import torch

    from benchmarks._timing import interleaved_medians, machine
    from models import Transformer, TransformerConfig
    from models.runtime import tune_allocator

    applied = tune_allocator() if tuned else False
    cfg = TransformerConfig(arch="encoder", vocab_size=30522, d_model=384, n_layers=6, n_heads=12, d_ff=1536,
                            max_len=512, positional="learned", norm="layernorm", norm_position="post",
                            activation="gelu", output="hidden")
    model = Transformer(cfg, device=device).eval()
    ids = torch.randint(0, cfg.vocab_size, (1, tokens), generator=torch.Generator().manual_seed(0))

    def plain() -> None:
        with torch.inference_mode():
            model(ids)

    def cached() -> None:
        model.run_with_cache(ids)

    med = interleaved_medians({"forward": plain, "run_with_cache": cached}, repeats=repeats)
    _, trace = model.run_with_cache(ids)
    ratio = med["run_with_cache"] / med["forward"]
    label = "tuned (models.runtime.tune_allocator)" if applied else "default"
    print(f"allocator: {label}; machine: {machine()}")
    print(f"{len(trace)} hooks recorded, {trace.nbytes / 2**20:.1f} MiB per pass")
    print(f"| path | median ms |\n| --- | ---: |\n| forward | {med['forward'] * 1e3:.2f} |\n"
          f"| run_with_cache | {med['run_with_cache'] * 1e3:.2f} |")
    verdict = "" if not applied else (" (target <= 1.10: OK)" if ratio <= 1.10 else " (target <= 1.10: MISSED)")
    print(f"ratio run_with_cache / forward = {ratio:.3f}{verdict}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--allocator", choices=("both", "tuned", "default"), default="both")
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args()
    if args.allocator != "both":
        measure(args.tokens, args.repeats, args.device, args.allocator == "tuned")
        return
    parts = [f"## Trace overhead: 6 layers x 12 heads, d_model 384, {args.tokens} tokens, {args.device}\n",
             "`python -m benchmarks.trace_overhead`: medians of interleaved repetitions, same process per "
             "allocator setting. Target: ratio <= 1.10 with the allocator setting the app uses.\n"]
    for mode in ("tuned", "default"):  # separate processes: allocator settings are process-wide
        run = subprocess.run([sys.executable, "-m", "benchmarks.trace_overhead", "--tokens", str(args.tokens),
                              "--repeats", str(args.repeats), "--device", args.device, "--allocator", mode],
                             cwd=ROOT, check=True, capture_output=True, text=True)
        parts.append(run.stdout)
    from benchmarks._timing import publish

    publish("trace_overhead", "\n".join(parts), write_doc=not args.no_doc)


if __name__ == "__main__":
    main()

"""Cost of recording: run_with_cache (all hooks) / plain forward, same process.

Config: 6 layers, 12 heads, d_model=384 (MiniLM's shape), 128 tokens, CPU.
Target: ratio <= 1.10 in a fresh process that only imports `models` (which applies
`models.runtime.tune_allocator`, as the app does); the same fresh process with
GLASSBOX_TUNE_ALLOCATOR=0 (glibc's default allocator, what `import models` did before)
is measured beside it. Each setting runs in its own fresh process, which calls nothing
but `import models` and the model.

    python -m benchmarks.trace_overhead [--tokens 128] [--repeats 40]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def measure(tokens: int, repeats: int, device: str) -> dict:
    """In this process: whatever `import models` set up (see GLASSBOX_TUNE_ALLOCATOR)."""
    import torch

    from benchmarks._timing import interleaved_times, paired_ratio
    from models import Transformer, TransformerConfig, runtime

    applied = runtime.allocator_tuned()
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

    times = interleaved_times({"forward": plain, "run_with_cache": cached}, repeats=repeats)
    _, trace = model.run_with_cache(ids)
    ratio, q1, q3 = paired_ratio(times, "run_with_cache", "forward")
    return {"tuned": applied, "hooks": len(trace), "mib": trace.nbytes / 2**20, "ratio": ratio, "q1": q1, "q3": q3,
            "forward_ms": statistics.median(times["forward"]) * 1e3,
            "cached_ms": statistics.median(times["run_with_cache"]) * 1e3}


LABELS = {"tuned": "`import models` only (tuned on import)",
          "default": "`import models`, GLASSBOX_TUNE_ALLOCATOR=0 (glibc default)"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=20, help="interleaved rounds per process")
    ap.add_argument("--processes", type=int, default=3, help="fresh processes per allocator setting, alternated")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--allocator", choices=("both", "tuned", "default"), default="both")
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args()
    if args.allocator != "both":          # a child: one fresh process, one JSON line
        from models.runtime import allocator_opted_out

        if (args.allocator == "tuned") == allocator_opted_out():
            raise SystemExit("--allocator is set by the parent with GLASSBOX_TUNE_ALLOCATOR; run without it")
        print(json.dumps(measure(args.tokens, args.repeats, args.device)))
        return
    from benchmarks._timing import load_average, machine, publish
    from benchmarks.summary import summary_line

    load0 = load_average()
    runs: dict[str, list[dict]] = {"tuned": [], "default": []}
    for i in range(args.processes):       # fresh processes, alternated: allocator settings are process-wide
        for mode in (("tuned", "default") if i % 2 == 0 else ("default", "tuned")):
            env = {k: v for k, v in os.environ.items() if k != "GLASSBOX_TUNE_ALLOCATOR"}
            if mode == "default":
                env["GLASSBOX_TUNE_ALLOCATOR"] = "0"
            run = subprocess.run([sys.executable, "-m", "benchmarks.trace_overhead", "--tokens", str(args.tokens),
                                  "--repeats", str(args.repeats), "--device", args.device, "--allocator", mode],
                                 cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            got = json.loads(run.stdout.strip().splitlines()[-1])
            assert got["tuned"] == (mode == "tuned"), got
            runs[mode].append(got)
            print(f"[{mode}] ratio {got['ratio']:.3f}", file=sys.stderr)
    med = {m: statistics.median(r["ratio"] for r in rs) for m, rs in runs.items()}
    first = runs["tuned"][0]
    lines = [f"## Trace overhead: 6 layers x 12 heads, d_model 384, {args.tokens} tokens, {args.device}", "",
             f"`python -m benchmarks.trace_overhead`: {args.processes} fresh processes per allocator setting, "
             "alternated; each only imports `models` (no explicit tuning call) and times the plain forward and "
             f"`run_with_cache` (all {first['hooks']} hooks, {first['mib']:.1f} MiB per pass) in {args.repeats} "
             "interleaved rounds; its ratio is the median of the per-round ratios. Target: ratio <= 1.10 in a "
             f"fresh process that only imports `models`. Machine: {machine()}; 1-min load average "
             f"{load0.split(',')[0]} at the start, {load_average().split(',')[0]} at the end.", "",
             "| process | forward ms (median) | run_with_cache ms | ratio per process | ratio (median) |",
             "| --- | ---: | ---: | --- | ---: |"]
    for mode, rs in runs.items():
        lines.append(f"| {LABELS[mode]} | {statistics.median(r['forward_ms'] for r in rs):.1f} "
                     f"| {statistics.median(r['cached_ms'] for r in rs):.1f} "
                     f"| {', '.join(format(r['ratio'], '.3f') for r in rs)} | {med[mode]:.3f} |")
    ok = med["tuned"] <= 1.10
    lines += ["", f"ratio run_with_cache / forward = {med['tuned']:.3f} (target <= 1.10: {'OK' if ok else 'MISSED'}); "
              f"with GLASSBOX_TUNE_ALLOCATOR=0 (what `import models` gave before it tuned the allocator): "
              f"{med['default']:.3f}.",
              summary_line("Trace overhead, run_with_cache / forward, fresh `import models` process "
                           f"(MiniLM shape, {args.tokens} tokens)", f"{med['tuned']:.3f}", "<= 1.10", ok)]
    publish("trace_overhead", "\n".join(lines), write_doc=not args.no_doc)


if __name__ == "__main__":
    main()

"""Generation speed: tokens per second with and without the KV cache, side by side.

Model: a GPT-2-style decoder (4 layers, 8 heads, d_model 256, d_ff 1024, learned
positions, vocab 8192, ~5 M parameters, random weights: speed does not depend on the
weights), the size of the app's larger toy models. For each context length
(64 / 256 / 1024 prompt tokens) it generates `--new` tokens greedily, once feeding only
the new token through `models.transformer.KVCache` and once recomputing the whole
context every step (`Settings(use_cache=False)`). Times are medians of interleaved
repetitions (benchmarks/_timing.py); the prompt's own pass (prefill) is included in both.
The cache must win, and by more as the context grows.

    python -m benchmarks.generation [--new 16] [--repeats 3] [--device cpu] [--threads N]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONTEXTS = (64, 256, 1024)


def main() -> None:
    import torch

    from benchmarks._timing import interleaved_medians, load_average, machine, timing_args

    def extra(ap) -> None:
        ap.add_argument("--new", type=int, default=16, help="tokens generated per run")
        ap.add_argument("--contexts", type=int, nargs="*", default=list(CONTEXTS))

    args = timing_args(__doc__, repeats=3, extra=extra)
    from models import Transformer, TransformerConfig
    from lab.generate import Settings, generate

    load_at_start = load_average()
    cfg = TransformerConfig(arch="decoder", vocab_size=8192, d_model=256, n_layers=4, n_heads=8, d_ff=1024,
                            max_len=max(args.contexts) + args.new, positional="learned", activation="gelu_tanh")
    torch.manual_seed(0)
    model = Transformer(cfg, device=args.device).eval()
    rows = []
    for n in args.contexts:
        prompt = torch.randint(0, cfg.vocab_size, (n,), generator=torch.Generator().manual_seed(n)).tolist()
        runs = {}
        for use_cache in (True, False):
            settings = Settings(max_new_tokens=args.new, use_cache=use_cache, stop_at_eos=False)
            runs["cache" if use_cache else "recompute"] = (lambda s=settings: generate(model, prompt, s, names=[]))
        # same tokens either way (the cache is exact), checked once per length
        assert runs["cache"]().ids == runs["recompute"]().ids
        med = interleaved_medians(runs, repeats=args.repeats, warmup=1)
        rows.append((n, args.new / med["cache"], args.new / med["recompute"], med["recompute"] / med["cache"]))
        print(f"context {n}: cache {rows[-1][1]:.1f} tok/s, recompute {rows[-1][2]:.1f} tok/s, "
              f"ratio {rows[-1][3]:.2f}x", flush=True)

    lines = [f"## Generation: tokens/s with and without the KV cache, {args.device}\n",
             f"`python -m benchmarks.generation{f' --threads {args.threads}' if args.threads else ''}`: GPT-2-style decoder, 4 layers x 8 heads, d_model 256, d_ff 1024, "
             f"vocab 8192 ({model.n_params / 1e6:.1f} M parameters, float32, random weights); {args.new} new tokens "
             f"per run, greedy, prompt pass included; medians of {args.repeats} interleaved repetitions. "
             f"Machine: {machine()}; load average {load_at_start} at the start (a shared machine: absolute "
             f"figures are noisy, the ratios are measured side by side).\n",
             "| context (prompt tokens) | with KV cache, tok/s | recompute every step, tok/s | ratio cache / recompute |",
             "| ---: | ---: | ---: | ---: |"]
    lines += [f"| {n} | {c:.1f} | {r:.1f} | {ratio:.2f}x |" for n, c, r, ratio in rows]
    verdict = "the cache wins at every length" if all(r > 1 for *_, r in rows) else "the cache does NOT win everywhere"
    lines.append(f"\nRatio at {rows[-1][0]} tokens: {rows[-1][3]:.2f}x ({verdict}).")
    from benchmarks._timing import publish

    publish("generation", "\n".join(lines), write_doc=not args.no_doc)


if __name__ == "__main__":
    main()

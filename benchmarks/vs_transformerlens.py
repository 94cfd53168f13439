"""Our `run_with_cache` against TransformerLens's on the same MiniLM weights (CPU):
recording overhead and the bytes each trace holds, at 32 / 128 / 512 tokens.

TransformerLens 4 has no `HookedTransformer` for BERT any more; its `TransformerBridge`
wraps the Hugging Face model and boots offline from the bundled folder:

    TransformerBridge.boot_transformers(<MiniLM folder>, hf_model=BertForMaskedLM
                                        .from_pretrained(<folder>), tokenizer=...)

Each side's overhead is its `run_with_cache` (everything recorded) over the plain
Hugging Face forward of the model it computes, all under `torch.inference_mode`:
  - ours: Glassbox MiniLM (the encoder: hidden states, no LM head) over a plain
    `BertModel` forward (transformers' default attention, SDPA);
  - theirs: the bridge over a plain `BertForMaskedLM` forward (the model it wraps; the
    folder has no MLM head weights, so its head is randomly initialised: the cost is
    the same as a trained head's).
Bytes: each recorded tensor's bytes summed (what a naive count of the cache says, and
the figure issue 10 quotes: 22 / 95 / 490 MB), and the bytes of the distinct storages
behind them (TransformerLens records a module's `hook_in` and the previous `hook_out`,
which often are the same tensor, so the memory it really holds is less). The target is
checked against both and both verdicts are printed.
Targets (issue 10): our ratio <= 1.10, our bytes <= half of theirs, at every length.

Needs TransformerLens, which is NOT in the app's venv (requirements-bench.txt):

    python -m venv /work/venv-bench
    /work/venv-bench/bin/pip install torch==2.13.0 -r requirements-bench.txt -r requirements.txt
    /work/venv-bench/bin/python -m benchmarks.vs_transformerlens [--repeats 10] [--threads 1 2] [--tokens 32 128 512] [--no-doc]

Without it the script says so, writes that to docs/benchmarks.md (unless --no-doc) and
exits with status 2.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                   "WANDB_MODE": "disabled", "TOKENIZERS_PARALLELISM": "false"})

import torch  # noqa: E402

from benchmarks._timing import interleaved_times, machine, paired_ratio, publish, update_doc  # noqa: E402
from benchmarks.summary import summary_line  # noqa: E402

TARGET_RATIO, TARGET_BYTES = 1.10, 0.5
SECTION = "vs_transformerlens"
INSTALL = ("python -m venv /work/venv-bench && /work/venv-bench/bin/pip install torch==2.13.0 "
           "-r requirements-bench.txt -r requirements.txt")


def tensor_bytes(tensors) -> tuple[int, int]:
    """(sum of every tensor's bytes, bytes of the distinct storages behind them)."""
    total, storages = 0, {}
    for t in tensors:
        if not isinstance(t, torch.Tensor):
            continue
        total += t.numel() * t.element_size()
        s = t.untyped_storage()
        storages[s.data_ptr()] = max(storages.get(s.data_ptr(), 0), s.nbytes())
    return total, sum(storages.values())


def boot_transformerlens(folder: str):
    """(bridge, plain BertForMaskedLM, TransformerLens version); raises ImportError /
    any boot error with its own message."""
    import transformer_lens
    from transformer_lens.model_bridge import TransformerBridge
    from transformers import AutoTokenizer, BertForMaskedLM

    tokenizer = AutoTokenizer.from_pretrained(folder)
    bridge = TransformerBridge.boot_transformers(folder, hf_model=BertForMaskedLM.from_pretrained(folder),
                                                 tokenizer=tokenizer)
    bridge.eval()
    plain = BertForMaskedLM.from_pretrained(folder).eval()   # its own copy: no bridge hooks around it
    from importlib.metadata import PackageNotFoundError, version

    try:
        tl_version = version("transformer-lens")
    except PackageNotFoundError:
        tl_version = getattr(transformer_lens, "__version__", "?")
    return bridge, plain, tl_version


def fail(reason: str, no_doc: bool) -> int:
    md = (f"## Glassbox vs TransformerLens on MiniLM (CPU)\n\n"
          f"{summary_line('Glassbox vs TransformerLens', 'not measured', 'ratio <= 1.10, bytes <= 0.5', None)}\n\n"
          f"`python -m benchmarks.vs_transformerlens`: not measured on this run. {reason}\n\nInstall the peers into their own venv and run it there:\n\n"
          f"    {INSTALL}\n    /work/venv-bench/bin/python -m benchmarks.vs_transformerlens")
    print(md, file=sys.stderr)
    if not no_doc:
        update_doc(SECTION, md)
    return 2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, nargs="+", default=[32, 128, 512])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--threads", type=int, nargs="+", default=None,
                    help="torch intra-op thread counts, each measured for both sides (default: 1 and torch's "
                         "own count, i.e. one core and every core the app uses)")
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args(argv)
    if args.threads is None:
        args.threads = sorted({1, torch.get_num_threads()})
    if min(args.threads) < 1:
        ap.error("--threads must be >= 1")
    load0 = os.getloadavg()

    from models.weights.pretrained import load, minilm_path
    from models.runtime import tune_allocator

    folder = str(minilm_path())
    try:
        import transformers

        transformers.logging.set_verbosity_error()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bridge, hf_mlm, tl_version = boot_transformerlens(folder)
    except ImportError as e:
        return fail(f"TransformerLens is not installed in this Python ({sys.executable}): {e}.", args.no_doc)
    except Exception as e:  # noqa: BLE001  (report the library's own error text)
        return fail(f"TransformerLens did not boot offline from {folder}: {type(e).__name__}: {e}", args.no_doc)

    tune_allocator()   # process-wide: both sides alike, as in the app
    from transformers import AutoModel

    ours, tok = load("minilm", device="cpu")
    hf_base = AutoModel.from_pretrained(folder).eval()
    text = "The students watched attention patterns emerge while the model read their sentence. " * 80

    rows = []
    for n, threads in ((n, th) for th in args.threads for n in args.tokens):
        torch.set_num_threads(threads)
        ids = torch.tensor([tok.encode(text, max_len=n).ids])
        if ids.shape[1] != n:
            raise SystemExit(f"could not make a {n}-token input (got {ids.shape[1]})")

        def plain_bert() -> None:
            with torch.inference_mode():
                hf_base(ids)

        def plain_mlm() -> None:
            with torch.inference_mode():
                hf_mlm(ids)

        def ours_plain() -> None:
            with torch.inference_mode():
                ours(ids)

        def ours_cache() -> None:
            ours.run_with_cache(ids)

        def tl_cache() -> None:
            with torch.inference_mode():
                bridge.run_with_cache(ids)

        # each ratio's two sides run back to back within a round
        times = interleaved_times({"bert": plain_bert, "ours": ours_cache, "ours_plain": ours_plain,
                                   "mlm": plain_mlm, "tl": tl_cache}, repeats=args.repeats, warmup=2)
        med = {name: statistics.median(ts) for name, ts in times.items()}
        ours_ratio, ours_q1, ours_q3 = paired_ratio(times, "ours", "bert")
        tl_ratio = paired_ratio(times, "tl", "mlm")[0]
        own_ratio = paired_ratio(times, "ours", "ours_plain")[0]
        _, trace = ours.run_with_cache(ids)
        with torch.inference_mode():
            _, cache = bridge.run_with_cache(ids)
        ours_sum, ours_distinct = tensor_bytes(t for _, t in trace.items())
        tl_sum, tl_distinct = tensor_bytes(cache.values())
        rows.append({"n": n, "threads": threads, "med": med, "ours_n": len(trace), "tl_n": len(cache), "ours_sum": ours_sum,
                     "ours_distinct": ours_distinct, "tl_sum": tl_sum, "tl_distinct": tl_distinct,
                     "ours_ratio": ours_ratio, "ours_iqr": (ours_q1, ours_q3), "tl_ratio": tl_ratio,
                     "own_ratio": own_ratio})
        del trace, cache

    mb = lambda b: f"{b / 1e6:,.1f} MB"  # noqa: E731
    ok = lambda c: "yes" if c else "**no**"  # noqa: E731
    t1 = ["| threads | tokens | plain BertModel (ms) | Glassbox run_with_cache (ms) | **our ratio** (<= 1.10) | "
          "our ratio, middle half of the rounds | "
          "plain BertForMaskedLM (ms) | TransformerLens run_with_cache (ms) | their ratio | met? |",
          "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    t2 = ["| tokens | Glassbox tensors | Glassbox bytes | TransformerLens tensors | TransformerLens bytes summed | "
          "ours / theirs summed (<= 0.5) | met? | TransformerLens bytes distinct | ours / theirs distinct (<= 0.5) | met? |",
          "| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |"]
    for r in rows:
        m = r["med"]
        t1.append(f"| {r['threads']} | {r['n']} | {m['bert'] * 1e3:.1f} | {m['ours'] * 1e3:.1f} | {r['ours_ratio']:.3f} | "
                  f"{r['ours_iqr'][0]:.3f}–{r['ours_iqr'][1]:.3f} | "
                  f"{m['mlm'] * 1e3:.1f} | {m['tl'] * 1e3:.1f} | {r['tl_ratio']:.3f} | {ok(r['ours_ratio'] <= TARGET_RATIO)} |")
        if r["threads"] != args.threads[0]:
            continue                      # bytes do not depend on the thread count: one row per length
        by_sum, by_distinct = r["ours_distinct"] / r["tl_sum"], r["ours_distinct"] / r["tl_distinct"]
        t2.append(f"| {r['n']} | {r['ours_n']} | {mb(r['ours_distinct'])} | {r['tl_n']} | {mb(r['tl_sum'])} | "
                  f"{by_sum:.3f} | {ok(by_sum <= TARGET_BYTES)} | {mb(r['tl_distinct'])} | {by_distinct:.3f} | "
                  f"{ok(by_distinct <= TARGET_BYTES)} |")
    marks = []
    for r in rows:
        marks.append(summary_line(f"Recording overhead vs plain HF forward, {r['n']} tokens, {r['threads']} thread(s) (TransformerLens: "
                                  f"{r['tl_ratio']:.2f})", f"{r['ours_ratio']:.3f}", f"<= {TARGET_RATIO:.2f}",
                                  r["ours_ratio"] <= TARGET_RATIO))
    for r in (r for r in rows if r["threads"] == args.threads[0]):
        marks.append(summary_line(f"Full trace bytes / TransformerLens cache (summed; distinct: "
                                  f"{r['ours_distinct'] / r['tl_distinct']:.2f}), {r['n']} tokens",
                                  f"{r['ours_distinct'] / r['tl_sum']:.3f}", f"<= {TARGET_BYTES}",
                                  r["ours_distinct"] / r["tl_sum"] <= TARGET_BYTES))
    own = ", ".join(f"{r['n']} ({r['threads']} thr.): {r['own_ratio']:.3f}" for r in rows)
    bytes_rows = [r for r in rows if r["threads"] == args.threads[0]]
    md = (f"## Glassbox vs TransformerLens {tl_version} on MiniLM (CPU)\n\n"
          f"`python -m benchmarks.vs_transformerlens` (in the venv of requirements-bench.txt). Machine: {machine()}, "
          f"transformers {transformers.__version__}; 1-min load average {load0[0]:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end; torch intra-op threads: {', '.join(map(str, args.threads))} "
          "(one core, and every core, which is what the app uses: `models.runtime.tune_threads`). "
          f"{args.repeats} interleaved rounds (each side once per round), same process; the times are medians and "
          "each ratio is the median of the round-by-round ratios (the two runs of a round are under the same load "
          "from elsewhere on the machine), with the middle half of those ratios beside it; "
          "`torch.inference_mode`, `models.runtime.tune_allocator()` applied to both. Each ratio divides a "
          "side's `run_with_cache` (everything recorded) by the plain Hugging Face forward of the model that side "
          "computes: ours the encoder (`BertModel`), TransformerLens's bridge the `BertForMaskedLM` it wraps "
          "(LM head included). Targets: our ratio <= 1.10 and our trace <= half their bytes.\n\n"
          "Recording overhead:\n\n" + "\n".join(t1) +
          f"\n\nOur run_with_cache over our own plain forward (tokens: ratio): {own}.\n\n"
          "Bytes held by the full trace / cache (float32 both; ours: each storage once"
          + (", none is shared" if all(r["ours_sum"] == r["ours_distinct"] for r in bytes_rows) else
             f" (summed: {', '.join(mb(r['ours_sum']) for r in bytes_rows)})") + "; theirs "
          "'summed' counts every cache entry, 'distinct' each storage once, since TransformerLens's `hook_in` of a "
          "module is often the same tensor as the `hook_out` before it):\n\n"
          + "\n".join(t2) + "\n\n" + "\n".join(marks))
    publish(SECTION, md, write_doc=not args.no_doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

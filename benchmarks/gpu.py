"""The CUDA path, measured: parity with Hugging Face on the GPU (every family's tiny
model, as benchmarks/parity.py on the CPU), float16 traces, a 2,048-token pass on a
12-layer d_model 768 model, and the out-of-memory fallback.

    python -m benchmarks.gpu [--repeats 20] [--tokens 2048] [--json out.json] [--no-doc]

Without a CUDA device it says so and exits 0 (CI machines have none). Timings are
ratios of runs interleaved in one process (each run ends with torch.cuda.synchronize()),
never absolute targets. Models are built from configs with random weights (no
download): the arithmetic is the same as with trained weights.
"""
from __future__ import annotations

import argparse
import json
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from benchmarks._timing import card_section, interleaved_times, paired_ratio, synchronized, update_doc  # noqa: E402
from benchmarks.summary import summary_line  # noqa: E402
from lab.memory import estimate_trace_bytes  # noqa: E402
from models import Transformer, TransformerConfig, record_names  # noqa: E402


@torch.no_grad()
def parity(device: str) -> list[dict]:
    """benchmarks/parity.py's table on `device`: every family's tiny random model against
    transformers (float32, eager attention), both on the GPU; and our output on the GPU
    against our output on the CPU. A family that fails gives a row with its error."""
    from benchmarks.parity import differences
    from models.weights import pretrained, tiny_hf

    rows = []
    for family in tiny_hf.families():
        try:
            diff = differences(family, device=device)
            hf = tiny_hf.build(family)
            cfg = pretrained.load(hf)[0].cfg
            g = torch.Generator().manual_seed(1)
            args = [torch.randint(2, cfg.vocab_size, (2, 13), generator=g)]
            if tiny_hf.TINY[family].seq2seq:
                args.append(torch.randint(2, cfg.vocab_size, (2, 9), generator=g))
            on_cpu = pretrained.load(hf)[0](*args)
            on_gpu = pretrained.load(hf, device=device)[0](*[a.to(device) for a in args])
            rows.append({"model": family, **diff, "cuda_vs_cpu": float((on_gpu.cpu() - on_cpu).abs().max())})
        except Exception as e:  # noqa: BLE001 - one family's failure is a row of the table, not the end of the run
            rows.append({"model": family, "error": f"{type(e).__name__}: {e}"[:300]})
    return rows


def big_config(n: int) -> TransformerConfig:
    """GPT-2 small's shape (12 layers x 12 heads, d_model 768), positions for n tokens."""
    return TransformerConfig(arch="decoder", vocab_size=50257, d_model=768, n_layers=12, n_heads=12, d_ff=3072,
                             max_len=n, positional="learned", norm="layernorm", activation="gelu_tanh")


def long_pass(n: int, repeats: int) -> dict:
    """Time and memory of one pass at n tokens: plain forward, recording the attention
    patterns, recording every hook (kept on the GPU, float32 / float16, or moved to the
    CPU as recorded), and Hugging Face GPT-2 with output_attentions as the peer."""
    from transformers import GPT2Config, GPT2LMHeadModel

    cfg = big_config(n)
    torch.manual_seed(0)
    model = Transformer(cfg, device="cuda").eval()
    ids = torch.randint(0, cfg.vocab_size, (1, n), device="cuda")
    hf = GPT2LMHeadModel(GPT2Config(vocab_size=cfg.vocab_size, n_embd=768, n_layer=12, n_head=12, n_positions=n,
                                    bos_token_id=0, eos_token_id=0)).cuda().eval()
    hf.set_attn_implementation("eager")
    patterns = record_names(cfg, ["pattern"])

    def plain() -> None:
        with torch.inference_mode():
            model(ids)

    def hf_attn() -> None:
        with torch.inference_mode():
            hf(ids, output_attentions=True)

    runs = {
        "plain forward": plain,
        "HF GPT-2, output_attentions": hf_attn,
        "record patterns": lambda: model.run_with_cache(ids, names=patterns),
        "record all hooks, float32 on GPU": lambda: model.run_with_cache(ids),
        "record all hooks, float16 on GPU": lambda: model.run_with_cache(ids, dtype=torch.float16),
        "record all hooks, moved to CPU": lambda: model.run_with_cache(ids, store_device="cpu"),
    }
    times = interleaved_times({k: synchronized(f) for k, f in runs.items()}, repeats=repeats, warmup=2)
    out = {"tokens": n, "config": "12 layers x 12 heads, d_model 768, d_ff 3072 (GPT-2 small)", "runs": []}
    for name, fn in runs.items():
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        res = fn()
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - base
        trace = res[1] if isinstance(res, tuple) else None
        med, lo, hi = paired_ratio(times, name, "plain forward")
        row = {"run": name, "ratio_to_plain": med, "ratio_iqr": [lo, hi],
               "median_ms": 1e3 * sorted(times[name])[len(times[name]) // 2], "peak_gpu_bytes": peak}
        if trace is not None:
            names = patterns if name == "record patterns" else None
            dtype = torch.float16 if "float16" in name else torch.float32
            row["trace_bytes"] = trace.nbytes
            row["trace_logical_bytes"] = trace.logical_nbytes
            row["estimated_bytes"] = estimate_trace_bytes(cfg, model.hook_names(), n, None, names, dtype)
            row["trace_devices"] = sorted(trace.devices)
        out["runs"].append(row)
        del res, trace
    _, t32 = model.run_with_cache(ids, names=patterns)
    _, t16 = model.run_with_cache(ids, names=patterns, dtype=torch.float16)
    out["fp16_max_pattern_diff"] = max(float((t32.get("pattern", i) - t16.get("pattern", i).float()).abs().max())
                                       for i in range(cfg.n_layers))
    return out


def _stub_streamlit() -> bool:
    """The run gate's module imports Streamlit for its caches; the GPU machine has no
    Streamlit, and the fallback logic needs none: stand-in cache decorators."""
    try:
        import streamlit  # noqa: F401
        return False
    except ImportError:
        st = types.ModuleType("streamlit")

        def cache(*args, **kwargs):
            return args[0] if args and callable(args[0]) else (lambda f: f)
        st.cache_resource = st.cache_data = cache
        sys.modules["streamlit"] = st
        return True


def oom_fallback(n: int) -> dict:
    """A real CUDA out-of-memory error in the run gate: the pass runs again on the CPU copy."""
    stubbed = _stub_streamlit()
    from ui.serving import gate

    cfg = big_config(n)
    torch.manual_seed(0)
    models = {"cuda": Transformer(cfg, device="cuda").eval()}
    models["cpu"] = Transformer(cfg, device="cpu").eval()
    models["cpu"].load_state_dict(models["cuda"].state_dict())
    real_load = gate.load_model
    gate.load_model = lambda key, device: (models[torch.device(device).type], None)
    ids = list(range(n))
    import gc

    gc.collect()
    torch.cuda.empty_cache()             # blocks PyTorch still caches would serve the pass: give them back
    free, total = torch.cuda.mem_get_info()
    # leave less free GPU memory than the recorded pass needs (all hooks at n tokens)
    need = estimate_trace_bytes(cfg, models["cuda"].hook_names(), n)
    hog = torch.empty(max(0, free - need // 4), dtype=torch.uint8, device="cuda")
    try:
        trace, used, n_run, fallback = gate.run_with_fallback(
            "gpu-benchmark", "cuda", n, lambda m, k: m.run_with_cache(ids[:k])[1])
        return {"tokens": n, "gpu_free_bytes_left": int(torch.cuda.mem_get_info()[0]), "needed_bytes": need,
                "ran_on": used, "tokens_run": n_run, "fallback": fallback, "trace_devices": sorted(trace.devices),
                "streamlit_stubbed": stubbed}
    finally:
        del hog
        gate.load_model = real_load
        torch.cuda.empty_cache()


def markdown(res: dict) -> str:
    lines = [f"## CUDA path ({res['device']})", "",
             f"torch {res['torch']}, transformers {res['transformers']}. Random weights from configs "
             "(the arithmetic of trained weights). Ratios are medians of round-by-round ratios of "
             f"{res['repeats']} interleaved rounds, each run ending in `torch.cuda.synchronize()`.", "",
             "**Parity with transformers on the GPU**, every family's tiny random model (float32, eager attention, "
             "a batch of 2 random sequences; encoder-decoders 13 source and 9 target tokens; largest absolute "
             "difference, as `benchmarks.parity` on the CPU), and our output on the GPU against our output on the CPU:",
             "", "| family (tiny random model) | hidden states | attention probabilities | output | "
             "our CUDA vs our CPU (output) |", "| --- | ---: | ---: | ---: | ---: |"]
    for r in res["parity"]:
        lines.append(f"| {r['model']} | not run: {r['error'].replace('|', '/')} | | | |" if "error" in r else
                     f"| {r['model']} | {r['hidden']:.1e} | {r['attention']:.1e} | {r['output']:.1e} | "
                     f"{r['cuda_vs_cpu']:.1e} |")
    lp = res["long"]
    lines += ["", f"**{lp['tokens']} tokens, {lp['config']}:**", "",
              "| run | × plain forward (IQR) | median ms | peak GPU memory (MB) | trace held (MB) | estimate (MB) |",
              "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in lp["runs"]:
        held = f"{r['trace_bytes'] / 1e6:,.0f}" if "trace_bytes" in r else "–"
        est = f"{r['estimated_bytes'] / 1e6:,.0f}" if "estimated_bytes" in r else "–"
        lines.append(f"| {r['run']} | {r['ratio_to_plain']:.2f} ({r['ratio_iqr'][0]:.2f}–{r['ratio_iqr'][1]:.2f}) | "
                     f"{r['median_ms']:.1f} | {r['peak_gpu_bytes'] / 1e6:,.0f} | {held} | {est} |")
    lines += ["", f"float16 trace vs float32: max |Δ attention probability| = {lp['fp16_max_pattern_diff']:.1e}.", ""]
    o = res["oom"]
    lines += [f"**Out-of-memory fallback:** with {o['gpu_free_bytes_left'] / 1e6:,.0f} MB of GPU memory left free and "
              f"a pass that needs ~{o['needed_bytes'] / 1e6:,.0f} MB of trace, `ui.serving.gate.run_with_fallback` "
              f"caught CUDA's out-of-memory error and ran the pass on the **{o['ran_on']}** "
              f"(fallback `{o['fallback']}`, {o['tokens_run']} tokens, trace on {', '.join(o['trace_devices'])}).", ""]
    ok = [r for r in res["parity"] if "error" not in r]
    worst = max((max(r["hidden"], r["attention"], r["output"]) for r in ok), default=float("nan"))
    record = next(r for r in lp["runs"] if r["run"] == "record all hooks, float32 on GPU")
    lines += [summary_line(f"GPU parity with transformers ({res['device']}): largest |Δ| over every family "
                           f"({len(ok)} of {len(res['parity'])} ran)", f"{worst:.1e}", "<= 1e-5",
                           worst <= 1e-5 and len(ok) == len(res["parity"])),
              summary_line(f"GPU trace overhead, record all hooks / plain forward, {lp['tokens']} tokens "
                           f"({res['device']})", f"{record['ratio_to_plain']:.2f}", "<= 1.10",
                           record["ratio_to_plain"] <= 1.10),
              summary_line(f"GPU out-of-memory fallback ({lp['tokens']} tokens, {o['needed_bytes'] / 1e6:,.0f} MB "
                           "trace, too little GPU memory free)", f"ran on {o['ran_on']}", "runs on the CPU",
                           o["ran_on"] == "cpu")]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, default=2048)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("benchmarks.gpu skipped: no CUDA device on this machine (the figures in docs/benchmarks.md come "
              "from a GPU machine; run this there).")
        return 0
    import transformers

    transformers.logging.set_verbosity_error()
    res = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
           "transformers": transformers.__version__, "repeats": args.repeats,
           "parity": parity("cuda"), "long": long_pass(args.tokens, args.repeats), "oom": oom_fallback(args.tokens)}
    md = markdown(res)
    print(md)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    if not args.no_doc:
        update_doc(card_section("gpu", res["device"]), md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

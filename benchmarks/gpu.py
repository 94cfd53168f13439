"""The CUDA path, measured: parity with Hugging Face on the GPU, float16 traces, a
2,048-token pass on a 12-layer d_model 768 model, and the out-of-memory fallback.

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

from benchmarks._timing import interleaved_times, paired_ratio, update_doc  # noqa: E402
from lab.memory import estimate_trace_bytes  # noqa: E402
from models import Transformer, TransformerConfig, record_names  # noqa: E402
from models.weights.pretrained import load_hf_model  # noqa: E402


def tiny_hf_models() -> dict[str, object]:
    """Random HF models of three families (eager attention): a BERT of MiniLM's shape,
    a small GPT-2 and a LLaMA-style decoder with grouped-query attention."""
    from transformers import BertConfig, BertModel, GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    return {
        "BERT (MiniLM shape: 6 x 12, d 384)": BertModel(BertConfig(
            vocab_size=30522, hidden_size=384, num_hidden_layers=6, num_attention_heads=12,
            intermediate_size=1536)),
        "GPT-2 (4 x 8, d 256)": GPT2LMHeadModel(GPT2Config(
            vocab_size=1000, n_embd=256, n_layer=4, n_head=8, n_positions=512, bos_token_id=0, eos_token_id=0)),
        "LLaMA (4 x 8, 2 kv heads, d 256)": LlamaForCausalLM(LlamaConfig(
            vocab_size=1000, hidden_size=256, num_hidden_layers=4, num_attention_heads=8, num_key_value_heads=2,
            intermediate_size=688, max_position_embeddings=512, bos_token_id=0, eos_token_id=0, pad_token_id=0)),
    }


@torch.no_grad()
def parity(device: str, n: int = 128) -> list[dict]:
    """Max |ours - HF| of every hidden state and attention probability, float32, on `device`."""
    rows = []
    for name, hf in tiny_hf_models().items():
        hf.set_attn_implementation("eager")
        hf = hf.to(device).eval()
        ours = load_hf_model(hf, device=device)
        ids = torch.randint(0, min(hf.config.vocab_size, 1000), (1, n), generator=torch.Generator().manual_seed(1))
        ids = ids.to(device)
        out = hf(ids, output_hidden_states=True, output_attentions=True)
        _, trace = ours.run_with_cache(ids)
        hidden = [trace.get("resid_pre", 0)] + [trace.get("resid_post", i) for i in range(ours.cfg.n_layers)]
        if ours.cfg.norm_position == "pre":
            hidden[-1] = trace.get("ln_final.normalized")                      # HF's last hidden state is normed
        d_hidden = max(float((a - b).abs().max()) for a, b in zip(hidden, out.hidden_states))
        d_attn = max(float((trace.get("pattern", i) - a).abs().max()) for i, a in enumerate(out.attentions))
        cpu = load_hf_model(hf.cpu(), device="cpu")
        d_device = float((cpu.run_with_cache(ids.cpu())[1].get("pattern", ours.cfg.n_layers - 1)
                          - trace.get("pattern", ours.cfg.n_layers - 1).cpu()).abs().max())
        rows.append({"model": name, "tokens": n, "hidden": d_hidden, "attention": d_attn, "cuda_vs_cpu": d_device})
        del hf, ours, cpu
    return rows


def big_config(n: int) -> TransformerConfig:
    """GPT-2 small's shape (12 layers x 12 heads, d_model 768), positions for n tokens."""
    return TransformerConfig(arch="decoder", vocab_size=50257, d_model=768, n_layers=12, n_heads=12, d_ff=3072,
                             max_len=n, positional="learned", norm="layernorm", activation="gelu_tanh")


def sync(fn):
    def run() -> None:
        fn()
        torch.cuda.synchronize()
    return run


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
    times = interleaved_times({k: sync(f) for k, f in runs.items()}, repeats=repeats, warmup=2)
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
             "**Parity with Hugging Face on the GPU** (float32, eager attention, max absolute difference):", "",
             "| model | tokens | hidden states | attention probabilities | our CUDA vs our CPU (last layer's attention) |",
             "| --- | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r['model']} | {r['tokens']} | {r['hidden']:.2e} | {r['attention']:.2e} | {r['cuda_vs_cpu']:.2e} |"
              for r in res["parity"]]
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
              f"(fallback `{o['fallback']}`, {o['tokens_run']} tokens, trace on {', '.join(o['trace_devices'])})."]
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
        update_doc("gpu", md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

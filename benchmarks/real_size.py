"""A real-size model on a CPU (or a GPU with --device cuda): Qwen2.5-0.5B's real config
with random weights (the folder is written at benchmark time; nothing is downloaded),
Glassbox against transformers.

For each dtype (float32: exact parity; bfloat16: half the memory):
- load: `pretrained.load_folder(folder, dtype=...)` (which checks every header, the size
  against the budget and every shape before it reads a tensor) against
  `AutoModelForCausalLM.from_pretrained(folder, dtype=..., attn_implementation="eager")`;
- forward at 64 and 512 tokens: our plain forward against transformers' eager forward
  (both return the logits of every position; `torch.inference_mode`);
- memory: the peak resident set of a fresh process that only imports torch and loads
  the model (each side in its own child process, so neither inherits the other's pages);
- the load panel: a fresh app process (Streamlit's AppTest, the app's own code path)
  whose session loads the folder through "Load a model" in that dtype, parity badge
  included; the time from pressing Load to the page drawn, and the process's resident
  memory after it (what the server holds once one student has loaded the model).

Interleaved rounds, medians; each ratio is the median of round-by-round ratios (middle
half beside it). Targets (issue 32): forward <= 1.05x transformers' eager pass at 64
and 512 tokens, load <= 1.0x from_pretrained, in float32 and bfloat16.

    python -m benchmarks.real_size [--repeats 5] [--dtypes float32 bfloat16] [--tokens 64 512] [--no-doc]
    python -m benchmarks.real_size --device cuda --tokens 64 512 2048   # section real_size_gpu_<card> (_h100, _h200)

On a GPU each side loads straight onto it (`load_folder(device="cuda")` against
`from_pretrained(device_map="cuda")`), every timed run ends in `torch.cuda.synchronize()`,
the memory is the child process's peak GPU allocation, and the load panel is not run (it
measures the app server, which the CPU rows cover).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from benchmarks._timing import (card_section, interleaved_times, load_average, machine,  # noqa: E402
                               paired_ratio, publish, synchronized, timing_args)
from benchmarks.summary import summary_line  # noqa: E402

# Qwen/Qwen2.5-0.5B's config.json (architecture fields), as published with the model
QWEN25_05B = dict(
    architectures=["Qwen2ForCausalLM"], model_type="qwen2", vocab_size=151936, hidden_size=896,
    intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14, num_key_value_heads=2,
    max_position_embeddings=32768, rope_theta=1000000.0, rms_norm_eps=1e-6, tie_word_embeddings=True,
    hidden_act="silu", use_sliding_window=False, sliding_window=32768, max_window_layers=24,
    bos_token_id=151643, eos_token_id=151643, torch_dtype="bfloat16",
)


def write_folder(folder: Path, config: dict, seed: int = 0) -> Path:
    """config.json and model.safetensors (random bfloat16 weights, N(0, 0.02), norms near
    1) for `config`: the tensor names and shapes are transformers' own, taken from the
    model built on the meta device (no memory)."""
    import transformers
    from safetensors.torch import save_file

    cfg = transformers.AutoConfig.for_model(**{k: v for k, v in config.items() if k != "architectures"})
    cfg.architectures = config.get("architectures")
    with torch.device("meta"):
        skeleton = transformers.AutoModelForCausalLM.from_config(cfg)
    g = torch.Generator().manual_seed(seed)
    tensors = {}
    for name, p in skeleton.state_dict().items():
        if name == "lm_head.weight" and cfg.tie_word_embeddings:
            continue
        t = torch.randn(p.shape, generator=g, dtype=torch.float32).mul_(0.02)
        if p.dim() == 1 and "norm" in name:
            t.add_(1.0)
        tensors[name] = t.to(torch.bfloat16)
    folder.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})
    cfg.save_pretrained(folder)
    from models.weights.tiny_hf import char_tokenizer_json   # Qwen's own tokenizer is not shipped: a character one

    (folder / "tokenizer.json").write_text(char_tokenizer_json(cfg.vocab_size), encoding="utf-8")
    return folder


# VmHWM (the process's peak resident set) and not getrusage's ru_maxrss, which Linux carries
# across exec from the parent: a child of this 5 GB benchmark would report 5 GB before it loads.
PEAK_SCRIPT = r"""
import json, sys, time
import torch
def hwm_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
side, folder, dtype, device = sys.argv[1], sys.argv[2], getattr(torch, sys.argv[3]), sys.argv[4]
gpu = device != "cpu"
before = hwm_mb()
t0 = time.perf_counter()
if side == "ours":
    from models.weights import pretrained
    model, _ = pretrained.load_folder(folder, device=device, dtype=dtype, tokenizer=False)
else:
    import transformers
    transformers.logging.set_verbosity_error()
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, dtype=dtype, attn_implementation="eager",
                                                              **({"device_map": device} if gpu else {}))
if gpu:
    torch.cuda.synchronize()
seconds = time.perf_counter() - t0
peak = torch.cuda.max_memory_allocated() / 2**20 if gpu else hwm_mb()
print(json.dumps({"peak_mb": peak, "before_mb": 0.0 if gpu else before, "seconds": seconds}))
"""


# One session loads the folder through the load panel (the app's own code: checks, build, the
# shared copy, the parity badge) in a fresh process; the run's seconds and the RSS after it.
PANEL_SCRIPT = r"""
import json, sys, time
from streamlit.testing.v1 import AppTest
folder, dtype = sys.argv[1], sys.argv[2]
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
at = AppTest.from_file("app.py", default_timeout=600)
at.run()
before = rss_mb()
at.text_input(key="_ml_source").input(folder)
at.radio(key="_ml_dtype").set_value(dtype)
at.run()
at.button(key="_ml_load").click()
t0 = time.perf_counter()
at.run()
seconds = time.perf_counter() - t0
assert not at.exception, [e.value for e in at.exception]
assert at.selectbox(key="model").value.startswith("trained:"), [w.value for w in at.warning]
badge = [c.value for c in at.sidebar.caption if "transformers" in c.value]
print(json.dumps({"seconds": seconds, "rss_mb": rss_mb(), "before_mb": before,
                  "model": at.selectbox(key="model").value, "badge": badge[:1]}))
"""


def panel_load(folder: Path, dtype: str) -> dict:
    """The load panel's time and the process's memory after one session loaded the folder."""
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", PANEL_SCRIPT, str(folder), dtype], cwd=root, capture_output=True,
                         text=True, check=True, env={**__import__("os").environ, "GLASSBOX_WARMUP": "0"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def peak_memory(side: str, folder: Path, dtype: str, device: str = "cpu") -> dict:
    """Peak RSS (MB) of a fresh process loading the model, and of the same process
    before the load (torch imported); on a GPU, the process's peak GPU allocation."""
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, side, str(folder), dtype, device], cwd=root,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    args = timing_args(__doc__, repeats=5, extra=lambda ap: (
        ap.add_argument("--dtypes", nargs="+", default=["float32", "bfloat16"]),
        ap.add_argument("--tokens", type=int, nargs="+", default=[64, 512])))
    import transformers

    from models.weights import pretrained

    transformers.logging.set_verbosity_error()
    where = f", {torch.cuda.get_device_name(0)}" if args.device != "cpu" else ""
    device, gpu = args.device, args.device != "cpu"

    before = load_average()
    rows, mem_rows, summary = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_folder(Path(tmp) / "qwen2.5-0.5b-random", QWEN25_05B)
        for name in args.dtypes:
            dtype = getattr(torch, name)

            to_device = {"device_map": device} if gpu else {}

            def ours_load() -> None:
                pretrained.load_folder(folder, device=device, dtype=dtype, tokenizer=False)

            def theirs_load() -> None:
                transformers.AutoModelForCausalLM.from_pretrained(str(folder), dtype=dtype,
                                                                  attn_implementation="eager", **to_device)

            times = interleaved_times({"ours": synchronized(ours_load, device),
                                       "theirs": synchronized(theirs_load, device)},
                                      repeats=args.repeats, warmup=1)
            r, q1, q3 = paired_ratio(times, "ours", "theirs")
            med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
            rows.append((name, "load", med(times["ours"]), med(times["theirs"]), r, q1, q3))
            summary.append((f"Real-size load / from_pretrained, Qwen2.5-0.5B shape, {name}{where}", r, 1.0))

            ours, _ = pretrained.load_folder(folder, device=device, dtype=dtype, tokenizer=False)
            hf = transformers.AutoModelForCausalLM.from_pretrained(str(folder), dtype=dtype,
                                                                   attn_implementation="eager", **to_device).eval()
            for n in args.tokens:
                ids = torch.randint(0, QWEN25_05B["vocab_size"], (1, n), generator=torch.Generator().manual_seed(n))
                ids = ids.to(device)
                with torch.inference_mode():
                    diff = float((ours(ids).float() - hf(ids).logits.float()).abs().max())

                def ours_fwd() -> None:
                    with torch.inference_mode():
                        ours(ids)

                def theirs_fwd() -> None:
                    with torch.inference_mode():
                        hf(ids)

                times = interleaved_times({"ours": synchronized(ours_fwd, device),
                                           "theirs": synchronized(theirs_fwd, device)},
                                          repeats=args.repeats, warmup=1)
                r, q1, q3 = paired_ratio(times, "ours", "theirs")
                rows.append((name, f"forward, {n} tokens (max |Δ logits| {diff:.1e})", med(times["ours"]),
                             med(times["theirs"]), r, q1, q3))
                summary.append((f"Real-size forward / transformers eager, {n} tokens, {name}{where}", r, 1.05))
            del ours, hf
            if gpu:
                torch.cuda.empty_cache()
            m_ours, m_theirs = peak_memory("ours", folder, name, device), peak_memory("theirs", folder, name, device)
            if gpu:
                mem_rows.append((name, m_ours["peak_mb"], m_theirs["peak_mb"]))
                continue
            panel = panel_load(folder, name)
            mem_rows.append((name, m_ours["peak_mb"], m_theirs["peak_mb"], m_ours["before_mb"], panel["seconds"],
                             panel["rss_mb"], (panel["badge"] or ["no badge"])[0]))
    table = ["| dtype | what | Glassbox (s) | transformers (s) | ratio (middle half) |",
             "| --- | --- | ---: | ---: | ---: |"]
    table += [f"| {d} | {w} | {o:.2f} | {t:.2f} | {r:.2f} ({a:.2f}–{b:.2f}) |" for d, w, o, t, r, a, b in rows]
    lines = "\n".join(summary_line(f, f"{r:.2f}", f"<= {t}", r <= t) for f, r, t in summary)
    head = (f"`python -m benchmarks.real_size --repeats {args.repeats}{' --device ' + device if gpu else ''} "
            f"--tokens {' '.join(map(str, args.tokens))}`. Machine: {machine()}"
            f"{', ' + torch.cuda.get_device_name(0) if gpu else ''}; 1-min load average {before} at the start, "
            f"{load_average()} at the end; transformers {transformers.__version__}. The folder is Qwen2.5-0.5B's real "
            "config with random bfloat16 weights, written at benchmark time. Interleaved rounds, medians; each ratio "
            "the median of round-by-round ratios (middle half beside it). Targets: load <= 1.0, forward <= 1.05 "
            "(plain forward, logits of every position, both sides in `torch.inference_mode`).")
    if gpu:
        mem = ["| dtype | Glassbox peak GPU memory, load only (MB) | transformers peak GPU memory, load only (MB) |",
               "| --- | ---: | ---: |"]
        mem += [f"| {d} | {o:,.0f} | {t:,.0f} |" for d, o, t in mem_rows]
        md = (f"## Real size on a GPU: a Qwen2.5-0.5B-shaped model (494 M parameters), {torch.cuda.get_device_name(0)}"
              f"\n\n{head} Each side loads straight onto the GPU (ours `load_folder(device=\"{device}\")`, theirs "
              f"`from_pretrained(device_map=\"{device}\")`); every timed run ends in `torch.cuda.synchronize()`.\n\n"
              + "\n".join(table) + "\n\nPeak GPU memory of a fresh process loading the model (each side alone; "
              "`torch.cuda.max_memory_allocated`). The load panel is measured on the CPU (section real_size): it "
              "times the app server, not the card.\n\n" + "\n".join(mem) + "\n\n" + lines)
        section = card_section("real_size_gpu", torch.cuda.get_device_name(0))
        publish(section, md, write_doc=not args.no_doc, say_where=True)
        return
    mem = ["| dtype | Glassbox peak RSS, load only (MB) | transformers peak RSS, load only (MB) | "
           "process before the load (MB) | load panel, Load to page drawn (s) | app process after the panel's load "
           "(MB) | the panel's parity badge |", "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    mem += [f"| {d} | {o:.0f} | {t:.0f} | {b:.0f} | {ps:.1f} | {pm:.0f} | {badge.replace('|', '/')} |"
            for d, o, t, b, ps, pm, badge in mem_rows]
    md = (f"## Real size: a Qwen2.5-0.5B-shaped model (494 M parameters) on the CPU\n\n{head}\n\n"
          + "\n".join(table) + "\n\nMemory of a fresh process loading the model (each side alone), and the app's "
          "load panel in a fresh app process (one session; checks, build, parity badge):\n\n"
          + "\n".join(mem) + "\n\n" + lines)
    publish("real_size", md, write_doc=not args.no_doc, say_where=True)


if __name__ == "__main__":
    main()

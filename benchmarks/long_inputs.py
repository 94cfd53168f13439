"""Long inputs on the CPU: where the attention page spends its time at 512 tokens (MiniLM),
and what the memory budget does with a 12-layer, d_model=768 model at 2,048 tokens.

Part 1, stage by stage (the functions the page calls, Streamlit's cache bypassed: a new
text each repeat): the recorded pass and its numpy slices (`ui.serving.attention_data`),
the all-heads model view image (`viz_core.model_view`), one head's map
(`viz_core.head_heatmap`: a PNG above 128 tokens), the per-head metrics and the rollout
(computed only when their view is opened), and the JSON bytes each figure sends
(`fig.to_json()`, what `st.plotly_chart` ships).

Part 2, the whole page: `AppTest` runs app.py and the attention page's heads view
(`view=heads`) with a new 512-token text (cold: model loaded, text not cached), then a
head switch and a view switch (warm).
Server-side script time only; the browser's share is measured by
benchmarks/browser_latency.py (`--tokens 512`).

Part 3 (`--big`): a randomly initialised 12-layer, 12-head, d_model=768, d_ff=3072
encoder with 2,048 positions; the budget check before the pass (tokens kept, estimated
bytes) and, when asked, the recorded pass at the kept length (time, Trace.nbytes).

Medians of `--repeats`; printed, nothing asserted, nothing written.

    python -m benchmarks.long_inputs                 # parts 1 and 2
    python -m benchmarks.long_inputs --big --repeats 2
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ATTN = ["*.hook_pattern", "*.hook_mask"]


def _text(i: int, n_words: int = 600) -> str:
    return " ".join(f"word{i} {j}" if j % 7 == 0 else "the" for j in range(n_words))


def _median(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for i in range(repeats):
        t0 = time.perf_counter()
        out = fn(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def stages(repeats: int) -> None:
    import numpy as np

    import viz_core as vz
    from lab import attention
    from ui import serving as loaders
    from ui.serving import RunKey

    loaders.load_model("minilm", "cpu")
    budget = loaders.trace_budget_bytes()
    seq = iter(range(10_000))
    t_rec, data = _median(lambda i: loaders.attention_data(RunKey("minilm", "cpu", _text(next(seq))), budget),
                          repeats)
    p = data.patterns["self"]
    n = p.shape[-1]
    rows = [("recorded pass + numpy (6 x 12 maps)", t_rec, None)]
    t, fig = _median(lambda i: vz.model_view(p), repeats)
    rows.append(("model view image (all 72 heads)", t, len(fig.to_json())))
    shown = np.where(data.masks["self"], p[2, 3], np.nan).astype(np.float32)
    t, fig = _median(lambda i: vz.head_heatmap(shown, data.tokens, data.tokens, square=False), repeats)
    rows.append(("one head's map (PNG above 128 tokens)", t, len(fig.to_json())))
    t, _ = _median(lambda i: attention.head_metrics(p, data.tokens, mask=np.broadcast_to(data.masks["self"], p.shape)), 1)
    rows.append(("per-head metrics, all layers at once", t, None))
    t, _ = _median(lambda i: attention.layerwise_head_metrics(p, data.tokens, data.masks["self"]), 1)
    rows.append(("per-head metrics, layer by layer (the page; metrics view only)", t, None))
    t, _ = _median(lambda i: attention.rollout(p, head_fusion="mean", add_residual=True), 1)
    rows.append(("rollout (rollout view only)", t, None))
    print(f"\nMiniLM, {n} tokens, CPU; trace held {data.run.trace_bytes / 1e6:.1f} MB "
          f"(budget {budget / 1e6:.0f} MB, estimated pass {data.run.need_bytes / 1e6:.1f} MB)")
    print("| stage | median s | figure JSON bytes |\n|---|---:|---:|")
    for name, sec, size in rows:
        print(f"| {name} | {sec:.3f} | {'' if size is None else f'{size:,}'} |")


def page(repeats: int) -> None:
    from streamlit.testing.v1 import AppTest

    runs = {"new 512-token text (cold)": [], "head switch": [], "metrics view": []}
    for i in range(repeats):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
        at.query_params["text"] = _text(1000 + i)
        at.query_params["view"] = "heads"       # the plotly heads view, as measured before (the default is instant)
        at.switch_page("app_pages/attention.py")
        t0 = time.perf_counter()
        at.run()
        runs["new 512-token text (cold)"].append(time.perf_counter() - t0)
        assert not at.exception, at.exception
        t0 = time.perf_counter()
        at.slider(key="head").set_value(5).run()
        runs["head switch"].append(time.perf_counter() - t0)
        radio = next(r for r in at.radio if r.key and r.key.startswith("view__"))
        t0 = time.perf_counter()
        radio.set_value("metrics").run()
        runs["metrics view"].append(time.perf_counter() - t0)
        assert not at.exception, at.exception
    print("\nThe attention page through AppTest (server script time, MiniLM, 512 tokens, CPU)")
    print("| action | median s |\n|---|---:|")
    for name, times in runs.items():
        print(f"| {name} | {statistics.median(times):.2f} |")


def big(run_pass: bool) -> None:
    import torch

    from models import Transformer, TransformerConfig
    from ui import serving as loaders

    cfg = TransformerConfig(arch="encoder", vocab_size=30522, d_model=768, n_layers=12, n_heads=12, d_ff=3072,
                            max_len=2048, positional="learned", norm_position="post", activation="gelu")
    torch.manual_seed(0)
    model = Transformer(cfg, device="cpu").eval()
    budget = loaders.trace_budget_bytes()
    kept, need = loaders.fit_budget(model, 2048, None, ATTN, budget)
    print(f"\n12 layers x 12 heads, d_model 768, 2,048 tokens: estimated pass {need / 1e6:,.0f} MB "
          f"(maps alone {12 * 12 * 2048 ** 2 * 4 / 1e6:,.0f} MB) > budget {budget / 1e6:.0f} MB: "
          f"cut to {kept} tokens before the pass")
    if run_pass:
        ids = torch.randint(0, cfg.vocab_size, (kept,))
        t0 = time.perf_counter()
        _, trace = model.run_with_cache(ids, names=ATTN)
        sec = time.perf_counter() - t0
        print(f"recorded pass at {kept} tokens: {sec:.2f} s, Trace.nbytes {trace.nbytes / 1e6:.1f} MB, "
              f"estimate {loaders.pass_bytes(model, kept, None, ATTN) / 1e6:.1f} MB (trace + working)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--big", action="store_true", help="part 3: the 12-layer d_model=768 model (random weights)")
    ap.add_argument("--no-page", action="store_true", help="skip part 2 (AppTest)")
    args = ap.parse_args()
    torch_threads()
    stages(args.repeats)
    if not args.no_page:
        page(args.repeats)
    if args.big:
        big(run_pass=True)


def torch_threads() -> None:
    from models.runtime import tune_allocator

    tune_allocator()


if __name__ == "__main__":
    main()

"""Our run_with_cache (all hooks recorded) against Hugging Face's forward with
output_attentions=True and output_hidden_states=True (eager attention), on the bundled
MiniLM, same process, interleaved repetitions, medians. Target: ratio <= 1.0 (we record
more and still are not slower).

    python -m benchmarks.vs_transformers [--repeats 20] [--tokens 32 128 512] [--no-doc]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from benchmarks._timing import interleaved_medians, machine, publish  # noqa: E402
from models.weights.pretrained import load, minilm_path  # noqa: E402
from models.runtime import tune_allocator  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, nargs="+", default=[32, 128, 512])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args()

    tune_allocator()   # process-wide: applies to both sides alike, as in the app
    import transformers
    from transformers import AutoModel

    transformers.logging.set_verbosity_error()
    ours, tok = load("minilm", device="cpu")
    hf = AutoModel.from_pretrained(str(minilm_path()), attn_implementation="eager").eval()
    text = "The students watched attention patterns emerge while the model read their sentence. " * 60

    rows = []
    for n in args.tokens:
        ids = torch.tensor([tok.encode(text, max_len=n).ids])
        assert ids.shape[1] == n

        def theirs() -> None:
            with torch.inference_mode():
                hf(ids, output_attentions=True, output_hidden_states=True)

        def mine() -> None:
            ours.run_with_cache(ids)

        med = interleaved_medians({"hf": theirs, "ours": mine}, repeats=args.repeats)
        _, trace = ours.run_with_cache(ids)
        rows.append((n, med["hf"] * 1e3, med["ours"] * 1e3, med["ours"] / med["hf"], len(trace)))

    table = ["| tokens | HF forward + attentions + hidden states (ms) | Glassbox run_with_cache, all hooks (ms) "
             "| ratio (target <= 1.0) | tensors recorded |", "| ---: | ---: | ---: | ---: | ---: |"]
    table += [f"| {n} | {h:.1f} | {o:.1f} | {r:.3f} | {k} |" for n, h, o, r, k in rows]
    md = (f"## Glassbox vs transformers {transformers.__version__} on MiniLM (CPU)\n\n"
          f"Machine: {machine()}. Medians of {args.repeats} interleaved repetitions, same process, "
          "`models.runtime.tune_allocator()` applied (process-wide, both sides).\n\n" + "\n".join(table))
    publish("vs_transformers", md, write_doc=not args.no_doc)


if __name__ == "__main__":
    main()

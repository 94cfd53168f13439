"""Load time: Glassbox's loader against `transformers.AutoModel.from_pretrained` of the
same folder, for a tiny random model of every family we load (models/weights/tiny_hf.py)
and for the bundled MiniLM. Same process, interleaved rounds, medians; each ratio is the
median of the round-by-round ratios. Target: ratio <= 1.0.

Two comparisons per folder:
- model: `pretrained.load_folder(folder, tokenizer=False)` (reads config.json, checks
  every header and shape against the server's budget, copies through the key table)
  against `AutoModel.from_pretrained(folder)`;
- model + tokenizer: `pretrained.load_folder(folder)` against `AutoModel.from_pretrained`
  plus the folder's tokenizer (`PreTrainedTokenizerFast` of its tokenizer.json, else
  `AutoTokenizer.from_pretrained`): what a page needs before it can draw.

    python -m benchmarks.load_families [--repeats 15] [--families llama qwen2] [--no-doc]
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._timing import interleaved_times, load_average, machine, paired_ratio, publish, timing_args  # noqa: E402
from benchmarks.summary import summary_line  # noqa: E402
from models.weights import pretrained, tiny_hf  # noqa: E402


def folders(families: list[str], root: Path) -> dict[str, Path]:
    out = {}
    for family in families:
        out[family] = tiny_hf.save(family, root / family)
    out["MiniLM (bundled)"] = pretrained.minilm_path()
    return out


def measure(folder: Path, repeats: int) -> dict[str, tuple[float, float, float, float, float]]:
    """{comparison: (ours ms, theirs ms, ratio, ratio q1, ratio q3)}."""
    from transformers import AutoModel, AutoTokenizer, PreTrainedTokenizerFast

    def ours_model() -> None:
        pretrained.load_folder(folder, tokenizer=False)

    def ours_both() -> None:
        pretrained.load_folder(folder)

    def theirs_model() -> None:
        AutoModel.from_pretrained(str(folder))

    def theirs_both() -> None:
        AutoModel.from_pretrained(str(folder))
        if (folder / "tokenizer.json").exists():   # the fast tokenizer of the same file (the tiny folders' one is
            PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"))   # not what T5's class expects)
        else:
            AutoTokenizer.from_pretrained(str(folder))

    times = interleaved_times({"ours": ours_model, "theirs": theirs_model, "ours+tok": ours_both,
                               "theirs+tok": theirs_both}, repeats=repeats, warmup=2)
    out = {}
    for name, (a, b) in {"model": ("ours", "theirs"), "model + tokenizer": ("ours+tok", "theirs+tok")}.items():
        ratio, q1, q3 = paired_ratio(times, a, b)
        med = lambda xs: sorted(xs)[len(xs) // 2] * 1e3  # noqa: E731
        out[name] = (med(times[a]), med(times[b]), ratio, q1, q3)
    return out


def main() -> None:
    args = timing_args(__doc__, repeats=15, extra=lambda ap: ap.add_argument(
        "--families", nargs="+", default=tiny_hf.families()))
    import transformers

    transformers.logging.set_verbosity_error()
    try:
        from transformers.utils import logging as hf_logging
        hf_logging.disable_progress_bar()
    except ImportError:
        pass
    before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for name, folder in folders(args.families, Path(tmp)).items():
            for comparison, (ours, theirs, ratio, q1, q3) in measure(folder, args.repeats).items():
                rows.append((name, comparison, ours, theirs, ratio, q1, q3))
    worst = max(r[4] for r in rows if r[1] == "model")
    table = ["| folder | what is loaded | Glassbox (ms) | transformers (ms) | ratio (middle half) |",
             "| --- | --- | ---: | ---: | ---: |"]
    table += [f"| {n} | {c} | {o:.1f} | {t:.1f} | {r:.2f} ({a:.2f}–{b:.2f}) |" for n, c, o, t, r, a, b in rows]
    md = (f"## Load time: Glassbox vs transformers {transformers.__version__} `from_pretrained`\n\n"
          f"`python -m benchmarks.load_families --repeats {args.repeats}`. Machine: {machine()}; 1-min load average "
          f"{before} at the start, {load_average()} at the end. Tiny random folders from `models/weights/tiny_hf.py` "
          "(written once, read from the page cache) and the bundled MiniLM; interleaved rounds, medians, each ratio "
          "the median of round-by-round ratios (middle half beside it). Glassbox's side also checks every "
          "safetensors header, the model's size against the server's budget and every shape before it reads a "
          "tensor. Target: ratio <= 1.0 for the model.\n\n" + "\n".join(table) + "\n\n"
          + summary_line("Load time / transformers from_pretrained, worst family (model)",
                         f"{worst:.2f}", "<= 1.0", worst <= 1.0))
    publish("load_families", md, write_doc=not args.no_doc, say_where=True)


if __name__ == "__main__":
    main()

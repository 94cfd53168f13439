"""Parity per family: our Transformer against transformers on a tiny random model of
every family we load (models/weights/tiny_hf.py), float32, eager attention: the largest
absolute difference of every hidden state (each layer, each stack), every attention
probability (self and cross) and the output (logits, or the last hidden state of an
encoder). Writes the table the README quotes (docs/benchmarks.md, section parity); the
tests (tests/unit/test_pretrained.py, test_families_*.py) hold each family to 1e-5.

    python -m benchmarks.parity [--no-doc]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from models.trace import Stack, act_name  # noqa: E402
from models.weights import pretrained, tiny_hf  # noqa: E402


def _hidden(trace, cfg, stack: Stack, i: int, n: int) -> torch.Tensor:
    """Our value matching HF's hidden_states[i] of a stack with n layers: the stream
    entering block i; the last one is after the final norm (every placement but post-norm)."""
    if i < n:
        return trace[act_name("resid_pre", i, stack)]
    return trace[act_name("ln_final.normalized", None, stack)] if cfg.final_norm \
        else trace[act_name("resid_post", n - 1, stack)]


def differences(family: str, seed: int = 0, n_src: int = 13, n_tgt: int = 9,
                device: str = "cpu") -> dict[str, float]:
    """{"hidden": max |Δ| over every hidden state, "attention": over every attention
    probability, "output": over the output} for the tiny `family` model, both sides on
    `device` (benchmarks/gpu.py runs it on CUDA)."""
    spec = tiny_hf.TINY[family]
    hf = tiny_hf.build(family, seed).to(device)
    ours, _ = pretrained.load(hf, device=device)
    cfg = ours.cfg
    g = torch.Generator().manual_seed(seed + 1)
    src = torch.randint(2, cfg.vocab_size, (2, n_src), generator=g).to(device)
    diff = {"hidden": 0.0, "attention": 0.0, "output": 0.0}

    def worse(kind: str, a: torch.Tensor, b: torch.Tensor) -> None:
        diff[kind] = max(diff[kind], float((a.float() - b.float()).abs().max()))

    with torch.no_grad():
        if spec.seq2seq:
            tgt = torch.randint(2, cfg.vocab_size, (2, n_tgt), generator=g).to(device)
            out, trace = ours.run_with_cache(src, tgt)
            ref = hf(input_ids=src, decoder_input_ids=tgt, output_attentions=True, output_hidden_states=True)
            pairs = [(Stack.ENCODER, ref.encoder_hidden_states, ref.encoder_attentions),
                     (Stack.DECODER, ref.decoder_hidden_states, ref.decoder_attentions)]
            for i, a in enumerate(ref.cross_attentions):
                worse("attention", trace[act_name("pattern", i, Stack.CROSS)], a)
        else:
            out, trace = ours.run_with_cache(src)
            ref = hf(src, output_attentions=True, output_hidden_states=True)
            pairs = [(Stack.SELF, ref.hidden_states, ref.attentions)]
        for stack, hiddens, attentions in pairs:
            n = len(attentions)
            for i, h in enumerate(hiddens):
                worse("hidden", _hidden(trace, cfg, stack, i, n), h)
            for i, a in enumerate(attentions):
                worse("attention", trace[act_name("pattern", i, stack)], a)
        final = ref.logits if spec.output == "logits" else ref.last_hidden_state
        worse("output", out, final)
    return diff


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args()
    import transformers

    from benchmarks._timing import publish
    from benchmarks.summary import summary_line

    transformers.logging.set_verbosity_error()
    rows = [(family, differences(family)) for family in tiny_hf.families()]
    worst = max(max(d.values()) for _, d in rows)
    table = ["| family (tiny random model) | hidden states | attention probabilities | output |",
             "| --- | ---: | ---: | ---: |"]
    table += [f"| {f} | {d['hidden']:.1e} | {d['attention']:.1e} | {d['output']:.1e} |" for f, d in rows]
    md = (f"## Parity with transformers {transformers.__version__} per family\n\n"
          "`python -m benchmarks.parity`: largest absolute difference, float32, eager attention, a batch of 2 random "
          "sequences (encoder-decoders: 13 source and 9 target tokens), every layer of every stack.\n\n"
          + "\n".join(table) + "\n\n"
          + summary_line("Parity with transformers: largest |Δ| over every family, hidden states, attention and output",
                         f"{worst:.1e}", "<= 1e-5", worst <= 1e-5))
    publish("parity", md, write_doc=not args.no_doc, say_where=True)


if __name__ == "__main__":
    main()

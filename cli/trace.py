"""Command line: record a trace of one text and save it as .npz.

    python -m cli.trace --text "The cat sat on the mat." --out trace.npz
    python -m cli.trace --text "..." --config my_config.json --tokenizer word --out t.npz
    python -m cli.trace --text "..." --model minilm --names "blocks.*.attn.hook_pattern" --out t.npz

The file holds every recorded tensor under its hook name (float32, bool masks), plus
`__meta__`: JSON with the config and the printable tokens. Read it back with
`models.Trace.load_npz(path)` or plain `numpy.load(path)`.

Without --model, a randomly initialised model is built from --config (a JSON
TransformerConfig; default: the TransformerConfig defaults) with --seed, and the text is
tokenised with a character or word vocabulary built from the text itself.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

from models.config import TransformerConfig
from models.tokenizer import CharTokenizer, WordTokenizer, minilm_tokenizer
from models.transformer import Transformer


def build_random(config: TransformerConfig, text: str, tokenizer: str, seed: int, device: str):
    """A seeded random model and a tokenizer that fits its vocabulary; a config larger
    than the model budget (GLASSBOX_MODEL_BUDGET_MB) is refused before anything is built."""
    from models.weights.safety import check_model

    check_model(config, "This config")
    torch.manual_seed(seed)
    if tokenizer == "minilm":
        tok = minilm_tokenizer()
    else:
        tok = (CharTokenizer if tokenizer == "char" else WordTokenizer).from_corpus([text])
    if tok.vocab_size > config.vocab_size:
        raise ValueError(f"The {tokenizer} tokenizer needs {tok.vocab_size} ids but the config has vocab_size="
                         f"{config.vocab_size}; raise vocab_size.")
    return Transformer(config, device=device).eval(), tok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.trace", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--text", required=True, help="the text to run")
    ap.add_argument("--out", required=True, type=Path, help="output .npz path")
    ap.add_argument("--config", type=Path, help="JSON file with a TransformerConfig (random weights)")
    ap.add_argument("--model", help="a pretrained model instead of random weights: 'minilm' or a local HF folder")
    ap.add_argument("--tokenizer", choices=("char", "word", "minilm"), default="char",
                    help="tokenizer for a random model (default: char)")
    ap.add_argument("--names", nargs="*", default=None, help="glob patterns of hooks to record (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cpu", help="cpu | cuda | mps | auto (default: cpu)")
    args = ap.parse_args(argv)

    try:
        if args.model:
            from models.weights.pretrained import load

            model, tok = load(args.model, device=args.device)
        else:
            cfg = TransformerConfig.from_dict(json.loads(args.config.read_text())) if args.config else TransformerConfig()
            model, tok = build_random(cfg, args.text, args.tokenizer, args.seed, args.device)
        if tok is None:
            raise ValueError("This model has no tokenizer; use a folder with tokenizer.json.")
        limit = model.cfg.max_len if model.cfg.positional == "learned" else None
        enc = tok.encode(args.text, max_len=limit)
        if not enc.ids:
            raise ValueError("The text is empty: nothing to run.")
        if enc.truncated:
            print(f"note: the text has {enc.n_tokens_before_truncation} tokens; kept the first {len(enc)} "
                  f"(the model has {limit} positions)", file=sys.stderr)
        kw = {"tgt_ids": enc.ids, "tgt_tokens": enc.tokens} if model.cfg.arch == "encoder-decoder" else {}
        _, trace = model.run_with_cache(enc.ids, names=args.names, tokens=enc.tokens, **kw)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        trace.save_npz(args.out)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {len(trace)} tensors, {len(enc)} tokens, {trace.nbytes / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

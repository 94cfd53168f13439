"""`python -m cli <command>`: small commands that need no module of their own.

    python -m cli tiny-model <family> <folder>   write a tiny random Hugging Face model (config.json,
                                                 model.safetensors, tokenizer.json) to try the app's
                                                 "Load a model" panel offline

The other tools have their own modules: `python -m cli.trace`, `python -m cli.train`,
`python -m cli.verse`, `python -m cli.pe_lm`, `python -m cli.serve`, `python -m cli.proxy`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def tiny_model(family: str, folder: str, seed: int = 0) -> Path:
    from models.weights import tiny_hf

    out = tiny_hf.save(family, folder, seed)
    return out


def main(argv: list[str] | None = None) -> int:
    from models.weights.tiny_hf import families

    parser = argparse.ArgumentParser(prog="python -m cli", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tiny = sub.add_parser("tiny-model", help="write a tiny random Hugging Face model folder")
    tiny.add_argument("family", choices=families())
    tiny.add_argument("folder")
    tiny.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        print(f"{folder} exists and is not an empty folder; choose a new one.", file=sys.stderr)
        return 2
    out = tiny_model(args.family, args.folder, args.seed)
    print(f"Wrote a tiny random {args.family} model to {out}: load it in the app's sidebar, "
          "\"Load a model\", with this path.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

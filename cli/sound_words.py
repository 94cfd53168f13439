"""Train the small spoken-digit model of the "Tokens from anything" page's Sound section
(recipes/sound_words.py): digits in English and Mandarin by espeak-ng, held out by voice, seeded.

    python -m cli.sound_words                     # to models/weights/checkpoints/sound-words
    python -m cli.sound_words --out /tmp/sound    # somewhere else
"""
from __future__ import annotations

import argparse
from pathlib import Path

import lab.sound
from recipes import sound_words


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.sound_words", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=lab.sound.FOLDER,
                    help="output folder (default models/weights/checkpoints/sound-words)")
    a = ap.parse_args(argv)
    sound_words.main(a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

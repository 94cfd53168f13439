"""The two shipped language models (verse-lm, verse-mlm; recipes/verse.py) from the corpus up:

    python -m cli.verse corpus      # rebuild data/verse.txt.xz, data/zh_modern.txt.xz from the packages
    python -m cli.verse train       # train both models (reads the shipped corpus)
    python -m cli.verse evaluate    # bits per character against the baselines (recipes/verse_eval.py)
(`make verse-lm` runs all three.) Nothing is installed here: when the packages are missing
the corpus step prints the apt command.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from models.training import corpus
from recipes import corpus_zh, verse, verse_eval


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.verse", description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("corpus", "train", "train-lm", "train-mlm", "evaluate", "all"))
    ap.add_argument("--only", choices=("verse", "modern"), help="corpus: rebuild only data/verse.txt.xz or only "
                    "data/zh_modern.txt.xz (default both)")
    ap.add_argument("--root", type=Path, help="corpus: a folder the .deb files were unpacked into (dpkg-deb -x), "
                    "instead of the installed packages")
    ap.add_argument("--fortunes", type=Path, help="folder with tang300 and song100 (default /usr/share/games/fortunes)")
    ap.add_argument("--bible", help="the bible program of bible-kjv (default: bible on the PATH)")
    ap.add_argument("--bible-data", type=Path, help="folder with bible.data (default /usr/lib)")
    ap.add_argument("--man-dir", type=Path, help="the simplified-Chinese manual pages (default /usr/share/man/zh_CN)")
    ap.add_argument("--debref-dir", type=Path, help="the Debian Reference's HTML (default /usr/share/debian-reference)")
    ap.add_argument("--debfaq", type=Path, help="the Debian FAQ's text (default "
                    "/usr/share/doc/debian/FAQ/debian-faq.zh-cn.txt.gz)")
    ap.add_argument("--lm-minutes", type=float, default=24)
    ap.add_argument("--mlm-minutes", type=float, default=8)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args(argv)
    if a.step in ("corpus", "all"):
        builds = {"verse": (lambda: [(d, "") for d in corpus.build_corpus(a.fortunes, a.bible, a.bible_data, a.root)],
                            corpus.CORPUS_PATH),
                  "modern": (lambda: corpus_zh.read_modern(a.root, a.man_dir, a.debref_dir, a.debfaq),
                             corpus.MODERN_PATH)}
        missing = False
        for name, (build, path) in builds.items():
            if a.only not in (None, name):
                continue
            try:
                pairs = build()
            except corpus.MissingSource as e:
                print(e, file=sys.stderr)
                missing = True
                continue
            docs = [d for d, _ in pairs]
            print(f"wrote {corpus.write_corpus(docs, path)} ({len(docs)} documents)")
            if name == "modern":
                print(f"wrote {corpus_zh.write_origins(pairs)}")
        if missing:
            return 2
    if a.step in ("train", "train-lm", "all"):
        verse.train_lm(a.lm_minutes, a.threads)
    if a.step in ("train", "train-mlm", "all"):
        verse.train_mlm(a.mlm_minutes, a.threads)
    if a.step in ("evaluate", "all"):
        verse_eval.update_benchmarks(verse_eval.write_report(verse.REPORT), verse.ROOT / "docs" / "benchmarks.md")
        print(f"wrote {verse.REPORT} and docs/benchmarks.md's section")
    return 0


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    t0 = time.perf_counter()
    rc = main()
    print(f"({time.perf_counter() - t0:.0f} s)")
    raise SystemExit(rc)

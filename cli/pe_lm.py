"""Train short, test long (recipes/pe_lm.py): the six pe64-<scheme> models and their report.

    python -m cli.pe_lm train       # the six models (~5 min each on one thread)
    python -m cli.pe_lm evaluate    # docs/pe_lm.json + docs/pe_lm.md (recipes/pe_lm_eval.py)
    python -m cli.pe_lm all         # both (`make pe-lm`)
"""
from __future__ import annotations

import argparse
import sys
import time

import torch

from models.config import POSITIONALS
from recipes import pe_lm, pe_lm_eval


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.pe_lm", description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("train", "evaluate", "all"))
    ap.add_argument("--schemes", nargs="+", choices=POSITIONALS, default=list(POSITIONALS))
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1: the runs are timed on one)")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    if a.step in ("train", "all"):
        t = pe_lm.task()
        for scheme in a.schemes:
            pe_lm.train_one(scheme, t)
    if a.step in ("evaluate", "all"):
        pe_lm_eval.write_report(pe_lm.REPORT, pe_lm.REPORT_MD)
        print(f"wrote {pe_lm.REPORT} and {pe_lm.REPORT_MD}")
    return 0


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    t0 = time.perf_counter()
    rc = main()
    print(f"({time.perf_counter() - t0:.0f} s)")
    raise SystemExit(rc)

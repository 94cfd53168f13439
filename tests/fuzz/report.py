"""What a fuzz run did: `python -m tests.fuzz.report [ci|long]` prints the examples each
door ran and the peak memory, from test-artifacts/fuzz-counts.json (written at the end
of a pytest session over tests/fuzz, tests/fuzz/conftest.py)."""
from __future__ import annotations

import json
import sys

from tests.fuzz.fuzzing import COUNTS_FILE


def main(profile: str = "long") -> int:
    try:
        run = json.loads(COUNTS_FILE.read_text())[profile]
    except (OSError, ValueError, KeyError):
        print(f"no {profile} fuzz run recorded in {COUNTS_FILE}")
        return 1
    print(f"\nfuzz profile {profile}: {run['total']} examples in {run['seconds']} s (exit {run['exit']})")
    print(f"{'door':<22}{'examples':>10}{'largest example (MB)':>24}")
    for door, n in run["examples"].items():
        print(f"{door:<22}{n:>10}{run['largest_example_mb'].get(door, 0.0):>24}")
    print(f"\n{'door module':<28}{'peak above its start (MB)':>27}{'model budget (MB)':>19}")
    budgets = run.get("module_budget_mb", {})
    for module, mb in run["peak_growth_mb"].items():
        b = budgets.get(module)
        verdict = "" if b is None else ("  under" if mb <= b else "  OVER (within the slack)" if mb <= b + run["slack_mb"]
                                         else "  OVER")
        print(f"{module:<28}{mb:>27}{b if b is not None else '':>19}{verdict}")
    base, peak = run["baseline_mb"], run["peak_mb"]
    budget, app_budget, slack = run["budget_mb"], run["app_budget_mb"], run["slack_mb"]
    over = peak - base
    print(f"\nprocess baseline (app imported, MiniLM loaded, models warmed): {base:.0f} MB")
    print(f"process peak during the suite: {peak:.0f} MB = baseline + {over:.0f} MB "
          f"(resident at the end, after freeing: {run.get('end_mb') or 0:.0f} MB)")
    trace = run.get("trace_budget_mb", 0)
    print(f"baseline + the budgets in force (a model of {app_budget} MB, the largest, + a recorded pass of "
          f"{trace} MB): {base + app_budget + trace:.0f} MB -> {'under' if peak <= base + app_budget + trace else 'OVER'}")
    print(f"baseline + model budget + slack ({app_budget} + {slack} MB, what the suite asserts per door): "
          f"{base + app_budget + slack:.0f} MB -> {'under' if peak <= base + app_budget + slack else 'OVER'}")
    print(f"(file doors run under a budget of {budget} MB, the app doors under {app_budget} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))

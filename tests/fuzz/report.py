"""What a fuzz run did: `python -m tests.fuzz.report [ci|long]` prints the examples each
door ran and the peak memory, from test-artifacts/fuzz-counts.json (written at the end
of a pytest session over tests/fuzz, tests/fuzz/conftest.py); `... report markdown`
the tables of docs/hostile-files.md from both profiles' last runs."""
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


def markdown() -> int:
    """The examples per door in both profiles and each profile's memory, as docs/hostile-files.md shows them."""
    try:
        doc = json.loads(COUNTS_FILE.read_text())
        ci, long = doc["ci"], doc["long"]
    except (OSError, ValueError, KeyError):
        print(f"run both profiles first (make test, make fuzz): {COUNTS_FILE}")
        return 1
    print("| door | examples, ci (`make test`) | examples, long (`make fuzz`) | largest growth of one example, long (MB) |")
    print("| --- | ---: | ---: | ---: |")
    for door in sorted(set(ci["examples"]) | set(long["examples"])):
        print(f"| {door} | {ci['examples'].get(door, 0):,} | {long['examples'].get(door, 0):,} | "
              f"{long['largest_example_mb'].get(door, 0.0)} |")
    print(f"| **all** | **{ci['total']:,}** ({ci['seconds']} s) | **{long['total']:,}** ({long['seconds']} s) | |")
    print()
    print("| door module | peak above its start, ci (MB) | peak above its start, long (MB) | model budget (MB) |")
    print("| --- | ---: | ---: | ---: |")
    for module in sorted(long["peak_growth_mb"]):
        print(f"| {module} | {ci['peak_growth_mb'].get(module, '')} | {long['peak_growth_mb'][module]} | "
              f"{long['module_budget_mb'].get(module, '')} |")
    for name, run in (("ci", ci), ("long", long)):
        print(f"\n{name}: baseline {run['baseline_mb']:.0f} MB, peak {run['peak_mb']:.0f} MB "
              f"(baseline + {run['peak_mb'] - run['baseline_mb']:.0f} MB), exit {run['exit']}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["markdown"]:
        sys.exit(markdown())
    sys.exit(main(*sys.argv[1:2]))

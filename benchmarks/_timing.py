"""Side-by-side timing: interleaved repetitions, medians, ratios (never absolute asserts)."""
from __future__ import annotations

import argparse
import platform
import re
import statistics
import sys
import time
from typing import Callable

import torch


def timing_args(doc: str, repeats: int, extra: Callable[[argparse.ArgumentParser], None] | None = None,
                argv: list[str] | None = None) -> argparse.Namespace:
    """The options a timing benchmark takes (--repeats, --device, --threads, --no-doc, and
    those `extra` adds), parsed; --threads N is applied to torch here."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if extra is not None:
        extra(ap)
    ap.add_argument("--repeats", type=int, default=repeats)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--no-doc", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    return args


def interleaved_times(fns: dict[str, Callable[[], object]], repeats: int = 30, warmup: int = 3) -> dict[str, list[float]]:
    """Run each function once per round, rounds interleaved so drift hits all alike;
    return every round's seconds of each (round i of every function at index i)."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return times


def synchronized(fn: Callable[[], object], device: str | torch.device = "cuda") -> Callable[[], None]:
    """`fn` followed by `torch.cuda.synchronize()` when `device` is a CUDA device (a GPU
    kernel is only queued when the Python call returns), else `fn` as it is timed on a CPU."""
    if torch.device(device).type != "cuda":
        return fn

    def run() -> None:
        fn()
        torch.cuda.synchronize()
    return run


def interleaved_medians(fns: dict[str, Callable[[], object]], repeats: int = 30, warmup: int = 3) -> dict[str, float]:
    """The median seconds of each function over interleaved rounds."""
    return {name: statistics.median(ts) for name, ts in interleaved_times(fns, repeats, warmup).items()}


def paired_ratio(times: dict[str, list[float]], num: str, den: str) -> tuple[float, float, float]:
    """(median, 25th, 75th percentile) of num/den taken round by round: the two runs of
    a round are seconds apart, so load from elsewhere on a shared machine mostly hits
    both sides of each ratio."""
    ratios = sorted(a / b for a, b in zip(times[num], times[den]))
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    return statistics.median(ratios), q[0], q[2]


def machine() -> str:
    """One line describing where the numbers were taken."""
    import os

    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
            f"torch {torch.__version__} ({torch.get_num_threads()} threads), Python {platform.python_version()}")


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages as "0.2, 0.6, 2.6" ("n/a" where unknown)."""
    import os

    try:
        return ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


DOC = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def card_section(base: str, device_name: str) -> str:
    """The docs section of a GPU benchmark for one card, so runs on different cards stand
    side by side: ("gpu", "NVIDIA H100 80GB HBM3") -> "gpu_h100"."""
    words = [w for w in re.split(r"[^a-z0-9]+", device_name.lower()) if w and w not in ("nvidia", "tesla", "geforce")]
    return f"{base}_{words[0]}" if words else base


MEASURED = re.compile(r"<!-- measured: (\d{4}-\d\d-\d\d)[^>]*? -->")
PROBE = re.compile(r"<!-- measured: [^>]*?; CPU probe (\d+(?:\.\d+)?) ms -->")


def _probe_work() -> int:
    # the kind of work a Streamlit server's Python does per run: dict and string handling,
    # small objects, sorting; no torch, no I/O, the same every time
    seen: dict[str, int] = {}
    total = 0
    for i in range(10_000):
        key = f"w{i % 251}:{i & 7}"
        seen[key] = seen.get(key, 0) + i
        total += len(key)
    return total + len(sorted(seen.values())) + len(str(sorted(seen.items())[:50]))


def cpu_probe_ms(repeats: int = 30) -> float:
    """A fixed pure-Python workload's best time (ms) on this machine now: lower is a faster
    CPU. Machines of one kind differ by up to ~1.8x here (docs/benchmarks.md, issue 37), so
    each section's stamp carries it, and figures from two machines can be told apart.
    The best of `repeats` runs: a run the scheduler interrupts only makes the others count."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _probe_work()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def measured_line(when: float | None = None, probe_ms: float | None = None) -> str:
    """The invisible stamp a section ends with: when its figures were measured (UTC) and,
    when given, the CPU probe's time then (`cpu_probe_ms`), read back by the summary
    (benchmarks/summary.py) for its "measured" column."""
    probe = "" if probe_ms is None else f"; CPU probe {probe_ms:.1f} ms"
    return f"<!-- measured: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(when))}{probe} -->"


def update_doc(section: str, markdown: str) -> None:
    """Replace (or append) one benchmark's section of docs/benchmarks.md, between
    <!-- bench:NAME --> markers, so each benchmark keeps only its latest result. The
    section is stamped with the time it was written, which is when a benchmark measured it,
    and with the CPU probe's time then (the machine it was measured on)."""
    start, end = f"<!-- bench:{section} -->", f"<!-- /bench:{section} -->"
    markdown = MEASURED.sub("", markdown).strip() + "\n" + measured_line(probe_ms=cpu_probe_ms())
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n\nLatest results, written by the scripts in `benchmarks/`.\n"
    block = f"{start}\n{markdown.strip()}\n{end}"
    if start in text and end in text:
        text = text[: text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, encoding="utf-8")


def publish(section: str, markdown: str, *, write_doc: bool = True, say_where: bool = False) -> None:
    """Print a benchmark's report and, unless `write_doc` is off (the scripts' --no-doc),
    make it section `section` of docs/benchmarks.md; `say_where` then says so on stderr."""
    print(markdown)
    if write_doc:
        update_doc(section, markdown)
        if say_where:
            print(f"\n(written to docs/benchmarks.md, section {section})", file=sys.stderr)

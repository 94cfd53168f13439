"""The summary table at the top of docs/benchmarks.md, regenerated from its sections.

Each benchmark script writes its own section (`_timing.update_doc`, between
`<!-- bench:NAME -->` markers). This script reads those sections back and writes, right
after the title, a block with the date, the machine and one row per headline figure:
figure, value, target, met?. Sections that carry machine-readable lines

    <!-- summary: figure | value | target | met -->

(written with `summary_line`) are read from those; the older sections are read with
one pattern each (below). A section whose figure cannot be found is listed as such, so a
changed format shows up instead of silently dropping a row.

    python -m benchmarks.summary          # rewrite the summary block in place
    python -m benchmarks.summary --print  # only print it
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks._timing import DOC, MEASURED, PROBE, machine  # noqa: E402

START, END = "<!-- bench:summary -->", "<!-- /bench:summary -->"
_SECTION = re.compile(r"<!-- bench:(\w+) -->\n(.*?)\n<!-- /bench:\1 -->", re.S)
_MARK = re.compile(r"<!-- summary: (.*?) -->")
ORDER = ["trace_overhead", "vs_transformers", "vs_transformerlens", "training", "generation", "render_payload",
         "browser_latency", "cold_start", "lessons", "load", "replicas"]

Row = tuple[str, str, str, str]   # figure, value, target, met


def summary_line(figure: str, value: str, target: str, met: bool | None) -> str:
    """A machine-readable summary row for a section (an HTML comment: invisible)."""
    clean = [x.replace("|", "/").replace("-->", "->") for x in (figure, value, target)]
    return f"<!-- summary: {clean[0]} | {clean[1]} | {clean[2]} | {'n/a' if met is None else 'yes' if met else 'no'} -->"


def sections(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in _SECTION.finditer(text) if m.group(1) != "summary"}


def _legacy(name: str, body: str) -> list[Row]:
    """Headline figures of the sections written before summary lines existed."""
    rows: list[Row] = []
    if name == "trace_overhead":
        m = re.search(r"ratio run_with_cache / forward = ([\d.]+) \(target <= ([\d.]+): (\w+)\)", body)
        if m:
            rows.append(("Trace overhead, run_with_cache / forward (MiniLM shape, 128 tokens)", m.group(1),
                         f"<= {m.group(2)}", "yes" if m.group(3) == "OK" else "no"))
    elif name == "vs_transformers":
        for n, r in re.findall(r"^\| (\d+) \| [\d.]+ \| [\d.]+ \| ([\d.]+) \| \d+ \|$", body, re.M):
            rows.append((f"Ours / HF forward with attentions + hidden states, {n} tokens", r, "<= 1.0",
                         "yes" if float(r) <= 1.0 else "no"))
    elif name == "training":
        target = re.search(r"target <= (\d+) s", body)
        for threads, sps_ratio, secs, ok in re.findall(
                r"^\| (\d+) \| [\d.]+ \| [\d.]+ \| ([\d.]+) \| ([\d.]+|nan|inf) s \((\w+)\) \|", body, re.M):
            rows.append((f"Training lab: reverse task to 95 %, {threads} thread(s)", f"{secs} s",
                         f"<= {target.group(1) if target else '?'} s", "yes" if ok == "yes" else "no"))
    elif name == "generation":
        m = re.search(r"Ratio at (\d+) tokens: ([\d.]+)x", body)
        if m:
            rows.append((f"Generation, KV cache / recompute speed at {m.group(1)} tokens", f"{m.group(2)}x",
                         "> 1 (cache faster)", "yes" if float(m.group(2)) > 1 else "no"))
    elif name == "render_payload":
        m = re.search(r"At (\d+) tokens: ratio ([\d.]+) = [\d.]+ x the target ([\d.]+) \(target (met|missed|not met)", body)
        if m:
            rows.append((f"Attention page bytes / BertViz model_view, {m.group(1)} tokens", m.group(2),
                         f"<= {m.group(3)}", "yes" if m.group(4) == "met" else "no"))
    elif name == "browser_latency":
        for op, med, target in re.findall(r"^\| \(([ab])\) [^|]* \| (\d+) \|.*\| <= (\d+) ms \| [\d.]+ \|$", body, re.M):
            what = {"a": "new text -> charts drawn", "b": "head switch -> redrawn"}[op]
            rows.append((f"Browser latency, attention page 64 tokens: {what} (median)", f"{med} ms",
                         f"<= {target} ms", "yes" if int(med) <= int(target) else "no"))
    return rows


def rows_of(name: str, body: str) -> list[Row]:
    marked = [tuple(x.strip() for x in m.group(1).split("|")) for m in _MARK.finditer(body)]
    rows = [r for r in marked if len(r) == 4] or _legacy(name, body)
    return rows or [(f"`{name}`: no headline figure found in its section", "?", "?", "?")]


_LOAD = re.compile(r"1-min load average ([\d.]+) at the start")


def measured(body: str) -> str:
    """When a section was measured (its stamp's date; "?" for a section written before
    stamps), where it says so the machine's 1-min load average when it started, and where
    its stamp has one the CPU probe's time (benchmarks/_timing.cpu_probe_ms)."""
    when = MEASURED.search(body)
    load = _LOAD.search(body)
    probe = PROBE.search(body)
    return ((when.group(1) if when else "?") + (f"; load {load.group(1)}" if load else "")
            + (f"; CPU probe {probe.group(1)} ms" if probe else ""))


def build(text: str) -> str:
    secs = sections(text)
    names = [n for n in ORDER if n in secs] + sorted(n for n in secs if n not in ORDER)
    lines = ["## Summary", "",
             f"Regenerated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `make bench` "
             f"(`python -m benchmarks.summary`) from the sections below; machine of this summary: {machine()}. "
             "Each section names the machine and load it was measured under; *measured* is its date (UTC) and, "
             "where the section gives it, the machine's 1-min load average when the benchmark started (other "
             "work on the machine, which inflates timings; compare it with the section's CPU count) and, for "
             "sections written since it exists, the *CPU probe*: a fixed pure-Python workload's best time on that "
             "machine then (lower is faster; ~20 % either way on one machine, but machines of one kind differ by up "
             "to ~1.8x, so figures whose probes differ by more compare machines as much as code).", "",
             "| figure | value | target | met? | measured |", "| --- | ---: | --- | --- | --- |"]
    for n in names:
        when = measured(secs[n])
        for fig, val, target, met in rows_of(n, secs[n]):
            shown = {"yes": "yes", "no": "**no**"}.get(met, met)
            lines.append(f"| {fig} (`{n}`) | {val} | {target} | {shown} | {when} |")
    if not names:
        lines.append("| no benchmark has written its section yet | | | | |")
    return "\n".join(lines)


def write(text: str, block: str) -> str:
    """Put the summary block right after the title paragraph (replacing an old one)."""
    wrapped = f"{START}\n{block}\n{END}"
    if START in text and END in text:
        return text[: text.index(START)] + wrapped + text[text.index(END) + len(END):]
    first = text.find("<!-- bench:")
    if first < 0:
        return text.rstrip() + "\n\n" + wrapped + "\n"
    return text[:first] + wrapped + "\n\n" + text[first:]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--print", action="store_true", help="print the summary, do not write the doc")
    args = ap.parse_args(argv)
    if not DOC.exists():
        raise SystemExit(f"{DOC} does not exist: run the benchmarks first (make bench).")
    text = DOC.read_text(encoding="utf-8")
    block = build(text)
    print(block)
    if not args.print:
        DOC.write_text(write(text, block), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

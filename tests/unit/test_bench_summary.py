"""benchmarks/summary.py: the summary table of docs/benchmarks.md read from its sections."""
from benchmarks.summary import build, rows_of, summary_line, write

DOC = """# Benchmarks

Latest results, written by the scripts in `benchmarks/`.

<!-- bench:trace_overhead -->
ratio run_with_cache / forward = 1.234 (target <= 1.10: MISSED)
<!-- /bench:trace_overhead -->

<!-- bench:training -->
| intra-op threads | glassbox steps/s | torch.nn steps/s | ratio | reverse to 95% | steps | fresh accuracy |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| 1 | 50.0 | 40.0 | 1.25 | 12.5 s (yes) | 300 | 97.0% |
<!-- /bench:training -->

<!-- bench:load -->
table
{mark}
<!-- /bench:load -->

<!-- bench:mystery -->
nothing to read here
<!-- /bench:mystery -->
"""


def test_rows_from_marks_and_from_legacy_sections():
    mark = summary_line("Load: 30 sessions | p95", "2.5 s", "<= 3 s", True)
    assert "|" not in mark.split("summary: ")[1].split(" | ")[0]     # a | in the figure cannot split the row
    doc = DOC.format(mark=mark)
    block = build(doc)
    assert "| Trace overhead, run_with_cache / forward (MiniLM shape, 128 tokens) (`trace_overhead`) | 1.234 | <= 1.10 | **no** |" in block
    assert "| Training lab: reverse task to 95 %, 1 thread(s) (`training`) | 12.5 s | <= 30 s | yes |" not in block  # no target in body
    assert "reverse task to 95 %, 1 thread(s) (`training`) | 12.5 s | <= ? s | yes |" in block
    assert "Load: 30 sessions / p95 (`load`) | 2.5 s | <= 3 s | yes |" in block
    assert "`mystery`: no headline figure found" in block
    # order: known sections first, in ORDER
    assert block.index("trace_overhead") < block.index("training") < block.index("(`load`)") < block.index("mystery")


def test_summary_goes_first_and_replaces_the_old_one():
    doc = DOC.format(mark="")
    once = write(doc, "## Summary\nA")
    assert once.index("<!-- bench:summary -->") < once.index("<!-- bench:trace_overhead -->")
    assert once.startswith("# Benchmarks")
    twice = write(once, "## Summary\nB")
    assert twice.count("<!-- bench:summary -->") == 1 and "\nB\n" in twice and "\nA\n" not in twice


def test_met_unknown():
    assert rows_of("x", summary_line("f", "v", "t", None)) == [("f", "v", "t", "n/a")]


def test_each_gpu_card_keeps_its_own_section():
    from benchmarks._timing import card_section

    assert card_section("gpu", "NVIDIA H100 80GB HBM3") == "gpu_h100"
    assert card_section("real_size_gpu", "NVIDIA H200") == "real_size_gpu_h200"
    assert card_section("gpu", "NVIDIA A100-SXM4-80GB") == "gpu_a100"
    assert card_section("gpu", "Tesla T4") == "gpu_t4"
    assert card_section("gpu", "") == "gpu"          # a card with no name still gets a section


def test_a_section_is_stamped_when_written_and_the_summary_says_when_and_under_what_load(tmp_path, monkeypatch):
    import benchmarks._timing as timing

    doc = tmp_path / "benchmarks.md"
    monkeypatch.setattr(timing, "DOC", doc)
    monkeypatch.setattr(timing, "cpu_probe_ms", lambda: 3.6543)
    body = ("Machine: x86_64. 1-min load average 3.5 at the start, 0.4 at the end (2 CPUs).\n"
            + summary_line("Load: 30 sessions", "2.5 s", "<= 3 s", True))
    timing.update_doc("load", body + "\n<!-- measured: 2020-01-01 00:00 UTC -->")   # an old stamp is replaced
    timing.update_doc("mystery", "nothing to read here")
    text = doc.read_text()
    assert text.count("<!-- measured:") == 2 and "2020-01-01" not in text
    today = timing.measured_line().split()[2]
    block = build(text)
    assert "| figure | value | target | met? | measured |" in block
    assert f"| Load: 30 sessions (`load`) | 2.5 s | <= 3 s | yes | {today}; load 3.5; CPU probe 3.7 ms |" in block
    assert (f"`mystery`: no headline figure found in its section (`mystery`) | ? | ? | ? | {today}; CPU probe 3.7 ms |"
            in block)
    # a section written before stamps existed says so rather than guessing
    assert "| Load: 30 sessions / p95 (`load`) | 2.5 s | <= 3 s | yes | ? |" in build(
        DOC.format(mark=summary_line("Load: 30 sessions | p95", "2.5 s", "<= 3 s", True)))


def test_the_cpu_probe_times_a_fixed_workload_and_its_stamp_reads_back():
    import benchmarks._timing as timing

    assert timing._probe_work() == timing._probe_work()             # the same work every time
    ms = timing.cpu_probe_ms(repeats=3)
    assert 0 < ms < 10_000
    stamp = timing.measured_line(0, probe_ms=12.34)
    assert stamp == "<!-- measured: 1970-01-01 00:00 UTC; CPU probe 12.3 ms -->"
    assert timing.MEASURED.search(stamp).group(1) == "1970-01-01" and timing.PROBE.search(stamp).group(1) == "12.3"
    assert timing.PROBE.search(timing.measured_line(0)) is None     # an old stamp has no probe

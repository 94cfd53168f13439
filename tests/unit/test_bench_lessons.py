"""benchmarks/lessons.py: which progress indicator came first, and the report's figures
(medians, ratio to the rerun baseline, met / missed, the summary lines). No browser."""
from __future__ import annotations

import math

from benchmarks import lessons
from benchmarks.summary import rows_of


def test_first_indicator_is_the_earliest_seen():
    assert lessons.first_indicator({"status": 900.0, "progress_bar": 400.0, "spinner": 1200.0}) == ("progress_bar", 400.0)
    assert lessons.first_indicator({}) is None


def test_median_of_nothing_is_nan():
    assert math.isnan(lessons.median([]))
    assert lessons.median([0.3, 0.1, 0.2]) == 0.2


def results() -> lessons.Results:
    r = lessons.Results()
    r.steps["figure"] = [0.2, 0.4, 0.6]                        # median 400 ms
    r.steps["question"] = [0.1, 0.3]
    r.rerun = [0.2, 0.2, 0.2]
    r.cold_progress, r.cold_figure, r.cold_first = [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], ["status", "status", "progress_bar"]
    r.warm_progress, r.warm_figure = [0.1], [0.5]
    return r


def test_report_medians_ratio_and_targets():
    md = lessons.report(results(), 2, "quiet machine")
    assert "| (a) step change → figure drawn | 3 | 400 | 200 | 600 | 2.00 | <= 500 ms |" in md
    assert "| (b) cold link → figure drawn | 3 | 5000 | 4000 | 6000 |  | <= 3000 ms |" in md
    assert "(a) met, (b) MISSED" in md
    assert "status 2, progress_bar 1" in md
    assert "quiet machine" in md


def test_report_feeds_the_summary_table():
    rows = rows_of("lessons", lessons.report(results(), 2, ""))
    assert rows[0] == ("Lessons: step change → figure drawn (median)", "400 ms", "<= 500 ms", "yes")
    assert rows[1][1].startswith("5000 ms") and rows[1][3] == "no"

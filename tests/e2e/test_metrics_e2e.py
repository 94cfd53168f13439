"""The server's own script-run times on /_stcore/metrics (server/run_stats.py, app.py)."""
from __future__ import annotations

import urllib.request

from support.browser import open_app, type_text
from server.run_stats import parse_metrics


def _metrics(base_url: str) -> tuple[str, dict]:
    with urllib.request.urlopen(f"{base_url}/_stcore/metrics", timeout=30) as r:
        text = r.read().decode()
    return text, parse_metrics(text)


def test_script_runs_are_timed_and_served_with_streamlits_metrics(app_server, page):
    _, before = _metrics(app_server)
    open_app(page, app_server, "/")
    type_text(page, "Metrics count this run.")
    text, after = _metrics(app_server)
    assert "# TYPE glassbox_script_run_seconds histogram" in text
    assert "active_sessions" in text                      # Streamlit's own families are still there
    assert after["count"] >= before["count"] + 2          # the first run and the rerun
    assert after["sum"] > before["sum"]
    counts = [n for _, n in after["buckets"]]
    assert counts == sorted(counts) and counts[-1] == after["count"]

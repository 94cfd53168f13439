"""The server's own script-run times on /_stcore/metrics (ui/serving/run_stats.py, app.py)."""
from __future__ import annotations

import urllib.request

from tests.e2e.conftest import open_app
from ui.serving.run_stats import parse_metrics


def _metrics(base_url: str) -> tuple[str, dict]:
    with urllib.request.urlopen(f"{base_url}/_stcore/metrics", timeout=30) as r:
        text = r.read().decode()
    return text, parse_metrics(text)


def test_script_runs_are_timed_and_served_with_streamlits_metrics(app_server, page):
    _, before = _metrics(app_server)
    open_app(page, app_server, "/")
    page.locator('[data-testid="stSidebar"] .st-key-text textarea').fill("Metrics count this run.")
    page.locator('[data-testid="stSidebar"] .st-key-text textarea').press("Control+Enter")
    from tests.e2e.conftest import wait_for_rerun

    wait_for_rerun(page)
    text, after = _metrics(app_server)
    assert "# TYPE glassbox_script_run_seconds histogram" in text
    assert "active_sessions" in text                      # Streamlit's own families are still there
    assert after["count"] >= before["count"] + 2          # the first run and the rerun
    assert after["sum"] > before["sum"]
    counts = [n for _, n in after["buckets"]]
    assert counts == sorted(counts) and counts[-1] == after["count"]

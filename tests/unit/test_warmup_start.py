"""server/warmup.py `start(late=...)`: a warm-up started by a visitor's first run (a plain
`streamlit run app.py`) says so in the log, with the command that starts it with the
server; the launcher's start says nothing of the kind."""
from __future__ import annotations

import logging
import threading

from server import warmup


def _fresh(monkeypatch) -> None:
    monkeypatch.setenv(warmup.ENV, "1")
    monkeypatch.setattr(warmup, "_thread", None)
    monkeypatch.setattr(warmup, "_state", warmup.State())
    monkeypatch.setattr(warmup, "_done", threading.Event())


def _started(monkeypatch, caplog, late: bool) -> list[str]:
    _fresh(monkeypatch)
    with caplog.at_level(logging.INFO, logger="glassbox.warmup"):
        assert warmup.start([("imports", lambda state: None)], late=late)
        warmup.join(10)
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_late_start_says_how_to_start_with_the_server(monkeypatch, caplog):
    (message,) = _started(monkeypatch, caplog, late=True)
    assert "first visitor" in message and "make run" in message and "python -m ui.warmup run app.py" in message


def test_the_launchers_start_warns_of_nothing(monkeypatch, caplog):
    assert _started(monkeypatch, caplog, late=False) == []


def test_the_imports_stage_leaves_nothing_for_app_pys_first_lines():
    """What app.py does before its first element (the page icon checked against Streamlit's
    emoji table, its own imports) and the Lessons page (every step kind, which a lesson
    link's first visitor waited for) import nothing the warm-up's imports stage has not.
    A visitor's first run waits for that stage (app.py), so no module of theirs is imported
    by two threads at once."""
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import sys\n"
        "from server.warmup import State\n"
        "from ui import warmup\n"
        "warmup._imports(State())\n"
        "before = set(sys.modules)\n"
        "from streamlit.string_util import is_emoji\n"
        "assert is_emoji('🔍')\n"
        "import server.run_stats, ui.presenter, ui.replica, ui.i18n, ui.sidebar, ui.views.lessons\n"
        "print(sorted(set(sys.modules) - before))\n")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "GLASSBOX_WARMUP": "0", "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"

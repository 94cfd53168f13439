"""server/threads.py: the app's process sets OMP_WAIT_POLICY=PASSIVE before torch loads,
an operator's own setting wins, and a process that loaded torch first is left alone."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True,
                         text=True, check=True, timeout=120)
    return out.stdout.strip()


def test_the_app_entry_sets_passive_before_torch_loads():
    # ui/warmup.py is the first module of every app process (launcher, cli.serve, app.py)
    code = ("import sys, os, ui.warmup; assert 'torch' not in sys.modules, 'torch loaded by the entry'; "
            "print(os.environ.get('OMP_WAIT_POLICY'))")
    assert _run(code) == "PASSIVE"


def test_an_operators_setting_wins():
    assert _run("import os, server.threads as t; t.quiet_idle_threads(); print(os.environ['OMP_WAIT_POLICY'])",
                OMP_WAIT_POLICY="ACTIVE") == "ACTIVE"


def test_too_late_once_torch_is_loaded():
    code = ("import os, torch, server.threads as t; print(t.quiet_idle_threads(), "
            "os.environ.get('OMP_WAIT_POLICY'))")
    assert _run(code) == "False None"

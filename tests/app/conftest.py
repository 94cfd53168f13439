"""AppTests run app.py in this process: no background warm-up (ui/warmup.py, server/warmup.py) racing the
test's own runs; tests/app/test_warmup.py turns it on where it is under test."""
import pytest


@pytest.fixture(autouse=True)
def _no_warmup(monkeypatch):
    monkeypatch.setenv("GLASSBOX_WARMUP", "0")


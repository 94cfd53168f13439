"""models/limits.py: one place for every limit, read from the environment, documented in
the README with the message a user sees at it."""
from pathlib import Path

import pytest

from models import limits
from models.limits import LIMITS, Limit
from ui.i18n import STRINGS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", LIMITS)
def test_every_limit_is_in_the_readme_with_its_message_in_both_languages(name):
    lim = LIMITS[name]
    row = next((line for line in README.splitlines() if line.startswith(f"| `{lim.env}` |")), None)
    assert row is not None, f"README's Limits table has no row for {lim.env}"
    assert lim.what in row
    assert set(STRINGS[lim.message]) == {"en", "zh"} and STRINGS[lim.message]["en"] in row


def test_values_come_from_the_environment(monkeypatch):
    lim = Limit("GLASSBOX_TEST_LIMIT", 5, "x", "a test", "refused_unexpected")
    monkeypatch.delenv("GLASSBOX_TEST_LIMIT", raising=False)
    assert lim.value() == 5
    monkeypatch.setenv("GLASSBOX_TEST_LIMIT", "7.5")
    assert lim.value() == 7.5
    for junk in ("lots", "-3", "0", "nan"):
        monkeypatch.setenv("GLASSBOX_TEST_LIMIT", junk)
        assert lim.value() == 5                                   # not a limit: the default
        with pytest.raises(ValueError, match="GLASSBOX_TEST_LIMIT"):
            Limit("GLASSBOX_TEST_LIMIT", 5, "x", "a test", "refused_unexpected", strict=True).value()
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "12")
    assert limits.megabytes("model_mb") == 12_000_000

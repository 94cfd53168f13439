"""The overview's task → architecture section (ui/views/home_task_fit.py) in English and
Chinese: the table's marks, and the catalogue's models placed by their configurations."""
from __future__ import annotations

import pytest

from lab import task_fit
from models.weights import zoo
from tests.app.helpers import assert_ok, open_app

HOME = "app_pages/home.py"
WORDS = {"English": ("✓ fits", "✗ cannot", "MiniLM", "classification; tagging"),
         "中文": ("✓ 适合", "✗ 不行", "MiniLM", "分类；序列标注")}


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_task_table_and_models(lang):
    at = open_app({"lang": lang}, HOME)
    assert_ok(at)
    box = [e for e in at.main.expander if e.label in ("Which architecture for which task", "哪种架构适合哪种任务")]
    assert len(box) == 1
    tables = [m.value for m in box[0].markdown if m.value.startswith("|")]
    assert len(tables) == 2
    yes, no, minilm, enc_tasks = WORDS[lang]
    task_rows = tables[0].splitlines()[2:]
    assert len(task_rows) == 4
    assert task_rows[0].count(yes) == 1 and task_rows[2].count(no) == 1        # classify: encoder; generate: not it
    model_rows = tables[1].splitlines()[2:]
    expected = [e for e in zoo.catalogue() if e.available and e.config is not None]
    archs = {task_fit.abilities(e.config) for e in expected}
    assert len(model_rows) == len(archs)                                         # one row per set of abilities
    assert any(c.value.startswith(f"{len(expected)} ") for c in box[0].caption)   # every model counted
    row = next(r for r in model_rows if minilm in r)
    assert enc_tasks in row
    n_enc = sum(task_fit.abilities(e.config).arch == "encoder" for e in expected)
    assert any(str(n_enc) in c.value for c in box[0].caption)

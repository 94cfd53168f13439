"""Figures a class shares are built once (issue 37): a lesson step opened by several
sessions on one text runs its kind once per language (ui/serving/lessons.py), the model
map and the residual stream's charts are built once per pass (ui/serving/figures.py), and
what each session sees is the same figure."""
from __future__ import annotations

import dataclasses
import json

import viz_core as vz
from tests.app.helpers import assert_ok, open_app
from ui import lessons
from ui.lessons import KINDS

LESSONS = "app_pages/lessons.py"


def _count_kind(monkeypatch, name: str) -> list[int]:
    calls: list[int] = []
    kind = KINDS[name]

    def counted(ctx, p):
        calls.append(1)
        return kind.run(ctx, p)
    monkeypatch.setitem(lessons.KINDS, name, dataclasses.replace(kind, run=counted))
    return calls


def _spec(at, key_end: str) -> dict:
    chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith(key_end))
    return json.loads(chart.proto.spec)


def test_a_lesson_step_is_computed_once_for_every_session_on_its_text(monkeypatch):
    calls = _count_kind(monkeypatch, "qkv")
    link = {"lesson": "attention", "step": "2", "text": "every student reads this one sentence today"}
    sessions = [open_app(link, page=LESSONS, direct=True) for _ in range(3)]
    for at in sessions:
        assert_ok(at)
    assert len(calls) == 1
    specs = [_spec(at, "ls_fig_attention_1") for at in sessions]
    assert specs[0] == specs[1] == specs[2]
    zh = open_app({**link, "lang": "中文"}, page=LESSONS, direct=True)      # another language: its own figure
    assert_ok(zh)
    assert len(calls) == 2
    other = open_app({**link, "text": "a student who types a sentence of her own"}, page=LESSONS, direct=True)
    assert_ok(other)
    assert len(calls) == 3


def test_a_kind_that_reads_the_session_is_not_shared():
    assert not KINDS["train_run"].shared and not KINDS["train_scrub"].shared
    assert KINDS["qkv"].shared and KINDS["score_row"].shared


def test_the_residual_charts_and_the_model_map_are_built_once_per_pass(monkeypatch):
    built = {"contribution_chart": 0, "model_map": 0}
    real_contrib = vz.contribution_chart
    from viz_core import model_map as vmap
    real_map = vmap.model_map

    def contrib(*a, **k):
        built["contribution_chart"] += 1
        return real_contrib(*a, **k)

    def mmap(*a, **k):
        built["model_map"] += 1
        return real_map(*a, **k)
    monkeypatch.setattr(vz, "contribution_chart", contrib)
    monkeypatch.setattr(vmap, "model_map", mmap)
    text = {"text": "two sessions open the same pages on this text"}
    for _ in range(2):
        res = open_app(text, page="app_pages/residual.py", direct=True)
        assert_ok(res)
        assert _spec(res, "res_contrib")["data"]
        home = open_app(text, page=None, direct=True)
        assert_ok(home)
        assert _spec(home, "model_map")["data"]
    assert built == {"contribution_chart": 1, "model_map": 1}

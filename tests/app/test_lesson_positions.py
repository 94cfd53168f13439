"""Lesson 3 ("positions"): every step renders in English and Chinese with one figure (after
the reveal on a question step); the answers match independent computations on the toy
checkpoints (model runs, rotation matrices, the tasks' own evaluation)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import lab.lessons
from lab import lesson_positions
from models.training.tasks import get_task
from ui import serving
from ui.i18n import STRINGS
from ui.lessons import specs
from ui.serving import positional

from .helpers import TEXT, as_shown, open_app
from .test_lesson_heads import walk

PAGE = "app_pages/lessons.py"
LESSON = "positions"


def lesson() -> lab.lessons.Lesson:
    return lab.lessons.shipped(specs())[0][LESSON]


def option_text(option: str) -> str:
    return STRINGS[f"lk_opt_{option}"]["en"]


def test_the_answers_shown_are_the_models(lang="English"):
    """(Every step of every lesson in both languages: tests/app/test_lessons.py.)"""
    steps = lesson().steps
    at = open_app({"lesson": LESSON, "text": TEXT, "lang": lang}, page=PAGE)
    answers = walk(at, LESSON, steps)
    assert len(answers) >= 2
    if lang == "English":
        want = {"permutation": "perm_same", "rope": "rope_same", "extrapolation": f"pe_{winner('copy').winner}"}
        for i, sentence in answers.items():
            assert option_text(want[steps[i].kind]) in as_shown(sentence), (i, sentence)


# ---- answers against independent computations ------------------------------------------------------------
def layer0_scores(key: str, ids: list[int]) -> np.ndarray:
    model, _ = serving.load_model(key, "cpu")
    from models.trace import act_name
    with torch.no_grad():
        _, trace = model.run_with_cache(ids, names=[act_name("scores", 0)])
    return trace.get("scores", 0).float().numpy()[0]           # [H, n, n]


def test_permutation_answer():
    ex = get_task("copy").probe()
    perm = [0, *np.random.default_rng(0).permutation(np.arange(1, len(ex.ids) - 1)).tolist(), len(ex.ids) - 1]
    ids = list(ex.ids)
    shuffled = [ids[p] for p in perm]
    for key, same in (("toy:copy-none", True), ("toy:copy-sinusoidal", False), ("toy:copy-learned", False)):
        s, s2 = layer0_scores(key, ids), layer0_scores(key, shuffled)
        err = float(np.abs(s2 - s[:, perm][:, :, perm]).max())
        assert lesson_positions.permuted_exactly(err, s) is same, (key, err)
        res = positional.permutation(key, "copy", 1)                    # what the step reads
        assert lesson_positions.permuted_exactly(res.score_error, res.scores) is same


def test_rope_answer():
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal(64), rng.standard_normal(64)
    theta = 10000.0 ** (-np.arange(0, 64, 2) / 64)

    def rot(x, pos):
        a = pos * theta
        x1, x2 = x[:32], x[32:]                                  # rotate-half pairing (dims i and i + d/2)
        return np.concatenate([x1 * np.cos(a) - x2 * np.sin(a), x1 * np.sin(a) + x2 * np.cos(a)])

    for m, n in ((5, 3), (20, 1), (7, 7)):
        assert math.isclose(rot(q, m) @ rot(k, n), rot(q, m + 10) @ rot(k, n + 10), rel_tol=1e-9, abs_tol=1e-9)
    from ui.lessons import KINDS
    assert KINDS["rope"].run(None, {"view": "scores", "gap": 2}).answer == "rope_same"


def winner(task_name: str) -> lesson_positions.Extrapolation:
    """Each checkpoint evaluated with the task's own evaluate at 1x and 2x (same examples as the step)."""
    task = get_task(task_name)
    rows = {}
    for s, card in positional.scheme_checkpoints()[task_name].items():
        model, _ = serving.load_model(card["key"], "cpu")
        rows[s] = [{"factor": f, "accuracy": float(task.evaluate(model, length=int(f * task.train_len), n=64,
                                                                  seed=1234))} for f in (1.0, 2.0)]
    return lesson_positions.extrapolation_at(rows, 2.0)


def test_extrapolation_answer_is_measured():
    from ui.lessons import KINDS
    for task in ("copy", "reverse"):
        want = winner(task)
        shown = KINDS["extrapolation"].run(None, {"task": task})
        assert shown.answer == f"pe_{want.winner}"
        assert shown.facts["best_acc"] == pytest.approx(want.best_accuracy)


def test_extrapolation_at():
    rows = {"none": [{"factor": 1.0, "accuracy": 0.9}, {"factor": 2.0, "accuracy": 0.1}],
            "rope": [{"factor": 1.0, "accuracy": 1.0}, {"factor": 2.0, "accuracy": 0.7}],
            "learned": [{"factor": 1.0, "accuracy": 1.0}, {"factor": 2.0, "accuracy": None}]}
    r = lesson_positions.extrapolation_at(rows)
    assert (r.best, r.winner, r.best_accuracy) == ("rope", "rope", 0.7) and r.longer["learned"] is None
    rows["rope"][1]["accuracy"] = 0.2
    r = lesson_positions.extrapolation_at(rows)
    assert (r.best, r.winner) == ("rope", "nothing")
    with pytest.raises(ValueError):
        lesson_positions.extrapolation_at({"learned": rows["learned"]})
    assert lesson_positions.permuted_exactly(1e-7, np.array([3.0])) and not lesson_positions.permuted_exactly(0.01, np.array([3.0]))
    assert lesson_positions.at_distance(np.array([1.0, 0.5]), 1) == 0.5 and math.isnan(lesson_positions.at_distance(np.array([1.0]), 4))

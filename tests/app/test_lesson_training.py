"""Lesson 6 ("watch a model learn") through AppTest: every step in English and Chinese,
one figure per revealed step, the run trained once and kept across steps and reruns,
and each predict step's answer checked against the trained model itself."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import lab.lessons
from models.trace import record_names
from tests.app.helpers import assert_ok, open_app
from ui.i18n import STRINGS
from ui.lessons import specs
from ui.markup import md_escape

LESSONS = "app_pages/lessons.py"
LESSON = lab.lessons.load_file(lab.lessons.LESSON_DIR / "06-training.toml", specs())
KEY = ("reverse", 0, 200)


def open_lesson(lang: str = "English"):
    return open_app({"lesson": "training", "lang": lang}, page=LESSONS)


def shown(at) -> str:
    return " ".join(e.value for e in [*at.info, *at.success, *at.warning])


def walk(at, code: str) -> dict[int, str]:
    """Every step with Next; reveals each question. Returns step -> the page's text after it."""
    out = {}
    for i, step in enumerate(LESSON.steps):
        assert_ok(at)
        assert at.header[0].value == md_escape(step.title[code])
        if step.ask:
            assert len(at.get("plotly_chart")) == 0, f"step {i + 1} shows its figure before the reveal"
            at.button(key=f"ls_reveal_training_{i}").click().run()
            assert_ok(at)
        assert len(at.get("plotly_chart")) == 1, f"step {i + 1}"
        out[i] = shown(at)
        if i < len(LESSON.steps) - 1:
            at.button(key="ls_next").click().run()
    return out


def the_run(at):
    runs = at.session_state["_lt_runs"]
    assert list(runs) == [KEY]
    return runs[KEY]


def label(option: str, code: str = "en") -> str:
    return md_escape(STRINGS[f"lk_opt_{option}"][code])


def mirror_mass(run) -> np.ndarray:
    """[heads] each head's attention on the mirror keys of the answer rows, from a fresh pass."""
    model, probe = run.model, run.probe
    _, trace = model.run_with_cache(torch.tensor([probe.ids]), names=record_names(model.cfg, ["pattern"]))
    p = trace.patterns(0).float().numpy()                           # [L, H, q, k]
    s = probe.answer.start
    qs = np.arange(s, probe.answer.stop)
    return p[-1][:, qs, 2 * s - 1 - qs].mean(-1)


def test_lesson_has_ten_steps_three_questions_and_fits_any_model():
    assert len(LESSON.steps) == 10
    assert sum(bool(s.ask) for s in LESSON.steps) == 3
    assert LESSON.archs == () and LESSON.fits("encoder") and LESSON.fits("decoder")


def test_every_step_in_english_with_answers_from_the_trained_model():
    at = open_lesson()
    texts = walk(at, "en")
    run = the_run(at)
    assert run.state == "done" and run.final_accuracy > 0.9
    # the strongest head's pattern: recomputed from a fresh forward pass of the trained model
    mass = mirror_mass(run)
    assert mass.max() > 0.5
    assert label("lt_anti_diagonal") in texts[5]
    # fastest fall of the smoothed log-loss (a tenth of the run), in which third of the run
    y = np.log(np.asarray(run.loss))
    w = len(y) // 10
    z = np.array([y[max(0, i - w // 2):i + w // 2 + 1].mean() for i in range(len(y))])
    i = int(np.argmax(z[:-w] - z[w:])) + w // 2
    third = ("lt_early", "lt_middle", "lt_late")[min(2, 3 * run.steps[i] // run.settings.steps)]
    assert label(third) in texts[3]
    # when the mirror score of the best head passes half-way, against that step
    scores = []
    for snap in run.snapshots:
        p = snap.patterns["self"].astype(np.float64)[-1]
        s = run.probe.answer.start
        qs = np.arange(s, run.probe.answer.stop)
        scores.append(p[:, qs, 2 * s - 1 - qs].mean(-1).max())
    scores = np.array(scores)
    form = run.snapshots[int(np.argmax(scores >= (scores[0] + scores[-1]) / 2))].step
    gap = form - run.steps[i]
    when = "lt_together" if abs(gap) <= 2 * run.settings.snapshot_every else ("lt_before" if gap < 0 else "lt_after")
    assert label(when) in texts[7]
    # moving back does not train again: the same run object, the same figure
    at.button(key="ls_back").click().run()
    assert_ok(at)
    assert the_run(at) is run


def test_a_link_to_a_later_step_opens_it_with_the_run():
    at = open_app({"lesson": "training", "step": "6"}, page=LESSONS)
    assert at.header[0].value == md_escape(LESSON.steps[5].title["en"])
    assert the_run(at).state == "done"
    at.button(key="ls_reveal_training_5").click().run()
    assert_ok(at)
    assert len(at.get("plotly_chart")) == 1


@pytest.mark.parametrize("code", ["en", "zh"])
def test_strings_name_only_facts_the_kinds_compute(code):
    for step in LESSON.steps:
        note = STRINGS.get(f"lk_{step.kind}_notice")
        assert note is not None, step.kind
        lab.lessons.check_template(note[code], specs()[step.kind].facts)

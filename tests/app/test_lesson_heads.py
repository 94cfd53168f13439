"""Lesson 2 ("heads"): every step renders in English and Chinese with one figure (after the
reveal on a question step), and the questions' answers match an independent computation
from the model's attention (a different model or text gives a different answer where it should)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import lab.lessons
from lab import lesson_heads
from ui import serving
from ui.lessons import KINDS, StepContext, specs

from .helpers import TEXT, as_shown, assert_ok, open_app

PAGE = "app_pages/lessons.py"
LESSON = "heads"


def lesson() -> lab.lessons.Lesson:
    return lab.lessons.shipped(specs())[0][LESSON]


def walk(at, lid: str, steps) -> list[str]:
    """Walk every step with Next; on a question step, reveal without guessing. Returns the
    revealed answers' sentences by step index."""
    answers = {}
    for i, step in enumerate(steps):
        assert_ok(at)
        if step.ask:
            assert len(at.get("plotly_chart")) == 0, f"step {i + 1} shows its figure before the reveal"
            at.button(key=f"ls_reveal_{lid}_{i}").click().run()
            assert_ok(at)
            answers[i] = " ".join(as_shown(x.value) for x in at.info)
        assert len(at.get("plotly_chart")) == 1, f"step {i + 1}: {len(at.get('plotly_chart'))} charts"
        if i < len(steps) - 1:
            at.button(key="ls_next").click().run()
    return answers


def test_the_answers_shown_are_the_models(lang="English"):
    """(Every step of every lesson in both languages: tests/app/test_lessons.py.)"""
    steps = lesson().steps
    at = open_app({"lesson": LESSON, "text": TEXT, "lang": lang}, page=PAGE)
    answers = walk(at, LESSON, steps)
    assert len(answers) >= 2
    if lang == "English":
        ctx = context("minilm", TEXT)
        for i, sentence in answers.items():
            want = expected(ctx, steps[i])
            label = want if isinstance(want, str) else None
            if label is None:
                toks, _ = ctx.attention().tokens_of("self")
                assert f"{want}·{toks[want]}" in sentence, (i, sentence)
            else:
                from ui.i18n import STRINGS
                assert STRINGS[f"lk_opt_{label}"]["en"] in sentence, (i, sentence)


# ---- answers against an independent computation ---------------------------------------------------
def context(key: str, text: str) -> StepContext:
    model, tok = serving.load_model(key, "cpu")
    sel = SimpleNamespace(model_key=key, device="cpu", text=text, target="", model_label=key, arch=model.cfg.arch)
    return StepContext(sel, model, tok)


def patterns(ctx: StepContext) -> tuple[np.ndarray, list[str]]:
    stack = "decoder" if ctx.cfg.arch == "encoder-decoder" else "self"
    data = ctx.attention()
    return np.nan_to_num(data.patterns[stack].astype(np.float64)), list(data.tokens_of(stack)[0])


def expected(ctx: StepContext, step: lab.lessons.Step):
    """The right answer of a question step, from the attention maps with plain numpy."""
    p, toks = patterns(ctx)
    n_l, _, n, _ = p.shape
    if step.kind == "head_detector":
        assert step.params["detector"] == "previous_token"
        score = np.stack([p[:, :, q, q - 1] for q in range(1, n)], -1).mean(-1)       # [L, H]
        layer = int(np.argmax(score)) // score.shape[1]
        return f"layers_{['early', 'middle', 'late'][min(2, 3 * layer // n_l)]}"
    if step.kind == "sinks":
        return "sink_first" if p[..., 0].mean() >= p[..., -1].mean() else "sink_last"
    if step.kind == "rollout":
        eye = np.eye(n)
        r = eye
        for a in p.mean(1):
            a = 0.5 * a + 0.5 * eye
            r = (a / a.sum(-1, keepdims=True)) @ r
        q = max(i for i, s in enumerate(toks) if any(c.isalnum() for c in s) and not s.startswith("["))
        return int(np.argmax(r[q]))
    raise AssertionError(step.kind)


CASES = [("minilm", TEXT), ("minilm", "a b c d e f g h"), ("custom:gpt", TEXT), ("toy:copy-sinusoidal", "3 1 4 1 5 9 2 6"),
         ("toy:reverse-rope", "1 2 3 4 5 6 7")]


def test_answers_follow_the_model():
    steps = [s for s in lesson().steps if s.ask]
    seen: dict[str, set] = {}
    for key, text in CASES:
        ctx = context(key, text)
        for step in steps:
            got = KINDS[step.kind].run(ctx, dict(step.params)).answer
            assert got == expected(ctx, step), (key, text, step.kind)
            seen.setdefault(step.kind, set()).add(got)
    assert len(seen["head_detector"]) > 1 and len(seen["rollout"]) > 1, seen


def test_layer_part_and_sinks():
    assert [lesson_heads.layer_part(i, 6) for i in range(6)] == ["early"] * 2 + ["middle"] * 2 + ["late"] * 2
    assert lesson_heads.layer_part(0, 1) == "early" and lesson_heads.layer_part(1, 2) == "middle" and lesson_heads.layer_part(11, 12) == "late"
    with pytest.raises(ValueError):
        lesson_heads.layer_part(6, 6)
    s = lesson_heads.sink_shares(np.array([[0.2, 0.4], [0.0, 0.1]]), np.array([[0.5, 0.5], [0.0, 0.0]]))
    assert np.allclose(s.first, [0.3, 0.05]) and np.allclose(s.last, [0.5, 0.0])
    assert s.bigger == "last" and s.peak_layer == 0
    assert lesson_heads.argmax_head(np.array([[0.1, np.nan], [0.7, 0.2]])) == (1, 0, 0.7)


def test_last_pick_finds_the_head_most_on_the_last_token():
    ctx = context("minilm", TEXT)
    p, _ = patterns(ctx)
    to_last = p[..., -1].mean(-1)
    from ui.lessons.attention import pick_head
    assert pick_head(ctx, {"layer": "auto", "head": "auto", "pick": "last"}, "self") == \
        tuple(int(x) for x in np.unravel_index(np.argmax(to_last), to_last.shape))

"""Lesson 4 (masks and decoders) in the app: every step in both languages on the toy
decoder, its answers checked against the model itself, and a different model giving a
different next token."""
from __future__ import annotations

import numpy as np
import torch

import lab.generate
import lab.masks
from models.weights import zoo

from .helpers import GPT_LABEL, MINILM_LABEL, open_app
from .lesson_walk import LESSONS_PAGE, answer_at
from ui.i18n import STRINGS

LESSON = "decoding"
N_STEPS = 8
TOY = "toy:induction"
TOY_LABEL = zoo.get(TOY).label


def label(option: str, lang: str = "en") -> str:
    return STRINGS[f"lk_opt_{option}"][lang]


def toy_texts():
    from models.training.tasks import get_task
    return get_task("induction").probe().text, lab.generate.task_prompt("induction", "decoder")


@torch.no_grad()
def test_answers_match_the_toy_decoder():
    model, tok = zoo.load(TOY, "cpu")
    text, prompt = toy_texts()
    # padding: the real tokens of the shorter text give the padding no weight
    ids = tok.encode(text).ids
    short = tok.encode(text[: len(text) // 2]).ids
    run = lab.masks.padded_run(model, [ids, short], [[""] * len(ids), [""] * len(short)], 0, "<pad>", 0)
    assert run.pattern[1, 0, : len(short), len(short):].max() == 0.0
    assert answer_at(LESSON, 0, model=TOY_LABEL) == label("pad_zero")
    # causal mask: query 5 sees keys 0..5
    assert answer_at(LESSON, 1, model=TOY_LABEL).startswith("5·")
    # the next token: the model's own argmax after the prompt
    p = lab.generate.prepare_prompt(tok, model.cfg, prompt, 8)
    nxt = int(model(torch.tensor([p.ids]))[0, -1].argmax())
    assert answer_at(LESSON, 3, model=TOY_LABEL).split("·", 1)[1] == lab.generate.token_text(tok, nxt)
    # the KV cache: greedy generation with and without it gives the same tokens and probabilities
    with_cache = lab.generate.generate(model, p.ids, lab.generate.Settings(max_new_tokens=8, use_cache=True), names=[])
    without = lab.generate.generate(model, p.ids, lab.generate.Settings(max_new_tokens=8, use_cache=False), names=[])
    assert with_cache.ids == without.ids
    same = all(np.allclose(a.model_probs, b.model_probs, atol=1e-5) for a, b in zip(with_cache.steps, without.steps))
    assert answer_at(LESSON, 7, model=TOY_LABEL) == label("logits_match" if same else "logits_differ")


def test_another_decoder_changes_the_next_token():
    toy = answer_at(LESSON, 3, model=TOY_LABEL)
    gpt = answer_at(LESSON, 3, model=GPT_LABEL)
    assert toy != gpt


def test_an_encoder_is_offered_the_decoder():
    at = open_app({"lesson": LESSON, "model": MINILM_LABEL}, page=LESSONS_PAGE)
    assert at.warning and any(b.key == "ls_switch" for b in at.button)
    assert not at.get("plotly_chart")

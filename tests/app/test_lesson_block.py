"""Lesson 5 (inside a block) in the app: every step in both languages, and its answers
checked against the models themselves."""
from __future__ import annotations

import numpy as np
import pytest

from lab import residual
from lab.lesson_attention import last_word
from models.trace import Stack, record_names
from models.training.tasks import get_task
from models.weights import zoo
from ui.i18n import STRINGS
from ui.model_names import label_in

from .helpers import DEFAULT_TOKENS, GPT_LABEL
from .lesson_walk import answer_at, open_lesson

LESSON = "block"
N_STEPS = 9
QUESTIONS = {1: "stream", 2: "contrib", 4: "norms", 8: "lens"}
DEFAULT = "The students watched the model read their sentence, and every head chose where to look."


def label(option: str, lang: str = "en") -> str:
    return STRINGS[f"lk_opt_{option}"][lang]


def decomposed(key: str, text: str):
    model, tok = zoo.load(key, "cpu")
    ids = tok.encode(text).ids if hasattr(tok.encode(text), "ids") else tok.encode(text)
    _, trace = model.run_with_cache(ids, names=record_names(model.cfg, residual.KINDS, [Stack.output(model.cfg.arch)]))
    return model, tok, trace, residual.decomposition(model, trace)


def test_answers_match_minilm():
    model, tok, trace, dec = decomposed("minilm", DEFAULT)
    q = last_word(DEFAULT_TOKENS)
    norms = np.linalg.norm(dec.stream, axis=-1)
    ends = [0] + [i for i, lab in enumerate(dec.labels) if lab.endswith("mlp")]
    grow = norms[ends[-1]].mean() > norms[0].mean()
    assert answer_at(LESSON, 1) == label("stream_grow" if grow else "stream_shrink")
    comp = np.linalg.norm(dec.components[:, q], axis=-1)
    top = dec.labels[int(np.argmax(comp))]
    kind = "embed" if top == "embed" else ("mlp" if top.endswith("mlp") else "attn")
    assert answer_at(LESSON, 2) == label(f"sub_{kind}")
    x = dec.stream[-1, q].astype(np.float64)
    ln = (x - x.mean()) / np.sqrt(x.var() + model.cfg.norm_eps)
    rn = x / np.sqrt((x ** 2).mean() + model.cfg.norm_eps)
    cos = ln @ rn / np.linalg.norm(ln) / np.linalg.norm(rn)
    assert answer_at(LESSON, 4) == label("norms_agree" if cos >= 0.99 else "norms_differ")
    # MiniLM has no unembedding: the lens reads the trained induction decoder on its example
    assert not residual.has_unembedding(model)
    text = get_task("induction").probe().text
    m2, tok2 = zoo.load("toy:induction", "cpu")
    ids = tok2.encode(text).ids if hasattr(tok2.encode(text), "ids") else tok2.encode(text)
    _, tr2 = m2.run_with_cache(ids, names=record_names(m2.cfg, residual.KINDS, [Stack.output(m2.cfg.arch)]))
    lens = residual.logit_lens(m2, tr2)
    q2 = last_word([tok2.id_to_token(int(i)) for i in ids])
    tops = lens.top_ids[:, q2, 0]
    first = len(tops) - 1
    while first > 0 and tops[first - 1] == tops[-1]:
        first -= 1
    assert answer_at(LESSON, 8) == label("lens_early" if first <= (len(tops) - 1) // 2 else "lens_late")


def test_a_decoder_changes_the_answers():
    """On the random GPT-2-style decoder (pre-LN) the stream grows where MiniLM's (post-LN)
    shrinks, and the lens reads the decoder itself."""
    _, _, _, dec = decomposed("custom:gpt", DEFAULT)
    norms = np.linalg.norm(dec.stream, axis=-1)
    ends = [0] + [i for i, lab in enumerate(dec.labels) if lab.endswith("mlp")]
    gpt = "stream_grow" if norms[ends[-1]].mean() > norms[0].mean() else "stream_shrink"
    assert answer_at(LESSON, 1, model=GPT_LABEL) == label(gpt)
    assert answer_at(LESSON, 1) != label(gpt)
    at = open_lesson(LESSON, step=str(N_STEPS), model=GPT_LABEL)
    at.button(key=f"ls_reveal_{LESSON}_{N_STEPS - 1}").click().run()
    assert not any("small trained decoder" in c.value for c in at.caption)
    assert any(GPT_LABEL in i.value.replace("\\", "") for i in at.info), [i.value for i in at.info]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lens_on_minilm_says_which_model_it_reads(lang):
    at = open_lesson(LESSON, lang, step=str(N_STEPS))
    at.button(key=f"ls_reveal_{LESSON}_{N_STEPS - 1}").click().run()
    label_ = label_in(zoo.get("toy:induction"), lang)          # the model's name in the UI language
    assert any(label_ in c.value.replace("\\", "") for c in at.caption), [c.value for c in at.caption]

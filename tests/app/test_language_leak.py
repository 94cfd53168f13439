"""No English on a Chinese screen, no Chinese on an English one (issue 35).

Every page (app_pages/*.py) and each section of its main radio or tabs, the same pages under
two other kinds of model (a toy encoder-decoder, a random LLaMA-style decoder), and every step
of every shipped lesson (lessons/*.toml) are driven through AppTest in Chinese and in English;
`tests/app/language_leak.py` reads back all the text a reader sees and says which words are in
the wrong language (its docstring has the rules). The Chinese pass types a Chinese sentence,
so every Latin word on screen comes from the UI, not from the reader.

A leak that cannot be fixed now goes into `KNOWN` below, with its reason: never weaken the
check itself.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import lab.lessons
from tests.app.helpers import assert_no_exception, new_app
from tests.app.language_leak import Screen, check, screen
from ui.lessons import specs

ZH_TEXT = "学生们看着模型读他们的句子，每个注意力头都选择了要看的地方。"
LANG = {"zh": "中文", "en": "English"}

# ---- known leaks: (language, where (page/section or lesson/step, a prefix), the offending
# word or characters) -> why it is not fixed yet. Keep this list short and every entry explained.
KNOWN: dict[tuple[str, str, str], str] = {}


# ---- driving the app -------------------------------------------------------------------------------
def start(lang: str, query: dict[str, str] | None = None, page: str | None = None) -> AppTest:
    at = new_app()
    at.query_params.update({"lang": LANG[lang], **({"text": ZH_TEXT} if lang == "zh" else {}), **(query or {})})
    if page:
        at.switch_page(page)
    at.run()
    assert_no_exception(at)
    return at


def run_ok(at: AppTest, where: str) -> None:
    at.run()
    assert not at.exception, (where, [e.value for e in at.exception])


def set_choice(at: AppTest, param: str, value: str, lang: str, kind: str = "radio") -> None:
    """Switch a `ui.links.choice` widget (its state key is per language)."""
    getattr(at, kind)(key=f"{param}__{lang}").set_value(value)
    run_ok(at, f"{param}={value}")


def sections_walk(page: str, param: str, values, lang: str, query=None, sub=None) -> list[Screen]:
    """One AppTest per page: each value of its main choice `param` (and of `sub`'s
    choices inside the section that has them), one screen each."""
    at = start(lang, query, page)
    name = page.rsplit("/", 1)[-1][:-3]
    shots = []
    for v in values:
        if v != values[0] or param not in (query or {}):
            set_choice(at, param, v, lang)
        shots.append(screen(at, f"{name}/{param}={v}"))
        for sub_param, sub_values in (sub or {}).get(v, {}).items():
            for sv in sub_values[1:]:
                set_choice(at, sub_param, sv, lang)
                shots.append(screen(at, f"{name}/{param}={v}/{sub_param}={sv}"))
            set_choice(at, sub_param, sub_values[0], lang)
    return shots


def page_home(lang):
    from ui.widgets.model_map import MODES

    return sections_walk("app_pages/home.py", "mview", MODES, lang)


def page_attention(lang):
    from ui.views.attention import VIEWS

    return sections_walk("app_pages/attention.py", "view", VIEWS, lang)


def page_positional(lang):
    from ui.serving.positional import lm_set, scheme_checkpoints
    from ui.views import positional_checkpoints, positional_qk_geometry
    from ui.views.positional import BASE_SECTIONS

    secs = (BASE_SECTIONS + (positional_checkpoints.SECTIONS if scheme_checkpoints() else ())
            + (("length",) if lm_set() else ()) + (("geometry",) if positional_qk_geometry.models() else ()))
    return sections_walk("app_pages/positional.py", "pe_view", secs, lang)


def page_masks(lang):
    from ui.i18n import STRINGS
    from ui.views.masks import TABS

    at = start(lang, None, "app_pages/masks.py")
    shots = []
    for tab in TABS:
        at.session_state[f"mk_tab__{lang}"] = STRINGS[f"mk_tab_{tab}"][lang]
        run_ok(at, tab)
        shots.append(screen(at, f"masks/tab={tab}"))
    return shots


def page_beyond(lang):
    from lab import retrieval
    from models.training import corpus
    from ui.views.beyond import SECTIONS
    from ui.views.beyond_long_memory import PARTS
    from ui.views.beyond_recurrent import FORMS

    shots = sections_walk("app_pages/beyond.py", "bx_view", SECTIONS, lang,
                          sub={"long": {"bxl_part": PARTS}, "recurrent": {"bxr_form": FORMS}})
    database = [text for _, _, text in retrieval.corpus_docs(corpus.load_corpus(corpus.CORPUS_PATH))]
    for sc in shots:
        if sc.where.startswith("beyond/bx_view=retrieval"):
            sc.typed += database             # the retrieval section's English verse: its data, in any language
    return shots


def page_tokens(lang):
    from lab import text
    from ui.serving.tokens import MAX_MERGES, verse_bpe
    from ui.views.tokens import SECTIONS

    shots = sections_walk("app_pages/tokens.py", "tk_view", SECTIONS, lang, {"tk_merges": str(MAX_MERGES)})
    learned = [text.piece_label(text.token_bytes(m.token)) for m in verse_bpe().merges]
    for sc in shots:
        sc.typed += learned             # the merges table: the learned vocabulary, token text in any language
    return shots


def page_walkthrough(lang):
    at = start(lang, None, "app_pages/walkthrough.py")
    return [screen(at, "walkthrough")]


def page_ffn(lang):
    from ui.views.ffn import VIEWS

    return sections_walk("app_pages/ffn.py", "fview", VIEWS, lang)


def page_residual(lang):
    from ui.views.residual import VIEWS

    return sections_walk("app_pages/residual.py", "rview", VIEWS, lang)


def page_attribution(lang):
    from ui.views.attribution import VIEWS

    return sections_walk("app_pages/attribution.py", "aview", VIEWS, lang)


def page_generate(lang):
    from ui.views.generate import STRATEGIES

    return sections_walk("app_pages/generate.py", "strategy", STRATEGIES, lang, {"model": DECODER})


def page_training(lang):
    at = start(lang, None, "app_pages/training.py")
    return [screen(at, "training")]


def page_lessons(lang):
    at = start(lang, None, "app_pages/lessons.py")
    return [screen(at, "lessons")]


DECODER = "Verse LM (characters, 中文 + English)"
PAGES = {name[5:]: fn for name, fn in globals().items() if name.startswith("page_")}


def test_every_page_is_driven():
    files = {p.stem for p in (Path(__file__).resolve().parents[2] / "app_pages").glob("*.py")}
    assert files == set(PAGES), files ^ set(PAGES)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_speaks_one_language(page, lang):
    check(PAGES[page](lang), lang, KNOWN)


# ---- the same pages under other kinds of model: what they show depends on the architecture ------
# (stacks and cross-attention; GQA, RoPE, RMSNorm, SwiGLU). One AppTest per page.
OTHER_MODELS = {"encoder-decoder": "Toy: spell digits (encoder-decoder) · sinusoidal", "llama": "LLaMA-style decoder"}


def other_model_screens(model: str, lang: str) -> list[Screen]:
    from ui.views import attention, attribution, ffn, residual

    shots = []
    for page, param, views in (("attention", "view", attention.VIEWS), ("residual", "rview", residual.VIEWS),
                               ("ffn", "fview", ffn.VIEWS), ("attribution", "aview", attribution.VIEWS)):
        shots += sections_walk(f"app_pages/{page}.py", param, views, lang, {"model": model})
    for page in ("masks", "walkthrough", "generate"):
        shots.append(screen(start(lang, {"model": model}, f"app_pages/{page}.py"), page))
    for sc in shots:
        sc.where = f"{sc.where} ({model})"
        for seen in sc.texts:
            seen.where = sc.where
    return shots


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("kind", sorted(OTHER_MODELS))
def test_pages_speak_one_language_under_other_models(kind, lang):
    check(other_model_screens(OTHER_MODELS[kind], lang), lang, KNOWN)


# ---- lessons: every step of every shipped lesson ---------------------------------------------------
SHIPPED = lab.lessons.shipped(specs())[0]


def lesson_screens(lesson: lab.lessons.Lesson, lang: str) -> list[Screen]:
    at = start(lang, {"lesson": lesson.id}, "app_pages/lessons.py")
    if lesson.model and not lesson.fits("encoder"):                 # written for another kind of model
        at.button(key="ls_switch").click()
        run_ok(at, "switch")
    shots = []
    for i in range(len(lesson.steps)):
        where = f"lesson {lesson.id}/step {i + 1}"
        reveal = next((b for b in at.button if b.key and b.key.startswith("ls_reveal_")), None)
        if reveal is not None:
            shots.append(screen(at, where + " (asked)"))
            reveal.click()
            run_ok(at, where)
        shots.append(screen(at, where))
        if i < len(lesson.steps) - 1:
            at.button(key="ls_next").click()
            run_ok(at, where)
    own = [*(lesson.text or {}).values(), *(str(v) for step in lesson.steps for v in step.params.values())]
    for sc in shots:
        sc.typed += own                          # the lesson's own text (a poem) and its prompts are token text
    return shots


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("lesson", sorted(SHIPPED))
def test_lesson_speaks_one_language(lesson, lang):
    check(lesson_screens(SHIPPED[lesson], lang), lang, KNOWN)

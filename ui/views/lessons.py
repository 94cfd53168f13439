"""Lessons: a guided path through the reader's own sentence, one step at a time.

A lesson is a file (`lessons/*.toml`, or one a teacher uploads) read by `lab.lessons`;
each step's kind (`ui/lessons/`) computes one figure and the facts its "what to notice"
sentence names from the current model and text. A step may ask a question first: the
figure stays hidden until the reader guesses (or asks to see it), then the page says
whether the guess matches what the model computed. The lesson and the step are in the
URL (`?lesson=attention&step=4`), so a teacher's link opens the exact step.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

import lab.lessons
from models.errors import Refused
from viz_core import colors
from viz_core.figure import text_scale
from viz_core.labels import plain_label

from .. import presenter
from ..examples import EXAMPLE_TEXTS
from ..i18n import lang, t
from ..lessons import KINDS, Shown, default_notice, specs
from ..links import choice, notice, show_notices
from ..markup import lesson_markdown, md_escape
from ..model_names import label_of
from ..page import explain, require_model, require_text, use_text
from ..refusals import say
from ..serving.lessons import shipped, step_shown
from ..sidebar import Selection
from ..widgets import figure_export
from . import lessons_class

UPLOADED = "_ls_uploaded"            # session: id -> Lesson uploaded by this reader
TALLY = "_ls_tally"                  # session: (lesson, step) -> [right, guesses]
REVEALED = "_ls_revealed"            # session: {(lesson, step, model, text)} revealed
STEP = "_ls_step"                    # session: (lesson id, step index 0-based)
UPLOAD_SAID = "_ls_upload_said"      # session: ("ok" | "bad", sentence) of the last upload
STARTED = "_ls_started"              # session: (lesson id, language) whose text was put in the sidebar


@dataclass(frozen=True)
class Place:
    lesson: lab.lessons.Lesson
    index: int                       # 0-based step


def presenting() -> bool:
    """Presenter mode (ui/presenter.py): the page keeps the step and Next/Back only."""
    return presenter.active()


def render(sel: Selection) -> None:
    lessons, errors = shipped()
    lessons = {**lessons, **st.session_state.get(UPLOADED, {})}
    if not presenting():
        st.title(t("ls_title"))
    if not lessons:
        st.error(t("ls_none"))
        return
    lessons_class.join_from_link()
    cls = lessons_class.info()
    student = cls is not None and not lessons_class.role().teacher
    if student and st.session_state.get("_sidebar_pending"):
        st.rerun()                                   # the sidebar takes the class's model and sentence first
    place = choose(lessons, cls)
    if place is None:
        return
    if cls is None:                                  # a class keeps the class's own text
        start_on_lesson_text(place.lesson, lessons, sel)
    if not presenting() and cls is None:
        library(lessons, errors)
    if cls is not None or not presenting():           # a class's code and QR stay on the projector
        lessons_class.panel(place.lesson.id, place.index, sel, place.lesson.id in shipped()[0])
    model, tok = require_model(sel)
    if not fits(place.lesson, sel, model.cfg):
        return
    require_text(sel)
    show_notices()
    step_view(place, sel, model, tok, cls)


# ---- which lesson, which step ------------------------------------------------------------------
def choose(lessons: dict[str, lab.lessons.Lesson], cls=None) -> Place | None:
    """The lesson and step: a class's (a student follows the teacher; a teacher's class keeps
    its lesson), else the list's and the link's."""
    ids = list(lessons)
    code = lang()
    if cls is not None:
        lesson = lessons.get(cls.lesson)
        if lesson is None:
            st.warning(t("cl_unknown_lesson", lesson=md_escape(cls.lesson)))
            lessons_class.leave()
            return None
        st.markdown(f"**{md_escape(lesson.title[code])}**")
        if not lessons_class.role().teacher or STEP not in st.session_state or st.session_state[STEP][0] != lesson.id:
            st.session_state[STEP] = (lesson.id, min(cls.step, len(lesson.steps) - 1))
        return Place(lesson, st.session_state[STEP][1])
    if presenting():                                 # on the projector: the step and Next/Back only
        lid = st.session_state.get("_lesson") or st.query_params.get("lesson") or ids[0]
        lid = lid if lid in lessons else ids[0]
    else:
        lid = choice(st.selectbox, t("ls_lesson"), ids, param="lesson", default=ids[0],
                     labels={i: lessons[i].title[code] for i in ids})
    lesson = lessons[lid]
    n = len(lesson.steps)
    stored = st.session_state.get(STEP)
    if stored is None or stored[0] != lid:
        index = 0
        asked = st.query_params.get("step")
        if asked is not None and stored is None:
            try:
                index = int(asked) - 1
                if not 0 <= index < n:
                    raise ValueError
            except ValueError:
                notice("step", asked, "1")
                index = 0
        st.session_state[STEP] = (lid, index)
    index = st.session_state[STEP][1]
    if st.query_params.get("step") != str(index + 1):
        st.query_params["step"] = str(index + 1)
    return Place(lesson, index)


def start_text(lesson: lab.lessons.Lesson, code: str) -> str:
    """The text `lesson` starts on in language `code`: its own (a poem), else the app's
    example sentence in that language (`examples.EXAMPLE_TEXTS`)."""
    return lesson.text[code] if lesson.text else EXAMPLE_TEXTS[code]


def start_on_lesson_text(lesson: lab.lessons.Lesson, lessons: dict[str, lab.lessons.Lesson], sel: Selection) -> None:
    """Put the lesson's text in the reader's language into the sidebar when the sidebar holds
    a text the app chose (an example sentence, or a lesson's text): a lesson opened in Chinese
    reads Chinese, in English English. A text the reader typed, or a link carried, stays.
    Once per lesson and language (the reader may type an example back), then a rerun, so
    that the sidebar shows it."""
    code = lang()
    want = start_text(lesson, code)
    chosen = {v.strip() for v in EXAMPLE_TEXTS.values()}
    chosen |= {v.strip() for other in lessons.values() if other.text for v in other.text.values()}
    have = sel.text.strip()
    if have == want.strip() or have not in chosen or st.session_state.get(STARTED) == (lesson.id, code):
        return
    st.session_state[STARTED] = (lesson.id, code)
    st.session_state["_sidebar_pending"] = {**(st.session_state.get("_sidebar_pending") or {}), "text": want}
    st.rerun()


def go(lid: str, index: int) -> None:
    st.session_state[STEP] = (lid, index)
    lessons_class.moved(index)                        # a teacher's class follows


def library(lessons: dict[str, lab.lessons.Lesson], errors: list[lab.lessons.LessonError]) -> None:
    """The list of lessons, and a teacher's own lesson file."""
    code = lang()
    with st.expander(t("ls_library", n=len(lessons))):
        for lesson in lessons.values():
            model = f" · {md_escape(label_of(lesson.model))}" if lesson.model else ""     # the model it was written for
            st.markdown(f"**{md_escape(lesson.title[code])}** · {t('ls_n_steps', n=len(lesson.steps))}{model}  \n"
                        f"{lesson_markdown(lesson.summary[code])}")
        for e in errors:
            st.warning(t("ls_bad_file", file=md_escape(getattr(e, "source", "?")), error=say(e)))
        st.file_uploader(t("ls_upload"), type=["toml"], key="ls_upload", help=t("ls_upload_help"),
                         on_change=take_upload, args=(list(lessons),))
        said = st.session_state.pop(UPLOAD_SAID, None)
        if said is not None:
            (st.success if said[0] == "ok" else st.error)(said[1])


def take_upload(taken: list[str]) -> None:
    """The uploader's callback (before the page runs, so the lesson list below already has
    it): check the file, keep the lesson in this session, leave one sentence for the page."""
    up = st.session_state.get("ls_upload")
    if up is None:
        return
    data = up.getvalue()                 # in memory already (Streamlit holds the upload); parse checks its size first
    try:
        lesson = lab.lessons.parse(data, specs(), up.name)
    except Refused as e:
        st.session_state[UPLOAD_SAID] = ("bad", t("ls_upload_bad", file=md_escape(up.name), error=say(e)))
        return
    mine = st.session_state.setdefault(UPLOADED, {})
    if lesson.id in taken and lesson.id not in mine:
        lesson = lab.lessons.Lesson(f"my-{lesson.id}"[:40], lesson.title, lesson.summary, lesson.model, lesson.archs,
                           lesson.steps, lesson.source, lesson.text)
    mine[lesson.id] = lesson
    st.session_state[UPLOAD_SAID] = ("ok", t("ls_upload_ok", title=md_escape(lesson.title[lang()]),
                                             n=len(lesson.steps)))


# ---- does it fit the model ---------------------------------------------------------------------
def _switch(key: str) -> None:
    st.session_state["model"] = key


def fits(lesson: lab.lessons.Lesson, sel: Selection, cfg) -> bool:
    """Whether the lesson can run on the reader's model; otherwise say why and offer the
    model it was written for. A different but fitting model only gets a note."""
    from .. import model_names, serving
    suited = serving.entry(lesson.model) if lesson.model else None
    label = model_names.label(suited) if suited is not None else lesson.model
    if not lesson.fits(cfg.arch):
        st.warning(t("ls_wrong_arch", model=md_escape(sel.model_label), arch=t(f"ls_arch_{cfg.arch}"),
                     archs=", ".join(t(f"ls_arch_{a}") for a in lesson.archs)), icon=":material/swap_horiz:")
        if suited is not None:
            st.button(t("ls_switch", model=md_escape(label)), on_click=_switch, args=(lesson.model,),
                      key="ls_switch", type="primary")
        return False
    try:
        lab.lessons.check_model(lesson, specs(), cfg.n_layers, cfg.n_heads, cfg.arch)
    except lab.lessons.LessonError as e:
        st.error(t("ls_model_mismatch", model=md_escape(sel.model_label), error=say(e)))
        if suited is not None and suited.key != sel.model_key:
            st.button(t("ls_switch", model=md_escape(label)), on_click=_switch, args=(lesson.model,),
                      key="ls_switch")
        return False
    if suited is not None and suited.key != sel.model_key and not presenting():
        c1, c2 = st.columns([4, 1])
        c1.caption(t("ls_written_for", model=md_escape(label)))
        c2.button(t("ls_switch", model=md_escape(label)), on_click=_switch, args=(lesson.model,), key="ls_switch")
    if lesson.text and sel.text.strip() not in {v.strip() for v in lesson.text.values()}:
        c1, c2 = st.columns([4, 1])
        c1.caption(t("ls_written_for_text", text=md_escape(lesson.text[lang()].replace("\n", " "))))
        c2.button(t("ls_use_text"), on_click=use_text, args=(lesson.text[lang()], None), key="ls_use_text")
    return True


# ---- one step ----------------------------------------------------------------------------------
def resolved(step: lab.lessons.Step, cfg) -> dict[str, Any]:
    """The step's parameters with layers and heads counted from the end made positive."""
    out = dict(step.params)
    for p in KINDS[step.kind].spec.params:
        n = {"layer": cfg.n_layers, "head": cfg.n_heads}.get(p.type)
        if n is not None:
            out[p.name] = lab.lessons.resolve_index(out[p.name], n, p, p.name)
    return out


def compute(step: lab.lessons.Step, sel: Selection, model, tok) -> Shown:
    """What the step shows: built once for every session on the same model, text and step
    (ui/serving/lessons.py)."""
    return step_shown(sel, step.kind, resolved(step, model.cfg), model, tok, lang(), colors.palette(), text_scale())


def step_view(place: Place, sel: Selection, model, tok, cls=None) -> None:
    lesson, i = place.lesson, place.index
    code = lang()
    n = len(lesson.steps)
    with st.container(key="ls_progress"):
        st.progress((i + 1) / n, text=t("ls_progress", i=i + 1, n=n, lesson=md_escape(lesson.title[code])))
    with st.container(key="ls_step"):
        step_body(place, sel, model, tok, cls)
    if cls is not None and not lessons_class.role().teacher:
        lessons_class.follow_teacher(cls.code)        # a student moves with the teacher, not with buttons
    else:
        nav(lesson, i)


def step_body(place: Place, sel: Selection, model, tok, cls=None) -> None:
    lesson, i = place.lesson, place.index
    step = lesson.steps[i]
    code = lang()
    # on the projector the step's title is the page's title (h1, ≥ 40 px); else a section under "Lessons"
    (st.title if presenting() else st.header)(md_escape(step.title[code]), anchor=False)
    st.markdown(lesson_markdown(step.body[code]))
    if step.formula:
        st.latex(step.formula[lang()])
    try:
        with st.spinner(t("ls_computing")):
            shown = compute(step, sel, model, tok)
    except Exception as e:       # noqa: BLE001 - a step that cannot run says so, never a traceback
        st.error(t("ls_step_failed", error=explain(e)))
        return
    revealed = True
    if step.ask:
        revealed = question(place, step, shown, sel, cls)
    if revealed:
        figure_export.chart(shown.figure, key=f"ls_fig_{lesson.id}_{i}", width="stretch")
        text = step.notice[code] if step.notice else default_notice(step.kind)
        if text:
            st.info(lesson_markdown(lab.lessons.fill(text, display(shown.facts))), icon=":material/visibility:")
        if shown.caption:
            st.caption(shown.caption)
        if shown.page and not presenting():
            explorer_link(shown)


def display(facts: dict[str, Any]) -> dict[str, Any]:
    """Facts as a sentence shows them: token labels as they are (the sentence is escaped
    when it is drawn), numbers as numbers."""
    return {k: (float(v) if hasattr(v, "dtype") else v) for k, v in facts.items()}


def explorer_link(shown: Shown) -> None:
    keep = {k: v for k, v in st.query_params.to_dict().items() if k in ("lang", "model", "text", "target", "device",
                                                                        "present", "palette")}
    st.page_link(f"app_pages/{shown.page}.py", label=t("ls_open_explorer"), icon=":material/open_in_new:",
                 query_params={**keep, **shown.params})


def nav(lesson: lab.lessons.Lesson, i: int) -> None:
    n = len(lesson.steps)
    back, mid, fwd = st.columns([1, 4, 1])
    back.button(t("ls_back"), key="ls_back", on_click=go, args=(lesson.id, i - 1), disabled=i == 0,
                icon=":material/arrow_back:", shortcut="ArrowLeft", width="stretch")
    fwd.button(t("ls_next"), key="ls_next", on_click=go, args=(lesson.id, i + 1), disabled=i >= n - 1,
               icon=":material/arrow_forward:", shortcut="ArrowRight", width="stretch", type="primary")
    mid.caption(t("ls_keys"))


# ---- predict, then reveal ---------------------------------------------------------------------
def question(place: Place, step: lab.lessons.Step, shown: Shown, sel: Selection, cls=None) -> bool:
    """Ask the step's question; True once the answer is revealed (by this reader, or in a
    class by the teacher)."""
    lesson, i = place.lesson, place.index
    code = lang()
    spec = KINDS[step.kind].spec
    seen = (lesson.id, i, sel.model_key, sel.text, sel.target)
    teacher = cls is not None and lessons_class.role().teacher
    student = cls is not None and not teacher
    if student:
        revealed = cls.revealed and cls.step == i
    else:
        revealed = seen in st.session_state.setdefault(REVEALED, set())
    st.markdown(f"**{lesson_markdown(step.ask[code])}**")
    # The pills' labels start with a space, which the page does not show: Streamlit 1.67 looks for
    # an icon in each pill label's first word, and for a first word that is not ASCII ("3·the",
    # any Chinese option) that look hashes its whole emoji pattern, ~0.12 ms a label: 6 ms a run
    # of a 50-token question, for every run of every student. An empty first word skips it.
    if spec.question == "token":
        options = list(range(len(shown.tokens or [])))
        fmt = (lambda j: plain_label(j, shown.tokens[j]))
    else:
        options = list(spec.options)
        fmt = (lambda o: t(f"lk_opt_{o}"))
    gkey = f"ls_guess_{lesson.id}_{i}"
    guess = st.pills(t("ls_your_guess"), options, format_func=lambda o: " " + fmt(o), key=gkey, disabled=revealed)
    if student and not revealed:
        lessons_class.answer_box(cls.code, i, guess, fmt)
        st.caption(t("cl_wait_reveal"))
        return False
    if not revealed:
        if teacher:
            lessons_class.live_tally(cls.code, i, fmt, options)
        st.button(t("ls_reveal") if guess is not None else t("ls_reveal_no_guess"), key=f"ls_reveal_{lesson.id}_{i}",
                  on_click=reveal, args=(seen, (lesson.id, i), guess, shown.answer, teacher), type="primary",
                  icon=":material/visibility:")
        tally_line((lesson.id, i))
        return False
    right_label = fmt(shown.answer)
    if student:
        sent = st.session_state.get("_class_sent")
        guess = sent[2] if sent and sent[:2] == (cls.code, i) else None
    if guess is None:
        st.info(t("ls_answer_is", answer=md_escape(right_label)))
    elif guess == shown.answer:
        st.success(t("ls_right", answer=md_escape(right_label)), icon=":material/check_circle:")
    else:
        st.warning(t("ls_wrong", guess=md_escape(fmt(guess)), answer=md_escape(right_label)), icon=":material/info:")
    if teacher:
        lessons_class.live_tally(cls.code, i, fmt, options)
    if not student:
        tally_line((lesson.id, i))
        st.button(t("ls_again"), key=f"ls_again_{lesson.id}_{i}", on_click=hide, args=(seen, gkey, i, teacher))
    return True


def reveal(seen: tuple, where: tuple, guess: Any, answer: Any, teacher: bool = False) -> None:
    st.session_state.setdefault(REVEALED, set()).add(seen)
    if teacher:
        lessons_class.revealed_by_teacher(where[1])
    if guess is not None:
        right, total = st.session_state.setdefault(TALLY, {}).get(where, (0, 0))
        st.session_state[TALLY][where] = (right + (guess == answer), total + 1)


def hide(seen: tuple, gkey: str, step: int = 0, teacher: bool = False) -> None:
    st.session_state.setdefault(REVEALED, set()).discard(seen)
    st.session_state.pop(gkey, None)
    if teacher:
        lessons_class.moved(step)                     # the class's answers to this step reopen


def tally_line(where: tuple) -> None:
    right, total = st.session_state.get(TALLY, {}).get(where, (0, 0))
    if total:
        st.caption(t("ls_tally", right=right, total=total))

"""Class mode on the Lessons page: a teacher runs a lesson for a room, students answer on
their own devices.

The teacher starts a class (a short code, a link and a QR code for the projector); the
class remembers the lesson, the step, the teacher's model and sentence
(`server/classroom.py`, SQLite by default, PostgreSQL for several replicas). A student
who opens `/lessons?class=K7PX3M` sees the class's step on the class's model and sentence,
answers its question, and follows the teacher: the page polls the class every two seconds
and moves when the teacher moves or reveals. The teacher's screen shows the live tally per
option before the reveal. Answers are anonymous (a random id per browser session) and go
with the class after a day. The teacher holds a key (in the teacher's session and link)
without which no one can move the class.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Callable

import streamlit as st

from models.errors import Refused
from server import classroom

from ..i18n import t
from ..markup import markdown_table, md_code, md_escape
from ..refusals import say
from ..sidebar import Selection

ROLE = "_class_role"               # session: Role of this browser in a class, or absent
STUDENT_ID = "_class_student"      # session: this browser's anonymous id
SEEN = "_class_seen"               # session: the class version this student's page shows
POLL_S = 2.0


@dataclass(frozen=True)
class Role:
    code: str
    teacher: bool


def role() -> Role | None:
    return st.session_state.get(ROLE)


def join_from_link() -> None:
    """A class code or teacher key in the link (`?class=…`, `&teacher=…`) becomes this
    browser's role; a code that is unknown or expired gets a sentence."""
    asked = st.query_params.get("class")
    if not asked:
        return
    current = role()
    try:
        info = classroom.store().get(asked)
    except Refused as e:
        st.warning(say(e), icon=":material/groups:")
        del st.query_params["class"]
        st.session_state.pop(ROLE, None)
        return
    if current is not None and current.code == info.code:
        return
    key = st.query_params.get("teacher")
    teacher = bool(key) and secrets.compare_digest(str(key), info.settings.get("teacher", ""))
    st.session_state[ROLE] = Role(info.code, teacher)
    if not teacher:
        follow(info)


def follow(info: classroom.ClassInfo) -> None:
    """A student's sidebar takes the class's model and sentence (on the next run: the
    sidebar has been drawn in this one)."""
    s = info.settings
    st.session_state["_sidebar_pending"] = {"model": s.get("model"), "text": s.get("text"),
                                            "target": s.get("target", "")}
    st.session_state[SEEN] = info.version


def info() -> classroom.ClassInfo | None:
    r = role()
    if r is None:
        return None
    try:
        return classroom.store().get(r.code)
    except Refused as e:
        st.warning(say(e), icon=":material/groups:")
        leave()
        return None


def leave() -> None:
    st.session_state.pop(ROLE, None)
    for k in ("class", "teacher"):
        if k in st.query_params:
            del st.query_params[k]


# ---- the teacher --------------------------------------------------------------------------------
def start(lesson: str, step: int, sel: Selection) -> None:
    key = secrets.token_urlsafe(12)
    try:
        made = classroom.store().start(lesson, step, {"model": sel.model_key, "text": sel.text, "target": sel.target,
                                                      "teacher": key})
    except Refused as e:
        st.session_state["_class_said"] = say(e)
        return
    st.session_state[ROLE] = Role(made.code, True)
    st.query_params["class"] = made.code
    st.query_params["teacher"] = key


def end() -> None:
    r = role()
    if r is not None and r.teacher:
        try:
            classroom.store().end(r.code)
        except Refused:
            pass
    leave()


def link(code: str) -> str:
    """The students' link to the class (this server's address as the browser sees it)."""
    base = (st.context.url or "http://localhost:8501/lessons").split("?")[0]
    return f"{base}?class={code}"


def panel(lesson_id: str, step: int, sel: Selection, shipped: bool) -> None:
    """The class box: start a class, or (teaching) its code, link and QR code; (a student)
    which class this is; or a field to type a code."""
    said = st.session_state.pop("_class_said", None)
    if said:
        st.warning(said)
    r = role()
    if r is None:
        with st.expander(t("cl_box")):
            st.caption(t("cl_box_help"))
            c1, c2 = st.columns(2)
            if shipped:
                c1.button(t("cl_start"), key="cl_start", on_click=start, args=(lesson_id, step, sel),
                          icon=":material/co_present:")
            else:
                c1.caption(t("cl_shipped_only"))
            c2.text_input(t("cl_join"), key="cl_code", max_chars=40, on_change=_join_typed, placeholder="K7PX3M")
        return
    if r.teacher:
        with st.expander(t("cl_teaching", code=r.code), expanded=True):
            left, right = st.columns([3, 1])
            url = link(r.code)
            left.markdown(t("cl_code_big", code=r.code))
            left.markdown(t("cl_link", url=md_code(url)))
            left.button(t("cl_end"), key="cl_end", on_click=end, icon=":material/stop_circle:")
            from ..widgets.qr import qr_png
            right.image(qr_png(url, scale=6), caption=t("cl_qr"), width=180)
    else:
        st.info(t("cl_student", code=r.code), icon=":material/groups:")


def _join_typed() -> None:
    code = st.session_state.get("cl_code", "")
    try:
        found = classroom.store().get(code)
    except Refused as e:
        st.session_state["_class_said"] = say(e)
        return
    st.query_params["class"] = found.code
    st.session_state[ROLE] = Role(found.code, False)
    follow(found)


def moved(step: int) -> None:
    """The teacher moved to `step` (0-based): every student follows, answers reopen."""
    r = role()
    if r is not None and r.teacher:
        classroom.store().show(r.code, step, False)


def revealed_by_teacher(step: int) -> None:
    r = role()
    if r is not None and r.teacher:
        classroom.store().show(r.code, step, True)


@st.fragment(run_every=POLL_S)
def live_tally(code: str, step: int, fmt: Callable[[Any], str], options: list[Any]) -> None:
    """The teacher's live count per option (before the reveal), polled."""
    try:
        tally = classroom.store().tally(code, step)
    except Refused as e:
        st.caption(say(e))
        return
    labels = {str(o): fmt(o) for o in options}
    rows = [[labels.get(opt, opt), str(n)] for opt, n in sorted(tally.counts.items(), key=lambda kv: -kv[1])]
    st.markdown(t("cl_tally", n=tally.answered))
    if rows:
        st.markdown(markdown_table([t("cl_col_answer"), t("cl_col_count")], rows))


# ---- a student ----------------------------------------------------------------------------------
def student_id() -> str:
    if STUDENT_ID not in st.session_state:
        st.session_state[STUDENT_ID] = secrets.token_urlsafe(9)
    return st.session_state[STUDENT_ID]


def send(code: str, step: int, option: Any) -> None:
    try:
        classroom.store().answer(code, step, student_id(), str(option))
        st.session_state["_class_sent"] = (code, step, option)
    except Refused as e:
        st.session_state["_class_said"] = say(e)


def answer_box(code: str, step: int, guess: Any, fmt: Callable[[Any], str]) -> None:
    """A student's Send button and what was sent."""
    said = st.session_state.pop("_class_said", None)
    if said:
        st.warning(said)
    st.button(t("cl_send"), key="cl_send", on_click=send, args=(code, step, guess), disabled=guess is None,
              type="primary", icon=":material/send:")
    sent = st.session_state.get("_class_sent")
    if sent and sent[:2] == (code, step):
        st.caption(t("cl_sent", answer=md_escape(fmt(sent[2]))))


@st.fragment(run_every=POLL_S)
def follow_teacher(code: str) -> None:
    """A student's page reruns when the teacher moves or reveals."""
    try:
        now = classroom.store().get(code)
    except Refused:
        st.rerun()
        return
    if now.version != st.session_state.get(SEEN):
        st.session_state[SEEN] = now.version
        st.rerun()
    st.caption(t("cl_following", code=code))

"""The two workloads of `benchmarks/protocol_load.py`, played by `support.streamlit_client`
clients (no browser).

explorers   each opens `/attention?text=<its own 48-word text>`, then per round: a new text in
            the sidebar, another head (a fragment rerun: the instant viewer's selection in the
            default view, the head slider in the others), another page
            (/residual or the overview, alternating), and back to /attention.
students    class mode as `ui/views/lessons_class.py` runs it: a teacher opens a lesson link on
            the class's text (`/lessons?lesson=L&step=S&text=...`) and starts a class; N students
            open `/lessons?class=CODE` (join: the class's model and text come with it). Per
            round: on a step with a question every student picks an answer and sends it, and the
            teacher reveals; the teacher moves to the next step; students follow, each through
            its own `run_every` poll of the class (every 2 s, as the page's fragment asks); then
            every student types its own text.

Every interaction is one `Run` (rerun sent -> script_finished). A student's poll that found
the class moved (its fragment called st.rerun, so a full run followed) is the interaction
"follow"; polls that found nothing new are counted apart (their CPU is in the phase's).
"""
from __future__ import annotations

import asyncio
import random
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from support.streamlit_client import Run, StreamlitClient, options

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("apple river window garden doctor silver market winter castle forest engine island letter monkey "
         "orange pencil rabbit summer teacher tiger violin yellow bridge camera dragon farmer guitar hammer "
         "jacket kitchen lemon mirror ocean palace planet rocket shadow spider sugar tunnel wallet basket").split()


def text_of(who: str, i: int, r: int, tag: str = "", words: int = 48) -> str:
    """A text of `words` words, its own per client, round and phase (`tag`), so that no phase
    finds its texts' passes already cached by an earlier one (the warm-up's included)."""
    rng = random.Random(f"{who}-{tag}-{i}-{r}")
    head = [who] + ([tag] if tag else []) + [str(i), "round", str(r)]
    return " ".join(head + [rng.choice(WORDS) for _ in range(words - len(head))])


@dataclass
class Tally:
    """What one workload at one size recorded."""

    planned: int = 0
    runs: list[tuple[int, Run]] = field(default_factory=list)     # (client, run); the teacher is client -1
    polls: list[Run] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    shown_after_step: list[float] = field(default_factory=list)   # teacher's click -> a student's step drawn
    notes: list[str] = field(default_factory=list)
    cpu: Callable[[], float] | None = None                        # the server's CPU seconds (one client alone)
    kind_cpu: dict[str, list[float]] = field(default_factory=dict)  # kind -> server CPU s of each interaction

    def add(self, who: int, run: Run) -> Run:
        if run.full and "text" not in run.widget_keys and run.error is None:
            run.error = "the page was not drawn (no sidebar)" + (f": {run.alerts[0][:120]}" if run.alerts else "")
        self.runs.append((who, run))
        if run.error or run.exceptions:
            self.errors.append(f"client {who} {run.kind}: {run.error or run.exceptions[0]}")
        return run

    def missing(self, who: int, kind: str, why: str) -> None:
        self.errors.append(f"client {who} {kind}: {why}")


async def _step(tally: Tally, who: int, kind: str, action) -> Run | None:
    """One interaction; a widget the page does not have is an error of that interaction."""
    try:
        before = tally.cpu() if tally.cpu is not None else None
        run = tally.add(who, await action())
        if before is not None:
            tally.kind_cpu.setdefault(kind, []).append(tally.cpu() - before)
        return run
    except (KeyError, TypeError, IndexError) as e:
        tally.missing(who, kind, f"{type(e).__name__}: {e}")
        return None


# ---- explorers ---------------------------------------------------------------------------------
async def explorer(base: str, i: int, args, tally: Tally, clients: list[StreamlitClient]) -> None:
    await asyncio.sleep(i * args.stagger)
    c = StreamlitClient(base, timeout=args.timeout, cache=not args.no_cache)
    clients.append(c)
    try:
        await c.connect()
    except Exception as e:  # noqa: BLE001  (a refused connection is this client's error)
        tally.missing(i, "connect", f"{type(e).__name__}: {e}")
        return
    first = {"text": text_of("explorer", i, 0, args.tag)}
    await _step(tally, i, "open", lambda: c.open("attention", first, kind="open"))
    for r in range(args.rounds):
        await asyncio.sleep(args.think)
        text = text_of("explorer", i, r + 1, args.tag)
        await _step(tally, i, "text", lambda: c.set_value("text", text, kind="text"))
        await asyncio.sleep(args.think)
        await _step(tally, i, "head", lambda: switch_head(c, i + r))
        await asyncio.sleep(args.think)
        away = "residual" if (i + r) % 2 == 0 else ""
        await _step(tally, i, "page", lambda: c.goto(away, kind="page"))
        await asyncio.sleep(args.think)
        await _step(tally, i, "page", lambda: c.goto("attention", kind="page"))


def other_head(c: StreamlitClient, k: int) -> int:
    w = c.widget("head")
    n = int(w.proto.max) + 1
    now = int((list(w.proto.value) or list(w.proto.default) or [0])[0])
    return (now + 1 + k % max(1, n - 1)) % n if n > 1 else 0


async def switch_head(c: StreamlitClient, k: int) -> Run:
    """Another head, as the page's view takes it: in the instant view (the default) the
    browser draws the head itself and sends the viewer's selection (a fragment rerun that
    moves the sliders and the link); in the others, the head slider."""
    head = other_head(c, k)
    if "instant_canvas" in c.widgets:
        layer = int((list(c.widget("layer").proto.value) or [0])[0])
        return await c.set_value("instant_canvas", {"selection": {"layer": layer, "head": head, "query": None}}, kind="head")
    return await c.set_value("head", head, kind="head")


async def explorers(base: str, n: int, args, tally: Tally, clients: list[StreamlitClient]) -> None:
    tally.planned = n * (1 + 4 * args.rounds)
    await asyncio.gather(*(explorer(base, i, args, tally, clients) for i in range(n)))


# ---- a class: a teacher and N students -----------------------------------------------------------
def lesson_plan(lesson_id: str, rounds: int) -> tuple[int, list[bool]]:
    """(first step index, whether each step has a question) of shipped lesson `lesson_id`:
    the class starts on its first question that leaves `rounds` steps after it."""
    for path in sorted((ROOT / "lessons").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if data.get("id") == lesson_id:
            asks = ["ask" in s for s in data["steps"]]
            last = len(asks) - 1 - rounds
            start = next((i for i, a in enumerate(asks) if a and i <= last), max(0, last))
            return start, asks
    raise SystemExit(f"no shipped lesson with id {lesson_id!r} in lessons/")


class Student:
    def __init__(self, i: int, client: StreamlitClient, tally: Tally) -> None:
        self.i, self.c, self.tally = i, client, tally
        self.follows = 0
        self.since: float | None = None          # the teacher's click this student is to follow
        self.poller: asyncio.Task | None = None

    def on_poll(self, run: Run) -> None:
        if run.full:
            run.kind = "follow"
            self.follows += 1
            self.tally.add(self.i, run)
            if self.since is not None and run.done is not None:
                self.tally.shown_after_step.append(run.done - self.since)
        else:
            self.tally.polls.append(run)
            if run.error or run.exceptions:
                self.tally.errors.append(f"client {self.i} poll: {run.error or run.exceptions[0]}")


async def _wait_follow(students: list[Student], target: int, timeout: float, tally: Tally, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(s.follows < target for s in students if s.poller):
        await asyncio.sleep(0.05)
    for s in students:
        if s.poller and s.follows < target:
            tally.missing(s.i, "follow", f"did not follow the teacher's {what} within {timeout:.0f} s")
            s.follows = target


async def classroom(base: str, n: int, args, tally: Tally, clients: list[StreamlitClient]) -> None:
    start, asks = lesson_plan(args.lesson, args.rounds)
    steps = range(start, start + args.rounds)
    tally.planned = 2 + sum(asks[s] + 1 for s in steps) + n * (1 + sum(3 * asks[s] + 2 for s in steps))
    teacher = StreamlitClient(base, timeout=args.timeout, cache=not args.no_cache)
    clients.append(teacher)
    await teacher.connect()
    link = {"lesson": args.lesson, "step": str(start + 1), "text": text_of("class", 0, 0, args.tag)}
    await _step(tally, -1, "teacher open", lambda: teacher.open("lessons", link, kind="teacher open"))
    await _step(tally, -1, "teacher start", lambda: teacher.click("cl_start", kind="teacher start"))
    code = teacher.param("class")
    if not code:
        tally.missing(-1, "teacher start", "no class code in the teacher's URL after starting a class")
        return
    polls = [asyncio.create_task(teacher.poll_forever(tally.polls.append))]
    students: list[Student] = []

    async def join(i: int) -> None:
        await asyncio.sleep(i * args.stagger)
        c = StreamlitClient(base, timeout=args.timeout, cache=not args.no_cache)
        clients.append(c)
        try:
            await c.connect()
        except Exception as e:  # noqa: BLE001
            tally.missing(i, "connect", f"{type(e).__name__}: {e}")
            return
        s = Student(i, c, tally)
        students.append(s)
        run = await _step(tally, i, "join", lambda: c.open("lessons", {"class": code}, kind="join"))
        if run is not None and run.ok:
            s.poller = asyncio.create_task(c.poll_forever(s.on_poll))
            polls.append(s.poller)

    try:
        await asyncio.gather(*(join(i) for i in range(n)))
        follows = 0
        for r, step in enumerate(steps):
            if asks[step]:
                await asyncio.gather(*(answer(s, step, args, tally) for s in students))
                follows += 1
                await teacher_moves(teacher, f"ls_reveal_{args.lesson}_{step}", "teacher reveal", students, tally)
                await _wait_follow(students, follows, args.timeout, tally, "reveal")
            follows += 1
            await teacher_moves(teacher, "ls_next", "teacher next", students, tally)
            await _wait_follow(students, follows, args.timeout, tally, "next step")
            await asyncio.gather(*(retype(s, r, args, tally) for s in students))
    finally:
        for task in polls:
            task.cancel()
        await asyncio.gather(*polls, return_exceptions=True)


async def teacher_moves(teacher: StreamlitClient, key: str, kind: str, students: list[Student], tally: Tally) -> None:
    now = time.perf_counter()
    for s in students:
        s.since = now
    await _step(tally, -1, kind, lambda: teacher.click(key, kind=kind))


async def answer(s: Student, step: int, args, tally: Tally) -> None:
    await asyncio.sleep(s.i * args.stagger + args.think)
    pills = s.c.find(f"ls_guess_{args.lesson}_{step}")
    if pills is None:
        tally.missing(s.i, "answer", f"no answer buttons on step {step + 1}")
        return
    choices = options(pills)
    await _step(tally, s.i, "answer", lambda: s.c.set_value(pills.key, choices[s.i % len(choices)], kind="answer"))
    await asyncio.sleep(args.think)
    await _step(tally, s.i, "send", lambda: s.c.click("cl_send", kind="send"))


async def retype(s: Student, r: int, args, tally: Tally) -> None:
    await asyncio.sleep(s.i * args.stagger + args.think)
    text = text_of("student", s.i, r, args.tag)
    await _step(tally, s.i, "text", lambda: s.c.set_value("text", text, kind="text"))

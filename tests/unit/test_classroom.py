"""server/classroom.py (class mode's store) on SQLite and on a real PostgreSQL server, and
ui/widgets/qr.py (the class link's QR code)."""
from __future__ import annotations

import json
import multiprocessing
import sqlite3
import threading

import pytest

from server import classroom
from server.classroom import (CODE_ALPHABET, AnswersClosed, ClassNotFound, ClassRefused, ClassStore, NoClassCode,
                              SettingsTooBig)
from support import pgserver
from ui.i18n import STRINGS
from ui.widgets.qr import qr_code, qr_png, qr_svg

SETTINGS = {"model": "minilm", "text": "The cat sat because it was tired. 猫坐下了。", "lang": "中文"}


@pytest.fixture(scope="module")
def postgres():
    with pgserver.running() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, tmp_path) -> str:
    """Where a store lives: a fresh SQLite file, or a fresh database on the test's PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "classes.sqlite3")
    return request.getfixturevalue("postgres").new_database()


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def at_once(n: int, work) -> None:
    """Runs work(i) for i < n in n threads released together; re-raises the first failure."""
    barrier, errors = threading.Barrier(n), []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            work(i)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]


def in_processes(n: int, job) -> None:
    """Runs n processes, process p running `function(*args)` for `function, args = job(p, start)`; `start`
    is an Event set once all are running. Forked: the children reuse the imported modules."""
    ctx = multiprocessing.get_context("fork")
    start = ctx.Event()
    procs = [ctx.Process(target=fn, args=args) for fn, args in (job(p, start) for p in range(n))]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * n


def sentence(e: ClassRefused, lang: str) -> str:
    return STRINGS[f"refused_{e.reason}"][lang].format(**e.values)


# ---- concurrency: the 30 students ----------------------------------------------------------------

def test_thirty_students_answering_at_once_are_counted_exactly(target):
    db = ClassStore.open(target)
    info = db.start("attention", 4, SETTINGS)
    at_once(30, lambda i: db.answer(info.code, 4, f"s{i}", "ABC"[i % 3]))
    assert db.tally(info.code, 4) == classroom.Tally(4, {"A": 10, "B": 10, "C": 10}, 30)

    # each changes their mind once, all at once: the latest answer counts, once
    at_once(30, lambda i: (db.answer(info.code, 4, f"s{i}", "it" if i < 21 else "cat"),
                           db.answer(info.code, 4, f"s{i}", "it" if i < 7 else "cat")))
    assert db.tally(info.code, 4) == classroom.Tally(4, {"cat": 23, "it": 7}, 30)


def test_two_classes_never_see_each_others_answers(target):
    db = ClassStore.open(target)
    a, b = db.start("attention", 2, SETTINGS), db.start("attention", 2, {"model": "gpt2"})
    assert a.code != b.code
    at_once(20, lambda i: db.answer(a.code if i % 2 else b.code, 2, f"s{i // 2}", "yes" if i % 2 else "no"))
    db.answer(a.code, 2, "late", "maybe")
    assert db.tally(a.code, 2) == classroom.Tally(2, {"maybe": 1, "yes": 10}, 11)
    assert db.tally(b.code, 2) == classroom.Tally(2, {"no": 10}, 10)
    db.show(a.code, 2, revealed=True)                     # one class's reveal leaves the other open
    db.answer(b.code, 2, "late", "no")
    assert db.get(b.code).revealed is False and db.tally(b.code, 2).answered == 11
    assert db.get(b.code).settings == {"model": "gpt2"}


def _students(path: str, code: str, proc: int, start) -> None:
    db = ClassStore.open(path)                            # each process opens the file itself
    start.wait(60)
    at_once(10, lambda i: db.answer(code, 0, f"p{proc}s{i}", f"option {(proc + i) % 4}"))


def test_four_processes_of_ten_students_on_one_sqlite_file(tmp_path):
    path = str(tmp_path / "classes.sqlite3")
    code = ClassStore.open(path).start("positions", 0, SETTINGS).code
    in_processes(4, lambda p, start: (_students, (path, code, p, start)))
    assert ClassStore.open(path).tally(code, 0) == classroom.Tally(0, {f"option {k}": 10 for k in range(4)}, 40)


def _open(path: str, start) -> None:
    start.wait(60)
    ClassStore.open(path).start("masks", 0, {})


def test_several_processes_create_the_schema_at_once(target):
    if target.startswith("postgresql"):              # threads: each store opens its own connections
        at_once(6, lambda i: ClassStore.open(target).start("masks", 0, {}))
        return
    in_processes(4, lambda p, start: (_open, (target, start)))


# ---- the class's life ------------------------------------------------------------------------------------

def test_a_class_round_trip_and_the_code_as_typed(target):
    clock = Clock()
    db = ClassStore.open(target, clock=clock)
    info = db.start("attention", 3, SETTINGS)
    assert len(info.code) == 6 and set(info.code) <= set(CODE_ALPHABET) and not set("0O1IL") & set(info.code)
    assert (info.lesson, info.step, info.revealed, info.settings, info.version) == ("attention", 3, False, SETTINGS, 1)
    assert info.expires_at - info.created_at == 24 * 3600
    typed = f" {info.code[:3].lower()} - {info.code[3:]} "
    full_width = "".join(chr(ord(c) + 0xFEE0) for c in info.code)   # a Chinese input method's Ｋ７ＰＸ３Ｍ
    assert db.get(typed) == db.get(full_width) == info
    clock.now += 5
    revealed = db.show(typed, 3, revealed=True)
    assert (revealed.step, revealed.revealed, revealed.version, revealed.updated_at) == (3, True, 2, clock.now)
    moved = db.show(info.code, 4, revealed=False)
    assert (moved.step, moved.revealed, moved.version) == (4, False, 3)
    db.end(info.code)
    with pytest.raises(ClassNotFound):
        db.get(info.code)


def test_answers_close_at_the_reveal_and_when_the_class_moves_on(target):
    db = ClassStore.open(target)
    code = db.start("attention", 1, SETTINGS).code
    db.answer(code, 1, "s1", "it")
    db.show(code, 1, revealed=True)
    with pytest.raises(AnswersClosed) as e:
        db.answer(code, 1, "s2", "cat")
    assert "revealed" in sentence(e.value, "en") and "揭晓" in sentence(e.value, "zh")
    with pytest.raises(AnswersClosed):
        db.answer(code, 2, "s2", "cat")                  # not the class's step yet
    assert db.tally(code, 1) == classroom.Tally(1, {"it": 1}, 1)
    db.show(code, 1, revealed=False)                     # the teacher goes back and asks again
    db.answer(code, 1, "s2", "cat")
    assert db.tally(code, 1).answered == 2


def test_an_unknown_or_expired_code_is_refused_with_a_sentence(tmp_path, monkeypatch):
    monkeypatch.setattr(classroom, "SWEEP_EVERY_S", 10**9)   # refused before any sweep deletes it
    clock = Clock()
    path = str(tmp_path / "c.sqlite3")
    db = ClassStore.open(path, clock=clock)
    with pytest.raises(ClassNotFound) as e:
        db.get("zz zz zz")
    assert e.value.values == {"code": "ZZZZZZ", "hours": "24"}
    assert sentence(e.value, "en").startswith("There is no class ZZZZZZ on this server")
    assert "ZZZZZZ" in sentence(e.value, "zh") and "24 小时" in sentence(e.value, "zh")
    with pytest.raises(ClassNotFound):
        db.get("K7PX3")                                  # too short: not a code at all
    with pytest.raises(ClassNotFound) as e:
        db.get("<b>" * 300_000)                          # a hostile link: the sentence shows its start
    assert e.value.values["code"] == "<b>" * 6 + "<b…"
    with pytest.raises(NoClassCode):
        db.get("   ")

    old = db.start("attention", 0, SETTINGS)
    db.answer(old.code, 0, "s1", "it")
    clock.now += 12 * 3600
    young = db.start("attention", 0, SETTINGS)
    clock.now += 12 * 3600                               # the old class's day is over, to the second
    for call in (lambda: db.get(old.code), lambda: db.answer(old.code, 0, "s2", "it"),
                 lambda: db.tally(old.code, 0), lambda: db.show(old.code, 1, False)):
        with pytest.raises(ClassNotFound):
            call()
    assert db.get(young.code).code == young.code
    assert db.sweep() == 1                               # deleted with its answers, the young class kept
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT code FROM glassbox_classes").fetchall() == [(young.code,)]
        assert raw.execute("SELECT COUNT(*) FROM glassbox_answers").fetchone() == (0,)


def test_the_lifetime_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GLASSBOX_CLASS_HOURS", "2")
    info = ClassStore.open(str(tmp_path / "c.sqlite3")).start("attention", 0, {})
    assert info.expires_at - info.created_at == 2 * 3600


def test_a_code_collision_draws_a_new_code(tmp_path):
    codes = iter(["AAAAAA", "aaa aaa", "BBBBBB"])
    db = ClassStore.open(str(tmp_path / "c.sqlite3"), codes=lambda: next(codes))
    assert db.start("attention", 0, {}).code == "AAAAAA"
    assert db.start("attention", 0, {}).code == "BBBBBB"


def test_bad_input_gets_a_clear_exception(tmp_path):
    db = ClassStore.open(str(tmp_path / "c.sqlite3"))
    code = db.start("attention", 0, SETTINGS).code
    with pytest.raises(NoClassCode):
        db.answer("", 0, "s1", "it")
    with pytest.raises(TypeError, match="class code is a string"):
        db.get(123456)
    with pytest.raises(ValueError, match="an answer must have 1 to 200 characters, not 201"):
        db.answer(code, 0, "s1", "x" * 201)
    with pytest.raises(ValueError, match="an answer must have 1 to 200"):
        db.answer(code, 0, "s1", "")
    with pytest.raises(TypeError, match="an answer must be a string, not int"):
        db.answer(code, 0, "s1", 3)
    for student in ("", "a b", "x" * 65, None, "Ünïcode"):
        with pytest.raises(ValueError, match="a student id is 1 to 64"):
            db.answer(code, 0, student, "it")
    for step in (-1, 10_001):
        with pytest.raises(ValueError, match="a step is between 0 and 10000"):
            db.answer(code, step, "s1", "it")
    for step in ("1", 1.0, True):
        with pytest.raises(TypeError, match="a step is an int"):
            db.show(code, step, False)
    with pytest.raises(TypeError, match="the setting 'layer' must be a string, not int"):
        db.start("attention", 0, {"layer": 3})
    with pytest.raises(TypeError, match="settings must be a mapping"):
        db.start("attention", 0, [("model", "minilm")])
    with pytest.raises(ValueError, match="a lesson id must have 1 to 64"):
        db.start("", 0, {})
    with pytest.raises(SettingsTooBig) as e:
        db.start("attention", 0, {"text": "猫" * 40_000})   # 120 KB of UTF-8
    assert sentence(e.value, "en").startswith("The class's settings (mostly its text) are 120 KB; a class keeps "
                                              "at most 100 KB")
    assert db.tally(code, 0) == classroom.Tally(0, {}, 0)  # nothing of the refused calls was stored


def test_store_follows_the_environment_one_per_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("GLASSBOX_CLASS_DB", str(tmp_path / "a" / "classes.sqlite3"))
    db = classroom.store()
    assert db is classroom.store() and db.backend.name == "sqlite"
    assert (tmp_path / "a" / "classes.sqlite3").exists()
    with sqlite3.connect(tmp_path / "a" / "classes.sqlite3") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    monkeypatch.setenv("GLASSBOX_CLASS_DB", str(tmp_path / "b.sqlite3"))
    assert classroom.store() is not db


def test_the_default_file_is_in_the_users_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert classroom.default_path() == tmp_path / "cache" / "glassbox" / "classes.sqlite3"
    assert (tmp_path / "cache" / "glassbox").is_dir()


def test_settings_keep_any_text(target):
    db = ClassStore.open(target)
    settings = {"text": "<b>it</b> \"quoted\" ' ; DROP TABLE glassbox_classes; -- ? %s 词元", "lang": "中文"}
    code = db.start("attention", 0, settings).code
    assert db.get(code).settings == settings
    db.answer(code, 0, "s1", "'; DROP TABLE glassbox_answers; -- %s ?")
    assert db.tally(code, 0).counts == {"'; DROP TABLE glassbox_answers; -- %s ?": 1}
    assert json.loads(json.dumps(db.get(code).settings)) == settings


def test_an_unreachable_postgresql_server_gets_a_sentence():
    pytest.importorskip("psycopg")
    with pytest.raises(classroom.ClassDatabaseDown) as e:
        ClassStore.open("postgresql://glassbox@127.0.0.1:1/none?connect_timeout=2")
    assert "GLASSBOX_CLASS_DB" in sentence(e.value, "en") and "数据库" in sentence(e.value, "zh")


# ---- the QR code --------------------------------------------------------------------------------------

def test_the_qr_code_reads_back_as_the_link():
    url = "http://192.168.1.20:8501/lessons?class=K7PX3M&lang=中文"
    code = qr_code(url)
    assert code.version in (4, 5) and code.error == "M" and len(code.matrix) == 17 + 4 * code.version
    assert qr_svg(url) == qr_svg(url) and qr_svg(url).startswith("<svg")
    assert qr_png(url)[:8] == b"\x89PNG\r\n\x1a\n"
    zxingcpp = pytest.importorskip("zxingcpp")
    import numpy as np
    pixels = np.array([[0 if dark else 255 for dark in row] for row in code.matrix_iter(scale=4, border=4)],
                      dtype=np.uint8)
    assert [r.text for r in zxingcpp.read_barcodes(pixels)] == [url]
    with pytest.raises(ValueError):
        qr_svg("x" * 1001)

"""Class mode's storage: classes, the step each one shows, and its students' anonymous answers.

A teacher starts a class and gets a short code; students open the class link on their own
devices and answer the current step's prediction; the teacher's screen polls the tally and
reveals the step, which closes its answers and moves every student to it. This module is the
store behind that, pure Python and DB-API (no streamlit): one API, two backends.

    from server import classroom
    db = classroom.store()                               # one per process, from GLASSBOX_CLASS_DB
    info = db.start("attention", 3, {"model": "minilm", "text": "...", "lang": "en"})
    info.code                                            # "K7PX3M": 6 of CODE_ALPHABET (no 0/O/1/I/L)
    db.get(" k7p x3m ")                                  # -> ClassInfo; case and spaces do not matter
    db.answer(info.code, 3, student_id, "it")            # a student's latest answer to a step counts once
    db.tally(info.code, 3)                               # -> Tally(step=3, counts={"it": 1}, answered=1)
    db.show(info.code, 3, revealed=True)                 # the reveal: answers to step 3 close
    db.show(info.code, 4, revealed=False)                # every student moves to step 4
    db.end(info.code)                                    # the teacher ends the class: all of it is deleted

Public API:
    store() -> ClassStore
    ClassStore.open(target: str | None = None, *, clock=time.time, ttl_s=None, codes=new_code) -> ClassStore
    ClassStore.start(lesson: str, step: int, settings: Mapping[str, str]) -> ClassInfo
    ClassStore.get(code: str) -> ClassInfo
    ClassStore.show(code: str, step: int, revealed: bool) -> ClassInfo
    ClassStore.answer(code: str, step: int, student: str, option: str) -> None
    ClassStore.tally(code: str, step: int) -> Tally
    ClassStore.end(code: str) -> None
    ClassStore.sweep() -> int                            # deletes expired classes (and their answers)
    ClassStore.close() -> None                           # closes the pooled connections
    normalise_code(code: str) -> str; new_code() -> str; default_path() -> Path
    ClassInfo, Tally (frozen dataclasses); ClassRefused(Refused) and its subclasses ClassNotFound,
    NoClassCode, AnswersClosed, SettingsTooBig, ClassDatabaseDown (each has a refused_<reason> sentence).

Answers count for the class's current step only, until it is revealed: the check and the upsert
are one statement. `student` is an anonymous id the browser session makes up; nothing names a
person. A class and its answers are deleted GLASSBOX_CLASS_HOURS (24) hours after its start
(an expired class is refused at once; `sweep()` deletes it on open, on `start`, and at most
every 15 minutes on `get`).

GLASSBOX_CLASS_DB: unset or a file path -> SQLite (WAL; default `default_path()`), a
`postgresql://` URL -> PostgreSQL through psycopg 3. The SQL is written once with `?`
placeholders. Connections are pooled per process, one thread per connection at a time. Times
are Unix seconds from `clock`, which a test replaces. Why: docs/design-notes.md, "Class mode's store".
"""
from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models import limits
from models.errors import Refused

DB_ENV = "GLASSBOX_CLASS_DB"
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"   # no 0/O, 1/I/L: read off a projector without doubt
CODE_LENGTH = 6                                       # 31^6 = 887 million codes
MAX_OPTION = 200                                      # characters of one answer (an option id or a token)
MAX_ID = 64                                           # characters of a lesson id, a student id, a settings key
MAX_STEP = 10_000
MAX_SETTINGS_BYTES = 100_000                          # the settings as JSON (a 20,000-character text fits)
SWEEP_EVERY_S = 15 * 60
BUSY_TIMEOUT_S = 10.0                                 # SQLite: how long a writer waits for the file's lock
MAX_IDLE = 8                                          # pooled connections kept per process
_STUDENT = re.compile(r"[A-Za-z0-9_-]{1,%d}" % MAX_ID)
_SEPARATORS = re.compile(r"[\s\-_.]+")


# ---- refusals: each has a refused_<reason> sentence in ui/strings/refusals.py -----------------------

class ClassRefused(Refused):
    """Anything class mode refuses: a code, an answer, a class's settings, an unreachable database."""


class ClassNotFound(ClassRefused):
    """No class has this code: it never existed, was mistyped, expired or was ended."""

    def __init__(self, code: str, hours: float) -> None:
        shown = code if len(code) <= 20 else code[:20] + "…"
        super().__init__("class_not_found", f"There is no class {shown!r} on this server (wrong code, or the class "
                         f"ended: classes last {hours:g} hours).", code=shown, hours=f"{hours:g}")


class NoClassCode(ClassRefused):
    def __init__(self) -> None:
        super().__init__("class_no_code", "No class code was given.")


class AnswersClosed(ClassRefused):
    """The step was revealed, or the class has moved to another step."""

    def __init__(self) -> None:
        super().__init__("class_closed", "Answers to this step are closed: it was revealed or the class moved on.")


class SettingsTooBig(ClassRefused):
    def __init__(self, size: int) -> None:
        kb, limit = f"{size / 1000:,.0f}", f"{MAX_SETTINGS_BYTES / 1000:,.0f}"
        super().__init__("class_settings", f"The class's settings are {kb} KB; the limit is {limit} KB.",
                         kb=kb, limit=limit)


class ClassDatabaseDown(ClassRefused):
    def __init__(self) -> None:
        super().__init__("class_db", "Class mode cannot reach its database (GLASSBOX_CLASS_DB).")


# ---- values ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClassInfo:
    code: str
    lesson: str
    step: int                  # the step every student is shown
    revealed: bool             # True: the step's answer is shown and its answers are closed
    settings: dict[str, str]   # the teacher's model key, text, language...: what a student's page needs
    created_at: float          # Unix seconds
    expires_at: float          # created_at + GLASSBOX_CLASS_HOURS; the class and its answers go then
    version: int               # +1 on every show(): a student's page polls get() and redraws on change
    updated_at: float


@dataclass(frozen=True)
class Tally:
    step: int
    counts: dict[str, int]     # option -> students whose latest answer it is
    answered: int              # students who answered this step (each counted once)


# ---- codes and inputs ----------------------------------------------------------------------------------

def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """A code as typed or linked ("k7p x3m", "K7P-X3M", full-width "Ｋ７ＰＸ３Ｍ" from a Chinese input
    method) in its stored form ("K7PX3M"); refused when it cannot be one."""
    if not isinstance(code, str):
        raise TypeError(f"a class code is a string, not {type(code).__name__}")
    norm = _SEPARATORS.sub("", unicodedata.normalize("NFKC", code)).upper() if len(code) < 100 else "?"
    if not norm:
        raise NoClassCode()
    if len(norm) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in norm):
        raise ClassNotFound(code.strip(), ttl_hours())
    return norm


def ttl_hours() -> float:
    return limits.value("class_hours")


def _check_step(step: int) -> int:
    if isinstance(step, bool) or not isinstance(step, int):
        raise TypeError(f"a step is an int, not {type(step).__name__}")
    if not 0 <= step <= MAX_STEP:
        raise ValueError(f"a step is between 0 and {MAX_STEP}, not {step}")
    return step


def _check_text(name: str, value: str, limit: int) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, not {type(value).__name__}")
    if not value or len(value) > limit:
        raise ValueError(f"{name} must have 1 to {limit} characters, not {len(value)}")
    return value


def _settings_json(settings: Mapping[str, str]) -> str:
    if not isinstance(settings, Mapping):
        raise TypeError(f"settings must be a mapping of strings, not {type(settings).__name__}")
    for k, v in settings.items():
        _check_text("a settings key", k, MAX_ID)
        if not isinstance(v, str):
            raise TypeError(f"the setting {k!r} must be a string, not {type(v).__name__}")
    text = json.dumps(dict(settings), ensure_ascii=False, sort_keys=True)
    if len(text.encode("utf-8")) > MAX_SETTINGS_BYTES:
        raise SettingsTooBig(len(text.encode("utf-8")))
    return text


# ---- the SQL, written once (? placeholders) ------------------------------------------------------------

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS glassbox_classes (
        code TEXT PRIMARY KEY,
        lesson TEXT NOT NULL,
        step INTEGER NOT NULL,
        revealed INTEGER NOT NULL,
        settings TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL,
        version INTEGER NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS glassbox_answers (
        code TEXT NOT NULL REFERENCES glassbox_classes (code) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        student TEXT NOT NULL,
        choice TEXT NOT NULL,
        answered_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, step, student))""",
    "CREATE INDEX IF NOT EXISTS glassbox_classes_expiry ON glassbox_classes (expires_at)",
)
_COLUMNS = "code, lesson, step, revealed, settings, created_at, expires_at, version, updated_at"
SQL = {
    "insert": f"INSERT INTO glassbox_classes ({_COLUMNS}) VALUES (?, ?, ?, 0, ?, ?, ?, 1, ?) "
              "ON CONFLICT (code) DO NOTHING",
    "get": f"SELECT {_COLUMNS} FROM glassbox_classes WHERE code = ? AND expires_at > ?",
    "show": "UPDATE glassbox_classes SET step = ?, revealed = ?, version = version + 1, updated_at = ? "
            "WHERE code = ? AND expires_at > ?",
    # the check (current step, not revealed, not expired) and the upsert in one statement; {share} is
    # PostgreSQL's FOR SHARE, so a reveal committing meanwhile is seen (SQLite runs writers one at a time)
    "answer": "INSERT INTO glassbox_answers (code, step, student, choice, answered_at) "
              "SELECT code, step, ?, ?, ? FROM glassbox_classes "
              "WHERE code = ? AND step = ? AND revealed = 0 AND expires_at > ?{share} "
              "ON CONFLICT (code, step, student) DO UPDATE SET choice = excluded.choice, "
              "answered_at = excluded.answered_at",
    "tally": "SELECT choice, COUNT(*) FROM glassbox_answers WHERE code = ? AND step = ? GROUP BY choice",
    "end": "DELETE FROM glassbox_classes WHERE code = ?",
    "sweep": "DELETE FROM glassbox_classes WHERE expires_at <= ?",
}


@dataclass(frozen=True)
class Backend:
    """What differs between SQLite and PostgreSQL: the connection, the placeholder, two locks."""
    name: str                                 # "sqlite" | "postgresql"
    where: str                                # the file, or the URL without its password (for logs)
    connect: Callable[[], Any]                # -> a DB-API connection in autocommit mode
    placeholder: str                          # "?" | "%s"
    share: str                                # appended to the answer's SELECT
    begin_schema: tuple[str, ...]             # settings, then open the transaction that creates the schema
    down: Callable[[BaseException], bool]     # a driver error that means "the database cannot be reached"
    broken: Callable[[Any], bool]             # a connection that must not go back to the pool

    def sql(self, text: str) -> str:
        assert "%" not in text
        return text.replace("{share}", self.share).replace("?", self.placeholder)


def default_path() -> Path:
    """SQLite's file when GLASSBOX_CLASS_DB is unset: the user's cache folder (XDG_CACHE_HOME or
    ~/.cache)/glassbox/classes.sqlite3; a temporary folder where that cannot be created."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    for folder in (base / "glassbox", Path(tempfile.gettempdir()) / f"glassbox-{os.getuid()}"):
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            if os.access(folder, os.W_OK):
                return folder / "classes.sqlite3"
        except OSError:
            continue
    raise OSError(f"no folder for class mode's database can be created; set {DB_ENV} to a writable file path")


def sqlite_backend(path: str | Path) -> Backend:
    import sqlite3
    path = Path(path).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ClassDatabaseDown() from e

    def connect() -> sqlite3.Connection:
        # autocommit (isolation_level=None); timeout= is SQLite's busy timeout
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA foreign_keys = ON")      # per connection: the answers go with their class
        conn.execute("PRAGMA synchronous = NORMAL")   # with WAL: durable except for the last commits at power loss
        return conn

    def down(e: BaseException) -> bool:               # busy past the timeout, or the file cannot be opened
        return isinstance(e, sqlite3.OperationalError) and any(
            w in str(e) for w in ("locked", "unable to open", "disk I/O", "readonly"))

    # WAL: readers never wait for the writer (kept in the file); then one schema writer at a time
    return Backend("sqlite", str(path), connect, "?", "", ("PRAGMA journal_mode = WAL", "BEGIN IMMEDIATE"), down,
                   lambda conn: False)


def postgres_backend(url: str) -> Backend:
    import psycopg
    return Backend("postgresql", re.sub(r"//[^@/]*@", "//…@", url),
                   lambda: psycopg.connect(url, autocommit=True, connect_timeout=10),
                   "%s", " FOR SHARE",
                   # concurrent CREATE TABLE IF NOT EXISTS can collide in pg_type: one starter at a time
                   ("BEGIN", "SELECT pg_advisory_xact_lock(7150118)"),
                   lambda e: isinstance(e, (psycopg.OperationalError, psycopg.InterfaceError)),
                   lambda conn: conn.closed or conn.broken)


def backend_for(target: str | None) -> Backend:
    """The backend a GLASSBOX_CLASS_DB value names: a postgresql:// (or postgres://) URL, else a file path
    (empty: default_path())."""
    target = (target or "").strip()
    if target.startswith(("postgresql://", "postgres://")):
        return postgres_backend(target)
    return sqlite_backend(target or default_path())


# ---- the store -----------------------------------------------------------------------------------------

class ClassStore:
    def __init__(self, backend: Backend, *, clock: Callable[[], float] = time.time, ttl_s: float | None = None,
                 codes: Callable[[], str] = new_code) -> None:
        self.backend, self.clock, self.codes = backend, clock, codes
        self._ttl_s = ttl_s
        self._q = {name: backend.sql(text) for name, text in SQL.items()}
        self._idle: list[Any] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._last_sweep = float("-inf")
        self._create_schema()
        self.sweep()

    @classmethod
    def open(cls, target: str | None = None, **kw: Any) -> ClassStore:
        """A store on `target` (a file path or a postgresql:// URL; None: GLASSBOX_CLASS_DB)."""
        return cls(backend_for(os.environ.get(DB_ENV) if target is None else target), **kw)

    @property
    def ttl_s(self) -> float:
        return self._ttl_s if self._ttl_s is not None else ttl_hours() * 3600

    # -- the teacher
    def start(self, lesson: str, step: int, settings: Mapping[str, str]) -> ClassInfo:
        """A new class at `step` (not revealed) with a fresh code; also deletes expired classes."""
        _check_text("a lesson id", lesson, MAX_ID)
        _check_step(step)
        blob = _settings_json(settings)
        self.sweep()
        now = self.clock()
        for _ in range(20):                           # a collision is one in ~10^8 per class alive
            code = normalise_code(self.codes())
            if self._execute("insert", (code, lesson, step, blob, now, now + self.ttl_s, now)) == 1:
                return self.get(code)
        raise RuntimeError("no free class code after 20 tries")

    def show(self, code: str, step: int, revealed: bool) -> ClassInfo:
        """Moves the class to `step` and reveals it or not; every student's page follows."""
        code = normalise_code(code)
        _check_step(step)
        now = self.clock()
        if self._execute("show", (step, int(bool(revealed)), now, code, now)) != 1:
            raise ClassNotFound(code, self.ttl_s / 3600)
        return self.get(code)

    def end(self, code: str) -> None:
        """Deletes the class and every answer to it now."""
        self._execute("end", (normalise_code(code),))

    def tally(self, code: str, step: int) -> Tally:
        """How many students' latest answers to `step` chose each option."""
        code = self.get(code).code
        counts = dict(self._fetch("tally", (code, _check_step(step))))
        return Tally(step, {str(k): int(v) for k, v in sorted(counts.items())}, sum(counts.values()))

    # -- a student
    def get(self, code: str) -> ClassInfo:
        """The class with this code (as typed: case, spaces and dashes do not matter); refused when there is
        none or it has expired."""
        norm = normalise_code(code)
        if self.clock() - self._last_sweep > SWEEP_EVERY_S:
            self.sweep()
        rows = self._fetch("get", (norm, self.clock()))
        if not rows:
            raise ClassNotFound(norm, self.ttl_s / 3600)
        c, lesson, step, revealed, settings, created, expires, version, updated = rows[0]
        return ClassInfo(c, lesson, int(step), bool(revealed), json.loads(settings), float(created),
                         float(expires), int(version), float(updated))

    def answer(self, code: str, step: int, student: str, option: str) -> None:
        """Records `student`'s answer to `step`, replacing their earlier one; refused unless `step` is the
        class's current step and not yet revealed."""
        norm = normalise_code(code)
        _check_step(step)
        if not isinstance(student, str) or not _STUDENT.fullmatch(student):
            raise ValueError(f"a student id is 1 to {MAX_ID} letters, digits, '-' or '_'")
        _check_text("an answer", option, MAX_OPTION)
        now = self.clock()
        if self._execute("answer", (student, option, now, norm, step, now)) != 1:
            self.get(norm)                            # raises ClassNotFound when the class is gone
            raise AnswersClosed()

    # -- housekeeping
    def sweep(self) -> int:
        """Deletes the classes past their expiry with their answers; the number of classes deleted."""
        now = self.clock()
        self._last_sweep = now
        return self._execute("sweep", (now,))

    def _create_schema(self) -> None:
        """CREATE TABLE IF NOT EXISTS in one transaction that several starting processes take in turn."""
        def create(cur: Any) -> None:
            for statement in self.backend.begin_schema:
                cur.execute(statement)
            try:
                for statement in SCHEMA:
                    cur.execute(statement)
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")
        for attempt in range(5):
            try:
                return self._run(create)
            except ClassDatabaseDown as e:
                # SQLite answers "locked" without waiting where waiting could deadlock (a process
                # switching a new file to WAL while another creates the tables): try again
                if attempt == 4 or "locked" not in str(e.__cause__):
                    raise
                time.sleep(0.05 * (attempt + 1))

    # -- connections: a per-process pool, one thread per connection at a time
    def _execute(self, name: str, params: tuple) -> int:
        return self._run(lambda cur: (cur.execute(self._q[name], params), cur.rowcount)[1])

    def _fetch(self, name: str, params: tuple) -> list[tuple]:
        return self._run(lambda cur: (cur.execute(self._q[name], params), cur.fetchall())[1])

    def _run(self, work: Callable[[Any], Any]) -> Any:
        for attempt in (0, 1):
            conn = self._acquire()
            try:
                result = work(conn.cursor())
            except Exception as e:
                broken = self.backend.broken(conn)
                self._release(conn, keep=not broken)
                if not self.backend.down(e):
                    raise
                if broken and attempt == 0:   # a pooled connection the server dropped (restart, idle timeout)
                    continue
                raise ClassDatabaseDown() from e
            except BaseException:
                self._release(conn, keep=False)
                raise
            self._release(conn)
            return result
        raise AssertionError("unreachable")

    def _acquire(self) -> Any:
        with self._lock:
            if self._pid != os.getpid():              # a forked child: the parent's connections are not ours,
                _FORKED.extend(self._idle)            # and are never closed here (SQLite's locks would go too)
                self._idle, self._pid = [], os.getpid()
            if self._idle:
                return self._idle.pop()
        try:
            return self.backend.connect()
        except Exception as e:
            if self.backend.down(e):
                raise ClassDatabaseDown() from e
            raise

    def _release(self, conn: Any, keep: bool = True) -> None:
        with self._lock:
            if keep and len(self._idle) < MAX_IDLE and self._pid == os.getpid():
                self._idle.append(conn)
                return
        conn.close()

    def close(self) -> None:
        """Closes the pooled connections (a later call opens new ones)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


_FORKED: list[Any] = []
_STORES: dict[str, ClassStore] = {}
_STORES_LOCK = threading.Lock()


def store() -> ClassStore:
    """The process's store on GLASSBOX_CLASS_DB (one per setting, made on first use)."""
    target = os.environ.get(DB_ENV, "").strip()
    with _STORES_LOCK:
        if target not in _STORES:
            _STORES[target] = ClassStore.open(target)
        return _STORES[target]

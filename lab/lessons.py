"""Lesson files: parsing and checking, with no code executed and no UI.

A lesson is a TOML file under `lessons/` (or uploaded by a teacher): a title and summary in
English and Chinese, the model it suits, and 1-20 steps. Each step names a *kind* (what it
computes and draws: `ui/lessons/` registers them, each with a `KindSpec`), its texts in both
languages, an optional formula (one for both languages, or `formula.en` and `formula.zh`
when it holds words), an optional "what to notice" template filled with the
numbers the kind computes from the model (`{share:.0%}`), an optional question asked before
the figure (the kind computes the right answer), and the kind's parameters.

Why TOML: it is in the standard library (`tomllib`, nothing to install), it has comments
and multi-line strings for two languages of prose, it has no tags, anchors or references
(YAML's `!!python/object` is how data files end up running code), and its parse errors
name the line. Nothing in a lesson file is ever evaluated: templates are checked field by
field (names the kind declares, a short format spec, no attribute or index access) before
they are filled.

Errors are `LessonError` (a `models.errors.Refused`: the app shows its sentence in the
reader's language) naming the field and, where the file has one, the line.
"""
from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from models.errors import Refused

LANGS = ("en", "zh")
MAX_BYTES = 64 * 1024               # a 15-step lesson in two languages is ~12 KB
MAX_STEPS = 20
MAX_TITLE = 120                     # characters per language
MAX_TEXT = 1500                     # body, notice, question
MAX_FORMULA = 400
STEP_FIELDS = ("kind", "title", "body", "formula", "notice", "ask")
LESSON_FIELDS = ("id", "title", "summary", "model", "archs", "text", "steps", "version")
ARCHS = ("encoder", "decoder", "encoder-decoder")
ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
# a format spec a notice may use: fill/align, sign, width ≤ 2 digits, grouping, precision ≤ 2 digits, type
SPEC = re.compile(r"^(?:[<>^=]?[+\- ]?#?0?\d{0,2}[,_]?(?:\.\d{1,2})?[eEfFgGn%d]?)$")
LESSON_DIR = Path(__file__).resolve().parents[1] / "lessons"


class LessonError(Refused):
    """A lesson file that cannot be run; `code` says what is wrong (the app's sentence is
    `refused_lesson_<code>`), `where` the field (`steps[3].layer`), `line` its line or 0."""

    def __init__(self, code: str, message: str, *, where: str = "", line: int = 0, **values: Any) -> None:
        where_line = f"{where} (line {line})" if where and line else where or (f"line {line}" if line else "")
        super().__init__(f"lesson_{code}", f"{where_line}: {message}" if where_line else message,
                         where=where_line or "-", **values)
        self.code, self.where, self.line = code, where, line


@dataclass(frozen=True)
class Param:
    """A parameter a step kind takes. `type`: int | float | choice | layer | head | position | bool.
    layer/head/position are checked against the model the lesson runs on (negative = from
    the end, -1 = last); `auto` lets a lesson write "auto" (the kind picks, e.g. the
    strongest previous-token head)."""

    name: str
    type: str
    default: Any = None
    choices: tuple[str, ...] = ()
    lo: float | None = None
    hi: float | None = None
    auto: bool = False


@dataclass(frozen=True)
class KindSpec:
    """What a step kind takes and gives: its parameters, the facts (name -> "int", "num"
    or "text") a notice may name, and its question: None, "token" (click the token the model
    picks) or "choice" (one of `options`; the kind computes which is right)."""

    name: str
    params: tuple[Param, ...] = ()
    facts: Mapping[str, str] = field(default_factory=dict)
    question: str | None = None
    options: tuple[str, ...] = ()
    archs: tuple[str, ...] = ()     # the architectures it can run on; empty = any


@dataclass(frozen=True)
class Step:
    kind: str
    title: Mapping[str, str]
    body: Mapping[str, str]
    formula: Mapping[str, str] | None        # LaTeX per language (the same text for both when the file has one)
    notice: Mapping[str, str] | None
    ask: Mapping[str, str] | None
    params: Mapping[str, Any]
    line: int                        # line of its [[steps]] header (0 when unknown)


@dataclass(frozen=True)
class Lesson:
    id: str
    title: Mapping[str, str]
    summary: Mapping[str, str]
    model: str                       # the catalogue model it suits
    archs: tuple[str, ...]           # architectures it runs on (empty = any)
    steps: tuple[Step, ...]
    source: str = ""                 # file name, for messages
    text: Mapping[str, str] | None = None   # the text it starts on (a poem); never over the reader's own

    def fits(self, arch: str) -> bool:
        return not self.archs or arch in self.archs


# ---- reading ---------------------------------------------------------------------------------
def parse(data: bytes | str, kinds: Mapping[str, KindSpec], source: str = "") -> Lesson:
    """A lesson from the bytes of a TOML file, checked against the step kinds `kinds`.
    Raises LessonError naming the first problem (field and line)."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise LessonError("too_big", f"the file has {len(data):,} bytes; a lesson file may have {MAX_BYTES:,}",
                              size=f"{len(data):,}", limit=f"{MAX_BYTES:,}")
        if b"\x00" in data:
            raise LessonError("not_text", "the file is not text (it contains NUL bytes)")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise LessonError("not_text", f"the file is not UTF-8 text (byte {e.start})") from None
    else:
        text = data
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise LessonError("too_big", f"the text is over {MAX_BYTES:,} bytes", size=f"{len(text):,}",
                              limit=f"{MAX_BYTES:,}")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise LessonError("syntax", f"not valid TOML: {e}", line=int(m.group(1)) if m else 0,
                          detail=str(e).split(" (at")[0]) from None
    return _lesson(raw, text, kinds, source)


def load_file(path: Path, kinds: Mapping[str, KindSpec]) -> Lesson:
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    return parse(data, kinds, path.name)


def shipped(kinds: Mapping[str, KindSpec], folder: Path = LESSON_DIR) -> tuple[dict[str, Lesson], list[LessonError]]:
    """Every lesson file of `folder` by id, in file-name order (01-attention.toml, …), and
    the errors of the files that could not be read (one bad file never hides the others)."""
    out: dict[str, Lesson] = {}
    errors: list[LessonError] = []
    for path in sorted(folder.glob("*.toml")):
        try:
            lesson = load_file(path, kinds)
        except LessonError as e:
            e.source = path.name
            errors.append(e)
            continue
        except OSError as e:
            err = LessonError("unreadable", f"{path.name} cannot be read: {e.strerror}")
            err.source = path.name
            errors.append(err)
            continue
        if lesson.id in out:
            err = LessonError("duplicate_id", f"{path.name}: the id {lesson.id!r} is used by another lesson file",
                              where="id", id=lesson.id)
            err.source = path.name
            errors.append(err)
            continue
        out[lesson.id] = lesson
    return out, errors


def _lines(text: str) -> list[int]:
    """Line numbers (1-based) of every [[steps]] header."""
    return [i + 1 for i, line in enumerate(text.splitlines()) if re.match(r"^\s*\[\[\s*steps\s*\]\]", line)]


def _field_line(text: str, start: int, name: str) -> int:
    """The line of `name = …` in the table whose header is line `start` (1 = the top of the
    file, before any header); `start` when it is not found."""
    lines = text.splitlines()
    first = start if start > 1 else 0            # skip the table's own header line
    for i in range(first, len(lines)):
        if re.match(r"^\s*\[", lines[i]):
            break
        if re.match(rf"^\s*{re.escape(name)}\s*[=.]", lines[i]):
            return i + 1
    return start


def _lesson(raw: dict, text: str, kinds: Mapping[str, KindSpec], source: str) -> Lesson:
    for name in raw:
        if name not in LESSON_FIELDS:
            raise LessonError("unknown_field", f"unknown field {name!r}", where=name, line=_field_line(text, 1, name),
                              name=name, known=", ".join(LESSON_FIELDS))
    lid = _need(raw, "id", str, "id", text)
    if not ID.match(lid):
        raise LessonError("bad_id", "the id must be 1-40 lowercase letters, digits, - or _, starting with a letter",
                          where="id", line=_field_line(text, 1, "id"))
    title = _texts(raw, "title", "title", text, 1, MAX_TITLE)
    summary = _texts(raw, "summary", "summary", text, 1, MAX_TEXT)
    model = _need(raw, "model", str, "model", text)
    archs = raw.get("archs", [])
    if not isinstance(archs, list) or any(a not in ARCHS for a in archs):
        raise LessonError("bad_value", f"archs must be a list of {', '.join(ARCHS)}", where="archs",
                          line=_field_line(text, 1, "archs"), allowed=", ".join(ARCHS))
    steps_raw = raw.get("steps")
    if steps_raw is None:
        raise LessonError("no_steps", "the lesson has no [[steps]]")
    if not isinstance(steps_raw, list) or not all(isinstance(s, dict) for s in steps_raw):
        raise LessonError("wrong_type", "steps must be a list of tables ([[steps]])", where="steps",
                          line=_field_line(text, 1, "steps"), expected="[[steps]]")
    if not 1 <= len(steps_raw) <= MAX_STEPS:
        raise LessonError("step_count", f"a lesson has 1 to {MAX_STEPS} steps, this one {len(steps_raw)}",
                          n=len(steps_raw), limit=MAX_STEPS)
    example = _texts(raw, "text", "text", text, 1, MAX_TEXT) if "text" in raw else None
    lines = _lines(text)
    steps = tuple(_step(s, i, lines[i] if i < len(lines) else 0, text, kinds) for i, s in enumerate(steps_raw))
    return Lesson(lid, title, summary, model, tuple(archs), steps, source, example)


def _need(raw: dict, name: str, typ: type, where: str, text: str, start: int = 1) -> Any:
    if name not in raw:
        raise LessonError("missing", f"the field {name!r} is missing", where=where, line=start, name=name)
    value = raw[name]
    if not isinstance(value, typ) or isinstance(value, bool) and typ is not bool:
        raise LessonError("wrong_type", f"{where} must be {_type_name(typ)}", where=where,
                          line=_field_line(text, start, name), expected=_type_name(typ))
    return value


def _type_name(typ: type) -> str:
    return {str: "text", int: "a whole number", float: "a number", dict: "a table", bool: "true or false"}.get(typ, "?")


def _texts(raw: dict, name: str, where: str, text: str, start: int, limit: int,
           required: bool = True) -> dict[str, str] | None:
    """{en, zh} of a bilingual field: both languages, text, at most `limit` characters."""
    if name not in raw:
        if not required:
            return None
        raise LessonError("missing", f"the field {name!r} is missing", where=where, line=start, name=name)
    value = raw[name]
    line = _field_line(text, start, name)
    if not isinstance(value, dict):
        raise LessonError("wrong_type", f"{where} must be a table with en and zh", where=where, line=line,
                          expected="{ en = \"…\", zh = \"…\" }")
    for code in value:
        if code not in LANGS:
            raise LessonError("unknown_lang", f"{where} has an unknown language {code!r} (en, zh)", where=where,
                              line=line, lang=code)
    for code in LANGS:
        if code not in value:
            raise LessonError("missing_lang", f"{where} has no {code} text", where=where, line=line, lang=code)
        if not isinstance(value[code], str) or not value[code].strip():
            raise LessonError("wrong_type", f"{where}.{code} must be non-empty text", where=f"{where}.{code}",
                              line=line, expected="text")
        if len(value[code]) > limit:
            raise LessonError("too_long", f"{where}.{code} has {len(value[code])} characters (at most {limit})",
                              where=f"{where}.{code}", line=line, n=len(value[code]), limit=limit)
    return {code: value[code] for code in LANGS}


def _formula(value: Any, where: str, line: int) -> dict[str, str] | None:
    """A step's formula per language: LaTeX text for both, or a table with `en` and `zh`
    (a formula with words in it, \\text{...})."""
    if value is None:
        return None
    if isinstance(value, dict) and set(value) == set(LANGS):
        texts = [value[code] for code in LANGS]
    else:
        texts = [value] * len(LANGS)
    if not all(isinstance(f, str) and len(f) <= MAX_FORMULA for f in texts):
        raise LessonError("wrong_type", f"{where}.formula must be LaTeX text of at most {MAX_FORMULA} characters "
                          "(or formula.en and formula.zh)", where=f"{where}.formula", line=line, expected="LaTeX")
    return dict(zip(LANGS, texts))


def _step(raw: dict, i: int, line: int, text: str, kinds: Mapping[str, KindSpec]) -> Step:
    where = f"steps[{i + 1}]"
    kind = _need(raw, "kind", str, f"{where}.kind", text, line or 1)
    spec = kinds.get(kind)
    if spec is None:
        raise LessonError("unknown_kind", f"unknown step kind {kind!r}", where=f"{where}.kind",
                          line=_field_line(text, line or 1, "kind"), kind=kind[:40], known=", ".join(sorted(kinds)))
    title = _texts(raw, "title", f"{where}.title", text, line, MAX_TITLE)
    body = _texts(raw, "body", f"{where}.body", text, line, MAX_TEXT)
    notice = _texts(raw, "notice", f"{where}.notice", text, line, MAX_TEXT, required=False)
    ask = _texts(raw, "ask", f"{where}.ask", text, line, MAX_TEXT, required=False)
    formula = _formula(raw.get("formula"), where, _field_line(text, line, "formula"))
    if notice:
        for code in LANGS:
            check_template(notice[code], spec.facts, f"{where}.notice.{code}", _field_line(text, line, "notice"))
    if ask and spec.question is None:
        raise LessonError("no_question", f"step kind {kind!r} cannot ask a question", where=f"{where}.ask",
                          line=_field_line(text, line, "ask"), kind=kind)
    params = {}
    names = {p.name: p for p in spec.params}
    for name, value in raw.items():
        if name in STEP_FIELDS:
            continue
        if name not in names:
            raise LessonError("unknown_field", f"step kind {kind!r} takes no parameter {name!r}",
                              where=f"{where}.{name}", line=_field_line(text, line, name), name=name,
                              known=", ".join(names) or "-")
        params[name] = _param(names[name], value, f"{where}.{name}", _field_line(text, line, name))
    for p in spec.params:
        params.setdefault(p.name, p.default)
    return Step(kind, title, body, formula, notice, ask, params, line)


def _param(p: Param, value: Any, where: str, line: int) -> Any:
    def bad(expected: str) -> LessonError:
        return LessonError("bad_value", f"{where} must be {expected}", where=where, line=line, expected=expected)

    if p.auto and value == "auto":
        return "auto"
    if p.type in ("int", "layer", "head", "position"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad("a whole number" + (" or \"auto\"" if p.auto else ""))
        if abs(value) > 100_000:
            raise bad("a whole number between -100000 and 100000")
    elif p.type == "float":
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
            raise bad("a number")
        value = float(value)
    elif p.type == "bool":
        if not isinstance(value, bool):
            raise bad("true or false")
    elif p.type == "choice":
        if value not in p.choices:
            raise bad("one of " + ", ".join(p.choices))
    if p.type in ("int", "float") and ((p.lo is not None and value < p.lo) or (p.hi is not None and value > p.hi)):
        raise bad(f"between {p.lo:g} and {p.hi:g}")
    return value


# ---- templates -------------------------------------------------------------------------------
def check_template(text: str, facts: Mapping[str, str], where: str = "", line: int = 0) -> None:
    """A notice template may name the kind's facts with a short format spec, nothing more:
    no attribute or index access, no conversion, no nested fields, no wide padding."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as e:
        raise LessonError("bad_template", f"{where}: {e}", where=where, line=line, detail=str(e)) from None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in facts:
            raise LessonError("bad_template", f"{where} names {{{name}}}, which this step does not compute",
                              where=where, line=line, detail=f"{{{name[:40]}}}", known=", ".join(facts) or "-")
        if conversion or (spec and (not SPEC.match(spec) or "{" in spec)):
            raise LessonError("bad_template", f"{where}: the format {{{name}:{spec}}} is not allowed", where=where,
                              line=line, detail=f"{{{name}:{spec[:20]}}}", known=", ".join(facts))
        sample = {"int": 3, "num": 0.5}.get(facts[name], "x")
        try:
            format(sample, spec or "")
        except (ValueError, TypeError):
            raise LessonError("bad_template", f"{where}: {{{name}:{spec}}} does not fit a {facts[name]} value",
                              where=where, line=line, detail=f"{{{name}:{spec[:20]}}}",
                              known=", ".join(facts)) from None


def fill(text: str, facts: Mapping[str, Any]) -> str:
    """A checked template filled with the step's facts (`check_template` first)."""
    out = []
    for literal, name, spec, _ in string.Formatter().parse(text):
        out.append(literal)
        if name is not None:
            value = facts[name]
            out.append(format(value, spec or "") if not isinstance(value, str) or not spec else value)
    return "".join(out)


# ---- against a model -------------------------------------------------------------------------
def resolve_index(value: Any, n: int, p: Param, where: str) -> Any:
    """A layer/head/position parameter against a model with `n` of them: negative counts
    from the end; out of range raises LessonError naming the field."""
    if value == "auto" or value is None:
        return value
    i = value + n if value < 0 else value
    if not 0 <= i < n:
        raise LessonError(f"{p.type}_range", f"{where} is {value}, but the model has {n} {p.type}s", where=where,
                          value=value, n=n)
    return i


def check_model(lesson: Lesson, kinds: Mapping[str, KindSpec], n_layers: int, n_heads: int, arch: str) -> None:
    """Every layer and head a step names exists in the model (raises LessonError)."""
    for i, step in enumerate(lesson.steps):
        for p in kinds[step.kind].params:
            n = {"layer": n_layers, "head": n_heads}.get(p.type)
            if n is not None:
                resolve_index(step.params[p.name], n, p, f"steps[{i + 1}].{p.name}")


def ids(lessons: Sequence[Lesson]) -> list[str]:
    return [lesson.id for lesson in lessons]

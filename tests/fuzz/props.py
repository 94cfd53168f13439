"""The properties every door must keep, whatever it is given.

`run_door(door, call)` runs one example through a door and checks that
- it returns normally or raises `models.errors.Refused` (for the char-LM text, the
  task's own ValueError sentences too: `allow`); any other exception fails the example;
- a refusal has a reason, an English sentence without a temporary path or a Python type
  name (the user's own values, which the sentence quotes, are left out of that check),
  and a sentence in both UI languages (`ui.i18n.STRINGS["refused_" + reason]` formats
  with its values) that `ui.refusals.say` gives instead of the general one;
- nothing was opened for writing outside the temporary directory (the audit hook of tests/fuzz/fuzzing.py).
- the example's own peak memory (VmHWM, reset before it) grew by at most the model budget in
  force plus SLACK_MB.
"""
from __future__ import annotations

import os
import re
import tempfile
from typing import Any, Callable

from models.errors import Refused
from models.weights import safety
from tests.fuzz import fuzzing

# a Python type or exception name, a traceback (tests/unit/test_hostile_files.py's TYPE_NAMES, and a few more)
TYPE_NAMES = re.compile(r"\b[A-Z][a-zA-Z]*(Error|Exception)\b|Traceback|NoneType|(?<!a )\b(dict|list|tuple)\b(?! of)"
                        r"|<class |object at 0x|File \"|unhashable|\bstr\b|\bint\(|\bfloat\(")
CJK = re.compile(r"[\u3000-\u9fff\uac00-\ud7af]")


def _without_values(message: str, values: dict[str, Any], extra: tuple[str, ...] = ()) -> str:
    """The sentence a refusal's frame says: the user's own values (file, tensor and
    field names, shown values) cut out, longest first."""
    shown = {str(v) for v in values.values()}
    parts = sorted(shown | {repr(v)[1:-1] for v in shown} | {x for x in extra if x}, key=len, reverse=True)
    for part in parts:
        if part:
            message = message.replace(part, " ")
    return message


def check_refusal(e: Refused, temp_paths: tuple[str, ...] = (), given: str = "") -> None:
    """Everything a refusal must be (see the module's docstring). `temp_paths`: paths
    the example created, which no message may name; `given`: text of the input, which a
    message may quote."""
    from ui.i18n import STRINGS
    from ui.refusals import say

    message = str(e)
    assert isinstance(e.reason, str) and e.reason, f"a refusal without a reason: {message!r}"
    assert message.strip(), f"refusal {e.reason} has no message"
    for p in temp_paths:
        assert p not in message, f"refusal {e.reason} names a temporary path: {message!r}"
    if tempfile.gettempdir() + "/" not in given:
        assert tempfile.gettempdir() + "/" not in message, f"refusal {e.reason} names a temporary path: {message!r}"
    quoted = re.findall(r"'([^']*)'|\"([^\"]*)\"", message)            # what a sentence quotes: the user's text?
    escaped = repr(given)[1:-1]                                           # the input as a repr() quotes it
    ours = tuple(q for pair in quoted for q in pair if q and (q in given or q in escaped))
    frame = _without_values(message, e.values, ours)
    assert not TYPE_NAMES.search(frame), f"refusal {e.reason} names a Python type: {message!r}"
    assert not CJK.search(frame) and re.search(r"[A-Za-z]{3}", frame), f"not an English sentence: {message!r}"
    key = "refused_" + e.reason
    assert key in STRINGS, f"no sentence for the reason {e.reason!r} ({message!r})"
    assert set(STRINGS[key]) >= {"en", "zh"}, key
    for lang in ("en", "zh"):
        said = STRINGS[key][lang].format(**{k: str(v) for k, v in e.values.items()})
        assert said.strip(), (key, lang)
        assert not TYPE_NAMES.search(_without_values(said, e.values)), (key, lang, said)
    shown = say(e)
    assert shown.strip() and shown != STRINGS["refused_unexpected"]["en"], \
        f"say() gives the general sentence for {e.reason!r}: the strings do not take {sorted(e.values)}"


def check_plain_sentence(e: ValueError, temp_paths: tuple[str, ...] = ()) -> None:
    """A ValueError a door may raise as its own sentence (the char-LM task's checks):
    English, no type name, no temporary path."""
    message = str(e)
    assert message.strip() and not TYPE_NAMES.search(message), message
    for p in temp_paths:
        assert p not in message, message


def check_model_fits(model: Any, budget_mb: float) -> None:
    """A model a door accepted is within the model budget in force."""
    cfg = getattr(model, "cfg", None)
    assert cfg is not None, f"a door returned {type(model).__name__}, not a model"
    need = safety.model_bytes(cfg)
    assert need <= budget_mb * 1e6, f"accepted a model of {need / 1e6:.1f} MB, over the budget of {budget_mb} MB"


def run_door(door: str, call: Callable[[], Any], *, allow: tuple[type[BaseException], ...] = (),
             temp_paths: tuple[str, ...] = (), given: str = "", what: str = "", counted: bool = True) -> Any:
    """One example through a door: its result, or the refusal it raised (checked).
    `given`: the input as text (a message may quote it); `what`: a few words on the
    example, for the report of the largest memory growth per door; `counted`: False for
    a second call in the same example."""
    if counted:
        fuzzing.count(door)
    fuzzing.WRITES.clear()
    fuzzing.HIGH["mb"] = max(fuzzing.HIGH["mb"], fuzzing.peak_mb())       # the peak before this example
    exact = fuzzing.reset_peak()
    before = fuzzing.rss_mb()
    try:
        result = call()
    except Refused as e:
        result = e
        check_refusal(e, temp_paths, given)
    except allow as e:             # noqa: B030 - a tuple of exception types
        result = e
        check_plain_sentence(e, temp_paths)            # type: ignore[arg-type]
    finally:
        grown = 0.0
        if exact:                       # this example's own peak: the largest per door is reported
            peak = fuzzing.peak_mb()
            fuzzing.HIGH["mb"] = max(fuzzing.HIGH["mb"], peak)
            grown = peak - before
            if grown > fuzzing.BIGGEST.get(door, (0.0, ""))[0]:
                fuzzing.BIGGEST[door] = (round(grown, 1), (what or given or "?")[:160])
    assert not fuzzing.WRITES, f"{door} wrote outside {tempfile.gettempdir()}: {fuzzing.WRITES[:5]}"
    budget = float(os.environ.get("GLASSBOX_MODEL_BUDGET_MB", fuzzing.BUDGET_MB))
    assert grown <= budget + fuzzing.SLACK_MB, \
        f"{door}: one example grew the process by {grown:.0f} MB, over the budget {budget:.0f} MB + {fuzzing.SLACK_MB} MB"
    return result


def damaged(draw: Callable[[Any], Any], data: bytes) -> tuple[str, bytes]:
    """Inside a `@st.composite` strategy: a valid file's bytes as they are, cut short, with one
    byte flipped, or replaced by random bytes; returns (which, the bytes)."""
    from hypothesis import strategies as st

    how = draw(st.sampled_from(["valid", "truncated", "flipped", "random"]))
    if how == "truncated":
        data = data[: draw(st.integers(0, max(0, len(data) - 1)))]
    elif how == "flipped":
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    elif how == "random":
        data = draw(st.binary(max_size=2000))
    return how, data

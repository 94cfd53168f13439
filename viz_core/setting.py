"""A figure setting that depends on who is drawing: the palette, the text scale.

`Setting.get()` answers, in order: the innermost `with setting.use(value)` block of
this thread / asyncio task (a `contextvars.ContextVar`: two Streamlit sessions, each
running its script in its own thread, never see each other's block); else the
registered source (`set_source(fn)`, e.g. the app reading the caller's session, which
also holds in a fragment rerun that starts in a fresh thread); else the default.
Values are checked by `check` when set; a source's bad answer gives the default.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

T = TypeVar("T")


class Setting(Generic[T]):
    """One contextual value with a default (see the module docstring)."""

    def __init__(self, name: str, default: T, check: Callable[[T], T]) -> None:
        self.name, self.default, self.check = name, default, check
        self._var: ContextVar[T] = ContextVar(f"glassbox_{name}")
        self._source: list[Callable[[], T | None]] = []

    def get(self) -> T:
        """The value for the caller now."""
        value = self._var.get(None)
        if value is not None:
            return value
        if self._source:
            asked = self._source[0]()
            if asked is not None:
                try:
                    return self.check(asked)
                except ValueError:
                    pass
        return self.default

    @contextmanager
    def use(self, value: T) -> Iterator[T]:
        """``value`` inside the ``with`` block (this thread / task only); the previous
        value comes back on exit."""
        token = self._var.set(self.check(value))
        try:
            yield value
        finally:
            self._var.reset(token)

    def set_source(self, source: Callable[[], T | None] | None) -> Callable[[], T | None] | None:
        """Register ``source() -> value or None``, asked when no ``use`` block is active
        (process-wide, but it may answer per caller). ``None`` removes it. Returns the
        source it replaces (to put it back)."""
        previous = self._source[0] if self._source else None
        self._source.clear()
        if source is not None:
            self._source.append(source)
        return previous

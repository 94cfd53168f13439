"""Per-text results every session shares, held by size: one store for the recorded passes the
class pages read (attention maps, the FFN and residual internals, the model map, the instant
view's packed payload, head metrics, rollout).

`st.cache_data(max_entries=8)` did two things wrong for a class (issue 37):

- **a count, not a size.** Thirty students typing their own texts overflowed eight entries
  per function, so a student who went to the residual page and back found their attention
  pass evicted and ran it again (30 explorers: 0.059 s of server CPU per interaction, 0.046 s
  with room for every text). A count is also blind to length: eight 512-token passes of
  MiniLM's attention are 600 MB, eight 16-token ones 0.5 MB.
- **a copy per reader.** cache_data pickles the value once and unpickles it on every hit, so
  each rerun of each session copied its arrays (MB per rerun at 512 tokens).

`shared_result(topic)` keeps one least-recently-used store for every decorated function,
bounded by the bytes its values hold ($GLASSBOX_RESULTS_MB, default 512 MB: MiniLM on a
51-token text took 5.9 MB across the pages, on a 345-token one 75 MB), and hands every
session the same object. Concurrent first calls with one key wait for one build; a failed
build is not kept, nor one under way when the store is cleared. A value larger than the
whole budget is computed and returned, not kept.

The rule that makes sharing safe is the one of `figures.shared_figure`: **a shared result is
never changed after it is built.** The store makes every numpy array inside the value
read-only, so a view that tried to change one raises at once instead of changing it for
every session; lists and dicts inside are not frozen, and no view changes them (a view that
needs a changed array copies it first).
"""
from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import numpy as np

from models.limits import Limit

ENV = "GLASSBOX_RESULTS_MB"
DEFAULT_MB = 512

T = TypeVar("T")


# read as every limit is (models/limits.py); not in its LIMITS table: nobody is refused at it,
# the least recently used results are dropped
BUDGET = Limit(ENV, DEFAULT_MB, "MB", "per-text results every session shares (least recently used dropped)", "")


def budget_bytes() -> int:
    """The store's size in bytes: $GLASSBOX_RESULTS_MB (MB, 10^6 bytes), else 512 MB; an
    unreadable or non-positive value falls back to the default."""
    return int(BUDGET.value() * 1e6)


def nbytes(value: Any, _seen: set[int] | None = None) -> int:
    """About the memory `value` holds: numpy arrays' buffers (a view counts its own window),
    strings and bytes, and what dataclasses, dicts, lists, tuples and sets hold; anything
    else its `sys.getsizeof`. Each object is counted once."""
    seen = set() if _seen is None else _seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, (str, bytes, bytearray)):
        return sys.getsizeof(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sys.getsizeof(value) + sum(nbytes(getattr(value, f.name), seen) for f in dataclasses.fields(value))
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(nbytes(k, seen) + nbytes(v, seen) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sys.getsizeof(value) + sum(nbytes(v, seen) for v in value)
    return sys.getsizeof(value)


def freeze(value: Any, _seen: set[int] | None = None) -> Any:
    """Make every numpy array inside `value` read-only (in place); returns `value`."""
    seen = set() if _seen is None else _seen
    if id(value) in seen:
        return value
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            freeze(getattr(value, f.name), seen)
    elif isinstance(value, dict):
        for v in value.values():
            freeze(v, seen)
    elif isinstance(value, (list, tuple)):
        for v in value:
            freeze(v, seen)
    return value


class Store:
    """A least-recently-used map bounded by the bytes of its values (thread-safe)."""

    def __init__(self, budget: Callable[[], int] = budget_bytes) -> None:
        self._budget = budget
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}
        self._generation = 0                     # moved on by drop(): builds begun before it are not kept
        self.hits = self.misses = 0

    @property
    def size(self) -> int:
        """Bytes held now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def get_or_build(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value kept for `key`, or `build()`'s, kept if it fits (frozen either way)."""
        with self._lock:
            got = self._hit(key)
            if got is not None:
                return got[0]
            building = self._building.setdefault(key, threading.Lock())
        with building:                           # one build per key; the others wait for it
            with self._lock:
                got = self._hit(key)
                if got is not None:
                    return got[0]
                self.misses += 1
                generation = self._generation
            try:
                value = freeze(build())
                self._put(key, value, nbytes(value), generation)
                return value
            finally:
                with self._lock:
                    self._building.pop(key, None)

    def _hit(self, key: Hashable) -> tuple[Any, int] | None:
        got = self._entries.get(key)
        if got is not None:
            self._entries.move_to_end(key)
            self.hits += 1
        return got

    def _put(self, key: Hashable, value: Any, size: int, generation: int) -> None:
        budget = self._budget()
        with self._lock:
            if size > budget or generation != self._generation:
                return
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._entries[key] = (value, size)
            self._bytes += size
            while self._bytes > budget and self._entries:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped

    def drop(self, match: Callable[[Hashable], bool] | None = None) -> None:
        """Forget every entry (or those whose key `match`es). A build under way now is
        returned to its callers but not kept: it may read what is being forgotten."""
        with self._lock:
            self._generation += 1
            for key in [k for k in self._entries if match is None or match(k)]:
                self._bytes -= self._entries.pop(key)[1]


STORE = Store()


def shared_result(topic: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorate a function of hashable arguments whose result every session may share:
    results live in `STORE`, keyed by (`topic`, the arguments). The wrapper's `clear()`
    forgets this function's results (tests; a model whose weights changed)."""
    def deco(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def wrapper(*args: Hashable, **kwargs: Hashable) -> T:
            key = (topic, args, tuple(sorted(kwargs.items())))
            return STORE.get_or_build(key, lambda: fn(*args, **kwargs))

        wrapper.clear = lambda: STORE.drop(lambda k: k[0] == topic)     # type: ignore[attr-defined]
        return wrapper
    return deco


def clear() -> None:
    """Forget every shared result (tests; Streamlit's own "clear cache" does not reach here)."""
    STORE.drop()

"""Models loaded from a Hugging Face folder (or a hub download), shared by every session of
this server, within one server-wide budget.

A class of 30 loading the same 0.5 B folder must not ask the server for 30 copies of it. So a
loaded model lives here, once per `Key`: the folder's resolved path (a hub id resolves to its
snapshot folder, named by repository and commit), the size and modification time of its
config.json and weight files (a folder rewritten in place is loaded again, never served
stale), the dtype and the device. A session holds a `Handle` (a small weakly referenced
object kept in its session state, in its `trained.Holder`, like `server/sessions.py`'s tickets): as
long as one handle of a copy lives, the copy is *held*; a closed session drops its handles
with its state, and a model removed from a session's picker drops its handle with it.

`Registry.share(key, build, need)` returns a handle on the existing copy, or reserves `need`
bytes and builds one (outside the lock: another session loading something else is not kept
waiting; a second session asking for the same key while it is built waits for that build
instead of starting its own). When the copies already in memory plus `need` exceed the budget,
copies no session holds are dropped, least recently used first; when that is not enough the
load is refused with `LoadedBudgetFull`, a sentence naming the three numbers (the UI says it
in the reader's language: ui/strings/refusals.py, "refused_loaded_budget"). Nothing else
escapes: a failed build releases its reservation and raises its own error (a CheckpointError
for a bad folder), and the copies and sessions that were there stay as they were.

The budget (`budget_bytes`) is GLASSBOX_LOADED_BUDGET_MB when the server's owner sets it
(models/limits.py); unset, it is what the copies here take plus three quarters of the memory
still available (or the container's room) less the server's reserve, read at each load, so a
loaded model never takes the memory the passes and caches of the other sessions need.

No Streamlit here: the module is the registry only, unit tested by simulating sessions
(tests/unit/test_loaded_registry.py); ui/widgets/model_loader.py asks it for a model and
ui/serving/trained.py keeps the handle with the session's model.
"""
from __future__ import annotations

import copy
import gc
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import torch

from models import limits
from models.errors import LoadedBudgetFull

# with the budget read from the machine: the share of the memory still available (less the
# reserve, models/limits.py) that loaded models may take; the rest is for the passes, caches
# and sessions of everybody else
MACHINE_SHARE = 0.75


@dataclass(frozen=True)
class Key:
    """What makes two loads the same copy."""

    source: str                                # the folder's resolved path (a hub id: its snapshot folder)
    files: tuple[tuple[str, int, int], ...]    # (name, size, mtime_ns) of config.json and each weight file
    dtype: str                                 # "float32", "bfloat16", "float16"
    device: str                                # "cpu", "cuda", "cuda:1", "mps"


def fingerprint(folder: str | Path) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    """(resolved path, (name, size, mtime_ns) of config.json and every *.safetensors file):
    two loads of an unchanged folder agree; a file rewritten, added or removed changes it."""
    path = Path(folder).expanduser().resolve()
    files = []
    for f in sorted([path / "config.json", *path.glob("*.safetensors")]):
        try:
            st = f.stat()                        # follows the hub cache's symlinks to the blobs
        except OSError:
            continue
        files.append((f.name, int(st.st_size), int(st.st_mtime_ns)))
    return str(path), tuple(files)


def key_of(folder: str | Path, dtype: torch.dtype | str = torch.float32, device: str = "cpu") -> Key:
    """The key of `folder` loaded in `dtype` on `device`."""
    source, files = fingerprint(folder)
    return Key(source, files, str(dtype).removeprefix("torch."), str(device))


def model_bytes(model: torch.nn.Module) -> int:
    """Bytes of a model's parameters and buffers, each storage counted once (tied weights,
    views of one file)."""
    seen: dict[tuple[str, int], int] = {}
    for t in [*model.parameters(), *model.buffers()]:
        if t.is_meta:
            continue
        storage = t.untyped_storage()
        seen[(str(t.device), storage.data_ptr())] = storage.nbytes()
    return sum(seen.values())


def budget_bytes(held: int) -> int:
    """The budget for all loaded models, in bytes, when the copies in memory take `held`:
    GLASSBOX_LOADED_BUDGET_MB when the server's owner sets it; otherwise `held` plus
    MACHINE_SHARE of the memory still available less the reserve (models/limits.py); the
    limit's default where the machine's memory cannot be read."""
    lim = limits.LIMITS["loaded_mb"]
    if lim.is_set():
        return int(lim.value() * 1e6)
    room = lim.machine() if lim.machine is not None else None
    if room is None:
        return int(lim.default * 1e6)
    return held + int(max(0.0, room) * 1e6 * MACHINE_SHARE)


class Handle:
    """One session's hold on a shared copy: while a handle lives, its copy is not dropped.
    Keep it with the session's model (trained.Holder) and let it go with the session."""

    __slots__ = ("key", "model", "__weakref__")

    def __init__(self, key: Key, model: Any) -> None:
        self.key = key
        self.model = model

    def __repr__(self) -> str:
        return f"Handle({Path(self.key.source).name}, {self.key.dtype}, {self.key.device})"


@dataclass(eq=False)
class _Copy:
    key: Key
    nbytes: int                                  # reserved while it is built, then measured
    label: str
    model: Any = None                            # None while it is built
    holders: "weakref.WeakSet[Handle]" = field(default_factory=weakref.WeakSet)
    used: float = field(default_factory=time.monotonic)
    ready: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class CopyInfo:
    """One copy as the server's owner (and a test) sees it."""

    label: str
    source: str
    dtype: str
    device: str
    nbytes: int
    holders: int                                 # handles alive now (sessions holding it)
    building: bool


class Registry:
    """The loaded models of this server; thread-safe. `budget(held_bytes) -> bytes` is
    `budget_bytes` unless given (tests give their own)."""

    def __init__(self, budget: Callable[[int], int] | None = None) -> None:
        self._copies: dict[Key, _Copy] = {}
        self._lock = threading.Lock()
        self._budget = budget or budget_bytes

    # ---- asking for a model -------------------------------------------------------------
    def built(self, key: Key) -> bool:
        """Whether a built copy of `key` is in memory."""
        with self._lock:
            c = self._copies.get(key)
            return c is not None and c.model is not None

    def share(self, key: Key, build: Callable[[], Any], need: int, label: str = "") -> Handle:
        """A handle on the copy of `key`: the one in memory, or one `build()` makes now once
        `need` bytes fit the budget (dropping copies no session holds if need be). Raises
        LoadedBudgetFull when they do not fit, or whatever `build` raises."""
        while True:
            with self._lock:
                c = self._copies.get(key)
                if c is None:
                    self._make_room(int(need))
                    c = _Copy(key, int(need), label or Path(key.source).name)
                    self._copies[key] = c
                    break                                   # this thread builds it
                if c.model is not None:
                    return self._hold(c)
                pending = c.ready
            pending.wait()                                  # another session is building it: take theirs
        try:
            model = build()
        except BaseException:
            with self._lock:
                if self._copies.get(key) is c:
                    del self._copies[key]
            c.ready.set()
            raise
        with self._lock:
            c.model = model
            c.nbytes = model_bytes(model) or c.nbytes
            handle = self._hold(c)
        c.ready.set()
        return handle

    def on_device(self, handle: Handle, device: str) -> Handle:
        """A handle on the copy of `handle`'s model on another device (shared like the first:
        one copy per folder, dtype and device)."""
        key = replace(handle.key, device=str(device))
        if key == handle.key:
            return self.share(key, lambda: handle.model, 0)
        with self._lock:
            c = self._copies.get(handle.key)
            need = c.nbytes if c is not None else model_bytes(handle.model)

        def build() -> Any:
            return copy.deepcopy(handle.model).to(device).eval()

        return self.share(key, build, need, f"{Path(key.source).name} ({device})")

    def _hold(self, c: _Copy) -> Handle:
        handle = Handle(c.key, c.model)
        c.holders.add(handle)
        c.used = time.monotonic()
        return handle

    # ---- the budget ---------------------------------------------------------------------
    def _make_room(self, need: int) -> None:
        """Called with the lock held: make `need` bytes fit, or raise LoadedBudgetFull."""
        held = sum(c.nbytes for c in self._copies.values())
        budget = int(self._budget(held))
        if held + need <= budget:
            return
        gc.collect()                    # sessions closed while their state sat in a reference cycle
        for c in sorted(self._copies.values(), key=lambda c: c.used):
            if held + need <= budget:
                break
            if c.model is not None and not c.holders:
                del self._copies[c.key]
                held -= c.nbytes
        if held + need > budget:
            raise LoadedBudgetFull(need, held, budget)

    def drop_unheld(self) -> int:
        """Drop every copy no session holds now; returns the bytes let go."""
        gc.collect()
        with self._lock:
            gone = [c for c in self._copies.values() if c.model is not None and not c.holders]
            for c in gone:
                del self._copies[c.key]
        return sum(c.nbytes for c in gone)

    # ---- what is loaded -----------------------------------------------------------------
    def copies(self) -> list[CopyInfo]:
        """The copies in memory (and being built), oldest use first."""
        with self._lock:
            return [CopyInfo(c.label, c.key.source, c.key.dtype, c.key.device, c.nbytes, len(c.holders),
                             c.model is None) for c in sorted(self._copies.values(), key=lambda c: c.used)]

    def held_bytes(self) -> int:
        """Bytes of the copies in memory (held or not) and of the loads under way."""
        with self._lock:
            return sum(c.nbytes for c in self._copies.values())

    def clear(self) -> None:
        """Forget every copy (tests; the sessions' handles keep their models alive)."""
        with self._lock:
            self._copies.clear()


REGISTRY = Registry()


def in_memory(folder: str | Path, dtype: torch.dtype | str = torch.float32, device: str = "cpu") -> bool:
    """Whether the server holds a built copy of `folder` in `dtype` on `device` now (a load of
    it then adds nothing to memory)."""
    from models.device import pick_device

    return REGISTRY.built(key_of(folder, dtype, str(pick_device(device))))


def share(folder: str | Path, build: Callable[[], Any], need: int, dtype: torch.dtype | str = torch.float32,
          device: str = "cpu", label: str = "") -> Handle:
    """The server's copy of `folder` in `dtype` on `device` (built by `build()` if there is
    none yet; `need`: its bytes, from the config, before it exists): see `Registry.share`."""
    from models.device import pick_device

    return REGISTRY.share(key_of(folder, dtype, str(pick_device(device))), build, need, label)

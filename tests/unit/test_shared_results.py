"""ui/serving/shared_results.py: the per-text results every session shares, kept in one
least-recently-used store bounded by bytes, built once per key, frozen once built."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np
import pytest

from ui.serving import shared_results
from ui.serving.run_key import RunKey
from ui.serving.shared_results import Store, budget_bytes, freeze, nbytes, shared_result


@dataclass
class Pass:
    tokens: list[str]
    patterns: dict[str, np.ndarray] = field(default_factory=dict)


def test_budget_reads_the_environment(monkeypatch):
    monkeypatch.delenv(shared_results.ENV, raising=False)
    assert budget_bytes() == 512_000_000
    monkeypatch.setenv(shared_results.ENV, "64")
    assert budget_bytes() == 64_000_000
    for bad in ("lots", "0", "-5", "nan"):
        monkeypatch.setenv(shared_results.ENV, bad)
        assert budget_bytes() == 512_000_000, bad


def test_nbytes_counts_arrays_inside_containers_once():
    a = np.zeros((10, 100), np.float32)                 # 4,000 bytes
    p = Pass(["a", "b"], {"self": a, "again": a})       # the same array twice: counted once
    assert 4_000 <= nbytes(p) < 4_000 + 2_000
    assert nbytes(a[:5]) == 2_000                       # a view counts its own window
    assert nbytes([a, a]) < 4_000 + 200


def test_freeze_makes_every_array_read_only():
    p = freeze(Pass(["a"], {"self": np.ones(3)}))
    with pytest.raises(ValueError, match="read-only"):
        p.patterns["self"][0] = 2.0
    assert freeze([np.ones(2), (np.ones(2),)])[1][0].flags.writeable is False


def test_store_evicts_the_least_recently_used_by_bytes():
    store = Store(budget=lambda: 10_000)
    built = []

    def build(name: str, size: int):
        def f():
            built.append(name)
            return np.zeros(size, np.uint8)
        return f

    store.get_or_build("a", build("a", 4_000))
    store.get_or_build("b", build("b", 4_000))
    store.get_or_build("a", build("a", 4_000))          # a hit: "a" is now the most recent
    store.get_or_build("c", build("c", 4_000))          # 12,000 > 10,000: "b" goes, not "a"
    assert built == ["a", "b", "c"]
    assert store.size == 8_000 and len(store) == 2
    store.get_or_build("a", build("a", 4_000))
    store.get_or_build("b", build("b", 4_000))
    assert built == ["a", "b", "c", "b"]
    assert (store.hits, store.misses) == (2, 4)


def test_a_value_larger_than_the_budget_is_returned_not_kept():
    store = Store(budget=lambda: 1_000)
    store.get_or_build("small", lambda: np.zeros(500, np.uint8))
    big = store.get_or_build("big", lambda: np.zeros(5_000, np.uint8))
    assert big.shape == (5_000,) and not big.flags.writeable
    assert len(store) == 1 and store.size == 500          # the small one stays


def test_every_caller_gets_the_same_object_and_a_failed_build_is_not_kept():
    store = Store(budget=lambda: 10**6)
    first = store.get_or_build("k", lambda: Pass(["x"], {"self": np.ones(4)}))
    assert store.get_or_build("k", lambda: Pass([], {})) is first

    calls = []

    def fails():
        calls.append(1)
        raise RuntimeError("out of memory")

    for _ in range(2):
        with pytest.raises(RuntimeError):
            store.get_or_build("bad", fails)
    assert len(calls) == 2 and "bad" not in [k for k in store._entries]


def test_concurrent_first_calls_wait_for_one_build():
    store = Store(budget=lambda: 10**6)
    builds = []
    go = threading.Barrier(6)

    def slow():
        builds.append(threading.get_ident())
        time.sleep(0.2)
        return np.arange(10)

    got = []

    def reader():
        go.wait()
        got.append(store.get_or_build("same", slow))

    threads = [threading.Thread(target=reader) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(builds) == 1
    assert len(got) == 6 and all(g is got[0] for g in got)


def test_the_decorator_keys_on_topic_and_arguments_and_clears_its_own(monkeypatch):
    monkeypatch.setattr(shared_results, "STORE", Store(budget=lambda: 10**6))
    calls = []

    @shared_result("one")
    def one(key: RunKey, stack: str) -> np.ndarray:
        calls.append(("one", key.text, stack))
        return np.array([len(key.text)])

    @shared_result("two")
    def two(key: RunKey, stack: str) -> np.ndarray:
        calls.append(("two", key.text, stack))
        return np.array([0])

    k = RunKey("minilm", "cpu", "a b c")
    assert one(k, "self") is one(RunKey("minilm", "cpu", "a b c", ""), "self")    # an equal key hits
    one(k, "encoder")
    two(k, "self")
    assert calls == [("one", "a b c", "self"), ("one", "a b c", "encoder"), ("two", "a b c", "self")]
    one.clear()                                         # only its own topic
    two(k, "self")
    one(k, "self")
    assert calls[-1] == ("one", "a b c", "self") and len(calls) == 4
    shared_results.clear()
    two(k, "self")
    assert len(calls) == 5


def test_a_build_under_way_when_the_store_is_cleared_is_returned_not_kept():
    """A pass that began before clear() (an earlier reader, the old weights) is handed to
    its caller but not kept; the next caller builds anew."""
    store = Store(budget=lambda: 10**6)
    started, release = threading.Event(), threading.Event()

    def slow():
        started.set()
        release.wait(5)
        return np.arange(3)

    got = []
    th = threading.Thread(target=lambda: got.append(store.get_or_build("k", slow)))
    th.start()
    started.wait(5)
    store.drop()
    release.set()
    th.join()
    assert got[0].tolist() == [0, 1, 2] and len(store) == 0
    fresh = store.get_or_build("k", lambda: np.zeros(1))
    assert fresh.tolist() == [0.0] and len(store) == 1

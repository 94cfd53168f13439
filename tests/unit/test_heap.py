"""server/heap.py: the warmed heap frozen out of the garbage collector's full passes."""
from __future__ import annotations

import gc
import weakref

from server.heap import freeze_warm_heap


class Node:
    def __init__(self) -> None:
        self.other = None


def test_garbage_is_collected_first_and_the_survivors_are_frozen() -> None:
    kept = [Node() for _ in range(3)]                 # alive: frozen
    a, b = Node(), Node()                             # a cycle nobody holds: collected, not frozen
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    before = gc.get_freeze_count()
    try:
        frozen = freeze_warm_heap()
        assert gone() is None
        assert frozen == gc.get_freeze_count() > before
        assert all(not any(o is n for o in gc.get_objects()) for n in kept)   # out of the collector's lists
        t = Node()
        t.other = t                                   # made after: still collected as usual
        later = weakref.ref(t)
        del t
        gc.collect()
        assert later() is None
    finally:
        gc.unfreeze()
    assert any(o is kept[0] for o in gc.get_objects())

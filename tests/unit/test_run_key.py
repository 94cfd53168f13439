"""ui/serving/run_key.py: the frozen `RunKey` every cached per-text serving function takes
first, and that `st.cache_data` keys on it by value."""
from __future__ import annotations

import dataclasses

import pytest
import streamlit as st

from ui.serving import RunKey
from ui.sidebar import Selection


def test_of_reads_the_selection():
    sel = Selection(model_key="minilm", model_label="MiniLM", text="a b c", target="x", device="cpu",
                    random_weights=False, arch="encoder")
    assert RunKey.of(sel) == RunKey("minilm", "cpu", "a b c", "x")
    assert RunKey("minilm", "cpu", "a b c") == RunKey("minilm", "cpu", "a b c", "")


def test_frozen_and_hashable():
    key = RunKey("minilm", "cpu", "a b c")
    with pytest.raises(dataclasses.FrozenInstanceError):
        key.text = "other"                                  # type: ignore[misc]
    assert hash(key) == hash(RunKey("minilm", "cpu", "a b c"))


def test_cache_data_hits_on_an_equal_key_and_misses_on_another_text():
    calls = []

    @st.cache_data(max_entries=4, show_spinner=False)
    def cached(key: RunKey, stack: str) -> str:
        calls.append(key)
        return f"{key.text}/{stack}"

    cached.clear()
    assert cached(RunKey("minilm", "cpu", "a b c"), "self") == "a b c/self"
    assert cached(RunKey("minilm", "cpu", "a b c", ""), "self") == "a b c/self"   # an equal key, a new object
    assert len(calls) == 1
    assert cached(RunKey("minilm", "cpu", "a b d"), "self") == "a b d/self"       # another text
    assert cached(RunKey("minilm", "cpu", "a b c", "t"), "self") == "a b c/self"  # another target
    assert len(calls) == 3
    cached.clear()

"""The background warm-up (ui/warmup.py; its thread: server/warmup.py): it fills the caches
the attention page reads, GLASSBOX_WARMUP=0 turns it off, and a warm-up that fails is logged
and changes nothing for the pages."""
from __future__ import annotations

import logging

import pytest
import streamlit as st

import viz_core
from models.weights import zoo
from server import warmup as progress
from ui import warmup
from ui.serving import attention as serving_attention
from ui.serving import browser as serving_browser
from ui.serving import cache as serving_cache
from ui.serving import shared_results

from .helpers import ATTENTION, assert_ok, chart_ids, instant_data, open_app


@pytest.fixture
def fresh(monkeypatch):
    """Warm-up on, nothing cached: a server that has just started."""
    monkeypatch.delenv("GLASSBOX_WARMUP", raising=False)
    st.cache_data.clear()
    st.cache_resource.clear()
    shared_results.clear()
    progress.reset()
    yield
    progress.reset()


def _count(monkeypatch, module, name: str, fail: BaseException | None = None) -> list[tuple]:
    calls: list[tuple] = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        if fail is not None:
            raise fail
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_warmup_fills_the_cache_the_attention_page_reads(fresh, monkeypatch):
    loads = _count(monkeypatch, zoo, "load")
    passes = _count(monkeypatch, serving_cache, "record")
    packs = _count(monkeypatch, serving_attention, "pack_attention")   # the instant view's payload
    figures = _count(monkeypatch, viz_core, "model_view")               # the heads view's all-heads figure
    plans = _count(monkeypatch, serving_browser, "browser_tokenizer")  # the live form's plan
    sized = _count(monkeypatch, serving_browser, "weights_bytes")      # the plan's sizes and the int8 export's
    assert warmup.start()
    assert warmup.start()                          # once per process: no second thread
    state = progress.join(timeout=300)
    assert state.stage == "done", state.error
    assert set(state.seconds) == {"imports", "model", "first_run"}
    assert (len(loads), len(passes), len(packs), len(figures), len(plans)) == (1, 1, 1, 1, 1)   # the warm-up's own
    assert [a[1] for a in sized].count("int8") == 1                    # the int8 export sized once
    n_sized = len(sized)

    monkeypatch.setenv("GLASSBOX_WARMUP", "0")     # the page runs below must not warm again
    at = open_app(page=ATTENTION, direct=True)     # a first visit of /attention, default text and view
    assert_ok(at)
    assert at.radio(key="view__en").value == "instant"
    assert instant_data(at)["payload"]["n_layers"] == 6
    assert len(loads) == 1, "the page loaded the model again"
    assert len(passes) == 1, "the page ran its own forward pass"
    assert len(packs) == 1, "the page packed the instant view's payload again"
    assert not figures[1:], "the instant view built a plotly figure"
    assert len(plans) == 1, "the page planned the model's browser form again"
    assert len(sized) == n_sized, "the page sized the model's browser forms again"

    at.radio(key="view__en").set_value("heads")    # one click away: the heads view is warm too
    at.run()
    assert_ok(at)
    assert "head_map" in chart_ids(at)
    assert len(figures) == 1, "the page built the all-heads figure again"
    assert (len(loads), len(passes), len(packs)) == (1, 1, 1)


def test_warmup_off(fresh, monkeypatch):
    monkeypatch.setenv("GLASSBOX_WARMUP", "0")
    assert not progress.enabled()
    assert warmup.start() is False
    assert progress.state().stage == "off" and not progress.state().busy
    assert progress.wait_for("done", timeout=0.1)    # nothing to wait for


def test_a_failing_warmup_is_logged_and_the_page_says_what_it_always_says(fresh, monkeypatch, caplog):
    missing = FileNotFoundError("all-MiniLM-L6-v2 weights are missing")
    _count(monkeypatch, zoo, "load", fail=missing)
    with caplog.at_level(logging.WARNING, logger="glassbox.warmup"):
        assert warmup.start()
        state = progress.join(timeout=300)
    assert state.stage == "failed" and "model" in state.error
    assert any("warm-up failed" in r.getMessage() for r in caplog.records)

    monkeypatch.setenv("GLASSBOX_WARMUP", "0")
    at = open_app(page=ATTENTION, direct=True, errors_ok=True)
    assert [e.value for e in at.error] and all("Could not load" in e.value for e in at.error)


def test_the_server_start_commands_use_the_launcher():
    from cli import serve

    assert serve.command("127.0.0.1", 8501, "")[1:5] == ["-m", "ui.warmup", "run", "app.py"]
    makefile = (serve.ROOT / "Makefile").read_text()
    assert "-m ui.warmup run app.py" in makefile

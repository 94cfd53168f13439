"""Sessions loading the same folder through the "Load a model" panel share the server's one
copy (ui/serving/loaded.py); a load over the server-wide budget for loaded models gets its
sentence and leaves every session as it was."""
from __future__ import annotations

import pytest

from models.weights import tiny_hf
from ui.serving import loaded, trained

from .helpers import assert_no_exception, open_app, open_folded


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("shared")
    return tiny_hf.save("qwen2", root / "shared-qwen2"), tiny_hf.save("llama", root / "other-llama")


def load(at, source: str):
    open_folded(at, "_ml_open")                                         # the panel is built only while open
    at.text_input(key="_ml_source").input(source)
    at.button(key="_ml_load").click()
    at.run()
    assert_no_exception(at)
    return trained.find(at.selectbox(key="model").value)


def test_two_sessions_loading_one_folder_share_one_copy(folders):
    good, _ = folders
    first, second = open_app(page=None), open_app(page=None)
    a, b = load(first, str(good)), load(second, str(good))
    assert a is not None and b is not None and a.key != b.key          # each session its own picker entry
    assert a.model is b.model                                            # the same weights in memory
    copies = [c for c in loaded.REGISTRY.copies() if c.source == str(good.resolve())]
    assert len(copies) == 1 and copies[0].holders == 2
    badges = [c.value for c in second.sidebar.caption if "transformers" in c.value]
    assert badges and badges[0].startswith(":green[✓] matches transformers"), badges


def test_a_load_over_the_budget_for_loaded_models_is_refused_in_the_users_language(folders, monkeypatch):
    good, other = folders
    at = open_app({"lang": "中文"}, page=None)
    load(at, str(good))
    kept = at.selectbox(key="model").value
    n_options = len(at.selectbox(key="model").options)
    loaded.REGISTRY.drop_unheld()
    held = loaded.REGISTRY.held_bytes()
    monkeypatch.setenv("GLASSBOX_LOADED_BUDGET_MB", f"{(held + 1000) / 1e6}")   # no room beside what is held
    load(at, str(other))
    said = [w.value for w in at.warning if "未加载任何模型" in w.value]
    assert said and "已加载模型" in said[0] and "GLASSBOX_LOADED_BUDGET_MB" in said[0], said
    assert at.selectbox(key="model").value == kept and len(at.selectbox(key="model").options) == n_options
    load(at, str(good))                        # the folder already in memory still loads: it costs nothing more
    assert at.selectbox(key="model").value != kept


def test_a_folder_another_session_holds_loads_even_where_a_new_copy_would_not_fit(folders, monkeypatch):
    """The per-model budget asks what a load adds: nothing, when another session's copy is
    in memory (a class of 30 on a server with room for one copy)."""
    good, _ = folders
    first = open_app(page=None)
    assert load(first, str(good)) is not None
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "0.001")              # no new model of any size fits now
    second = open_app(page=None)
    holder = load(second, str(good))
    assert holder is not None and holder.model is trained.find(first.selectbox(key="model").value).model
    loaded.REGISTRY.drop_unheld()
    third = open_folded(open_app(page=None), "_ml_open")
    third.text_input(key="_ml_source").input(str(folders[1]))            # a folder nobody holds: refused
    third.button(key="_ml_load").click()
    third.run()
    assert_no_exception(third)
    assert any("budget" in w.value for w in third.warning), [w.value for w in third.warning]


def test_a_loaded_models_description_follows_the_language_switch(folders):
    good, _ = folders
    at = open_app(page=None)
    load(at, str(good))
    described = [c.value for c in at.sidebar.caption if "Hugging Face checkpoint" in c.value]
    assert described and "loaded in this session" in described[0], [c.value for c in at.sidebar.caption]
    at.radio(key="lang").set_value("中文")
    at.run()
    assert_no_exception(at)
    described = [c.value for c in at.sidebar.caption if "Hugging Face 检查点" in c.value]
    assert described and "本会话" in described[0] and "parameters" not in described[0], \
        [c.value for c in at.sidebar.caption]

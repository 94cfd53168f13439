"""ui/serving/loaded.py: the server's loaded models, one copy per folder, dtype and device for
every session, within one server-wide budget that drops copies no session holds and
otherwise refuses with a sentence naming the numbers."""
from __future__ import annotations

import gc
import json
import os
import threading
import weakref

import pytest
import torch

from models import limits
from models.errors import LoadedBudgetFull, Refused
from models.weights import pretrained, safety, tiny_hf
from ui.serving import loaded
from ui.strings.refusals import STRINGS

FAMILY = "llama"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("loaded")
    return tiny_hf.save(FAMILY, root / "a"), tiny_hf.save("qwen2", root / "b", seed=1)


class Loads:
    """Builds models as the load panel does, counting how many it built."""

    def __init__(self) -> None:
        self.built = 0
        self.lock = threading.Lock()

    def build(self, folder, dtype=torch.float32):
        def run():
            with self.lock:
                self.built += 1
            hf_config, _ = pretrained.check_folder(folder, dtype)
            return pretrained.from_weights(hf_config, pretrained.read_safetensors(folder), "cpu", dtype)
        return run


def need(folder, dtype=torch.float32) -> int:
    _, cfg = pretrained.check_folder(folder, dtype)
    return safety.model_bytes(cfg, dtype.itemsize)


class Session:
    """A browser session's state as Streamlit keeps it: a dict that holds the handles of the
    models in its picker, in a reference cycle (Streamlit's state objects often are)."""

    def __init__(self) -> None:
        self.state = {"self": None, "handles": []}
        self.state["self"] = self.state

    def load(self, registry, folder, loads, dtype=torch.float32):
        handle = registry.share(loaded.key_of(folder, dtype), loads.build(folder, dtype), need(folder, dtype))
        self.state["handles"].append(handle)
        return handle.model


def test_thirty_sessions_loading_one_folder_hold_one_copy(folders):
    a, _ = folders
    registry, loads = loaded.Registry(lambda held: 10**12), Loads()
    sessions = [Session() for _ in range(30)]
    models = [s.load(registry, a, loads) for s in sessions]
    assert loads.built == 1
    assert len({id(m) for m in models}) == 1
    assert len({m.embed.weight.data_ptr() for m in models}) == 1
    (copy,) = registry.copies()
    assert copy.holders == 30 and copy.dtype == "float32" and copy.device == "cpu" and not copy.building
    assert copy.nbytes == loaded.model_bytes(models[0]) > 0


def test_sessions_loading_at_the_same_moment_wait_for_one_build(folders):
    a, _ = folders
    registry, loads = loaded.Registry(lambda held: 10**12), Loads()
    sessions = [Session() for _ in range(30)]
    got, start = [None] * 30, threading.Barrier(30)

    def visit(i):
        start.wait()
        got[i] = sessions[i].load(registry, a, loads)

    threads = [threading.Thread(target=visit, args=(i,)) for i in range(30)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert loads.built == 1 and len({id(m) for m in got}) == 1
    assert registry.copies()[0].holders == 30


def test_another_dtype_or_a_changed_folder_is_another_copy(folders, tmp_path):
    a, _ = folders
    registry, loads = loaded.Registry(lambda held: 10**12), Loads()
    s = Session()
    f32 = s.load(registry, a, loads)
    bf16 = s.load(registry, a, loads, torch.bfloat16)
    assert loads.built == 2 and bf16 is not f32
    assert bf16.embed.weight.dtype == torch.bfloat16 and bf16.embed.weight.data_ptr() != f32.embed.weight.data_ptr()
    assert sorted(c.dtype for c in registry.copies()) == ["bfloat16", "float32"]
    # the same folder rewritten in place: a new copy, never the stale one
    import shutil

    moved = shutil.copytree(a, tmp_path / "moved")
    first = s.load(registry, moved, loads)
    doc = json.loads((moved / "config.json").read_text())
    doc["rms_norm_eps"] = 1e-3
    (moved / "config.json").write_text(json.dumps(doc))
    st = os.stat(moved / "config.json")
    os.utime(moved / "config.json", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    second = s.load(registry, moved, loads)
    assert second is not first and second.cfg.norm_eps == pytest.approx(1e-3)


def test_closing_sessions_releases_their_holds(folders):
    a, _ = folders
    registry, loads = loaded.Registry(lambda held: 10**12), Loads()
    sessions = [Session() for _ in range(5)]
    for session in sessions:
        session.load(registry, a, loads)
    del session
    assert registry.copies()[0].holders == 5
    del sessions[:3]                   # three tabs closed: Streamlit drops their state (a reference cycle)
    gc.collect()
    assert registry.copies()[0].holders == 2
    sessions.clear()
    gc.collect()
    assert registry.copies()[0].holders == 0
    assert registry.drop_unheld() > 0 and registry.copies() == []


def test_the_budget_drops_unheld_copies_then_refuses_with_the_numbers(folders):
    a, b = folders
    one = max(need(a), need(b))
    registry, loads = loaded.Registry(lambda held: int(1.5 * one)), Loads()     # room for one copy
    first = Session()
    model_a = first.load(registry, a, loads)
    gone = weakref.ref(model_a)
    del model_a
    first = None                                           # its session closed: the copy is unheld
    second = Session()
    second.load(registry, b, loads)                        # fits once the unheld copy is dropped
    gc.collect()
    assert [c.source for c in registry.copies()] == [str(b.resolve())]
    assert gone() is None                                  # its memory went with it
    third = Session()
    with pytest.raises(LoadedBudgetFull) as caught:        # b is held: a does not fit beside it
        third.load(registry, a, loads)
    e = caught.value
    assert e.reason == "loaded_budget" and isinstance(e, Refused)
    assert e.values == {"need": f"{need(a) / 1e6:,.0f}", "used": f"{registry.held_bytes() / 1e6:,.0f}",
                        "budget": f"{int(1.5 * one) / 1e6:,.0f}"}
    assert "GLASSBOX_LOADED_BUDGET_MB" in str(e)
    # the server stays up: the held copy still serves, a session asking for it gets it
    assert [c.holders for c in registry.copies()] == [1]
    assert third.load(registry, b, loads) is second.state["handles"][0].model
    assert loads.built == 2


def test_many_sessions_loading_more_models_than_the_budget_allows(folders, tmp_path):
    """Sessions loading different models at once: some get theirs, the others the sentence,
    nothing else escapes and the total never exceeds the budget."""
    a, b = folders
    extra = [tiny_hf.save(f, tmp_path / f) for f in ("gpt2", "mistral", "gemma")]
    sources = [a, b, *extra]
    budget = int(2.5 * max(need(f) for f in sources))
    assert sum(need(f) for f in sources) > budget          # not all of them fit
    registry, loads = loaded.Registry(lambda held: budget), Loads()
    sessions = [Session() for _ in range(10)]
    outcomes, errors = [], []

    def visit(i):
        try:
            sessions[i].load(registry, sources[i % len(sources)], loads)
            outcomes.append("loaded")
        except LoadedBudgetFull:
            outcomes.append("refused")
        except BaseException as e:  # noqa: BLE001 - the test counts anything else
            errors.append(e)

    threads = [threading.Thread(target=visit, args=(i,)) for i in range(10)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert outcomes.count("loaded") >= 2 and outcomes.count("refused") >= 1
    assert registry.held_bytes() <= budget and len(registry.copies()) < len(sources)
    assert all(c.holders >= 1 for c in registry.copies())  # what is in memory is what sessions hold


def test_a_failed_build_releases_its_reservation(folders):
    a, _ = folders
    registry = loaded.Registry(lambda held: need(a) + 1)

    def broken():
        raise RuntimeError("the disk went away")

    with pytest.raises(RuntimeError):
        registry.share(loaded.key_of(a), broken, need(a))
    assert registry.copies() == [] and registry.held_bytes() == 0
    assert Session().load(registry, a, Loads()) is not None            # the budget was given back


def test_the_budget_comes_from_the_operator_or_the_machine(monkeypatch):
    monkeypatch.setenv("GLASSBOX_LOADED_BUDGET_MB", "1500")
    assert loaded.budget_bytes(held=10**9) == 1_500_000_000
    monkeypatch.delenv("GLASSBOX_LOADED_BUDGET_MB")
    monkeypatch.setattr(limits, "available_memory_bytes", lambda: 5_024_000_000)     # 5,024 MB free
    room = (5_024 - limits.RESERVE_MB) * 1e6 * loaded.MACHINE_SHARE
    assert loaded.budget_bytes(held=0) == int(room)
    assert loaded.budget_bytes(held=2_000_000_000) == 2_000_000_000 + int(room)   # what copies hold counts back in
    monkeypatch.setattr(limits, "available_memory_bytes", lambda: None)            # unreadable: the default
    assert loaded.budget_bytes(held=0) == limits.LIMITS["loaded_mb"].default * 1e6
    monkeypatch.setattr(limits, "available_memory_bytes", lambda: 100_000_000)     # less than the reserve
    assert loaded.budget_bytes(held=0) == 0


def test_the_refusal_reads_in_both_languages():
    e = LoadedBudgetFull(need=2_400_000_000, used=3_100_000_000, budget=5_000_000_000)
    en = STRINGS["refused_loaded_budget"]["en"].format(**e.values)
    zh = STRINGS["refused_loaded_budget"]["zh"].format(**e.values)
    for said in (en, zh):
        assert "2,400" in said and "3,100" in said and "5,000" in said and "{" not in said
    assert "budget" in en and "预算" in zh and "。" in zh and "，" in zh
    from ui.refusals import say

    assert say(e) == en                                    # through the project's refusal path (English UI)


def test_a_handle_is_what_a_session_keeps():
    model = torch.nn.Linear(2, 2)
    registry = loaded.Registry(lambda held: 10**9)
    key = loaded.Key("/nowhere", (), "float32", "cpu")
    h = registry.share(key, lambda: model, 100)
    ref = weakref.ref(h)
    assert h.model is model and ref() is h and registry.copies()[0].holders == 1
    del h
    assert ref() is None and registry.copies()[0].holders == 0


def test_a_copy_on_another_device_is_shared_too(folders):
    """Holder.on(device) asks for the server's copy on that device: one for every session
    (the meta device stands in for a GPU here: nothing is allocated)."""
    a, _ = folders
    registry, loads = loaded.Registry(lambda held: 10**12), Loads()
    sessions = [Session() for _ in range(3)]
    first = [registry.share(loaded.key_of(a), loads.build(a), need(a)) for _ in sessions]
    moved = [registry.on_device(h, "meta") for h in first]
    assert loads.built == 1 and len({id(h.model) for h in moved}) == 1
    assert moved[0].model.embed.weight.is_meta and not first[0].model.embed.weight.is_meta
    assert sorted((c.device, c.holders) for c in registry.copies()) == [("cpu", 3), ("meta", 3)]
    assert registry.on_device(first[0], "cpu").model is first[0].model          # its own device: the same copy

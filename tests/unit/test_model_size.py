"""A model's size before it is loaded (models/weights/safety.py `size_summary`), the model
budget read from the machine (models/limits.py), loads in bfloat16/float16 with their
parity tolerance (models/weights/parity.py), and the hub check that follows HF_ENDPOINT
(models/weights/hub.py)."""
from __future__ import annotations

import socket
import time

import pytest
import torch

from models import limits
from models.config import TransformerConfig
from models.errors import ModelTooBig
from models.transformer import Transformer
from models.weights import parity
from models.weights import hub, pretrained, safety, tiny_hf
from models.weights.keytable import CheckpointError


# ---- the size summary ------------------------------------------------------------------------------
@pytest.mark.parametrize("cfg", [
    TransformerConfig(arch="decoder", vocab_size=100, d_model=64, n_layers=2, n_heads=4, n_kv_heads=2, d_ff=128,
                      max_len=32, positional="rope", norm="rmsnorm", activation="swiglu"),
    TransformerConfig(arch="encoder", vocab_size=90, d_model=32, n_layers=3, n_heads=4, d_ff=64, max_len=40,
                      positional="sinusoidal"),
], ids=["llama-like", "sinusoidal-encoder"])
def test_the_summary_counts_what_a_built_model_holds_in_every_dtype(cfg, monkeypatch):
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "1000")
    model = Transformer(cfg)
    size = safety.size_summary(cfg)
    assert size.n_params == model.n_params
    held = {d: sum(p.numel() for p in model.to(getattr(torch, d)).parameters()) * b
            + sum(x.numel() * x.element_size() for x in model.buffers() if x.is_floating_point())
            for d, b in safety.DTYPE_SIZES.items()}
    for dtype, nbytes in held.items():
        assert size.nbytes[dtype] == nbytes == safety.model_bytes(cfg, safety.DTYPE_SIZES[dtype]), dtype
    assert size.nbytes["float32"] == 2 * size.nbytes["bfloat16"] == 2 * size.nbytes["float16"]
    assert size.budget == 1_000_000_000 and not size.budget_from_machine
    assert all(size.fits.values())


def test_fits_is_per_dtype_against_the_budget_in_force(monkeypatch):
    n = 494_000_000                                          # Qwen2.5-0.5B's published count
    size = safety.size_of_count(n)
    assert size.nbytes == {"float32": 1_976_000_000, "bfloat16": 988_000_000, "float16": 988_000_000}
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "1500")  # between the two
    size = safety.size_of_count(n)
    assert size.fits == {"float32": False, "bfloat16": True, "float16": True}
    assert size.fits_in(torch.bfloat16) and not size.fits_in("float32")
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "500")
    assert not any(safety.size_of_count(n).fits.values())
    with pytest.raises(ValueError, match="float64"):
        safety.dtype_name(torch.float64)


# ---- the budget from the machine -----------------------------------------------------------------
def meminfo(tmp_path, available_kb: int | None):
    path = tmp_path / "meminfo"
    lines = ["MemTotal:       24731708 kB", "MemFree:         1000000 kB"]
    if available_kb is not None:
        lines.append(f"MemAvailable:   {available_kb} kB")
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """The budget read from files of this test's own: no cgroup, no operator's value."""
    monkeypatch.delenv("GLASSBOX_MODEL_BUDGET_MB", raising=False)
    monkeypatch.setattr(limits, "CGROUP_FILES", ((str(tmp_path / "nope.max"), str(tmp_path / "nope.current")),))

    def set_available(kb: int | None):
        monkeypatch.setattr(limits, "MEMINFO", meminfo(tmp_path, kb))
    return set_available


def test_the_model_budget_is_half_of_the_available_memory_less_a_reserve(machine):
    machine(8_000_000)                                        # 8,192 MB available
    assert limits.available_memory_bytes() == 8_000_000 * 1024
    want = (8_000_000 * 1024 / 1e6 - limits.RESERVE_MB) / 2   # 3,584 MB
    assert limits.value("model_mb") == pytest.approx(want)
    assert limits.megabytes("model_mb") == int(want * 1e6)
    size = safety.size_of_count(10)
    assert size.budget_from_machine and size.budget == int(want * 1e6)


def test_a_nearly_full_machine_still_takes_small_models(machine):
    machine(500_000)                                          # 512 MB available: less than the reserve
    assert limits.value("model_mb") == limits.MIN_MODEL_MB


def test_the_operator_s_value_wins_and_junk_falls_back_to_the_machine(machine, monkeypatch):
    machine(8_000_000)
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "750")
    assert limits.value("model_mb") == 750 and limits.LIMITS["model_mb"].is_set()
    assert not safety.size_of_count(10).budget_from_machine
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "lots")
    assert limits.value("model_mb") == pytest.approx((8_000_000 * 1024 / 1e6 - limits.RESERVE_MB) / 2)
    assert not limits.LIMITS["model_mb"].is_set()


def test_a_container_s_limit_caps_what_the_host_has_free(machine, monkeypatch, tmp_path):
    machine(16_000_000)                                       # the host: 16 GB free
    (tmp_path / "memory.max").write_text(f"{3 * 2**30}\n")    # the container: 3 GiB, 1 GiB used
    (tmp_path / "memory.current").write_text(f"{2**30}\n")
    monkeypatch.setattr(limits, "CGROUP_FILES", ((str(tmp_path / "memory.max"), str(tmp_path / "memory.current")),))
    assert limits.available_memory_bytes() == 2 * 2**30
    (tmp_path / "memory.max").write_text("max\n")             # cgroup v2: no limit
    assert limits.available_memory_bytes() == 16_000_000 * 1024


def test_without_proc_psutil_or_the_old_default(machine, monkeypatch):
    machine(None)                                             # no MemAvailable line
    psutil = pytest.importorskip("psutil")

    class VM:
        available = 4_000_000_000
    monkeypatch.setattr(psutil, "virtual_memory", lambda: VM())
    assert limits.available_memory_bytes() == 4_000_000_000
    assert limits.value("model_mb") == pytest.approx((4000 - limits.RESERVE_MB) / 2)
    import builtins
    real_import = builtins.__import__

    def no_psutil(name, *args, **kwargs):
        if name == "psutil":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_psutil)
    assert limits.available_memory_bytes() is None
    assert limits.value("model_mb") == limits.LIMITS["model_mb"].default == 2000


# ---- loading in bfloat16 / float16 -----------------------------------------------------------------
@pytest.fixture(scope="module")
def llama_folder(tmp_path_factory):
    return tiny_hf.save("llama", tmp_path_factory.mktemp("size") / "tiny-llama")


def test_the_budget_is_checked_in_the_dtype_chosen(llama_folder, monkeypatch):
    cfg = pretrained.config_from_hf(pretrained.read_hf_config(llama_folder))
    need32 = safety.model_bytes(cfg)
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", str(0.75 * need32 / 1e6))     # bfloat16 fits, float32 not
    with pytest.raises(ModelTooBig) as e:
        pretrained.load_folder(llama_folder, "cpu", torch.float32)
    assert e.value.need == need32
    model, _ = pretrained.load_folder(llama_folder, "cpu", torch.bfloat16)
    assert sum(p.numel() * p.element_size() for p in model.parameters()) == need32 // 2


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_a_half_precision_model_runs_in_its_dtype_and_matches_transformers_in_the_same_dtype(llama_folder, dtype):
    model, tok = pretrained.load_folder(llama_folder, "cpu", dtype)
    assert {p.dtype for p in model.parameters()} == {dtype}
    ids = tok.encode("the cat sat on the mat", max_len=model.cfg.max_len).ids
    out, trace = model.run_with_cache(ids, names=["blocks.0.attn.hook_pattern"])
    assert out.dtype == dtype and trace["blocks.0.attn.hook_pattern"].dtype == dtype
    p = parity.compare(llama_folder, model, tok, "the cat sat on the mat")
    assert p.ok and p.dtype == str(dtype).removeprefix("torch.")
    reference = parity.build_reference(llama_folder, model)
    assert parity.dtype_of(reference) == dtype
    with torch.no_grad():
        scale = float(reference(input_ids=torch.tensor([ids])).logits.float().abs().max())
    assert p.tolerance == pytest.approx(parity.HALF_EPS * torch.finfo(dtype).eps * scale)
    assert p.max_abs_diff <= 2 * torch.finfo(dtype).eps * scale               # measured: within 1 eps
    # a reference built for float32 (a cache's) is not used for a bfloat16 model: rebuilt in its dtype
    f32, _ = pretrained.load_folder(llama_folder, "cpu", torch.float32)
    again = parity.compare(llama_folder, model, tok, "the cat sat on the mat", reference=parity.build_reference(llama_folder, f32))
    assert again.ok and again.max_abs_diff == p.max_abs_diff


def test_float32_keeps_its_absolute_tolerance(llama_folder):
    model, tok = pretrained.load_folder(llama_folder)
    p = parity.compare(llama_folder, model, tok, "the cat sat")
    assert p.ok and p.dtype == "float32" and p.tolerance == parity.TOLERANCE == 1e-4
    assert "in float32" in p.sentence() and "tolerance 1.0e-04" in p.sentence()


def test_a_half_precision_model_that_differs_gets_a_cross(llama_folder):
    model, tok = pretrained.load_folder(llama_folder, "cpu", torch.bfloat16)
    with torch.no_grad():
        model.blocks[0].mlp.W_out.weight[0] += 0.5
    p = parity.compare(llama_folder, model, tok, "the cat sat on the mat")
    assert p.ok is False and p.max_abs_diff > p.tolerance


# ---- the hub, or the mirror HF_ENDPOINT names ------------------------------------------------------
@pytest.fixture
def listening():
    """A local TCP port that accepts connections (what a reachable hub looks like to the check)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    yield server.getsockname()[1]
    server.close()


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                                 # nothing listens there now
    return port


def test_the_endpoint_follows_hf_endpoint(monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "https://your-mirror.example/")
    assert hub.endpoint() == "https://your-mirror.example"
    monkeypatch.delenv("HF_ENDPOINT")
    from huggingface_hub import constants
    assert hub.endpoint() == constants.ENDPOINT.rstrip("/")


def test_the_reachability_check_asks_the_endpoint_s_host_and_port(monkeypatch, listening):
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{listening}")
    assert hub.reachable()
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    assert not hub.reachable()
    assert not hub.reachable("http://127.0.0.1:notaport")
    assert not hub.reachable("not a url")


def test_a_hub_id_with_an_unreachable_endpoint_is_refused_at_once(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    started = time.monotonic()
    with pytest.raises(CheckpointError, match="offline.*load that folder instead") as e:
        pretrained.load("someone/some-model")
    assert e.value.reason == "offline" and e.value.values["name"] == "someone/some-model"
    assert time.monotonic() - started < hub.TIMEOUT_S + 2       # no download was tried


def test_a_hub_model_is_sized_from_its_config_before_its_weights(monkeypatch, tmp_path, llama_folder):
    """load_hub reads config.json alone first (from the endpoint in force) and refuses a model
    over the budget in the chosen dtype before any weight is downloaded."""
    import shutil

    import huggingface_hub

    config_dir = tmp_path / "hub-config"
    config_dir.mkdir()
    shutil.copy(llama_folder / "config.json", config_dir / "config.json")
    asked: list[tuple] = []

    def fake_config(name, filename, **kwargs):
        asked.append(("config", name, filename, kwargs.get("endpoint")))
        return str(config_dir / filename)

    def fake_snapshot(name, **kwargs):
        asked.append(("snapshot", name, kwargs.get("endpoint"), tuple(kwargs.get("allow_patterns"))))
        return str(llama_folder)

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", fake_config)
    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_snapshot)
    monkeypatch.setattr(hub, "reachable", lambda address=None, timeout=3.0: True)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "https://your-mirror.example")
    cfg = pretrained.config_from_hf(pretrained.read_hf_config(llama_folder))
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", str(0.75 * safety.model_bytes(cfg) / 1e6))
    with pytest.raises(ModelTooBig):
        pretrained.load_hub("someone/tiny-llama", dtype=torch.float32)
    assert asked == [("config", "someone/tiny-llama", "config.json", "https://your-mirror.example")]
    model, tok = pretrained.load_hub("someone/tiny-llama", dtype=torch.bfloat16)
    assert asked[-1] == ("snapshot", "someone/tiny-llama", "https://your-mirror.example",
                         ("*.json", "*.safetensors", "*.txt"))
    assert next(model.parameters()).dtype == torch.bfloat16 and tok is not None


def test_a_gated_or_unknown_hub_model_gets_its_own_sentence(monkeypatch):
    import huggingface_hub
    from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError

    from ui.i18n import STRINGS

    monkeypatch.setattr(hub, "reachable", lambda address=None, timeout=3.0: True)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "https://your-mirror.example")
    # the hub's errors want an HTTP response to be built; made bare here, they are still what they are
    for error, reason in ((GatedRepoError.__new__(GatedRepoError), "hub_gated"),
                          (RepositoryNotFoundError.__new__(RepositoryNotFoundError), "hub_not_found"),
                          (OSError("connection reset"), "offline")):
        def fail(*args, _e=error, **kwargs):
            raise _e
        monkeypatch.setattr(huggingface_hub, "hf_hub_download", fail)
        with pytest.raises(CheckpointError) as e:
            pretrained.load_hub("someone/model")
        assert e.value.reason == reason and e.value.values["name"] == "someone/model"
        assert set(STRINGS[f"refused_{reason}"]) == {"en", "zh"}
        STRINGS[f"refused_{reason}"]["zh"].format(**e.value.values)          # every value its sentence names
    assert hub.refusal("x/y", RepositoryNotFoundError.__new__(RepositoryNotFoundError)).values["host"] == \
        "your-mirror.example"

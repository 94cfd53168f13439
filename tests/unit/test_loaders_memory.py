"""The memory budget and the out-of-memory fallback of the run gate, ui/serving/gate.py (no server: the
cached loaders run in Streamlit's bare mode)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch

from models import Transformer, TransformerConfig
from ui import serving as loaders
from ui.serving import RunKey, gate

ATTN = ["*.hook_pattern", "*.hook_mask"]


def test_budget_from_the_environment(monkeypatch):
    monkeypatch.delenv(loaders.BUDGET_ENV, raising=False)
    assert loaders.trace_budget_bytes() == loaders.DEFAULT_TRACE_BUDGET_MB * 10 ** 6
    monkeypatch.setenv(loaders.BUDGET_ENV, "64")
    assert loaders.trace_budget_bytes() == 64 * 10 ** 6
    monkeypatch.setenv(loaders.BUDGET_ENV, "lots")                  # unreadable: the default, not a crash
    assert loaders.trace_budget_bytes() == loaders.DEFAULT_TRACE_BUDGET_MB * 10 ** 6


def _big_encoder():
    """A 12-layer, d_model=768 encoder at 2,048 positions, known by its config and hook
    names only (the same names as a small model of the same layout): nothing allocated."""
    big = TransformerConfig(arch="encoder", vocab_size=30522, d_model=768, n_layers=12, n_heads=12, d_ff=3072,
                            max_len=2048, positional="learned", norm_position="post")
    small = Transformer(big.replace(vocab_size=8, d_model=8, n_heads=2, d_ff=8, max_len=4), device="cpu")
    return SimpleNamespace(cfg=big, hook_names=small.hook_names)


def test_2048_tokens_of_a_12_layer_768_model_are_cut_before_the_pass():
    model = _big_encoder()
    budget = loaders.DEFAULT_TRACE_BUDGET_MB * 10 ** 6
    kept, need = loaders.fit_budget(model, 2048, None, ATTN, budget)
    assert need == loaders.pass_bytes(model, 2048, None, ATTN) > 12 * 12 * 2048 ** 2 * 4     # > 2.4 GB
    assert 1 <= kept < 2048
    assert loaders.pass_bytes(model, kept, None, ATTN) <= budget < loaders.pass_bytes(model, kept + 1, None, ATTN)
    everything, _ = loaders.fit_budget(model, 2048, None, None, budget)
    assert everything < kept                                          # all hooks: fewer tokens fit


def test_a_model_too_big_for_one_token_is_refused():
    with pytest.raises(loaders.TraceBudgetError, match="budget"):
        loaders.fit_budget(_big_encoder(), 10, None, ATTN, budget=1000)


def test_a_text_over_the_budget_is_cut_with_the_numbers(monkeypatch):
    text = "the cat sat on the mat " * 20
    full = loaders.attention_data(RunKey("minilm", "cpu", text), 10 ** 9)
    n = len(full.tokens)
    model, _ = loaders.load_model("minilm", "cpu")
    budget = loaders.pass_bytes(model, n // 2, None, ATTN)
    cut = loaders.attention_data(RunKey("minilm", "cpu", text), budget)
    assert full.run.n_kept == n and not full.run.budget_cut
    assert cut.run.budget_cut and cut.run.n_asked == n and cut.run.n_kept == len(cut.tokens) == n // 2
    assert cut.run.need_bytes == full.run.need_bytes > budget
    assert cut.tokens == full.tokens[: n // 2]
    assert cut.patterns["self"].shape == (6, 12, n // 2, n // 2)
    # the held bytes are the formula: 6 x 12 x n² x 4 B of patterns plus one shared bool mask
    assert full.run.trace_bytes == 6 * 12 * n * n * 4 + n * n


class _Fake:
    """A stand-in model: records which device and token count each attempt used."""

    def __init__(self, device: str) -> None:
        self.device = device


def test_gpu_out_of_memory_falls_back_to_the_cpu(monkeypatch):
    models = {"cuda": _Fake("cuda"), "cpu": _Fake("cpu")}
    monkeypatch.setattr(gate, "load_model", lambda key, device: (models[device], None))
    calls = []

    def attempt(model, n):
        calls.append((model.device, n))
        if model.device == "cuda":
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return "ok"

    assert loaders.run_with_fallback("m", "cuda", 100, attempt) == ("ok", "cpu", 100, "cpu")
    assert calls == [("cuda", 100), ("cpu", 100)]


def test_out_of_memory_on_the_cpu_tries_shorter_inputs(monkeypatch):
    monkeypatch.setattr(gate, "load_model", lambda key, device: (_Fake(device), None))

    def attempt(model, n):
        if n > 30:
            raise torch.OutOfMemoryError("out of memory")
        return n

    assert loaders.run_with_fallback("m", "cpu", 100, attempt) == (25, "cpu", 25, "shorter")
    with pytest.raises(loaders.OutOfMemory):
        loaders.run_with_fallback("m", "cpu", 100, lambda m, n: (_ for _ in ()).throw(torch.OutOfMemoryError()))
    with pytest.raises(KeyError):                                     # not memory: goes up unchanged
        loaders.run_with_fallback("m", "cpu", 100, lambda m, n: {}["x"])


def test_cpu_allocation_failure_counts_as_out_of_memory():
    assert loaders.is_oom(RuntimeError("[enforce fail at alloc_cpu.cpp:116] DefaultCPUAllocator: can't allocate memory"))
    assert loaders.is_oom(torch.OutOfMemoryError("x"))
    assert not loaders.is_oom(RuntimeError("shape mismatch"))


def test_simulated_oom_in_the_forward_gives_a_shorter_real_trace(monkeypatch):
    """The real recording path with the model's forward raising out of memory above half the text."""
    model, tok = loaders.load_model("custom:gpt", "cpu")
    text = "a long enough sentence, with more than twenty word pieces, for this small toy model to read"
    n = len(loaders.encode(tok, model, text).ids)
    assert n >= 20
    real = Transformer.forward

    def forward(self, ids, *args, **kw):
        if self is model and torch.as_tensor(ids).shape[-1] > n // 2:
            raise torch.OutOfMemoryError("simulated: out of memory")
        return real(self, ids, *args, **kw)

    monkeypatch.setattr(Transformer, "forward", forward)
    rec = loaders.record(RunKey("custom:gpt", "cpu", text), ATTN, 10 ** 9)
    ran, tok, enc, trace, info = rec.model, rec.tokenizer, rec.source, rec.trace, rec.info
    assert ran is model and info.fallback == "shorter" and info.device == "cpu"
    assert info.n_kept == n // 2 and info.n_asked == n
    assert enc.tokens == loaders.encode(tok, model, text).tokens[: info.n_kept]
    assert trace.pattern(0).shape[-1] == info.n_kept == len(trace.tokens)


def test_layerwise_head_metrics_equal_the_all_layers_ones():
    import numpy as np

    from lab import attention

    rng = np.random.default_rng(0)
    p = rng.random((3, 2, 9, 9)).astype(np.float32)
    mask = np.tril(np.ones((9, 9), bool))
    p = np.where(mask, p, 0)
    p /= p.sum(-1, keepdims=True)
    tokens = [str(i) for i in range(9)]
    once = attention.head_metrics(p, tokens, mask=np.broadcast_to(mask, p.shape))
    per_layer = attention.layerwise_head_metrics(p, tokens, mask)
    assert set(once) == set(per_layer)
    for name in once:
        np.testing.assert_allclose(per_layer[name], once[name], rtol=1e-12, atol=0)

"""Trace memory: the byte formula (models/memory.py) against what a trace really holds,
float16 traces, where recorded tensors are kept."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from models import Transformer, TransformerConfig
from lab.memory import (attention_map_bytes, estimate_trace_bytes, format_formula, max_tokens_within,
                           working_bytes)

CONFIGS = [
    dict(arch=a, positional=p, norm=nm, activation=act, norm_position=pos, n_kv_heads=kv)
    for a, p, nm, act, pos, kv in [
        ("decoder", "sinusoidal", "layernorm", "relu", "pre", None),
        ("decoder", "rope", "rmsnorm", "swiglu", "pre", 2),
        ("decoder", "alibi", "dyt", "gelu", "post", 1),
        ("encoder", "learned", "layernorm", "gelu", "post", None),
        ("encoder", "relative", "rmsnorm", "relu", "pre", None),
        ("encoder-decoder", "sinusoidal", "layernorm", "relu", "post", None),
        ("encoder-decoder", "rope", "rmsnorm", "swiglu", "pre", 2),
        ("encoder-decoder", "relative", "dyt", "relu", "pre", None),
        ("decoder", "none", "layernorm", "relu", "pre", None),
    ]
]


def _model(**kw) -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(vocab_size=40, d_model=32, n_layers=2, n_heads=4, d_ff=48, max_len=64, **kw),
                       device="cpu").eval()


def _run(model: Transformer, n: int, n_tgt: int, batch: int = 1, **kw):
    ids = torch.arange(1, n + 1).repeat(batch, 1) % 40
    tgt = (torch.arange(1, n_tgt + 1).repeat(batch, 1) % 40) if model.cfg.arch == "encoder-decoder" else None
    return model.run_with_cache(ids, tgt, **kw)


@pytest.mark.parametrize("kw", CONFIGS, ids=lambda kw: "-".join(str(v) for v in kw.values()))
@pytest.mark.parametrize("batch", [1, 3])
def test_estimate_equals_every_recorded_byte(kw, batch):
    model = _model(**kw)
    n_tgt = 5 if model.cfg.arch == "encoder-decoder" else None
    _, trace = _run(model, 9, n_tgt or 0, batch)
    est = estimate_trace_bytes(model.cfg, model.hook_names(), 9, n_tgt, batch=batch)
    assert est == trace.logical_nbytes
    assert 0 < trace.nbytes <= trace.logical_nbytes
    for names in (["*.hook_pattern"], ["*hook_resid_*", "*mlp.hook_*"], ["*.hook_mask"]):
        _, part = _run(model, 9, n_tgt or 0, batch, names=names)
        assert estimate_trace_bytes(model.cfg, model.hook_names(), 9, n_tgt, names, batch=batch) == part.logical_nbytes


def test_attention_maps_are_layers_heads_n_squared_bytes():
    model = _model(arch="encoder", positional="learned")
    for n in (1, 7, 30):
        _, trace = _run(model, n, 0, names=["*.hook_pattern"])
        assert trace.nbytes == trace.logical_nbytes == 2 * 4 * n * n * 4 == attention_map_bytes(model.cfg, n)
        _, half = _run(model, n, 0, names=["*.hook_pattern"], dtype=torch.float16)
        assert half.nbytes == 2 * 4 * n * n * 2 == attention_map_bytes(model.cfg, n, torch.float16)


def test_nbytes_counts_shared_tensors_once():
    model = _model(arch="decoder")
    _, trace = _run(model, 6, 0, names=["blocks.0.hook_resid_post", "blocks.1.hook_resid_pre", "*.hook_mask"])
    one = 6 * 32 * 4
    # resid_post of block 0 IS resid_pre of block 1; both layers share one [1, 1, 6, 6] bool mask
    assert trace["blocks.0.hook_resid_post"].data_ptr() == trace["blocks.1.hook_resid_pre"].data_ptr()
    assert trace.logical_nbytes == 2 * one + 2 * 36
    assert trace.nbytes == one + 36


def test_nbytes_of_a_position_table_slice_is_the_slice():
    model = _model(arch="encoder", positional="learned")          # hook_pos_embed: a view of the [64, 32] table
    _, trace = _run(model, 5, 0, names=["hook_pos_embed"])
    assert trace.nbytes == 5 * 32 * 4


def test_float16_trace_halves_the_bytes_and_keeps_the_values():
    model = _model(arch="decoder", positional="rope")
    out32, t32 = _run(model, 12, 0)
    out16, t16 = _run(model, 12, 0, dtype=torch.float16)
    assert torch.equal(out32, out16)                               # the forward runs at full precision
    for name in t32:
        a, b = t32[name], t16[name]
        assert b.dtype == (torch.float16 if a.is_floating_point() else a.dtype), name
        np.testing.assert_allclose(t16.numpy(name), t32.numpy(name), rtol=2e-3, atol=2e-3)
        assert t16.numpy(name).dtype == (np.float32 if a.is_floating_point() else t32.numpy(name).dtype)
    floats = sum(t.numel() * 4 for t in t32._tensors.values() if t.is_floating_point())
    assert t32.logical_nbytes - t16.logical_nbytes == floats // 2
    assert estimate_trace_bytes(model.cfg, model.hook_names(), 12, dtype=torch.float16) == t16.logical_nbytes
    p = t16.numpy("blocks.1.attn.hook_pattern", batch=0)
    np.testing.assert_allclose(p.sum(-1), 1.0, atol=5e-3)


def test_a_trace_cannot_be_stored_as_integers():
    with pytest.raises(ValueError, match="floating-point"):
        _run(_model(), 4, 0, dtype=torch.int8)


def test_store_device_moves_as_recorded_and_default_keeps_the_model_device():
    model = _model(arch="decoder")
    _, kept = _run(model, 4, 0)
    assert kept.devices == {str(model.device)}
    _, moved = _run(model, 4, 0, store_device="meta")             # any device other than the model's
    assert moved.devices == {"meta"}
    assert moved["blocks.0.attn.hook_pattern"].shape == kept["blocks.0.attn.hook_pattern"].shape
    _, cpu = _run(model, 4, 0, store_device="cpu")
    assert cpu.devices == {"cpu"}
    np.testing.assert_array_equal(cpu.numpy("blocks.0.hook_resid_post"), kept.numpy("blocks.0.hook_resid_post"))


def test_numpy_copies_only_the_row_asked_for_to_the_cpu():
    model = _model(arch="decoder")
    _, trace = _run(model, 4, 0, batch=3)
    row = trace.numpy("blocks.0.attn.hook_pattern", batch=2)
    assert row.shape == (4, 4, 4) and row.dtype == np.float32


def test_formula_text_and_the_big_configurations():
    minilm = TransformerConfig(arch="encoder", d_model=384, n_layers=6, n_heads=12, d_ff=1536, max_len=512)
    assert format_formula(minilm, 512) == "6 × 12 × 512² × 4 B = 75.5 MB"
    big = TransformerConfig(arch="encoder", d_model=768, n_layers=12, n_heads=12, d_ff=3072, max_len=2048)
    assert attention_map_bytes(big, 2048) == 12 * 12 * 2048 ** 2 * 4 == 2_415_919_104
    assert working_bytes(big, 2048) == 4 * (3 * 12 * 2048 ** 2 + 4 * 2048 * 3072)


def test_max_tokens_within():
    need = lambda m: 10 * m * m                                      # noqa: E731
    assert max_tokens_within(1000, need, 8) == 8
    assert max_tokens_within(1000, need, 50) == 10
    assert max_tokens_within(999, need, 50) == 9
    assert max_tokens_within(5, need, 50) == 0
    for budget, n in itertools.product((0, 10, 95, 4000), (1, 2, 33)):
        m = max_tokens_within(budget, need, n)
        assert m == max([k for k in range(n + 1) if need(k) <= budget], default=0)


def test_bad_counts_are_refused():
    model = _model()
    with pytest.raises(ValueError):
        estimate_trace_bytes(model.cfg, model.hook_names(), -1)

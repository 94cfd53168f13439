"""Generation: the KV cache equals full recomputation; greedy, sampling, beam search."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from models import MaskSpec, Transformer, TransformerConfig
from lab import generate, kv, repetition
from models.kv_cache import KVCache, cache_is_exact

POSITIONALS = ("none", "sinusoidal", "learned", "rope", "alibi", "relative")


def make(**kw) -> Transformer:
    torch.manual_seed(0)
    base = dict(arch="decoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=64)
    base.update(kw)
    return Transformer(TransformerConfig(**base), device="cpu").eval()


def incremental_logits(model: Transformer, ids: list[int], prompt: int, src: list[int] | None = None):
    """Logits of every position after the prompt, feeding the prompt then one token at a
    time through the cache; also the cache. -> ([n, vocab], cache)"""
    cache = KVCache.empty(model.cfg)
    outs = []
    with torch.inference_mode():
        chunks = [ids[:prompt]] + [[i] for i in ids[prompt:]]
        for chunk in chunks:
            out = model(src, chunk, cache=cache) if src is not None else model(chunk, cache=cache)
            outs.append(out[0])
    return torch.cat(outs), cache


@pytest.mark.parametrize("positional", POSITIONALS)
@pytest.mark.parametrize("n_kv_heads", [None, 2, 1])      # MHA, GQA, MQA
def test_kv_cache_equals_full_recomputation_decoder(positional, n_kv_heads):
    model = make(positional=positional, n_kv_heads=n_kv_heads)
    ids = [3, 7, 1, 9, 4, 4, 12, 30, 2, 8, 5, 16]
    with torch.inference_mode():
        full = model(ids)[0]
    inc, cache = incremental_logits(model, ids, prompt=5)
    assert inc.shape == full.shape
    torch.testing.assert_close(inc, full, atol=1e-5, rtol=0)
    assert cache.length == len(ids)
    kv_heads = n_kv_heads or 4
    assert cache.layers[0].self_attn.k.shape == (1, len(ids), kv_heads, 8)     # only the kv heads are cached


@pytest.mark.parametrize("positional", POSITIONALS)
@pytest.mark.parametrize("norm_position", ["pre", "post"])
def test_kv_cache_equals_full_recomputation_encoder_decoder(positional, norm_position):
    model = make(arch="encoder-decoder", positional=positional, norm_position=norm_position, n_kv_heads=2)
    src, tgt = [5, 6, 7, 8, 9, 10, 11], [2, 13, 14, 15, 16, 17]
    with torch.inference_mode():
        full = model(src, tgt)[0]
    inc, cache = incremental_logits(model, tgt, prompt=1, src=src)
    torch.testing.assert_close(inc, full, atol=1e-5, rtol=0)
    assert cache.memory.shape == (1, len(src), 32)
    assert cache.layers[1].cross_attn.k.shape == (1, len(src), 2, 8)        # source K/V stored once


def test_encoder_runs_once_and_cross_kv_are_computed_once():
    model = make(arch="encoder-decoder", positional="rope")
    calls = {"enc": 0, "cross_k": 0}
    model.encoder.blocks[0].hook_resid_pre.register_forward_hook(lambda *a: calls.__setitem__("enc", calls["enc"] + 1))
    model.decoder.blocks[0].cross_attn.hook_k.register_forward_hook(
        lambda *a: calls.__setitem__("cross_k", calls["cross_k"] + 1))
    incremental_logits(model, [2, 3, 4, 5, 6], prompt=1, src=[7, 8, 9])
    assert calls == {"enc": 1, "cross_k": 1}


@pytest.mark.parametrize("spec", [MaskSpec("local", window=2), MaskSpec("prefix", prefix_len=3),
                                  MaskSpec("strided", stride=3), MaskSpec("dilated", dilation=2)])
def test_kv_cache_with_sparse_patterns(spec):
    model = make(positional="alibi", attention=spec)
    ids = list(range(3, 17))
    with torch.inference_mode():
        full = model(ids)[0]
    inc, _ = incremental_logits(model, ids, prompt=4)
    torch.testing.assert_close(inc, full, atol=1e-5, rtol=0)


def test_cache_refuses_patterns_that_change_earlier_rows():
    assert not cache_is_exact(MaskSpec("bigbird"))
    assert not cache_is_exact(MaskSpec("longformer", global_tokens=(-1,)))
    model = make(attention=MaskSpec("bigbird"))
    with pytest.raises(ValueError, match="recompute"):
        model([1, 2, 3], cache=KVCache.empty(model.cfg))
    # generate() falls back to recomputation, and its result equals the uncached one
    s = generate.Settings(max_new_tokens=5)
    assert generate.generate(model, [1, 2, 3], s).ids == generate.generate(model, [1, 2, 3],
                                                                           s.__class__(max_new_tokens=5,
                                                                                           use_cache=False)).ids


def test_step_trace_holds_the_new_attention_row():
    model = make(positional="rope", n_kv_heads=2)
    prompt = [1, 2, 3, 4]
    res = generate.generate(model, prompt, generate.Settings(max_new_tokens=4), names=["*hook_pattern"])
    ids = res.ids
    _, trace = model.run_with_cache(ids[:-1], names=["*hook_pattern"])
    for step in res.steps:
        row = step.trace["blocks.1.attn.hook_pattern"][0, :, -1]              # [head, context]
        assert row.shape == (4, step.position)
        torch.testing.assert_close(row, trace["blocks.1.attn.hook_pattern"][0, :, step.position - 1, :step.position],
                                   atol=1e-6, rtol=0)
    assert [s.cache_rows for s in res.steps] == [4, 5, 6, 7]
    assert res.steps[-1].cache_bytes == [2 * 7 * 2 * 8 * 4] * 2                # K and V, 7 rows, 2 kv heads


def test_cached_and_uncached_generation_agree_and_greedy_is_deterministic():
    model = make(positional="learned")
    a = generate.generate(model, [1, 2, 3], generate.Settings(max_new_tokens=12))
    b = generate.generate(model, [1, 2, 3], generate.Settings(max_new_tokens=12))
    c = generate.generate(model, [1, 2, 3], generate.Settings(max_new_tokens=12, use_cache=False))
    assert a.ids == b.ids == c.ids
    assert len(a.new_ids) == 12
    assert a.ids == model.generate([1, 2, 3], 12)[0].tolist()       # the model's own greedy loop


def test_temperature_zero_and_top_k_one_and_top_p_zero_are_greedy():
    model = make(positional="rope")
    greedy = generate.generate(model, [5, 6], generate.Settings(max_new_tokens=10)).ids
    for s in (generate.Settings("sample", 10, temperature=0.0, seed=3),
              generate.Settings("sample", 10, top_k=1, seed=3),
              generate.Settings("sample", 10, top_p=0.0, seed=3),
              generate.Settings("sample", 10, temperature=1.5, top_k=1, seed=9)):
        assert generate.generate(model, [5, 6], s).ids == greedy, s


def test_beam_width_one_is_greedy():
    for arch, prompt, src in (("decoder", [5, 6, 7], None), ("encoder-decoder", [2], [8, 9, 10, 11])):
        model = make(arch=arch, positional="sinusoidal")
        greedy = generate.generate(model, prompt, generate.Settings(max_new_tokens=9), source=src).ids
        beam = generate.generate(model, prompt, generate.Settings("beam", 9, beam_width=1), source=src)
        assert beam.ids == greedy
        assert len(beam.best_path) == 9


def test_seeded_sampling_is_reproducible_and_seeds_differ():
    model = make(positional="alibi")
    s = generate.Settings("sample", 15, temperature=1.5, seed=7)
    assert generate.generate(model, [1], s).ids == generate.generate(model, [1], s).ids
    others = {tuple(generate.generate(model, [1],
                                      generate.Settings("sample", 15, temperature=1.5, seed=k)).ids) for k in range(5)}
    assert len(others) > 1


def test_beam_search_finds_a_sequence_at_least_as_likely_as_greedy():
    model = make(positional="rope", vocab_size=20)
    prompt = [1, 2, 3]
    greedy = generate.generate(model, prompt, generate.Settings(max_new_tokens=6)).ids
    beam = generate.generate(model, prompt, generate.Settings("beam", 6, beam_width=4, length_penalty=0.0))

    def logp(ids):
        with torch.inference_mode():
            lp = torch.log_softmax(model(ids[:-1])[0], -1)
        return sum(float(lp[i - 1, ids[i]]) for i in range(len(prompt), len(ids)))

    assert logp(beam.ids) >= logp(greedy) - 1e-5
    # the returned path's node scores are the real cumulative log-probabilities
    assert beam.beam[beam.best_path[-1]].score == pytest.approx(logp(beam.ids), abs=1e-4)
    kept_per_step = [sum(n.kept for n in beam.beam if n.step == k) for k in range(6)]
    assert kept_per_step == [4] * 6


def test_beam_search_cache_equals_recomputation():
    model = make(positional="relative", n_kv_heads=1)
    a = generate.generate(model, [4, 5], generate.Settings("beam", 7, beam_width=3))
    b = generate.generate(model, [4, 5], generate.Settings("beam", 7, beam_width=3, use_cache=False))
    assert a.ids == b.ids
    assert [n.token_id for n in a.beam] == [n.token_id for n in b.beam]
    np.testing.assert_allclose([n.score for n in a.beam], [n.score for n in b.beam], atol=1e-4)


def test_eos_stops_generation_and_finishes_beams():
    model = make()
    with torch.inference_mode():
        first = int(model([1, 2])[0, -1].argmax())
    res = generate.generate(model, [1, 2], generate.Settings(max_new_tokens=10), eos=first)
    assert res.new_ids == [first] and res.stopped_by_eos
    beam = generate.generate(model, [1, 2], generate.Settings("beam", 10, beam_width=1), eos=first)
    assert beam.new_ids == [first] and beam.stopped_by_eos


def test_filter_logits_cuts_and_renormalises():
    logits = torch.log(torch.tensor([0.5, 0.2, 0.15, 0.1, 0.05]))
    probs, kept, final = generate.filter_logits(logits, 1.0, top_k=3)
    assert kept.tolist() == [True, True, True, False, False]
    torch.testing.assert_close(final, torch.tensor([0.5, 0.2, 0.15, 0, 0]) / 0.85)
    _, kept, _ = generate.filter_logits(logits, 1.0, top_p=0.6)          # 0.5 < 0.6, 0.5 + 0.2 >= 0.6
    assert kept.tolist() == [True, True, False, False, False]
    _, kept, _ = generate.filter_logits(logits, 1.0, top_p=0.5)          # 0.5 reaches p exactly: one token
    assert kept.tolist() == [True, False, False, False, False]
    hot, _, _ = generate.filter_logits(logits, 2.0)                       # flatter with T = 2
    assert float(hot.max()) < 0.5 and float(hot.sum()) == pytest.approx(1.0)
    probs, kept, final = generate.filter_logits(logits, 0.0)                 # greedy: the model's own probabilities,
    assert kept.tolist() == [True, False, False, False, False] and float(final[0]) == 1.0   # only the top kept
    torch.testing.assert_close(probs, torch.tensor([0.5, 0.2, 0.15, 0.1, 0.05]))


def test_steps_record_the_candidates():
    model = make(vocab_size=30)
    res = generate.generate(model, [1, 2], generate.Settings("sample", 5, temperature=0.8, top_k=4, seed=1))
    for step in res.steps:
        assert step.token_id in step.candidates[:4]
        assert step.kept.sum() == 4 and step.n_kept == 4
        assert step.final_probs[step.kept].sum() == pytest.approx(1.0, abs=1e-5)
        assert (step.final_probs[~step.kept] == 0).all()
        assert (np.diff(step.model_probs) <= 1e-7).all()            # most probable first


def test_bad_settings_and_models_raise_clear_errors():
    with pytest.raises(ValueError, match="temperature"):
        generate.Settings(temperature=-1)
    with pytest.raises(ValueError, match="top-p"):
        generate.Settings(top_p=1.5)
    with pytest.raises(ValueError, match="strategy"):
        generate.Settings(strategy="nucleus")
    enc = make(arch="encoder", output="hidden")
    with pytest.raises(ValueError, match="cannot generate"):
        generate.generate(enc, [1, 2], generate.Settings())
    learned = make(positional="learned", max_len=8)
    with pytest.raises(ValueError, match="no room"):
        generate.generate(learned, list(range(1, 9)), generate.Settings())
    # a learned-position model stops at its last position
    assert len(generate.generate(learned, [1, 2, 3], generate.Settings(max_new_tokens=20)).ids) == 8


def test_fit_context_keeps_the_most_recent_tokens():
    assert generate.fit_context(list(range(10)), 8, 3) == ([5, 6, 7, 8, 9], 5)
    assert generate.fit_context([1, 2], 8, 3) == ([1, 2], 0)
    assert generate.fit_context(list(range(10)), 4, 10) == ([9], 9)


def test_repetition_marks_repeated_ngrams():
    ids = [1, 2, 3, 4, 1, 2, 3, 4, 1, 2]
    marks = repetition.repeated_ngrams(ids, 3)
    assert marks.tolist() == [False] * 6 + [True] * 4
    assert repetition.repetition_rate(ids, 3, start=4) == pytest.approx(4 / 6)
    assert repetition.repetition_rate([1, 2, 3, 4, 5], 2) == 0.0


def test_kv_cache_bytes_and_paged_blocks():
    cfg = TransformerConfig(d_model=64, n_layers=2, n_heads=4, n_kv_heads=2)
    assert kv.kv_cache_bytes(cfg, 10).total == 2 * 2 * 2 * 16 * 10 * 4
    assert kv.kv_cache_bytes(cfg, 10, n_kv_heads=1).total * 4 == kv.kv_cache_bytes(cfg, 10, n_kv_heads=4).total
    assert kv.paged_blocks(10, 4) == (3, 2)
    assert kv.paged_blocks(8, 4) == (2, 0)

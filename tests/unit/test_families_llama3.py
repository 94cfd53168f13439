"""RoPE context extension as transformers computes it (models.positional.RopeScaling, read
from a checkpoint by keytable.rope_settings): llama3 (Llama 3.1-3.3), dynamic NTK,
LongRoPE (Phi-3, Phi-4-mini; its math only — the Phi-3 family is loaded in phi.py) and
YaRN's attention_factor / mscale variants, each against
transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS; then tiny Llamas with llama3, dynamic
and longrope RoPE at full parity (every hidden state, attention probability and logit),
from memory and from a folder, padded, with a KV cache."""
import json
import math

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()

from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS  # noqa: E402

from models import positional  # noqa: E402
from models.kv_cache import KVCache  # noqa: E402
from models.weights import pretrained, tiny_hf  # noqa: E402
from models.weights.keytable import CheckpointError, rope_settings  # noqa: E402
from models.weights.pretrained import load  # noqa: E402
from tests.unit.families import build, ids  # noqa: E402

TOL = 1e-5


# ---- parity helpers shared with test_families_decoders_2026.py (build, ids: tests/unit/families.py) ------------------------------------------
def max_diffs(ours, hf, x, attention_mask=None):
    """(hidden, attention, logits): the largest |ours - HF| over every layer's hidden state,
    every attention probability and the logits, at the real (unpadded) positions only."""
    kw = {} if attention_mask is None else {"attention_mask": attention_mask}
    out, trace = ours.run_with_cache(x, **kw)
    with torch.no_grad():
        ref = hf(x, output_attentions=True, output_hidden_states=True, **kw)
    real = torch.ones_like(x, dtype=torch.bool) if attention_mask is None else attention_mask.bool()
    n = ours.cfg.n_layers
    assert len(ref.attentions) == n and len(ref.hidden_states) == n + 1

    def worst(a, b):                # [b, pos, ...] at the real positions
        return float((a - b).abs()[real].max())

    hidden = [worst(trace["blocks.0.hook_resid_pre"], ref.hidden_states[0])]
    attn = []
    for i in range(n):
        # HF's last hidden state is after the final norm
        ours_h = trace[f"blocks.{i}.hook_resid_post"] if i < n - 1 else trace["ln_final.hook_normalized"]
        hidden.append(worst(ours_h, ref.hidden_states[i + 1]))
        pattern = trace[f"blocks.{i}.attn.hook_pattern"]
        assert pattern.shape == ref.attentions[i].shape
        attn.append(worst((pattern - ref.attentions[i]).transpose(1, 2), 0))   # [b, q, head, k]: real queries
    return max(hidden), max(attn), worst(out, ref.logits)


def assert_parity(ours, hf, x, attention_mask=None):
    h, a, lg = max_diffs(ours, hf, x, attention_mask)
    assert h <= TOL, f"hidden state differs by {h:.2e}"
    assert a <= TOL, f"attention differs by {a:.2e}"
    assert lg <= TOL, f"logits differ by {lg:.2e}"
    return h, a, lg


def assert_parity_from_a_folder(tmp_path, hf, x):
    hf.save_pretrained(tmp_path, safe_serialization=True)
    (tmp_path / "tokenizer.json").write_text(tiny_hf.char_tokenizer_json(), encoding="utf-8")
    ours, tok = load(str(tmp_path))
    assert tok is not None and tok.vocab_size <= ours.cfg.vocab_size
    assert_parity(ours, hf, x)
    return ours


def right_padded(x, lengths):
    """An attention mask [b, pos]: row r has lengths[r] real tokens, then padding."""
    mask = torch.zeros_like(x)
    for r, n in enumerate(lengths):
        mask[r, :n] = 1
    return mask


def assert_kv_cache_exact(ours, x, prompt=5, new=8):
    """Logits fed through the KV cache (a prompt, then one token at a time) equal a full
    forward, and a cached greedy continuation equals the uncached one."""
    with torch.no_grad():
        full = ours(x)
        cache = KVCache.empty(ours.cfg)
        steps = [ours(x[:, :prompt], cache=cache)] + [ours(x[:, i:i + 1], cache=cache)
                                                       for i in range(prompt, x.shape[1])]
        assert float((torch.cat(steps, dim=1) - full).abs().max()) <= TOL
        cache = KVCache.empty(ours.cfg)
        logits, out = ours(x[:, :prompt], cache=cache), x[:, :prompt]
        for _ in range(new):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            out = torch.cat([out, nxt], dim=1)
            logits = ours(nxt, cache=cache)
        assert torch.equal(out, ours.generate(x[:, :prompt], new))


# ---- the math against transformers' ROPE_INIT_FUNCTIONS -------------------------------------------
def llama_config(rope, head_dim=64, max_len=131072, **kw):
    return transformers.LlamaConfig(hidden_size=head_dim * 4, num_attention_heads=4, num_key_value_heads=4,
                                    max_position_embeddings=max_len, rope_parameters=dict(rope), **kw)


def ours_for(hf_config):
    """Our RoPE scaling (and θ, rotary dims) for a transformers config, read by rope_settings."""
    doc = hf_config.to_dict()
    fields, _ = rope_settings(doc, "test")
    cfg = pretrained.TransformerConfig(positional="rope", d_model=doc["hidden_size"], n_heads=4,
                                       max_len=doc["max_position_embeddings"], **fields)
    return cfg, positional.rope_scaling_of(cfg)


LLAMA3 = [  # (θ, factor, low, high, original, head_dim): Llama 3.1 8B/70B/405B, Llama 3.2 1B/3B, tiny
    (500000.0, 8.0, 1.0, 4.0, 8192, 128),
    (500000.0, 32.0, 1.0, 4.0, 8192, 64),
    (10000.0, 8.0, 1.0, 4.0, 32, 16),
    (10000.0, 3, 2, 8, 100, 32),                  # whole numbers, as some config.json files write them
]


@pytest.mark.parametrize("theta, factor, low, high, original, dim", LLAMA3)
def test_llama3_inv_freq_is_transformers_bitwise(theta, factor, low, high, original, dim):
    hf = llama_config({"rope_type": "llama3", "factor": factor, "low_freq_factor": low, "high_freq_factor": high,
                       "original_max_position_embeddings": original, "rope_theta": theta}, head_dim=dim)
    inv_freq, attention = ROPE_INIT_FUNCTIONS["llama3"](hf, "cpu")
    cfg, scaling = ours_for(hf)
    assert (cfg.rope_scaling, cfg.rope_original_len, cfg.rope_low_freq_factor) == ("llama3", original, low)
    ours, divisor, factor_ = positional.rope_scaled_inv_freq(dim, theta, scaling)
    assert torch.equal(ours, inv_freq) and divisor == 1.0 and factor_ == attention == 1.0
    # the three regimes: kept (short wavelengths), interpolated by the factor (long), blended between
    stock = positional.rope_inv_freq(dim, theta)
    wave = 2 * math.pi / stock
    assert torch.equal(ours[wave < original / high], stock[wave < original / high])
    assert torch.equal(ours[wave > original / low], stock[wave > original / low] / factor)
    torch.testing.assert_close(positional.rope_wavelengths(dim, theta, scaling), (2 * math.pi / inv_freq.double()).float())


@pytest.mark.parametrize("factor", [2.0, 2.3, 4])
@pytest.mark.parametrize("dim", [16, 64])
def test_dynamic_ntk_is_transformers_bitwise_at_every_length(factor, dim):
    L = 64
    hf = llama_config({"rope_type": "dynamic", "factor": factor, "rope_theta": 10000.0}, head_dim=dim, max_len=L)
    _, scaling = ours_for(hf)
    assert scaling.kind == "dynamic" and scaling.original_len == L and scaling.length_dependent
    # transformers: once at init (seq_len None), then with the length as a tensor (max position + 1)
    assert torch.equal(positional.rope_scaled_inv_freq(dim, 10000.0, scaling)[0], ROPE_INIT_FUNCTIONS["dynamic"](hf, "cpu")[0])
    for n in (1, L - 1, L, L + 1, 3 * L, 1000):
        want = ROPE_INIT_FUNCTIONS["dynamic"](hf, "cpu", seq_len=torch.tensor(n))[0]
        got, divisor, attention = positional.rope_scaled_inv_freq(dim, 10000.0, scaling, n)
        assert torch.equal(got, want) and divisor == 1.0 and attention == 1.0, n
    # within the original context the stock rotation; beyond it every pair but the first slows down
    stock = positional.rope_inv_freq(dim, 10000.0)
    if factor == 2.0:
        assert torch.equal(positional.rope_scaled_inv_freq(dim, 10000.0, scaling, L)[0], stock)
    longer = positional.rope_scaled_inv_freq(dim, 10000.0, scaling, 4 * L)[0]
    assert longer[0] == stock[0] and (longer[1:] < stock[1:]).all()


def test_dynamic_cos_sin_follow_the_text_length_as_transformers_rotary_embedding():
    """The model passes positions offset..end-1: the length is end (a KV-cached step uses
    the length so far), as transformers' rotary embedding reads max(position_ids) + 1."""
    L, dim = 16, 16
    hf = llama_config({"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0}, head_dim=dim, max_len=L)
    _, scaling = ours_for(hf)
    rotary = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(hf)
    x = torch.zeros(1, 1, dim)
    for start, end in ((0, 10), (0, 16), (0, 17), (16, 17), (17, 30), (0, 40), (39, 41)):   # lengths only grow
        positions = torch.arange(start, end)
        cos, sin = rotary(x, positions[None])
        ours = positional.rope_cos_sin(positions, dim, 10000.0, scaling)
        assert torch.equal(ours[0], cos[0]) and torch.equal(ours[1], sin[0]), (start, end)


SHORT = [1.0 + 0.05 * i for i in range(12)]
LONG = [1.0 + 1.5 * i for i in range(12)]


def phi3_config(**rope):
    """A Phi-3 config with LongRoPE (Phi-4-mini: 75% of a 32-wide head rotates, 12 pairs)."""
    return transformers.Phi3Config(hidden_size=128, num_attention_heads=4, num_key_value_heads=4,
                                   max_position_embeddings=256, original_max_position_embeddings=32,
                                   partial_rotary_factor=0.75,
                                   rope_parameters={"rope_type": "longrope", "short_factor": SHORT,
                                                    "long_factor": LONG, "rope_theta": 10000.0, **rope})


@pytest.mark.parametrize("rope, attention", [({}, math.sqrt(1 + math.log(8) / math.log(32))),
                                             ({"factor": 2.0}, math.sqrt(1 + math.log(2) / math.log(32))),
                                             ({"attention_factor": 1.5}, 1.5)])
def test_longrope_is_transformers_bitwise(rope, attention):
    hf = phi3_config(**rope)
    doc = hf.to_dict()
    fields, _ = rope_settings(doc, "Phi-3")
    assert fields["rope_short_factor"] == tuple(SHORT) and fields["rope_original_len"] == 32
    scaling = positional.RopeScaling(fields["rope_scaling"], fields["rope_factor"], fields["rope_original_len"],
                            short_factor=fields["rope_short_factor"], long_factor=fields["rope_long_factor"],
                            attn_factor=fields.get("rope_attn_factor"))
    dim = 24
    for n in (None, 1, 32, 33, 256, 1000):          # short factors up to the original 32 tokens, long beyond
        want, want_attention = ROPE_INIT_FUNCTIONS["longrope"](hf, "cpu", seq_len=n)
        got, divisor, got_attention = positional.rope_scaled_inv_freq(dim, 10000.0, scaling, n)
        assert torch.equal(got, want) and divisor == 1.0, n
        assert got_attention == want_attention and math.isclose(got_attention, attention, rel_tol=1e-12)
    # cos and sin carry the attention factor; the length picks the factors
    cos, _ = positional.rope_cos_sin(torch.arange(33), dim, 10000.0, scaling)
    assert math.isclose(float(cos[0, 0]), want_attention, rel_tol=1e-6)
    short = positional.rope_angles(torch.arange(32), dim, 10000.0, scaling)
    long = positional.rope_angles(torch.arange(33), dim, 10000.0, scaling)
    assert not torch.equal(short, long[:32])
    long_freq = ROPE_INIT_FUNCTIONS["longrope"](hf, "cpu", seq_len=33)[0]
    torch.testing.assert_close(positional.rope_wavelengths(dim, 10000.0, scaling, seq_len=33),
                               (2 * math.pi / long_freq.double()).float())


def test_longrope_factors_must_fit_the_pairs():
    with pytest.raises(ValueError, match="one short_factor per rotating pair"):
        positional.rope_scaled_inv_freq(16, 10000.0, positional.RopeScaling("longrope", 4.0, 32, short_factor=(1.0, 2.0)))
    # no factors at all (the positional lab's knobs): every pair's divisor is 1, only the attention factor
    plain, _, attention = positional.rope_scaled_inv_freq(16, 10000.0, positional.RopeScaling("longrope", 4.0, 32))
    assert torch.equal(plain, positional.rope_inv_freq(16, 10000.0)) and attention > 1


@pytest.mark.parametrize("rope", [
    {"attention_factor": 1.2079441541679836, "beta_fast": 32, "beta_slow": 1},   # OLMo 3's long context
    {"mscale": 1.0, "mscale_all_dim": 1.0},                                      # DeepSeek-V3: ratio 1
    {"mscale": 0.707, "mscale_all_dim": 1.0},
    {"truncate": True},
])
def test_yarn_variants_match_transformers(rope):
    hf = llama_config({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 256,
                       "rope_theta": 10000.0, **rope}, max_len=1024)
    inv_freq, attention = ROPE_INIT_FUNCTIONS["yarn"](hf, "cpu")
    _, scaling = ours_for(hf)
    ours, divisor, factor = positional.rope_scaled_inv_freq(64, 10000.0, scaling)
    torch.testing.assert_close(ours, inv_freq, rtol=1e-6, atol=0)
    assert divisor == 1.0 and math.isclose(factor, attention, rel_tol=1e-12)


def test_yarn_factor_from_the_context_lengths():
    hf = llama_config({"rope_type": "yarn", "factor": None, "original_max_position_embeddings": 256,
                       "rope_theta": 10000.0}, max_len=1024)
    cfg, scaling = ours_for(hf)
    assert cfg.rope_factor == 4.0 and cfg.rope_attn_factor is None
    assert math.isclose(positional.rope_scaled_inv_freq(64, 10000.0, scaling)[2], ROPE_INIT_FUNCTIONS["yarn"](hf, "cpu")[1])


def test_the_stock_kinds_and_the_new_ones_at_factor_one():
    """linear/ntk/yarn at factor 1 are the stock rotation (None); llama3, dynamic and
    longrope always compute their own frequencies, as transformers does."""
    for kind in ("linear", "ntk", "yarn"):
        assert not positional.RopeScaling(kind, 1.0, 64).active
    assert positional.RopeScaling("yarn", 1.0, 64, attn_factor=1.1).active
    for kind in ("llama3", "dynamic", "longrope"):
        assert positional.RopeScaling(kind, 1.0, 64).active
    cfg = pretrained.TransformerConfig(positional="rope", rope_scaling="dynamic", rope_factor=1.0, max_len=32)
    assert positional.rope_scaling_of(cfg) == positional.RopeScaling("dynamic", 1.0, 32)


# ---- reading the settings: both spellings, and refusals by name -----------------------------------------
LLAMA31_CONFIG = {   # the rope part of meta-llama/Llama-3.1-8B's config.json (before transformers 5)
    "model_type": "llama", "max_position_embeddings": 131072, "rope_theta": 500000.0,
    "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                     "original_max_position_embeddings": 8192, "rope_type": "llama3"},
}


def test_llama31_config_json_is_read():
    fields, _ = rope_settings(LLAMA31_CONFIG, "LLaMA")
    assert fields == dict(rope_base=500000.0, rope_original_len=8192, rope_low_freq_factor=1.0,
                          rope_high_freq_factor=4.0, rope_scaling="llama3", rope_factor=8.0)
    old = {**LLAMA31_CONFIG, "rope_scaling": {**LLAMA31_CONFIG["rope_scaling"], "type": "llama3"}}
    del old["rope_scaling"]["rope_type"]                  # the older "type" key
    assert rope_settings(old, "LLaMA")[0] == fields
    # no original_max_position_embeddings: transformers takes max_position_embeddings
    bare = {**LLAMA31_CONFIG, "rope_scaling": {k: v for k, v in LLAMA31_CONFIG["rope_scaling"].items()
                                               if k != "original_max_position_embeddings"}}
    assert rope_settings(bare, "LLaMA")[0]["rope_original_len"] == 131072
    # Phi-3 keeps original_max_position_embeddings at the top level, where it wins
    phi3_style = {**LLAMA31_CONFIG, "original_max_position_embeddings": 4096}
    assert rope_settings(phi3_style, "x")[0]["rope_original_len"] == 4096


REFUSED = [
    ({"rope_type": "llama3", "factor": 8.0, "high_freq_factor": 4.0}, "llama3 low_freq_factor"),
    ({"rope_type": "dynamic"}, "dynamic factor"),
    ({"rope_type": "linear", "factor": 0.5}, "linear factor"),
    ({"rope_type": "longrope", "short_factor": [1.0] * 3, "long_factor": [1.0] * 8}, "longrope short_factor"),
    ({"rope_type": "longrope", "short_factor": [1.0] * 8}, "longrope long_factor"),
    ({"rope_type": "proportional", "factor": 2.0}, "rope_type=proportional"),
    ({"rope_type": "yarn", "factor": 2.0, "beta_fast": 16}, "beta_fast"),
    ({"rope_type": "yarn", "factor": 2.0, "truncate": False}, "truncate"),
    ({"rope_type": "yarn", "factor": 2.0, "attention_factor": -1.0}, "attention_factor"),
    ({"full_attention": {"rope_type": "default"}, "sliding_attention": {"rope_type": "default"}},
     "rope_parameters per layer type"),
]


@pytest.mark.parametrize("rope, feature", REFUSED)
def test_rope_settings_refuse_by_name(rope, feature):
    doc = {**tiny_hf.build("llama").config.to_dict(), "rope_parameters": rope}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(doc)
    assert e.value.reason == "unsupported_variant" and e.value.values["feature"] == feature


# ---- tiny Llamas at full parity ---------------------------------------------------------------------
LLAMA3_ROPE = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 16, "rope_theta": 500000.0}
VARIANTS = [
    ("llama3", {}),                                                                # Llama 3.2 shape: tied
    ("llama3", dict(tie_word_embeddings=False, rope_parameters=LLAMA3_ROPE)),     # Llama 3.1: untied, θ 500000
    ("llama3", dict(rope_parameters={**LLAMA3_ROPE, "low_freq_factor": 2.0, "high_freq_factor": 16.0,
                                     "factor": 3.0, "rope_theta": 10000.0})),
]


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_llama3_parity_in_memory_and_padded(family, changes):
    hf = build(family, **changes)
    ours, tok = load(hf)
    assert tok is None and ours.cfg.rope_scaling == "llama3"
    assert_parity(ours, hf, ids())
    x = ids(batch=2, n=20, seed=5)
    assert_parity(ours, hf, x, right_padded(x, [20, 13]))


def test_llama3_from_a_folder_and_its_cache(tmp_path):
    hf = build("llama3")
    ours = assert_parity_from_a_folder(tmp_path, hf, ids(batch=1, n=24, seed=3))
    assert (ours.cfg.rope_original_len, ours.cfg.rope_factor, ours.cfg.tie_embeddings) == (32, 8.0, True)
    assert_kv_cache_exact(ours, ids(batch=2, n=14, seed=7))


def test_tiny_save_writes_a_loadable_llama3(tmp_path):
    tiny_hf.save("llama3", tmp_path)
    ours, tok = load(str(tmp_path))
    assert ours.cfg.rope_scaling == "llama3" and tok is not None


DYNAMIC = dict(max_position_embeddings=16, rope_parameters={"rope_type": "dynamic", "factor": 2.0,
                                                            "rope_theta": 10000.0})


@pytest.mark.parametrize("n", [24, 40])
def test_dynamic_ntk_llama_beyond_its_context(tmp_path, n):
    """24 and 40 tokens > max_position_embeddings 16: the base has grown. transformers'
    rotary embedding keeps the frequencies of the longest text it has seen (until one
    within the original context resets it), so each HF model here only ever sees lengths
    that grow or fall back within 16; ours recomputes them for every length."""
    hf = build("llama", **DYNAMIC)
    ours, _ = load(hf)
    assert (ours.cfg.rope_scaling, ours.cfg.rope_original_len, ours.cfg.rope_factor) == ("dynamic", 16, 2.0)
    stock = positional.rope_cos_sin(torch.arange(n), ours.cfg.rotary_dim, 10000.0)[0]
    scaling = positional.rope_scaling_of(ours.cfg)
    assert torch.equal(positional.rope_cos_sin(torch.arange(16), ours.cfg.rotary_dim, 10000.0, scaling)[0], stock[:16])
    assert not torch.allclose(positional.rope_cos_sin(torch.arange(n), ours.cfg.rotary_dim, 10000.0, scaling)[0],
                              stock, atol=1e-3)                     # the dynamic branch acts at n > 16
    assert_parity(ours, hf, ids(batch=2, n=12))          # within the context: the stock base (HF resets)
    assert_parity(ours, hf, ids(batch=2, n=n))
    x = ids(batch=2, n=n, seed=9)
    assert_parity(ours, hf, x, right_padded(x, [n, n - 5]))
    assert_parity_from_a_folder(tmp_path, build("llama", **DYNAMIC), ids(batch=1, n=n, seed=3))


def test_dynamic_ntk_kv_cache_follows_transformers_cache():
    """With a cache the keys keep the rotation of the length at which they were computed
    (so a cached continuation past the context differs from recomputing it) — as in
    transformers' cached decoding, step by step."""
    hf = build("llama", **DYNAMIC)
    ours, _ = load(hf)
    x = ids(batch=1, n=26, seed=11)
    cache = KVCache.empty(ours.cfg)
    with torch.no_grad():
        mine = [ours(x[:, :10], cache=cache)] + [ours(x[:, i:i + 1], cache=cache) for i in range(10, 26)]
        out = hf(x[:, :10], use_cache=True)
        theirs, past = [out.logits], out.cache
        for i in range(10, 26):
            out = hf(x[:, i:i + 1], cache=past, use_cache=True)
            theirs.append(out.logits)
            past = out.cache
        within, full = ours(x[:, :16]), ours(x)
    cached = torch.cat(mine, dim=1)
    assert float((cached - torch.cat(theirs, dim=1)).abs().max()) <= TOL
    assert float((cached[:, :16] - within).abs().max()) <= TOL           # within the context: exact
    assert float((cached[:, 16:] - full[:, 16:]).abs().max()) > 1e-4      # beyond it: the keys' base is older


LONGROPE = dict(max_position_embeddings=64, rope_parameters={
    "rope_type": "longrope", "short_factor": [1.0 + 0.1 * i for i in range(8)],
    "long_factor": [1.0 + 2.0 * i for i in range(8)], "original_max_position_embeddings": 16, "rope_theta": 10000.0})


@pytest.mark.parametrize("n", [12, 16, 17, 30])
def test_longrope_llama_parity_short_and_long(n):
    """LongRoPE on a Llama (transformers applies any rope_type to it): short factors up to
    16 tokens, long ones beyond, cos and sin × √(1 + ln 4 / ln 16)."""
    hf = build("llama", **LONGROPE)
    ours, _ = load(hf)
    assert ours.cfg.rope_scaling == "longrope" and ours.cfg.rope_factor == 4.0
    assert_parity(ours, hf, ids(batch=2, n=n))


def test_the_card_and_the_lab_read_the_new_kinds():
    from lab import pe_knobs

    ours, _ = load(build("llama3"))
    waves = pe_knobs.wavelengths(ours.cfg, pe_knobs.Knobs())
    want = positional.rope_wavelengths(16, 10000.0, positional.rope_scaling_of(ours.cfg))
    torch.testing.assert_close(waves, want)
    assert float(waves[-1]) > float(positional.rope_wavelengths(16, 10000.0)[-1]) * 7.9    # the slow pairs ×8
    doc = json.loads(ours.cfg.to_json())
    assert pretrained.TransformerConfig.from_dict(doc) == ours.cfg                  # round-trips

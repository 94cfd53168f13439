"""Phi-3, Phi (Phi-2), StableLM and OPT: parity with Hugging Face transformers (float32,
eager attention) on tiny random models built from models/weights/tiny_hf.py (no
download), from memory and from a saved folder, on a right-padded batch, through the KV
cache; the refusals of variants we do not implement."""
import json

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()

from models.kv_cache import KVCache  # noqa: E402
from models.weights import pretrained, safety, tiny_hf  # noqa: E402
from models.weights.keytable import CheckpointError  # noqa: E402
from models.weights.pretrained import load  # noqa: E402
from tests.unit.families import build, ids  # noqa: E402

TOL = 1e-5
FAMILIES = ("phi3", "phi", "stablelm", "opt")


def max_diffs(ours, hf, ids, mask=None):
    """(hidden, attention, logits): the largest |ours - HF| over every layer's hidden
    state, every attention probability and the logits; with a padding mask (1 = real
    token) only the real positions (query rows) are compared."""
    out, trace = ours.run_with_cache(ids, attention_mask=mask)
    with torch.no_grad():
        ref = hf(ids, attention_mask=mask, output_attentions=True, output_hidden_states=True)
    real = torch.ones(ids.shape, dtype=torch.bool) if mask is None else mask.bool()
    n = ours.cfg.n_layers
    assert len(ref.attentions) == n and len(ref.hidden_states) == n + 1

    def diff(a, b):   # [b, pos, ...] at the real positions
        assert a.shape == b.shape
        return (a - b)[real].abs().max()

    hidden = [diff(trace["blocks.0.hook_resid_pre"], ref.hidden_states[0])]
    attn = []
    for i in range(n):
        # HF's last hidden state is after the final norm (none in a post-norm OPT)
        last = "ln_final.hook_normalized" if ours.cfg.final_norm else f"blocks.{i}.hook_resid_post"
        ours_h = trace[f"blocks.{i}.hook_resid_post"] if i < n - 1 else trace[last]
        hidden.append(diff(ours_h, ref.hidden_states[i + 1]))
        # [b, head, q, k] -> [b, q, head, k]: the real query rows
        attn.append(diff(trace[f"blocks.{i}.attn.hook_pattern"].transpose(1, 2), ref.attentions[i].transpose(1, 2)))
    return float(max(hidden)), float(max(attn)), float(diff(out, ref.logits))


def assert_parity(ours, hf, ids, mask=None):
    h, a, lg = max_diffs(ours, hf, ids, mask)
    assert h <= TOL, f"hidden state differs by {h:.2e}"
    assert a <= TOL, f"attention differs by {a:.2e}"
    assert lg <= TOL, f"logits differ by {lg:.2e}"
    return h, a, lg


# Phi-3-128k / Phi-4-mini's LongRoPE: one short and one long divisor per rotating pair (16 · 0.75 / 2 = 6)
LONGROPE = {"rope_type": "longrope", "rope_theta": 10000.0, "partial_rotary_factor": 0.75,
            "short_factor": [1.0, 1.1, 1.3, 1.7, 2.0, 2.5], "long_factor": [1.0, 1.5, 2.5, 4.0, 6.0, 9.0]}

VARIANTS = [
    ("phi3", {}),                                            # window 8 < 20 tokens, 75% rotary, GQA, untied
    ("phi3", dict(tie_word_embeddings=True, sliding_window=None, partial_rotary_factor=1.0)),
    ("phi3", dict(sliding_window=3, num_key_value_heads=4)),
    ("phi3", dict(num_key_value_heads=1, hidden_act="gelu_pytorch_tanh", rms_norm_eps=1e-6)),
    ("phi3", dict(rope_parameters=LONGROPE, original_max_position_embeddings=16)),   # 20 tokens > 16: long factors
    ("phi", {}),                                             # 40% rotary, one norm for both branches
    ("phi", dict(qk_layernorm=True, num_key_value_heads=2, tie_word_embeddings=True)),
    ("phi", dict(partial_rotary_factor=1.0, hidden_act="gelu", layer_norm_eps=1e-6)),
    ("phi", dict(rope_parameters={"rope_type": "linear", "factor": 2.0, "rope_theta": 500.0,
                                  "partial_rotary_factor": 0.5})),
    ("stablelm", {}),                                        # parallel residual (shared norm), q/k/v bias
    ("stablelm", dict(use_parallel_residual=False, use_qkv_bias=False)),     # StableLM-3B-4E1T
    ("stablelm", dict(use_parallel_residual=False, use_qkv_bias=True, num_key_value_heads=4)),  # StableLM 2
    ("stablelm", dict(tie_word_embeddings=True, partial_rotary_factor=0.5)),
    ("opt", {}),                                             # pre-norm, ReLU, tied, positions from row 2
    ("opt", dict(do_layer_norm_before=False)),               # post-norm (no final layer norm)
    ("opt", dict(enable_bias=False, tie_word_embeddings=False, activation_function="gelu")),
]


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_parity_in_memory(family, changes):
    hf = build(family, **changes)
    ours, tok = load(hf)
    assert tok is None
    assert_parity(ours, hf, ids())


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_parity_on_a_right_padded_batch(family, changes):
    hf = build(family, **changes)
    ours, _ = load(hf)
    mask = torch.ones(3, 20, dtype=torch.long)
    mask[1, 13:] = 0                                          # 7 pads at the end of row 1
    mask[2, 5:] = 0                                           # row 2: 5 real tokens, shorter than the window
    assert_parity(ours, hf, ids(batch=3, seed=5), mask)


@pytest.mark.parametrize("family", FAMILIES)
def test_parity_from_a_folder(tmp_path, family):
    hf = build(family)
    hf.save_pretrained(tmp_path, safe_serialization=True)
    (tmp_path / "tokenizer.json").write_text(tiny_hf.char_tokenizer_json(), encoding="utf-8")
    ours, tok = load(str(tmp_path))
    assert tok is not None and tok.vocab_size <= ours.cfg.vocab_size
    assert_parity(ours, hf, ids(batch=1, n=24, seed=3))
    assert_parity(ours, hf, ids(batch=2, n=11, seed=4))


@pytest.mark.parametrize("family", ["phi3", "opt"])
def test_variant_folders(tmp_path, family):
    """The other half of each family's settings, from a saved folder too: Phi-3 tied
    without a window, post-norm OPT."""
    changes = {"phi3": dict(tie_word_embeddings=True, sliding_window=None),
               "opt": dict(do_layer_norm_before=False)}[family]
    hf = build(family, **changes)
    hf.save_pretrained(tmp_path, safe_serialization=True)
    ours, _ = load(str(tmp_path))
    assert_parity(ours, hf, ids())


@pytest.mark.parametrize("family", FAMILIES)
def test_tiny_save_writes_a_loadable_folder(tmp_path, family):
    tiny_hf.save(family, tmp_path)
    ours, tok = load(str(tmp_path))
    assert ours.cfg.vocab_size == tiny_hf.VOCAB and tok is not None


# ---- older config.json spellings (the hub's files predate transformers 5's rope_parameters) ------
HUB_ROPE = {"phi3": 0.75, "phi": 0.4, "stablelm": 0.25}    # Phi-4-mini, Phi-2, StableLM: at the top of config.json


@pytest.mark.parametrize("family", HUB_ROPE)
def test_hub_style_rope_fields(tmp_path, family):
    hf = build(family, rope_parameters={"rope_type": "default", "rope_theta": 300.0,
                                        "partial_rotary_factor": HUB_ROPE[family]})
    hf.save_pretrained(tmp_path, safe_serialization=True)
    doc = json.loads((tmp_path / "config.json").read_text())
    doc.pop("rope_parameters")
    doc.update(partial_rotary_factor=HUB_ROPE[family], rope_theta=300.0, rope_scaling=None)
    (tmp_path / "config.json").write_text(json.dumps(doc))
    ours, _ = load(str(tmp_path))
    assert ours.cfg.rope_base == 300.0 and ours.cfg.rotary_dim == int(16 * HUB_ROPE[family])
    assert_parity(ours, hf, ids())


def test_family_default_rotary_fractions():
    """Without any partial_rotary_factor, each config class has its own default: Phi 0.5,
    StableLM 0.25, Phi-3 1.0 (all of d_head)."""
    for family, dims in (("phi", 8), ("stablelm", 4), ("phi3", 16)):
        doc = tiny_hf.build(family).config.to_dict()
        doc.pop("rope_parameters")
        doc.pop("partial_rotary_factor", None)
        assert pretrained.config_from_hf(doc).rotary_dim == dims, family


def test_opt_125m_style_folder(tmp_path):
    """facebook/opt-125m: weights saved from OPTModel (decoder.* keys, no lm_head: tied)
    and a config without enable_bias / layer_norm_elementwise_affine."""
    from safetensors.torch import load_file, save_file
    hf = build("opt")
    hf.save_pretrained(tmp_path, safe_serialization=True)
    w = load_file(str(tmp_path / "model.safetensors"))
    w = {k.removeprefix("model."): v for k, v in w.items() if k != "lm_head.weight"}
    assert "decoder.embed_tokens.weight" in w and "decoder.embed_positions.weight" in w
    save_file(w, str(tmp_path / "model.safetensors"))
    doc = json.loads((tmp_path / "config.json").read_text())
    for key in ("enable_bias", "layer_norm_elementwise_affine", "tie_word_embeddings"):
        doc.pop(key, None)
    (tmp_path / "config.json").write_text(json.dumps(doc))
    ours, _ = load(str(tmp_path))
    assert ours.cfg.tie_embeddings and ours.cfg.bias
    assert_parity(ours, hf, ids())


# ---- generation through the KV cache ------------------------------------------------------------
GENERATE = [("phi3", {}), ("phi3", dict(sliding_window=3)), ("phi", dict(qk_layernorm=True)), ("stablelm", {}),
            ("stablelm", dict(use_parallel_residual=False)), ("opt", {}), ("opt", dict(do_layer_norm_before=False))]


@pytest.mark.parametrize("family, changes", GENERATE)
def test_cached_greedy_continuation_equals_uncached_and_hf(family, changes):
    """Greedy decoding one token at a time through our KV cache picks the same tokens as
    recomputing the whole context each step, and as transformers' own generate; the
    cached logits equal a full forward's."""
    from lab import generate

    hf = build(family, **changes)
    ours, _ = load(hf)
    prompt = ids(batch=1, n=6, seed=7)[0].tolist()
    cached = generate.generate(ours, prompt, generate.Settings(max_new_tokens=14))
    uncached = generate.generate(ours, prompt, generate.Settings(max_new_tokens=14, use_cache=False))
    assert cached.ids == uncached.ids and len(cached.new_ids) == 14
    with torch.no_grad():
        theirs = hf.generate(torch.tensor([prompt]), max_new_tokens=14, do_sample=False, min_new_tokens=14,
                             pad_token_id=0)
    assert cached.ids == theirs[0].tolist()
    x = torch.tensor([cached.ids])
    with torch.no_grad():
        full = ours(x)
        cache = KVCache.empty(ours.cfg)
        steps = [ours(x[:, :6], cache=cache)] + [ours(x[:, i:i + 1], cache=cache) for i in range(6, x.shape[1])]
    assert (torch.cat(steps, dim=1) - full).abs().max() <= TOL


# ---- LongRoPE (Phi-3-128k, Phi-3.5-mini, Phi-4-mini) -------------------------------------------------
@pytest.mark.parametrize("changes", [
    {},                                                      # attention factor √(1 + ln 4 / ln 16) (64 / 16 = 4)
    dict(tie_word_embeddings=True, sliding_window=None),     # Phi-4-mini: tied, 75% rotary, no window
    dict(rope_parameters={**LONGROPE, "attention_factor": 1.3}),
])
def test_longrope_below_at_and_beyond_the_original_context(changes):
    """Short factors while the text fits original_max_position_embeddings (16), long
    factors for every position once it is longer."""
    hf = build("phi3", **{"rope_parameters": LONGROPE, "original_max_position_embeddings": 16, **changes})
    ours, _ = load(hf)
    assert (ours.cfg.rope_scaling, ours.cfg.rope_original_len, ours.cfg.rope_factor) == ("longrope", 16, 4.0)
    assert ours.cfg.rope_long_factor == tuple(LONGROPE["long_factor"])
    for n in (12, 16, 17, 30):
        assert_parity(ours, hf, ids(n=n, seed=n))


@pytest.mark.parametrize("spelling", ["longrope", "su"])
def test_longrope_hub_spelling(tmp_path, spelling):
    """Phi-3-mini-128k's config.json: rope_scaling {"type": "longrope"} (older revisions:
    "su", which Phi3Config also reads as longrope), rope_theta, partial_rotary_factor and
    original_max_position_embeddings at the top level."""
    hf = build("phi3", rope_parameters=LONGROPE, original_max_position_embeddings=16)
    hf.save_pretrained(tmp_path, safe_serialization=True)
    doc = json.loads((tmp_path / "config.json").read_text())
    doc.pop("rope_parameters")
    doc.update(rope_theta=10000.0, partial_rotary_factor=0.75, original_max_position_embeddings=16,
               rope_scaling={"type": spelling, "short_factor": LONGROPE["short_factor"],
                             "long_factor": LONGROPE["long_factor"]})
    (tmp_path / "config.json").write_text(json.dumps(doc))
    ours, _ = load(str(tmp_path))
    assert ours.cfg == load(hf)[0].cfg
    assert_parity(ours, hf, ids(n=20))


def test_longrope_original_context_is_read_from_the_top_level():
    """Phi3Config takes original_max_position_embeddings from the top of config.json
    (default 4096), never from the rope dict."""
    doc = {**build("phi3", rope_parameters=LONGROPE, original_max_position_embeddings=16).config.to_dict()}
    doc["rope_parameters"] = {**doc["rope_parameters"], "original_max_position_embeddings": 8}
    assert pretrained.config_from_hf(doc).rope_original_len == 16
    doc.pop("original_max_position_embeddings")
    doc["max_position_embeddings"] = 8192
    assert pretrained.config_from_hf(doc).rope_original_len == 4096


def test_longrope_generation():
    """Within the original context the KV cache is exact (short factors throughout);
    beyond it the angles of every position change with the length, so greedy decoding
    recomputes: it picks transformers' tokens (whose generate drops its cache when the
    text outgrows original_max_position_embeddings)."""
    from lab import generate

    hf = build("phi3", rope_parameters=LONGROPE, original_max_position_embeddings=16)
    ours, _ = load(hf)
    prompt = ids(batch=1, n=6, seed=7)[0].tolist()
    for new, cache in ((10, True), (10, False), (20, False)):
        ours_ids = generate.generate(ours, prompt, generate.Settings(max_new_tokens=new, use_cache=cache)).ids
        with torch.no_grad():
            theirs = hf.generate(torch.tensor([prompt]), max_new_tokens=new, min_new_tokens=new, do_sample=False,
                                 pad_token_id=0)
        assert ours_ids == theirs[0].tolist(), (new, cache)


# ---- what each family is -------------------------------------------------------------------------
def test_configs_say_what_each_family_is():
    cfg = {f: load(tiny_hf.build(f))[0].cfg for f in FAMILIES}
    p3 = cfg["phi3"]
    assert (p3.norm, p3.activation, p3.kv_heads, p3.rotary_dim, p3.tie_embeddings, p3.bias, p3.norm_eps) == \
        ("rmsnorm", "swiglu", 2, 12, False, False, 1e-5)
    assert (p3.attention.kind, p3.attention.window) == ("local", 7)
    p = cfg["phi"]
    assert (p.parallel_residual, p.shared_block_norm, p.unembed_bias, p.bias, p.rotary_dim, p.activation) == \
        (True, True, True, True, 6, "gelu_tanh")
    s = cfg["stablelm"]
    assert (s.parallel_residual, s.shared_block_norm, s.bias, s.qkv_bias, s.rotary_dim, s.norm, s.norm_bias) == \
        (True, True, False, True, 4, "layernorm", True)
    o = cfg["opt"]
    assert (o.positional, o.pos_offset, o.activation, o.tie_embeddings, o.norm_position) == \
        ("learned", 2, "relu", True, "pre")
    post = load(build("opt", do_layer_norm_before=False))[0]
    assert post.cfg.norm_position == "post" and not post.cfg.final_norm and not hasattr(post, "ln_final")
    from models.transformer import Transformer
    for c in [*cfg.values(), post.cfg]:   # the size known from the config alone is the model's
        assert safety.parameter_count(c)[0] == Transformer(c, device="cpu").n_params


def test_phi3_fused_rows_of_unequal_parts():
    """qkv_proj = [Q (4 heads × 16) | K (2 × 16) | V (2 × 16)]; gate_up_proj = [gate | up]."""
    hf = build("phi3")
    ours, _ = load(hf)
    layer = hf.model.layers[1]
    qkv = layer.self_attn.qkv_proj.weight                    # [128, 64]
    assert qkv.shape == (128, 64)
    b = ours.blocks[1]
    assert torch.equal(b.attn.W_Q.weight, qkv[:64]) and torch.equal(b.attn.W_K.weight, qkv[64:96])
    assert torch.equal(b.attn.W_V.weight, qkv[96:])
    gate_up = layer.mlp.gate_up_proj.weight
    assert torch.equal(b.mlp.W_gate.weight, gate_up[:128]) and torch.equal(b.mlp.W_in.weight, gate_up[128:])


def test_phi_reads_one_norm_in_both_branches():
    ours, _ = load(build("phi"))
    assert not hasattr(ours.blocks[0], "ln2")
    _, t = ours.run_with_cache(ids(batch=1, n=6))
    for i in range(ours.cfg.n_layers):
        b = f"blocks.{i}."
        assert torch.allclose(t[b + "hook_resid_post"], t[b + "hook_resid_pre"] + t[b + "hook_attn_out"]
                              + t[b + "hook_mlp_out"], atol=1e-6)


def test_phi3_window_convention():
    """HF (create_sliding_window_causal_mask, applied in eager attention too): query q sees
    keys q - W + 1 .. q, W keys including itself."""
    hf = build("phi3", sliding_window=4)
    ours, _ = load(hf)
    _, trace = ours.run_with_cache(ids(batch=1, n=12))
    p = trace["blocks.0.attn.hook_pattern"][0, 0]             # [q, k]
    assert (p > 0).sum(-1).tolist() == [1, 2, 3, 4] + [4] * 8
    assert p[10, 7] > 0 and p[10, 6] == 0
    assert_parity(ours, hf, ids(batch=1, n=12))


def test_a_window_at_least_the_context_is_plain_causal():
    hf = build("phi3", sliding_window=64)                     # = max_position_embeddings
    ours, _ = load(hf)
    assert ours.cfg.attention.kind == "causal"
    assert_parity(ours, hf, ids())


def test_opt_positions_start_at_row_two():
    hf = build("opt")
    ours, _ = load(hf)
    table = hf.model.decoder.embed_positions.weight
    assert ours.pos_embed.weight.shape == table.shape == (66, 64)
    _, t = ours.run_with_cache(ids(batch=1, n=5))
    assert torch.equal(t["hook_pos_embed"][0], table[2:7])


# ---- refusals: a CheckpointError that names the setting -------------------------------------------
REFUSED = [
    ("phi3", dict(sliding_window=1), "sliding_window"),
    ("phi3", dict(hidden_act="relu"), "hidden_act"),
    ("phi3", dict(rope_parameters={"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.05}),
     "partial_rotary_factor"),
    ("phi", dict(hidden_act="tanh"), "hidden_act"),
    ("phi", dict(qk_layernorm=True, head_dim=8), "head_dim"),
    ("stablelm", dict(qk_layernorm=True), "qk_layernorm"),
    ("stablelm", dict(hidden_act="relu"), "hidden_act"),
    ("stablelm", dict(head_dim=8), "head_dim"),
    ("opt", dict(word_embed_proj_dim=32), "word_embed_proj_dim"),
    ("opt", dict(_remove_final_layer_norm=True), "_remove_final_layer_norm"),
    ("opt", dict(layer_norm_elementwise_affine=False), "layer_norm_elementwise_affine"),
    ("opt", dict(activation_function="tanh"), "activation_function"),
]


@pytest.mark.parametrize("family, changes, setting", REFUSED)
def test_unsupported_variants_are_refused(family, changes, setting):
    hf_config = {**tiny_hf.build(family).config.to_dict(), **changes}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(hf_config)
    assert e.value.reason == "unsupported_variant"
    assert setting in e.value.values["feature"] and setting in str(e.value)


def test_post_norm_opt_ignores_remove_final_layer_norm():
    """HF builds no final layer norm for a post-norm OPT either way."""
    doc = {**tiny_hf.build("opt").config.to_dict(), "do_layer_norm_before": False, "_remove_final_layer_norm": True}
    assert pretrained.config_from_hf(doc).norm_position == "post"


@pytest.mark.parametrize("family, changes, setting", [
    ("opt", dict(word_embed_proj_dim=32), "word_embed_proj_dim"),          # OPT-350m: project_in / project_out
    ("stablelm", dict(qk_layernorm=True), "qk_layernorm"),                  # StableLM 2 12B
])
def test_real_variants_refused_in_a_folder_before_any_tensor(tmp_path, family, changes, setting):
    build(family, **changes).save_pretrained(tmp_path, safe_serialization=True)
    with pytest.raises(CheckpointError, match=setting) as e:
        pretrained.check_folder(tmp_path)
    assert e.value.reason == "unsupported_variant"

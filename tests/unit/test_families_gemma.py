"""Gemma 2, Gemma 3 (text only) and the language model of a multimodal Gemma 3: parity with
Hugging Face transformers (float32, eager attention) on tiny random models built from
models/weights/tiny_hf.py (no download), from memory and from a saved folder, at 20 tokens
against a sliding window of 4 (4 layers, both layer kinds, head_dim 24 != 64 / 4, GQA); the
older config.json spellings; KV-cached greedy continuation; the refusals."""
import copy
import json

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()

from models.kv_cache import KVCache  # noqa: E402
from models.transformer import Transformer  # noqa: E402
from models.weights import gemma, pretrained, tiny_hf  # noqa: E402
from tests.unit.families import ids  # noqa: E402
from models.weights.keytable import CheckpointError  # noqa: E402
from models.weights.pretrained import load  # noqa: E402

TOL = 1e-5
FAMILIES = ("gemma2", "gemma3_text", "gemma3")


def run_hf(hf, ids, mask=None):
    with torch.no_grad():
        return hf(ids, attention_mask=mask, output_attentions=True, output_hidden_states=True)


def max_diffs(ours, hf, ids, mask=None):
    """(hidden, attention, logits): the largest |ours - HF| over every layer's hidden state,
    every attention probability and the logits; with a padding mask, at the real
    positions only (the rows of padding queries mean nothing in either model)."""
    out, trace = ours.run_with_cache(ids, attention_mask=mask)
    ref = run_hf(hf, ids, mask)
    n = ours.cfg.n_layers
    assert len(ref.attentions) == n and len(ref.hidden_states) == n + 1
    real = torch.ones(ids.shape, dtype=torch.bool) if mask is None else mask.bool()

    def diff(a, b, rows):                     # rows: [b, pos] -> the positions compared
        return float((a - b).abs()[rows].max())

    # HF's hidden_states[i] is the stream entering layer i; the last one is after the final norm
    ours_h = [trace[f"blocks.{i}.hook_resid_pre"] for i in range(n)] + [trace["ln_final.hook_normalized"]]
    hidden = [diff(a, b, real) for a, b in zip(ours_h, ref.hidden_states)]
    attn = []
    for i in range(n):
        p = trace[f"blocks.{i}.attn.hook_pattern"]
        assert p.shape == ref.attentions[i].shape
        attn.append(diff(p.transpose(1, 2), ref.attentions[i].transpose(1, 2), real))   # [b, q, head, k]
    return max(hidden), max(attn), diff(out, ref.logits, real)


def assert_parity(ours, hf, ids, mask=None):
    h, a, lg = max_diffs(ours, hf, ids, mask)
    assert h <= TOL, f"hidden state differs by {h:.2e}"
    assert a <= TOL, f"attention differs by {a:.2e}"
    assert lg <= TOL, f"logits differ by {lg:.2e}"
    return h, a, lg


def build(family, sharpen=False, top=None, **changes):
    """A tiny random HF model of `family`, its (text) config changed by `changes` (gemma3:
    `top` changes the multimodal config itself), every norm weight moved off 0 (HF starts
    Gemma's (1 + w) norms at w = 0, which would hide a missing norm or a plain w).
    sharpen: queries × 8 and embeddings × 10, so that scores and logits are large enough
    for a soft-cap to bend them."""
    spec = tiny_hf.TINY[family]
    kwargs = copy.deepcopy(spec.kwargs)
    if family == "gemma3":
        kwargs["text_config"].update(changes)
        kwargs.update(top or {})
    else:
        kwargs.update(changes)
    config = getattr(transformers, spec.config_class)(**kwargs)
    torch.manual_seed(0)
    hf = getattr(transformers, spec.model_class)(config).float().eval()
    hf.set_attn_implementation("eager")
    with torch.no_grad():
        for name, p in hf.named_parameters():
            if p.dim() == 1:
                p.add_(torch.randn_like(p) * 0.1)
            if sharpen and name.endswith("q_proj.weight"):
                p.mul_(8.0)
            if sharpen and name.endswith("embed_tokens.weight"):
                p.mul_(10.0)
    return hf


NO_CAPS = dict(attn_logit_softcapping=None, final_logit_softcapping=None)
VARIANTS = [
    ("gemma2", {}),                                          # soft-caps 1.0, window 4 on layers 0 and 2
    ("gemma2", NO_CAPS),
    ("gemma2", dict(attn_logit_softcapping=None)),           # the logit cap alone
    ("gemma2", dict(final_logit_softcapping=None)),          # the score cap alone
    ("gemma2", dict(num_key_value_heads=1, head_dim=16, sliding_window=2)),   # MQA, a window of 2 keys
    ("gemma2", dict(tie_word_embeddings=False, query_pre_attn_scalar=24)),    # an lm_head of its own
    ("gemma2", dict(layer_types=["full_attention", "sliding_attention", "sliding_attention", "full_attention"])),
    ("gemma2", dict(hidden_activation="gelu")),              # exact GELU gate
    ("gemma2", dict(rope_parameters={"rope_type": "linear", "factor": 2.0, "rope_theta": 500.0})),
    ("gemma3_text", {}),                                     # local base 100, global 10000 linear ×2
    ("gemma3_text", dict(rope_parameters=None)),             # defaults: 1e4 local, 1e6 global, unscaled
    ("gemma3_text", dict(num_hidden_layers=6, sliding_window_pattern=6)),    # five sliding layers in six
    ("gemma3_text", dict(final_logit_softcapping=1.0)),     # honoured, as Gemma3ForCausalLM does
    ("gemma3_text", dict(attn_logit_softcapping=1.0)),      # transformers never applies it to Gemma 3
    ("gemma3_text", dict(num_key_value_heads=4, tie_word_embeddings=False)),
    ("gemma3_text", dict(rope_parameters={
        "sliding_attention": {"rope_type": "default", "rope_theta": 10.0},
        "full_attention": {"rope_type": "yarn", "factor": 4.0, "rope_theta": 10000.0,
                           "original_max_position_embeddings": 8}})),
    ("gemma3_text", dict(rope_parameters={
        "sliding_attention": {"rope_type": "default", "rope_theta": 10.0},
        "full_attention": {"rope_type": "llama3", "factor": 4.0, "rope_theta": 10000.0, "low_freq_factor": 1.0,
                           "high_freq_factor": 4.0, "original_max_position_embeddings": 8}})),
    ("gemma3", {}),
    ("gemma3", dict(final_logit_softcapping=1.0)),          # Gemma3ForConditionalGeneration applies no cap
]


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_parity_in_memory(family, changes):
    hf = build(family, **changes)
    ours, tok = load(hf)
    assert tok is None
    assert_parity(ours, hf, ids())


def test_dynamic_rope_on_global_layers_past_the_trained_length():
    """Dynamic NTK on the full-attention layers only: at 80 tokens (> max_position_embeddings
    64) their base grows, the sliding layers' does not."""
    hf = build("gemma3_text", rope_parameters={"sliding_attention": {"rope_type": "default", "rope_theta": 10.0},
                                               "full_attention": {"rope_type": "dynamic", "factor": 2.0,
                                                                  "rope_theta": 10000.0}})
    ours, _ = load(hf)
    assert (ours.cfg.rope_scaling, ours.cfg.rope_local_base) == ("dynamic", 10.0)
    assert_parity(ours, hf, ids(batch=1, n=80))


@pytest.mark.parametrize("family, changes", [("gemma2", {}), ("gemma3_text", dict(final_logit_softcapping=2.0)),
                                             ("gemma2", dict(final_logit_softcapping=None))])
def test_parity_where_the_soft_caps_bend(family, changes):
    """Queries × 8 and embeddings × 10: the caps change scores and logits by far more than
    the tolerance, and we still match."""
    hf = build(family, sharpen=True, **changes)
    ours, _ = load(hf)
    assert_parity(ours, hf, ids())
    uncapped = Transformer.from_state(ours.cfg.replace(attn_softcap=None, logit_softcap=None), ours.state_dict())
    x = ids()
    out, t = ours.run_with_cache(x)
    out2, t2 = uncapped.run_with_cache(x)
    if ours.cfg.logit_softcap is not None:
        assert (out - out2).abs().max() > 1e-2
    if ours.cfg.attn_softcap is not None:
        assert (t["blocks.1.attn.hook_pattern"] - t2["blocks.1.attn.hook_pattern"]).abs().max() > 1e-2


def test_configs_say_what_each_family_is():
    g2 = load(tiny_hf.build("gemma2"))[0].cfg
    assert (g2.norm_position, g2.norm_plus_one, g2.embed_scale, g2.activation, g2.qk_norm) == \
        ("sandwich", True, True, "geglu", "none")
    assert (g2.local_layers, g2.local_window, g2.attn_softcap, g2.logit_softcap) == ((0, 2), 3, 1.0, 1.0)
    assert g2.attn_scale == 20 ** -0.5 and g2.head_dim == 24 and g2.kv_heads == 2 and g2.tie_embeddings
    assert g2.rope_local_base is None
    g3 = load(tiny_hf.build("gemma3_text"))[0].cfg
    assert (g3.qk_norm, g3.local_layers, g3.local_window, g3.attn_softcap, g3.logit_softcap) == \
        ("head", (0, 1, 3), 3, None, None)
    assert (g3.rope_base, g3.rope_local_base, g3.rope_scaling, g3.rope_factor) == (10000.0, 100.0, "linear", 2.0)
    assert load(tiny_hf.build("gemma3"))[0].cfg == g3
    from models.weights import safety
    for c in (g2, g3):
        assert safety.parameter_count(c)[0] == Transformer(c, device="cpu").n_params


def test_window_convention():
    """transformers 5: query q sees keys q - W < k <= q on a sliding layer (W keys, itself
    included); a full layer sees every earlier key."""
    hf = build("gemma2", sliding_window=4)
    ours, _ = load(hf)
    _, trace = ours.run_with_cache(ids(batch=1, n=12))
    local = trace["blocks.0.attn.hook_pattern"][0, 0]          # [q, k]
    assert (local > 0).sum(-1).tolist() == [1, 2, 3, 4] + [4] * 8
    assert local[10, 7] > 0 and local[10, 6] == 0
    full = trace["blocks.1.attn.hook_pattern"][0, 0]
    assert (full > 0).sum(-1).tolist() == list(range(1, 13))
    assert_parity(ours, hf, ids(batch=1, n=12))


def test_embedding_scale_rounds_as_hf_does():
    """HF multiplies by √hidden_size held in the weights' dtype; in float32 our product is
    the same number bit for bit, also where √d is not exact (√40)."""
    hf = build("gemma3_text", hidden_size=40)
    ours, _ = load(hf)
    x = ids()
    _, trace = ours.run_with_cache(x, names=["hook_embed"])
    with torch.no_grad():
        theirs = hf.model.embed_tokens(x)
    assert torch.equal(trace["hook_embed"], theirs)
    assert_parity(ours, hf, x)


@pytest.mark.parametrize("family", FAMILIES)
def test_right_padded_batch(family):
    hf = build(family)
    ours, _ = load(hf)
    x = ids(batch=2, n=20, seed=5)
    mask = torch.ones_like(x)
    mask[1, 13:] = 0                                          # row 1: 13 real tokens, then padding
    assert_parity(ours, hf, x, mask)


@pytest.mark.parametrize("family", FAMILIES)
def test_parity_from_a_folder(tmp_path, family):
    hf = build(family)
    hf.save_pretrained(tmp_path, safe_serialization=True)
    (tmp_path / "tokenizer.json").write_text(tiny_hf.char_tokenizer_json(), encoding="utf-8")
    ours, tok = load(str(tmp_path))
    assert tok is not None and tok.vocab_size <= ours.cfg.vocab_size
    assert_parity(ours, hf, ids(batch=1, n=24, seed=3))
    assert_parity(ours, hf, ids(batch=2, n=11, seed=4))


def test_untied_multimodal_head_from_a_folder(tmp_path):
    """An untied multimodal Gemma 3 saves its head as language_model.lm_head.weight."""
    hf = build("gemma3", top=dict(tie_word_embeddings=False))
    hf.save_pretrained(tmp_path, safe_serialization=True)
    from safetensors import safe_open
    with safe_open(str(tmp_path / "model.safetensors"), "pt") as f:
        names = set(f.keys())
    assert "language_model.lm_head.weight" in names and "language_model.model.embed_tokens.weight" in names
    ours, _ = load(str(tmp_path))
    assert not ours.cfg.tie_embeddings
    assert_parity(ours, hf, ids())
    ours, _ = load(hf)                                          # in memory: model.language_model.*, lm_head
    assert_parity(ours, hf, ids())


@pytest.mark.parametrize("family", FAMILIES)
def test_tiny_save_writes_a_loadable_folder(tmp_path, family):
    tiny_hf.save(family, tmp_path)
    ours, tok = load(str(tmp_path))
    assert ours.cfg.vocab_size == tiny_hf.VOCAB and tok is not None


# ---- older config.json spellings (what the hub's files say) ------------------------------------
def _rewrite(folder, edit):
    doc = json.loads((folder / "config.json").read_text())
    edit(doc)
    (folder / "config.json").write_text(json.dumps(doc))
    return doc


def _same_as_transformers(folder):
    """transformers' reading of the rewritten folder's config (the tests check it gives the
    layer kinds and RoPE settings the model was built with, then test ours against it)."""
    return transformers.AutoConfig.from_pretrained(str(folder))


def test_gemma2_older_spelling(tmp_path):
    """gemma-2-2b's config.json: no layer_types (even layers slide), rope_theta at the top,
    hidden_act beside hidden_activation."""
    hf = build("gemma2")
    hf.save_pretrained(tmp_path, safe_serialization=True)

    def old(doc):
        for key in ("layer_types", "rope_parameters"):
            doc.pop(key)
        doc.update(rope_theta=10000.0, hidden_act="gelu_pytorch_tanh", cache_implementation="hybrid")
    _rewrite(tmp_path, old)
    theirs = _same_as_transformers(tmp_path)
    assert theirs.layer_types == hf.config.layer_types
    ours, _ = load(str(tmp_path))
    assert ours.cfg.local_layers == (0, 2)
    assert_parity(ours, hf, ids())


def test_gemma2_missing_keys_take_the_class_defaults():
    """A key left out means Gemma2Config's default (soft-caps 50 and 30, query_pre_attn_scalar
    256, window 4096); a null soft-cap means none."""
    doc = tiny_hf.build("gemma2").config.to_dict()
    for key in ("attn_logit_softcapping", "final_logit_softcapping", "query_pre_attn_scalar", "sliding_window"):
        doc.pop(key)
    cfg = pretrained.config_from_hf(doc)
    assert (cfg.attn_softcap, cfg.logit_softcap, cfg.attn_scale, cfg.local_window) == (50.0, 30.0, 256 ** -0.5, 4095)
    cfg = pretrained.config_from_hf({**doc, **NO_CAPS})
    assert (cfg.attn_softcap, cfg.logit_softcap) == (None, None)


@pytest.mark.parametrize("scaling", [None, {"rope_type": "linear", "factor": 2.0},
                                     {"type": "linear", "factor": 3.0}])
def test_gemma3_older_spelling(tmp_path, scaling):
    """gemma-3-1b's config.json: sliding_window_pattern, rope_theta, rope_local_base_freq and
    rope_scaling (global layers only), no layer_types nor rope_parameters."""
    rope = {"sliding_attention": {"rope_type": "default", "rope_theta": 100.0},
            "full_attention": {"rope_type": "default", "rope_theta": 10000.0, **(scaling or {})}}
    if scaling and "type" in scaling:
        rope["full_attention"]["rope_type"] = rope["full_attention"].pop("type")
    hf = build("gemma3_text", rope_parameters=rope)
    hf.save_pretrained(tmp_path, safe_serialization=True)

    def old(doc):
        for key in ("layer_types", "rope_parameters", "_sliding_window_pattern"):
            doc.pop(key)
        doc.update(sliding_window_pattern=3, rope_theta=10000, rope_local_base_freq=100, rope_scaling=scaling)
    _rewrite(tmp_path, old)
    theirs = _same_as_transformers(tmp_path)
    assert theirs.layer_types == hf.config.layer_types
    assert theirs.rope_parameters["full_attention"]["rope_theta"] == 10000
    assert theirs.rope_parameters["sliding_attention"]["rope_theta"] == 100
    ours, _ = load(str(tmp_path))
    assert (ours.cfg.local_layers, ours.cfg.rope_base, ours.cfg.rope_local_base) == ((0, 1, 3), 10000.0, 100.0)
    assert ours.cfg.rope_scaling == ("none" if scaling is None else "linear")
    assert_parity(ours, hf, ids())


def test_gemma3_default_pattern_without_layer_types():
    """No layer_types nor sliding_window_pattern: layer i slides unless (i + 1) % 6 == 0."""
    doc = tiny_hf.build("gemma3_text").config.to_dict()
    for key in ("layer_types", "sliding_window_pattern", "_sliding_window_pattern"):
        doc.pop(key)
    doc.update(num_hidden_layers=13)
    cfg = gemma.gemma3_text_config(doc)
    assert cfg.local_layers == tuple(i for i in range(13) if i not in (5, 11))
    assert transformers.Gemma3TextConfig(**{**doc, "rope_parameters": None}).layer_types == \
        ["sliding_attention" if i in cfg.local_layers else "full_attention" for i in range(13)]


def test_gemma3_4b_hub_config_reads_as_transformers_reads_it():
    """google/gemma-3-4b-it's config.json holds only the text settings that differ from
    Gemma3TextConfig's defaults; every other one is the default (vocabulary 262208, 8
    heads of 256, 4 kv heads, θ 1e6 global / 1e4 local, linear ×8 on global layers)."""
    hub = {"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
           "eoi_token_index": 256000, "eos_token_id": [1, 106], "image_token_index": 262144,
           "initializer_range": 0.02, "mm_tokens_per_image": 256, "model_type": "gemma3",
           "text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
                           "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                           "sliding_window": 1024},
           "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0",
           "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
                             "model_type": "siglip_vision_model", "num_attention_heads": 16,
                             "num_hidden_layers": 27, "patch_size": 14, "vision_use_head": False}}
    ours = pretrained.config_from_hf(hub)
    theirs = transformers.Gemma3Config(**{k: v for k, v in hub.items() if k not in ("architectures",
                                                                                  "torch_dtype")})
    text = theirs.text_config
    assert (ours.vocab_size, ours.d_model, ours.n_layers, ours.n_heads, ours.kv_heads, ours.head_dim, ours.d_ff) == \
        (text.vocab_size, text.hidden_size, text.num_hidden_layers, text.num_attention_heads,
         text.num_key_value_heads, text.head_dim, text.intermediate_size) == (262208, 2560, 34, 8, 4, 256, 10240)
    assert ours.local_layers == tuple(i for i, t in enumerate(text.layer_types) if t == "sliding_attention")
    assert ours.local_window == text.sliding_window - 1 == 1023
    assert (ours.rope_base, ours.rope_local_base, ours.rope_scaling, ours.rope_factor) == \
        (text.rope_parameters["full_attention"]["rope_theta"], text.rope_parameters["sliding_attention"]["rope_theta"],
         "linear", 8.0) == (1e6, 1e4, "linear", 8.0)
    assert ours.attn_scale == text.query_pre_attn_scalar ** -0.5 and ours.tie_embeddings
    assert (ours.attn_softcap, ours.logit_softcap, ours.qk_norm) == (None, None, "head")


def test_gemma_1_checkpoint_is_not_read_as_gemma_2():
    """Gemma 1 weights under model_type gemma2 miss the sandwich norms: refused by name."""
    hf = tiny_hf.build("gemma")
    doc = {**hf.config.to_dict(), "model_type": "gemma2"}
    with pytest.raises(CheckpointError, match="pre_feedforward_layernorm"):
        pretrained.from_weights(doc, hf.state_dict())


# ---- KV cache ------------------------------------------------------------------------------------
@pytest.mark.parametrize("family", FAMILIES)
def test_kv_cached_greedy_continuation_equals_uncached(family):
    """Past the window (prompt 6, 14 new tokens, window 4), the cached continuation is the
    uncached one, token for token, and so is transformers' own greedy choice; every cached
    step's logits equal a full forward's."""
    from lab import generate

    hf = build(family, sharpen=family == "gemma2")
    ours, _ = load(hf)
    prompt = ids(batch=1, n=6, seed=9)[0].tolist()
    cached = generate.generate(ours, prompt, generate.Settings(max_new_tokens=14, use_cache=True)).ids
    uncached = generate.generate(ours, prompt, generate.Settings(max_new_tokens=14, use_cache=False)).ids
    assert cached == uncached and len(cached) == 20
    seq = torch.tensor([prompt])
    with torch.no_grad():
        for _ in range(14):
            seq = torch.cat([seq, hf(seq).logits[:, -1].argmax(-1, keepdim=True)], dim=1)
    assert seq[0].tolist() == cached
    x = torch.tensor([cached])
    full = ours(x)
    cache = KVCache.empty(ours.cfg)
    steps = [ours(x[:, :6], cache=cache)] + [ours(x[:, i:i + 1], cache=cache) for i in range(6, 20)]
    assert (torch.cat(steps, dim=1) - full).abs().max() <= TOL


# ---- refusals: a CheckpointError that names the setting ---------------------------------------
REFUSED = [
    ("gemma2", dict(attention_bias=True), "attention_bias"),
    ("gemma2", dict(use_bidirectional_attention=True), "use_bidirectional_attention"),
    ("gemma2", dict(hidden_activation="silu"), "hidden_activation"),
    ("gemma2", dict(sliding_window=1), "sliding_window"),
    ("gemma2", dict(sliding_window=None), "sliding_window"),
    ("gemma2", dict(layer_types=["chunked_attention"] * 4), "layer_types"),
    ("gemma2", dict(layer_types=["full_attention"] * 3), "layer_types"),
    ("gemma2", dict(query_pre_attn_scalar=0), "query_pre_attn_scalar"),
    ("gemma2", dict(rope_parameters={"rope_type": "mrope", "factor": 2.0, "rope_theta": 1e4}), "rope_type"),
    ("gemma3_text", dict(use_bidirectional_attention=True), "use_bidirectional_attention"),
    ("gemma3_text", dict(rope_parameters={"sliding_attention": {"rope_type": "linear", "factor": 2.0},
                                          "full_attention": {"rope_type": "default"}}), "sliding_attention rope_type"),
    ("gemma3_text", dict(rope_parameters={"full_attention": {"rope_type": "mrope", "factor": 2.0}}), "rope_type"),
    ("gemma3_text", dict(rope_parameters={"rope_type": "default", "rope_theta": 1e4}), "rope_parameters"),
    ("gemma3_text", dict(layer_types=None, sliding_window_pattern=0), "sliding_window_pattern"),
    ("gemma3_text", dict(attention_bias=True), "attention_bias"),
]


@pytest.mark.parametrize("family, changes, setting", REFUSED)
def test_unsupported_variants_are_refused(family, changes, setting):
    hf_config = {**tiny_hf.build(family).config.to_dict(), **changes}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(hf_config)
    assert e.value.reason == "unsupported_variant"
    assert setting in e.value.values["feature"] and setting in str(e.value)


@pytest.mark.parametrize("changes, setting", [(dict(use_bidirectional_attention=True), "use_bidirectional_attention"),
                                              (dict(hidden_activation="relu"), "hidden_activation")])
def test_multimodal_text_settings_are_refused_too(changes, setting):
    doc = tiny_hf.build("gemma3").config.to_dict()
    doc["text_config"] = {**doc["text_config"], **changes}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(doc)
    assert e.value.reason == "unsupported_variant" and setting in e.value.values["feature"]


def test_multimodal_without_text_config_is_refused():
    doc = {k: v for k, v in tiny_hf.build("gemma3").config.to_dict().items() if k != "text_config"}
    with pytest.raises(CheckpointError, match="text_config"):
        pretrained.config_from_hf(doc)
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf({**doc, "text_config": "gemma3_text"})
    assert e.value.values["feature"] == "text_config"


def test_refused_in_a_folder_before_any_tensor(tmp_path):
    tiny_hf.save("gemma3_text", tmp_path)
    _rewrite(tmp_path, lambda doc: doc.update(use_bidirectional_attention=True))
    with pytest.raises(CheckpointError, match="use_bidirectional_attention"):
        pretrained.check_folder(tmp_path)

"""Qwen3, OLMo 2, SmolLM3 and Granite: parity with Hugging Face transformers (float32, eager
attention) on tiny random models (models/weights/tiny_hf.py, no download) — every hidden
state, attention probability and logit, from memory and from a saved folder, on a
right-padded batch, with a KV cache — the older config.json spellings, the refusals of
variants we do not implement, and the mixture-of-experts decoders refused by name."""
import json

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()

from models.weights import families, pretrained, tiny_hf  # noqa: E402
from models.weights.keytable import CheckpointError  # noqa: E402
from models.weights.pretrained import load  # noqa: E402
from tests.unit.families import build, ids  # noqa: E402
from tests.unit.test_families_llama3 import (TOL, assert_kv_cache_exact, assert_parity,  # noqa: E402
                                             assert_parity_from_a_folder, right_padded)

FAMILIES = ("qwen3", "olmo2", "smollm3", "granite")

VARIANTS = [
    ("qwen3", {}),                                            # q/k norms per head, head_dim 32, layer 2 slides (8)
    ("qwen3", dict(use_sliding_window=False, tie_word_embeddings=False, head_dim=16, num_key_value_heads=4)),
    ("qwen3", dict(layer_types=["sliding_attention", "full_attention", "sliding_attention"], sliding_window=5)),
    ("qwen3", dict(rope_parameters={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 16,
                                    "rope_theta": 1000000.0})),          # Qwen3's long-context YaRN
    ("olmo2", {}),                                            # output norms, q/k norms over the projection, GQA
    ("olmo2", dict(num_key_value_heads=4, tie_word_embeddings=True, rms_norm_eps=1e-6)),
    ("olmo2", dict(rope_parameters={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                    "high_freq_factor": 4.0, "original_max_position_embeddings": 16,
                                    "rope_theta": 500000.0})),
    ("smollm3", {}),                                          # layers 1 and 3 without RoPE
    ("smollm3", dict(no_rope_layers=[1, 1, 0, 1], tie_word_embeddings=False)),
    ("smollm3", dict(no_rope_layer_interval=4, use_sliding_window=True, sliding_window=6)),   # NoPE layer 3 slides
    ("granite", {}),                                          # the four multipliers
    ("granite", dict(attention_bias=True, mlp_bias=True, tie_word_embeddings=False)),
]


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_parity_in_memory_and_padded(family, changes):
    hf = build(family, **changes)
    ours, tok = load(hf)
    assert tok is None
    assert_parity(ours, hf, ids())
    x = ids(batch=2, n=20, seed=5)
    assert_parity(ours, hf, x, right_padded(x, [14, 20]))


@pytest.mark.parametrize("family", FAMILIES)
def test_parity_from_a_folder(tmp_path, family):
    ours = assert_parity_from_a_folder(tmp_path, build(family), ids(batch=1, n=24, seed=3))
    hf = build(family)
    assert_parity(ours, hf, ids(batch=2, n=11, seed=4))


@pytest.mark.parametrize("family", FAMILIES)
def test_tiny_save_writes_a_loadable_folder(tmp_path, family):
    tiny_hf.save(family, tmp_path)
    ours, tok = load(str(tmp_path))
    assert ours.cfg.vocab_size == tiny_hf.VOCAB and tok is not None


@pytest.mark.parametrize("family", FAMILIES)
def test_kv_cache_equals_a_full_forward(family):
    ours, _ = load(build(family))
    assert_kv_cache_exact(ours, ids(batch=2, n=16, seed=7))


def test_configs_say_what_each_family_is():
    from models.transformer import Transformer
    from models.weights import safety

    cfg = {f: load(tiny_hf.build(f))[0].cfg for f in FAMILIES}
    q = cfg["qwen3"]
    assert (q.qk_norm, q.head_dim, q.bias, q.local_layers, q.local_window, q.tie_embeddings) == \
        ("head", 32, False, (2,), 7, True)
    o = cfg["olmo2"]
    assert (o.norm_position, o.qk_norm, o.norm_eps, o.final_norm) == ("output", "full", 1e-5, True)
    assert cfg["smollm3"].nope_layers == (1, 3) and cfg["smollm3"].rope_base == 2000000.0
    g = cfg["granite"]
    assert (g.embed_multiplier, g.residual_multiplier, g.attn_scale, g.logit_divisor) == (12.0, 0.22, 0.2, 8.0)
    for c in cfg.values():   # the size known from the config alone is the model's
        assert safety.parameter_count(c)[0] == Transformer(c, device="cpu").n_params


def test_qwen3_window_convention():
    """A sliding layer's query q sees keys q - window + 1 .. q (window keys, itself included)."""
    hf = build("qwen3", sliding_window=4)
    ours, _ = load(hf)
    _, trace = ours.run_with_cache(ids(batch=1, n=12))
    p = trace["blocks.2.attn.hook_pattern"][0, 0]             # [q, k]
    assert (p > 0).sum(-1).tolist() == [1, 2, 3, 4] + [4] * 8
    assert ((trace["blocks.1.attn.hook_pattern"][0, 0] > 0).sum(-1) == torch.arange(1, 13)).all()   # full layer
    assert_parity(ours, hf, ids(batch=1, n=12))


def test_qwen3_older_config_json():
    """A hub Qwen3 config.json: no layer_types (the sliding layers come from use_sliding_window
    and max_window_layers) and, in an even older one, no head_dim (Qwen3Config's default
    128, not hidden_size / heads)."""
    doc = build("qwen3").config.to_dict()
    old = {k: v for k, v in doc.items() if k != "layer_types"}
    assert pretrained.config_from_hf(old) == pretrained.config_from_hf(doc)
    assert pretrained.config_from_hf({**old, "use_sliding_window": False}).local_layers == ()
    bare = {k: v for k, v in old.items() if k != "head_dim"}
    assert pretrained.config_from_hf(bare).head_dim == 128
    # sliding_window without use_sliding_window: transformers drops it
    assert pretrained.config_from_hf({**old, "use_sliding_window": False, "sliding_window": 4}).local_layers == ()


def test_smollm3_older_config_json_and_nope_hooks():
    """SmolLM3 on the hub: no_rope_layers written out, or only no_rope_layer_interval (older);
    no rope settings at all means θ = 2,000,000. NoPE layers have no rotation hooks."""
    doc = build("smollm3", no_rope_layer_interval=4).config.to_dict()
    old = {k: v for k, v in doc.items() if k not in ("no_rope_layers", "layer_types")}
    assert pretrained.config_from_hf(old) == pretrained.config_from_hf(doc)
    assert pretrained.config_from_hf(old).nope_layers == (3,)
    bare = {k: v for k, v in doc.items() if k not in ("rope_parameters", "rope_theta")}
    assert pretrained.config_from_hf(bare).rope_base == 2000000.0
    ours, _ = load(build("smollm3"))
    names = ours.hook_names()
    assert "blocks.0.attn.hook_rot_q" in names and "blocks.1.attn.hook_rot_q" not in names


def test_olmo2_norms_sit_on_the_outputs():
    """OLMo 2's block: x + norm(attn(x)), then + norm(mlp(·)); the hooks still add up."""
    hf = build("olmo2")
    ours, _ = load(hf)
    blk = ours.blocks[0]
    assert not hasattr(blk, "ln1") and not hasattr(blk, "ln2")
    assert torch.equal(blk.ln1_out.weight, hf.model.layers[0].post_attention_layernorm.weight)
    assert torch.equal(blk.ln2_out.weight, hf.model.layers[0].post_feedforward_layernorm.weight)
    assert blk.attn.q_norm.weight.shape == (64,) and blk.attn.k_norm.weight.shape == (32,)
    _, t = ours.run_with_cache(ids(batch=1, n=6))
    for i in range(ours.cfg.n_layers):
        b = f"blocks.{i}."
        torch.testing.assert_close(t[b + "hook_resid_mid"], t[b + "hook_resid_pre"] + t[b + "hook_attn_out"])
        torch.testing.assert_close(t[b + "hook_resid_post"], t[b + "hook_resid_mid"] + t[b + "hook_mlp_out"])


def test_qwen3_head_norms_are_read():
    hf = build("qwen3")
    ours, _ = load(hf)
    attn = ours.blocks[1].attn
    assert torch.equal(attn.q_norm.weight, hf.model.layers[1].self_attn.q_norm.weight)
    assert torch.equal(attn.k_norm.weight, hf.model.layers[1].self_attn.k_norm.weight)
    assert attn.q_norm.weight.shape == (32,)


# ---- refusals: a CheckpointError that names the setting ---------------------------------------
REFUSED = [
    ("qwen3", dict(attention_bias=True), "attention_bias"),
    ("qwen3", dict(hidden_act="gelu"), "hidden_act"),
    ("qwen3", dict(layer_types=["full_attention", "chunked_attention", "full_attention"]), "layer_types"),
    ("qwen3", dict(layer_types=["full_attention"]), "layer_types"),
    ("qwen3", dict(use_sliding_window=False, sliding_window=None,
                   layer_types=["full_attention", "sliding_attention", "full_attention"]), "sliding_window"),
    ("qwen3", dict(sliding_window=1), "sliding_window"),
    ("qwen3", dict(rope_parameters={"rope_type": "yarn", "factor": 4.0, "beta_slow": 2}), "beta_slow"),
    ("olmo2", dict(attention_bias=True), "attention_bias"),
    ("olmo2", dict(hidden_act="relu"), "hidden_act"),
    ("smollm3", dict(no_rope_layers=[1, 0]), "no_rope_layers"),
    ("smollm3", dict(no_rope_layers=None, no_rope_layer_interval=0), "no_rope_layer_interval"),
    ("smollm3", dict(mlp_bias=True), "mlp_bias"),
    ("granite", dict(attention_bias=True), "attention_bias"),
    ("granite", dict(hidden_act="gelu"), "hidden_act"),
]


@pytest.mark.parametrize("family, changes, setting", REFUSED)
def test_unsupported_variants_are_refused(family, changes, setting):
    hf_config = {**tiny_hf.build(family).config.to_dict(), **changes}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(hf_config)
    assert e.value.reason == "unsupported_variant"
    assert setting in e.value.values["feature"] and setting in str(e.value)


def test_refused_in_a_folder_before_any_tensor(tmp_path):
    tiny_hf.save("granite", tmp_path)
    doc = json.loads((tmp_path / "config.json").read_text())
    doc["attention_bias"] = True
    (tmp_path / "config.json").write_text(json.dumps(doc))
    with pytest.raises(CheckpointError, match="attention_bias"):
        pretrained.check_folder(tmp_path)


# ---- mixture of experts: refused with a sentence that says so -------------------------------------
MOE = [("MixtralConfig", "mixtral", "Mixtral"), ("Qwen2MoeConfig", "qwen2_moe", "Qwen2-MoE"),
       ("Qwen3MoeConfig", "qwen3_moe", "Qwen3-MoE"), ("OlmoeConfig", "olmoe", "OLMoE"),
       ("GraniteMoeConfig", "granitemoe", "Granite-MoE"), ("DeepseekV2Config", "deepseek_v2", "DeepSeek-V2"),
       ("DeepseekV3Config", "deepseek_v3", "DeepSeek-V3"), ("PhimoeConfig", "phimoe", "Phi-3.5-MoE")]


@pytest.mark.parametrize("config_class, model_type, name", MOE)
def test_mixture_of_experts_is_refused_by_name(config_class, model_type, name):
    doc = getattr(transformers, config_class)().to_dict()
    assert doc["model_type"] == model_type
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(doc)
    assert e.value.reason == "unsupported_variant"
    assert e.value.values == {"family": name, "feature": "mixture-of-experts"}
    assert "mixture-of-experts" in str(e.value) and "Unsupported architecture" not in str(e.value)
    assert model_type not in families.SUPPORTED


def test_mixture_of_experts_folder_is_refused_before_any_tensor(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(transformers.Qwen3MoeConfig().to_dict()))
    with pytest.raises(CheckpointError, match="mixture-of-experts"):
        load(str(tmp_path))


def test_other_unknown_types_are_still_unsupported_architectures():
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf({"model_type": "mamba"})
    assert e.value.reason == "unsupported_arch"


def test_a_padded_row_is_the_text_alone():
    """Right padding changes nothing at a row's real positions (the padded parity above
    compares only those; what the padded queries produce is unspecified, in HF too)."""
    hf = build("qwen3")
    ours, _ = load(hf)
    x = ids(batch=2, n=20, seed=5)
    mask = right_padded(x, [14, 20])
    with torch.no_grad():
        padded = ours(x, attention_mask=mask)
        alone = ours(x[:1, :14])
    assert float((padded[0, :14] - alone[0]).abs().max()) <= TOL

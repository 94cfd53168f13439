"""Qwen2, Gemma, Mistral (sliding window) and GPT-NeoX: parity with Hugging Face
transformers (float32, eager attention) on tiny random models built from
models/weights/tiny_hf.py (no download), from memory and from a saved folder; the
refusals of variants we do not implement."""
import json

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()

from models.kv_cache import KVCache  # noqa: E402
from models.weights import pretrained, safety, tiny_hf  # noqa: E402
from models.weights.keytable import CheckpointError, PerHead  # noqa: E402
from models.weights.pretrained import load  # noqa: E402
from tests.unit.families import build, ids  # noqa: E402

TOL = 1e-5
FAMILIES = ("qwen2", "gemma", "mistral", "gpt_neox")


def max_diffs(ours, hf, ids):
    """(hidden, attention, logits): the largest |ours - HF| over every layer's hidden
    state, every attention probability and the logits."""
    out, trace = ours.run_with_cache(ids)
    with torch.no_grad():
        ref = hf(ids, output_attentions=True, output_hidden_states=True)
    n = ours.cfg.n_layers
    assert len(ref.attentions) == n and len(ref.hidden_states) == n + 1
    hidden = [(trace["blocks.0.hook_resid_pre"] - ref.hidden_states[0]).abs().max()]
    attn = []
    for i in range(n):
        # HF's last hidden state of a pre-LN model is after the final norm
        ours_h = trace[f"blocks.{i}.hook_resid_post"] if i < n - 1 else trace["ln_final.hook_normalized"]
        hidden.append((ours_h - ref.hidden_states[i + 1]).abs().max())
        assert trace[f"blocks.{i}.attn.hook_pattern"].shape == ref.attentions[i].shape
        attn.append((trace[f"blocks.{i}.attn.hook_pattern"] - ref.attentions[i]).abs().max())
    return float(max(hidden)), float(max(attn)), float((out - ref.logits).abs().max())


def assert_parity(ours, hf, ids):
    h, a, lg = max_diffs(ours, hf, ids)
    assert h <= TOL, f"hidden state differs by {h:.2e}"
    assert a <= TOL, f"attention differs by {a:.2e}"
    assert lg <= TOL, f"logits differ by {lg:.2e}"
    return h, a, lg


VARIANTS = [
    ("qwen2", {}),                                           # tied embeddings, q/k/v bias
    ("qwen2", dict(tie_word_embeddings=False)),
    ("gemma", {}),                                           # head_dim 24 != 64 / 4, MQA
    ("gemma", dict(head_dim=16, num_key_value_heads=4)),
    ("mistral", {}),                                         # window 8 < 20 tokens
    ("mistral", dict(sliding_window=3)),
    ("mistral", dict(sliding_window=None)),                  # no window: plain causal
    ("gpt_neox", {}),                                        # parallel residual, 25% rotary
    ("gpt_neox", dict(use_parallel_residual=False, rotary_pct=1.0)),
    # RoPE context extension read from the checkpoint (models.positional.RopeScaling)
    ("qwen2", dict(rope_parameters={"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0})),
    ("qwen2", dict(rope_parameters={"rope_type": "yarn", "factor": 4.0, "rope_theta": 10000.0,
                                    "original_max_position_embeddings": 8})),
    ("mistral", dict(rope_parameters={"rope_type": "yarn", "factor": 2.5, "rope_theta": 500.0,
                                      "original_max_position_embeddings": 6})),
    ("llama", dict(rope_parameters={"rope_type": "yarn", "factor": 3.0, "rope_theta": 10000.0,
                                    "original_max_position_embeddings": 8})),
    ("gpt_neox", dict(rope_parameters={"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0,
                                       "partial_rotary_factor": 0.25})),
]


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_parity_in_memory(family, changes):
    hf = build(family, **changes)
    ours, tok = load(hf)
    assert tok is None
    assert_parity(ours, hf, ids())


@pytest.mark.parametrize("family", FAMILIES)
def test_parity_from_a_folder(tmp_path, family):
    hf = build(family)
    hf.save_pretrained(tmp_path, safe_serialization=True)
    (tmp_path / "tokenizer.json").write_text(tiny_hf.char_tokenizer_json(), encoding="utf-8")
    ours, tok = load(str(tmp_path))
    assert tok is not None and tok.vocab_size <= ours.cfg.vocab_size
    assert_parity(ours, hf, ids(batch=1, n=24, seed=3))
    assert_parity(ours, hf, ids(batch=2, n=11, seed=4))


@pytest.mark.parametrize("family", FAMILIES)
def test_tiny_save_writes_a_loadable_folder(tmp_path, family):
    tiny_hf.save(family, tmp_path)
    ours, tok = load(str(tmp_path))
    assert ours.cfg.vocab_size == tiny_hf.VOCAB and tok is not None


def test_configs_say_what_each_family_is():
    cfg = {f: load(tiny_hf.build(f))[0].cfg for f in FAMILIES}
    assert (cfg["qwen2"].bias, cfg["qwen2"].qkv_bias, cfg["qwen2"].tie_embeddings) == (False, True, True)
    g = cfg["gemma"]
    assert (g.activation, g.norm_plus_one, g.embed_scale, g.head_dim, g.tie_embeddings) == ("geglu", True, True, 24, True)
    assert (cfg["mistral"].attention.kind, cfg["mistral"].attention.window) == ("local", 7)
    n = cfg["gpt_neox"]
    assert (n.parallel_residual, n.rotary_dim, n.head_dim, n.norm, n.tie_embeddings) == (True, 4, 16, "layernorm", False)
    for c in cfg.values():   # the size known from the config alone is the model's
        from models.transformer import Transformer
        assert safety.parameter_count(c)[0] == Transformer(c, device="cpu").n_params


def test_mistral_window_convention():
    """HF: query q sees keys q - window + 1 .. q (window keys, itself included)."""
    hf = build("mistral", sliding_window=4)
    ours, _ = load(hf)
    _, trace = ours.run_with_cache(ids(batch=1, n=12))
    p = trace["blocks.0.attn.hook_pattern"][0, 0]             # [q, k]
    seen = (p > 0).sum(-1).tolist()
    assert seen == [1, 2, 3, 4] + [4] * 8
    assert p[10, 7] > 0 and p[10, 6] == 0
    assert_parity(ours, hf, ids(batch=1, n=12))


def test_local_window_kv_cache_equals_a_full_forward():
    hf = build("mistral", sliding_window=3)
    ours, _ = load(hf)
    x = ids(batch=1, n=14, seed=7)
    full = ours(x)
    cache = KVCache.empty(ours.cfg)
    steps = [ours(x[:, :5], cache=cache)] + [ours(x[:, i:i + 1], cache=cache) for i in range(5, 14)]
    assert (torch.cat(steps, dim=1) - full).abs().max() <= TOL


def test_neox_fused_rows_are_per_head():
    hf = build("gpt_neox")
    ours, _ = load(hf)
    qkv = hf.gpt_neox.layers[1].attention.query_key_value.weight      # [head * (q, k, v) * 16, 64]
    per_head = qkv.view(4, 3, 16, 64)
    assert torch.equal(ours.blocks[1].attn.W_K.weight, per_head[:, 1].reshape(64, 64))
    assert torch.equal(PerHead(2, 3, 4).take(torch.arange(12)), torch.tensor([2, 5, 8, 11]))
    assert not PerHead(0, 3, 4).fits(10)


def test_neox_parallel_hooks_add_up():
    ours, _ = load(build("gpt_neox"))
    _, t = ours.run_with_cache(ids(batch=1, n=6))
    for i in range(ours.cfg.n_layers):
        b = f"blocks.{i}."
        assert torch.allclose(t[b + "hook_resid_mid"], t[b + "hook_resid_pre"] + t[b + "hook_attn_out"])
        assert torch.allclose(t[b + "hook_resid_post"], t[b + "hook_resid_mid"] + t[b + "hook_mlp_out"])


def test_neox_fused_matrix_of_the_wrong_height_is_refused(tmp_path):
    from safetensors.torch import load_file, save_file
    build("gpt_neox").save_pretrained(tmp_path, safe_serialization=True)
    w = load_file(str(tmp_path / "model.safetensors"))
    w["gpt_neox.layers.0.attention.query_key_value.weight"] = torch.zeros(190, 64)
    save_file(w, str(tmp_path / "model.safetensors"))
    with pytest.raises(CheckpointError, match="query_key_value.weight' has shape"):
        load(str(tmp_path))


# ---- refusals: a CheckpointError that names the setting ---------------------------------------
REFUSED = [
    ("qwen2", dict(use_sliding_window=True), "use_sliding_window"),
    ("qwen2", dict(hidden_act="gelu"), "hidden_act"),
    ("qwen2", dict(rope_parameters={"rope_type": "proportional", "factor": 2.0}), "rope_type"),
    ("qwen2", dict(rope_parameters={"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 8,
                                    "beta_fast": 16}), "beta_fast"),
    ("qwen2", dict(rope_parameters={"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 8,
                                    "truncate": False}), "truncate"),
    ("mistral", dict(sliding_window=1), "sliding_window"),
    ("gemma", dict(attention_bias=True), "attention_bias"),
    ("gemma", dict(use_bidirectional_attention=True), "use_bidirectional_attention"),
    ("gemma", dict(hidden_act="silu"), "hidden_act"),
    ("gpt_neox", dict(attention_bias=False), "attention_bias"),
    ("gpt_neox", dict(hidden_act="silu"), "hidden_act"),
]


@pytest.mark.parametrize("family, changes, setting", REFUSED)
def test_unsupported_variants_are_refused(family, changes, setting):
    hf_config = {**tiny_hf.build(family).config.to_dict(), **changes}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(hf_config)
    assert e.value.reason == "unsupported_variant"
    assert setting in e.value.values["feature"] and setting in str(e.value)


def test_gemma2_is_not_gemma(tmp_path):
    """model_type gemma2 is read by Gemma 2's loader (models/weights/gemma.py), never by
    Gemma 1's: Gemma 1 weights lack its sandwich norms."""
    hf = tiny_hf.build("gemma")
    hf_config = {**hf.config.to_dict(), "model_type": "gemma2"}
    with pytest.raises(CheckpointError, match="pre_feedforward_layernorm"):
        pretrained.from_weights(hf_config, hf.state_dict())


def test_refused_in_a_folder_before_any_tensor(tmp_path):
    tiny_hf.save("qwen2", tmp_path)
    doc = json.loads((tmp_path / "config.json").read_text())
    doc["use_sliding_window"] = True
    (tmp_path / "config.json").write_text(json.dumps(doc))
    with pytest.raises(CheckpointError, match="use_sliding_window"):
        pretrained.check_folder(tmp_path)


# ---- the options are visible: model map and model card ------------------------------------------
def test_model_map_and_card_show_the_options():
    from viz_core.model_map import model_map as model_map_figure
    from lab.model_map import model_map
    from ui.views.home import card_rows

    texts = {}
    for f in FAMILIES:
        cfg = load(tiny_hf.build(f))[0].cfg
        fig = model_map_figure(model_map(cfg, 10))
        texts[f] = " ".join(a.text for a in fig.layout.annotations) + " ".join(fig.data[0].hovertext)
        card = card_rows(cfg)
        texts[f] += " ".join(card.values())
    assert "Q/K/V bias" in texts["qwen2"] and "Q/K/V bias" not in texts["mistral"]
    assert "RMSNorm × (1 + w)" in texts["gemma"] and "RMSNorm (1 + w)" in texts["gemma"]
    assert "|q − k| ≤ 7" in texts["mistral"]
    assert "parallel to attention" in texts["gpt_neox"] and "reads the block input" in texts["gpt_neox"]
    assert "attention and MLP in parallel" in texts["gpt_neox"] and "parallel" not in texts["qwen2"]


# ---- the lab's readings stay exact on the new options ------------------------------------------
@pytest.mark.parametrize("family", ["gemma", "gpt_neox"])
def test_lab_readings_on_plus_one_norms_and_parallel_blocks(family):
    """Gemma's norm multiplies by 1 + w and NeoX's ln2 reads the block input: the norm
    sites, the norm scatter's formula and the direct logit attribution account for it."""
    from lab import attribution
    from lab import norms
    from lab import residual

    model, _ = load(build(family))
    x = ids(batch=1, n=9)
    out, trace = model.run_with_cache(x)
    for site in residual.norm_inputs(model, trace):
        with torch.no_grad():
            torch.testing.assert_close(model.get_submodule(site.module)(site.input), site.output, atol=1e-5,
                                       rtol=1e-5)
    assert norms.norm_scatter(model, trace, "blocks.1.ln2").formula_error < 1e-4
    top = int(out[0, -1].argmax())
    att = attribution.direct_logit_attribution(model, trace, 8, top)
    assert att.logit == pytest.approx(float(out[0, 8, top]), abs=1e-5)
    assert abs(att.error) <= 1e-4


@pytest.mark.parametrize("head", ["embed_out.weight", "lm_head.weight"])
def test_pythia_style_folder(tmp_path, head):
    """Pythia on the hub: the head is embed_out.weight (transformers 5 saves that name but
    calls it lm_head.weight in memory; either is read) and the rotary settings sit at the
    top of config.json (rotary_pct, rotary_emb_base)."""
    from safetensors.torch import load_file, save_file
    hf = build("gpt_neox")
    hf.save_pretrained(tmp_path, safe_serialization=True)
    w = load_file(str(tmp_path / "model.safetensors"))
    w[head] = w.pop("embed_out.weight")
    save_file(w, str(tmp_path / "model.safetensors"))
    doc = json.loads((tmp_path / "config.json").read_text())
    doc.pop("rope_parameters", None)
    doc.update(rotary_pct=0.25, rotary_emb_base=10000, rope_scaling=None)
    (tmp_path / "config.json").write_text(json.dumps(doc))
    ours, _ = load(str(tmp_path))
    assert ours.cfg.rotary_dim == 4
    assert_parity(ours, hf, ids())


def test_gemma_legacy_activation_names():
    """Gemma 1 on the hub writes hidden_act "gelu" (HF reads it as the tanh GELU) and
    sometimes hidden_activation "gelu_pytorch_tanh"."""
    doc = {**tiny_hf.build("gemma").config.to_dict(), "hidden_act": "gelu", "hidden_activation": "gelu_pytorch_tanh"}
    assert pretrained.config_from_hf(doc).activation == "geglu"


def test_the_card_says_the_rope_extension():
    from ui.views.home import rope_note

    hf = build("qwen2", rope_parameters={"rope_type": "yarn", "factor": 4.0, "rope_theta": 10000.0,
                                         "original_max_position_embeddings": 8})
    ours, _ = load(hf)
    assert (ours.cfg.rope_scaling, ours.cfg.rope_factor, ours.cfg.rope_original_len) == ("yarn", 4.0, 8)
    assert rope_note(ours.cfg) == ", θ = 10,000, YaRN ×4 (trained on 8)"

"""RoBERTa, XLM-RoBERTa, DistilBERT, ELECTRA and ModernBERT (encoders: the last hidden state),
mT5 and Flan-T5-shaped T5 (encoder-decoders: logits): parity with Hugging Face transformers
(float32, eager attention) on tiny random models built from models/weights/tiny_hf.py (no
download), from memory and from a saved folder, every hidden state, attention probability
and output within 1e-5; a right-padded batch (real positions compared); the refusals of
variants we do not implement."""
import json

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()

from models import positional  # noqa: E402
from models.trace import act_name  # noqa: E402
from models.transformer import Transformer  # noqa: E402
from models.weights import pretrained, safety, tiny_hf  # noqa: E402
from models.weights.keytable import CheckpointError  # noqa: E402
from tests.unit.families import build  # noqa: E402
from models.weights.pretrained import load  # noqa: E402

TOL = 1e-5
ENCODERS = ("roberta", "xlm-roberta", "distilbert", "electra", "modernbert")


def ids(batch=2, n=20, seed=1, avoid=(0, 1)):
    """Random token ids that are never a pad id (RoBERTa's positions skip pad ids)."""
    x = torch.randint(2, tiny_hf.VOCAB, (batch, n), generator=torch.Generator().manual_seed(seed))
    for a in avoid:
        x[x == a] = max(avoid) + 1
    return x


def _pads(hf):
    return tuple({0, 1, hf.config.pad_token_id} - {None})


def _hidden(trace, cfg, i, n, stack="self"):
    """Ours for HF's hidden_states[i]: the stream entering block i; the last is after the
    final norm in a pre-norm model (ModernBERT, T5), after the last block in post-norm."""
    if i < n:
        return trace[act_name("resid_pre", i, stack)]
    return trace[act_name("ln_final.normalized", None, stack)] if cfg.final_norm \
        else trace[act_name("resid_post", n - 1, stack)]


def encoder_diffs(ours, hf, x, mask=None):
    """(hidden, attention, output): the largest |ours - HF| over every hidden state, every
    attention probability and the last hidden state; with a padding mask, over the real
    positions (and the attention rows of real queries) only."""
    kw = {} if mask is None else {"attention_mask": mask}
    out, trace = ours.run_with_cache(x, **kw)
    with torch.no_grad():
        ref = hf(x, output_attentions=True, output_hidden_states=True, **kw)
    n = ours.cfg.n_layers
    assert len(ref.attentions) == n and len(ref.hidden_states) == n + 1
    real = torch.ones_like(x, dtype=torch.bool) if mask is None else mask.bool()
    hidden = [(_hidden(trace, ours.cfg, i, n)[real] - h[real]).abs().max() for i, h in enumerate(ref.hidden_states)]
    attn = []
    for i, a in enumerate(ref.attentions):
        p = trace[f"blocks.{i}.attn.hook_pattern"]
        assert p.shape == a.shape
        attn.append((p.transpose(1, 2)[real] - a.transpose(1, 2)[real]).abs().max())
    return float(max(hidden)), float(max(attn)), float((out[real] - ref.last_hidden_state[real]).abs().max())


def assert_parity(ours, hf, x, mask=None):
    h, a, o = encoder_diffs(ours, hf, x, mask)
    assert h <= TOL, f"hidden state differs by {h:.2e}"
    assert a <= TOL, f"attention differs by {a:.2e}"
    assert o <= TOL, f"output differs by {o:.2e}"
    return h, a, o


MODERNBERT_NEW = dict(layer_types=["full_attention", "sliding_attention", "full_attention", "sliding_attention"],
                      rope_parameters={"full_attention": {"rope_type": "default", "rope_theta": 50000.0},
                                       "sliding_attention": {"rope_type": "default", "rope_theta": 500.0}})

VARIANTS = [
    ("roberta", {}),                                             # pad 1: positions from row 2
    ("roberta", dict(pad_token_id=3)),                           # positions from row 4
    ("roberta", dict(hidden_act="gelu_new", type_vocab_size=2)),
    ("xlm-roberta", {}),
    ("distilbert", {}),                                          # sinusoidal table (saved as weights)
    ("distilbert", dict(sinusoidal_pos_embds=False, activation="relu")),
    ("electra", {}),                                             # embeddings 32 -> projected to 64
    ("electra", dict(embedding_size=64)),                        # no projection
    ("electra", dict(embedding_size=96)),                        # wider embeddings, projected down
    ("modernbert", {}),                                          # old spelling: global every 3rd, window 4
    ("modernbert", MODERNBERT_NEW),                              # transformers 5 spelling, other bases
    ("modernbert", dict(global_attn_every_n_layers=2, local_attention=4, hidden_activation="gelu_pytorch_tanh")),
    ("modernbert", dict(attention_bias=True, mlp_bias=True, norm_bias=True, hidden_activation="silu")),
]


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_parity_in_memory(family, changes):
    hf = build(family, **changes)
    ours, tok = load(hf)
    assert tok is None and ours.cfg.output == "hidden"
    worst = assert_parity(ours, hf, ids(avoid=_pads(hf)))
    print(family, changes, [f"{v:.1e}" for v in worst])


@pytest.mark.parametrize("family, changes", VARIANTS)
def test_parity_right_padded_batch(family, changes):
    """The second row ends in padding (pad ids, attention_mask 0): real positions match."""
    hf = build(family, **changes)
    ours, _ = load(hf)
    x = ids(n=18, seed=5, avoid=_pads(hf))
    mask = torch.ones_like(x)
    mask[1, 11:] = 0
    x[1, 11:] = hf.config.pad_token_id
    assert_parity(ours, hf, x, mask)
    # real tokens give padding no attention at all
    _, trace = ours.run_with_cache(x, attention_mask=mask)
    assert trace["blocks.0.attn.hook_pattern"][1, :, :11, 11:].abs().max() == 0


@pytest.mark.parametrize("family", ENCODERS)
def test_parity_from_a_folder(tmp_path, family):
    tiny_hf.save(family, tmp_path)
    hf_config, cfg = pretrained.check_folder(tmp_path)
    ours, tok = load(str(tmp_path))
    assert tok is not None and tok.vocab_size <= ours.cfg.vocab_size and ours.cfg == cfg
    hf = tiny_hf.build(family)
    assert_parity(ours, hf, ids(batch=1, n=24, seed=3))
    assert_parity(ours, hf, ids(batch=2, n=11, seed=4))
    # the size known from the config alone is the model's
    assert safety.parameter_count(cfg)[0] == ours.n_params
    assert safety.expected_shapes(cfg) == {k: tuple(v.shape) for k, v in ours.state_dict().items()}


@pytest.mark.parametrize("family, model_class, prefix", [
    ("roberta", "RobertaForMaskedLM", "roberta."), ("xlm-roberta", "XLMRobertaForMaskedLM", "roberta."),
    ("distilbert", "DistilBertForMaskedLM", "distilbert."), ("electra", "ElectraForPreTraining", "electra."),
    ("modernbert", "ModernBertForMaskedLM", "model."),
])
def test_a_folder_with_a_head_loads_the_base_model(tmp_path, family, model_class, prefix):
    spec = tiny_hf.TINY[family]
    torch.manual_seed(0)
    hf = getattr(transformers, model_class)(getattr(transformers, spec.config_class)(**spec.kwargs)).eval()
    hf.set_attn_implementation("eager")
    hf.save_pretrained(tmp_path, safe_serialization=True)
    assert any(k.startswith(prefix) for k in safety.read_header(tmp_path / "model.safetensors").tensors)
    ours, _ = load(str(tmp_path))
    base = getattr(hf, prefix.rstrip("."))
    assert_parity(ours, base, ids(n=16, seed=8))


@pytest.mark.parametrize("family", ENCODERS + ("mt5",))
def test_tiny_save_writes_a_loadable_folder(tmp_path, family):
    tiny_hf.save(family, tmp_path)
    ours, tok = load(str(tmp_path))
    assert ours.cfg.vocab_size == tiny_hf.VOCAB and tok is not None


# ---- what each family is -----------------------------------------------------------------------
def test_configs_say_what_each_family_is():
    cfg = {f: load(tiny_hf.build(f))[0].cfg for f in ENCODERS}
    r = cfg["roberta"]
    assert (r.pos_offset, r.max_len, r.n_token_types, r.norm_position, r.pad_id) == (2, 64, 1, "post", 1)
    assert (cfg["xlm-roberta"].pos_offset, cfg["xlm-roberta"].max_len) == (2, 64)
    d = cfg["distilbert"]
    assert (d.positional, d.n_token_types, d.norm_eps, d.activation, d.norm_position) == \
        ("learned", 0, 1e-12, "gelu", "post")
    e = cfg["electra"]
    assert (e.d_embed, e.embed_dim, e.d_model) == (32, 32, 64)
    m = cfg["modernbert"]
    assert (m.local_layers, m.local_window, m.rope_base, m.rope_local_base) == ((1, 2), 4, 160000.0, 10000.0)
    assert (m.activation, m.bias, m.norm_bias, m.first_attn_norm, m.embed_norm, m.norm_position) == \
        ("geglu_exact", False, False, False, True, "pre")
    for c in cfg.values():
        assert c.arch == "encoder" and c.output == "hidden"
        assert safety.parameter_count(c)[0] == Transformer(c, device="cpu").n_params


def test_roberta_positions_read_row_pad_plus_one():
    for pad in (1, 3):
        hf = build("roberta", pad_token_id=pad)
        ours, _ = load(hf)
        table = hf.embeddings.position_embeddings.weight
        assert ours.pos_embed.weight.shape[0] == ours.cfg.max_len + pad + 1 == 66
        _, trace = ours.run_with_cache(ids(batch=1, n=7, avoid=(0, 1, pad)))
        assert torch.equal(trace["hook_pos_embed"][0], table[pad + 1:pad + 8])


def test_roberta_refuses_a_text_longer_than_its_positions():
    ours, _ = load(tiny_hf.build("roberta"))
    ours(ids(batch=1, n=64))
    with pytest.raises(ValueError, match="learned positions for only 64"):
        ours(ids(batch=1, n=65))


def test_distilbert_sinusoidal_table_is_saved_as_weights(tmp_path):
    tiny_hf.save("distilbert", tmp_path)
    tensors = safety.read_header(tmp_path / "model.safetensors").tensors
    assert tuple(tensors["embeddings.position_embeddings.weight"].shape) == (64, 64)
    ours, _ = load(str(tmp_path))
    # the saved rows are the Vaswani table (interleaved sin, cos), copied as they are
    assert (ours.pos_embed.weight - positional.sinusoidal(64, 64)).abs().max() < 1e-5


def test_electra_projects_narrow_embeddings():
    hf = tiny_hf.build("electra")
    ours, _ = load(hf)
    assert tuple(ours.embed.weight.shape) == (tiny_hf.VOCAB, 32) and tuple(ours.ln_embed.weight.shape) == (32,)
    assert torch.equal(ours.embed_proj.weight, hf.embeddings_project.weight)
    assert torch.equal(ours.embed_proj.bias, hf.embeddings_project.bias)
    _, trace = ours.run_with_cache(ids(batch=1, n=5))
    assert trace["hook_embed"].shape[-1] == 32 and trace["hook_embed_proj"].shape[-1] == 64


def test_modernbert_fused_matrices():
    hf = tiny_hf.build("modernbert")
    ours, _ = load(hf)
    layer = hf.layers[1]
    wqkv = layer.attn.Wqkv.weight.view(3, 64, 64)
    assert torch.equal(ours.blocks[1].attn.W_K.weight, wqkv[1])
    wi = layer.mlp.Wi.weight                                      # [input | gate]: act(input) * gate
    mlp = ours.blocks[1].mlp
    assert torch.equal(mlp.W_gate.weight, wi[:96]) and torch.equal(mlp.W_in.weight, wi[96:])
    assert not hasattr(ours.blocks[0], "ln1") and hasattr(ours.blocks[1], "ln1")
    assert ours.ln_final.bias is None


def test_modernbert_window_convention():
    """Sliding layers: |q - k| <= local_attention // 2; global layers (0, 3) see everything."""
    hf = tiny_hf.build("modernbert")                              # local_attention 8
    ours, _ = load(hf)
    x = ids(batch=1, n=20)
    _, trace = ours.run_with_cache(x)
    for layer in range(4):
        p = trace[f"blocks.{layer}.attn.hook_pattern"][0, 0]      # [q, k]
        seen = (p > 0).sum(-1).tolist()
        if layer in (0, 3):
            assert seen == [20] * 20
        else:
            assert seen == [5, 6, 7, 8] + [9] * 12 + [8, 7, 6, 5]
            assert p[10, 14] > 0 and p[10, 15] == 0 and p[10, 6] > 0 and p[10, 5] == 0
    assert_parity(ours, hf, x)


def _old_modernbert_config(hf_dict, every=3, glob=160000.0, local=10000.0):
    doc = {k: v for k, v in hf_dict.items() if k not in ("layer_types", "rope_parameters")}
    return {**doc, "global_attn_every_n_layers": every, "global_rope_theta": glob, "local_rope_theta": local}


def test_modernbert_both_config_spellings_agree():
    new = build("modernbert", **MODERNBERT_NEW).config.to_dict()
    assert "layer_types" in new and "rope_parameters" in new
    old = _old_modernbert_config(new, every=2, glob=50000.0, local=500.0)
    assert pretrained.config_from_hf(old) == pretrained.config_from_hf(new)
    # the old file's defaults: every 3rd layer global, bases 160000 and 10000
    bare = {k: v for k, v in _old_modernbert_config(new).items()
            if k not in ("global_attn_every_n_layers", "global_rope_theta", "local_rope_theta")}
    cfg = pretrained.config_from_hf(bare)
    assert (cfg.local_layers, cfg.rope_base, cfg.rope_local_base) == ((1, 2), 160000.0, 10000.0)


def test_modernbert_old_config_file(tmp_path):
    """A hub-era config.json (global_attn_every_n_layers, global/local_rope_theta, no
    layer_types nor rope_parameters): transformers and we read the same model from it."""
    tiny_hf.save("modernbert", tmp_path)
    doc = json.loads((tmp_path / "config.json").read_text())
    doc = _old_modernbert_config(doc, every=2, glob=20000.0, local=300.0)
    (tmp_path / "config.json").write_text(json.dumps(doc))
    ours, _ = load(str(tmp_path))
    assert (ours.cfg.local_layers, ours.cfg.rope_base, ours.cfg.rope_local_base) == ((1, 3), 20000.0, 300.0)
    hf = transformers.AutoModel.from_pretrained(str(tmp_path), attn_implementation="eager").float().eval()
    assert hf.config.layer_types == ["full_attention", "sliding_attention"] * 2
    assert_parity(ours, hf, ids(n=20, seed=9))


# ---- mT5 and Flan-T5 (untied heads) -----------------------------------------------------------
def seq2seq_diffs(ours, hf, src, tgt, src_mask=None):
    """{kind: max |ours - HF|} over every encoder and decoder hidden state, every self- and
    cross-attention probability and the logits (padded source positions left out)."""
    kw = {} if src_mask is None else {"attention_mask": src_mask}
    logits, trace = ours.run_with_cache(src, tgt, **kw)
    with torch.no_grad():
        ref = hf(input_ids=src, decoder_input_ids=tgt, output_attentions=True, output_hidden_states=True, **kw)
    n = ours.cfg.n_layers
    real = torch.ones_like(src, dtype=torch.bool) if src_mask is None else src_mask.bool()
    worst = {"hidden": 0.0, "attention": 0.0, "logits": float((logits - ref.logits).abs().max())}
    for stack, states in (("encoder", ref.encoder_hidden_states), ("decoder", ref.decoder_hidden_states)):
        assert len(states) == n + 1
        for i, h in enumerate(states):
            a = _hidden(trace, ours.cfg, i, n, stack)
            a, h = (a[real], h[real]) if stack == "encoder" else (a, h)
            worst["hidden"] = max(worst["hidden"], float((a - h).abs().max()))
    for stack, maps in (("encoder", ref.encoder_attentions), ("decoder", ref.decoder_attentions),
                        ("cross", ref.cross_attentions)):
        assert len(maps) == n
        for i, p in enumerate(maps):
            a = trace[act_name("pattern", i, stack)]
            assert a.shape == p.shape
            if stack == "encoder":
                a, p = a.transpose(1, 2)[real], p.transpose(1, 2)[real]
            worst["attention"] = max(worst["attention"], float((a - p).abs().max()))
    return worst


def assert_seq2seq_parity(ours, hf, src, tgt, src_mask=None):
    worst = seq2seq_diffs(ours, hf, src, tgt, src_mask)
    assert max(worst.values()) <= TOL, worst
    return worst


def untied_folder(family, folder, seed=0):
    """A hub-style folder of `family` (t5-v1_1: Flan-T5's shape; mt5): config.json with
    tie_word_embeddings false and no scale_decoder_outputs, and an lm_head.weight of its own
    in the safetensors. Returns the transformers model loaded from it (untied: transformers 5
    keeps a checkpoint's own lm_head when it differs from shared)."""
    from safetensors.torch import load_file, save_file

    tiny_hf.save(family, folder, seed)
    weights = load_file(str(folder / "model.safetensors"))
    assert "lm_head.weight" not in weights                     # transformers 5 saved it tied
    g = torch.Generator().manual_seed(seed + 7)
    weights["lm_head.weight"] = torch.randn(weights["shared.weight"].shape, generator=g) * 0.3
    save_file(weights, str(folder / "model.safetensors"), metadata={"format": "pt"})
    doc = json.loads((folder / "config.json").read_text())
    doc["tie_word_embeddings"] = False
    doc.pop("scale_decoder_outputs", None)
    (folder / "config.json").write_text(json.dumps(doc))
    hf = transformers.AutoModelForSeq2SeqLM.from_pretrained(str(folder), attn_implementation="eager").float().eval()
    assert hf.lm_head.weight is not hf.shared.weight
    assert torch.equal(hf.lm_head.weight, weights["lm_head.weight"])
    return hf


def _src_tgt(seed, b=2, n_src=13, n_tgt=7):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(2, tiny_hf.VOCAB, (b, n_src), generator=g),
            torch.randint(2, tiny_hf.VOCAB, (b, n_tgt), generator=g))


@pytest.mark.parametrize("family", ["mt5", "t5-v1_1"])
def test_untied_head_from_a_folder_memory_and_a_resave(tmp_path, family):
    """Flan-T5 (model_type t5, gated-gelu, tie_word_embeddings false) and mT5: the hub folder,
    the model transformers 5 loads from it (whose config then says tie_word_embeddings=true)
    and the folder transformers 5 saves from that model all give HF's logits."""
    hf = untied_folder(family, tmp_path / "hub")
    assert hf.config.to_dict()["tie_word_embeddings"] is True         # what transformers 5 says, untied or not
    src, tgt = _src_tgt(3)
    for source in (str(tmp_path / "hub"), hf):
        ours, _ = load(source)
        assert not ours.cfg.tie_embeddings and not ours.cfg.unembed_scale and ours.cfg.activation == "geglu"
        assert torch.equal(ours.unembed.weight, hf.lm_head.weight)
        assert not torch.equal(ours.unembed.weight, ours.embed.weight)
        worst = assert_seq2seq_parity(ours, hf, src, tgt)
        print(family, type(source).__name__, {k: f"{v:.1e}" for k, v in worst.items()})
    hf.save_pretrained(tmp_path / "resaved", safe_serialization=True)
    ours, _ = load(str(tmp_path / "resaved"))
    assert torch.equal(ours.unembed.weight, hf.lm_head.weight)
    assert_seq2seq_parity(ours, hf, src, tgt)


MT5_VARIANTS = [
    ("mt5", {}),                                                  # transformers 5 ties it in memory
    ("mt5", dict(feed_forward_proj="relu")),
    ("mt5", dict(feed_forward_proj="gated-silu", num_heads=2, d_kv=24)),
    ("t5-v1_1", {}),
]


@pytest.mark.parametrize("family, changes", MT5_VARIANTS)
def test_seq2seq_parity_in_memory(family, changes):
    hf = build(family, **changes)
    ours, tok = load(hf)
    assert tok is None and ours.cfg.arch == "encoder-decoder"
    src, tgt = _src_tgt(1)
    print(family, changes, {k: f"{v:.1e}" for k, v in assert_seq2seq_parity(ours, hf, src, tgt).items()})
    mask = torch.ones_like(src)
    mask[1, 9:] = 0
    src[1, 9:] = 0
    assert_seq2seq_parity(ours, hf, src, tgt, mask)


@pytest.mark.parametrize("family", ["mt5", "t5-v1_1"])
def test_seq2seq_parity_from_a_folder(tmp_path, family):
    tiny_hf.save(family, tmp_path)
    _, cfg = pretrained.check_folder(tmp_path)
    ours, tok = load(str(tmp_path))
    assert tok is not None and ours.cfg == cfg
    assert safety.parameter_count(cfg)[0] == ours.n_params
    assert_seq2seq_parity(ours, tiny_hf.build(family), *_src_tgt(4))


def test_mt5_config():
    cfg = pretrained.config_from_hf(tiny_hf.build("mt5").config.to_dict())
    assert (cfg.activation, cfg.tie_embeddings, cfg.unembed_scale, cfg.scale_attention, cfg.norm) == \
        ("geglu", False, False, False, "rmsnorm")
    # a config.json without feed_forward_proj is gated-gelu (MT5Config's default), not T5's relu
    doc = {k: v for k, v in tiny_hf.build("mt5").config.to_dict().items() if k != "feed_forward_proj"}
    assert pretrained.config_from_hf(doc).activation == "geglu"


def test_t5_v1_0_stays_tied_and_scaled():
    cfg = pretrained.config_from_hf(tiny_hf.build("t5").config.to_dict())
    assert (cfg.tie_embeddings, cfg.unembed_scale) == (True, True)
    doc = {**tiny_hf.build("t5-v1_1").config.to_dict(), "tie_word_embeddings": False}
    doc.pop("scale_decoder_outputs")                              # a hub Flan-T5 config.json
    flan = pretrained.config_from_hf(doc)
    assert (flan.tie_embeddings, flan.unembed_scale) == (False, False)


# ---- refusals: a CheckpointError that names the setting ---------------------------------------
REFUSED = [
    ("roberta", dict(position_embedding_type="relative_key"), "position_embedding_type"),
    ("roberta", dict(is_decoder=True), "is_decoder"),
    ("roberta", dict(hidden_act="silu"), "hidden_act"),
    ("roberta", dict(pad_token_id=None), "pad_token_id"),
    ("xlm-roberta", dict(position_embedding_type="relative_key_query"), "position_embedding_type"),
    ("electra", dict(position_embedding_type="relative_key"), "position_embedding_type"),
    ("electra", dict(is_decoder=True, add_cross_attention=True), "is_decoder"),
    ("distilbert", dict(activation="silu"), "activation"),
    ("modernbert", dict(attention_bias=True, mlp_bias=False), "attention_bias"),
    ("modernbert", dict(hidden_activation="relu"), "hidden_activation"),
    ("modernbert", dict(rope_parameters={"full_attention": {"rope_type": "linear", "factor": 2.0, "rope_theta": 1e4},
                                         "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}),
     "rope_type"),
    ("modernbert", dict(rope_scaling={"rope_type": "dynamic", "factor": 2.0}), "rope_type"),
    ("modernbert", dict(layer_types=["full_attention", "chunked_attention", "full_attention", "full_attention"]),
     "layer_types"),
    ("modernbert", dict(layer_types=["full_attention"]), "layer_types"),
    ("modernbert", dict(local_attention=1), "local_attention"),
    ("mt5", dict(feed_forward_proj="gated-relu6"), "feed_forward_proj"),
    ("mt5", dict(num_decoder_layers=3), "num_decoder_layers"),
]


@pytest.mark.parametrize("family, changes, setting", REFUSED)
def test_unsupported_variants_are_refused(family, changes, setting):
    hf_config = {**tiny_hf.build(family).config.to_dict(), **changes}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(hf_config)
    assert e.value.reason == "unsupported_variant"
    assert setting in e.value.values["feature"] and setting in str(e.value)


def test_refused_in_a_folder_before_any_tensor(tmp_path):
    tiny_hf.save("roberta", tmp_path)
    doc = json.loads((tmp_path / "config.json").read_text())
    doc["position_embedding_type"] = "relative_key"
    (tmp_path / "config.json").write_text(json.dumps(doc))
    with pytest.raises(CheckpointError, match="position_embedding_type"):
        pretrained.check_folder(tmp_path)

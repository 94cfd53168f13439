"""Parity of the encoder-decoder families (T5 v1.0 and v1.1, Marian, BART) with Hugging Face
transformers: tiny random models (models/weights/tiny_hf.py, nothing downloaded), float32,
eager attention. Every encoder and decoder hidden state, every self- and cross-attention
probability and the logits, from memory and from a saved folder; refusals name the setting."""
import json

import pytest
import torch

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()

from models.config import TransformerConfig  # noqa: E402
from models.trace import act_name  # noqa: E402
from models.weights import pretrained, safety, tiny_hf  # noqa: E402
from models.weights.pretrained import CheckpointError, load  # noqa: E402
from models.transformer import Transformer  # noqa: E402

TOL = 1e-5
FAMILIES = ("t5", "t5-v1_1", "marian", "bart")


def _close(ours: torch.Tensor, theirs: torch.Tensor, what: str) -> float:
    """Max |ours - theirs|, asserted within TOL of the values' own size (at least 1): the
    untied T5 v1.1 head (init std 1) gives logits of ~10, where float32 steps are 1e-6."""
    assert ours.shape == theirs.shape, f"{what}: {tuple(ours.shape)} vs {tuple(theirs.shape)}"
    diff = (ours - theirs).abs().max().item()
    assert diff <= TOL * max(1.0, theirs.abs().max().item()), f"{what}: {diff:.3g}"
    return diff


def _hidden_names(cfg: TransformerConfig, stack: str) -> list[str]:
    """Our hooks for HF's hidden states of one stack: the embeddings (after positions and
    BART's layernorm_embedding) and every block's output. A pre-LN stack (T5): HF's last
    hidden state is after the final norm (it replaces the last block's output)."""
    n = cfg.n_layers
    names = [act_name("embed" if cfg.norm_position == "pre" else "resid_pre", None if cfg.norm_position == "pre"
                      else 0, stack)]
    names += [act_name("resid_post", i, stack) for i in range(n)]
    if cfg.norm_position == "pre":
        names[-1] = act_name("ln_final.normalized", None, stack)
    return names


def assert_seq2seq_parity(ours, hf, src, tgt, src_mask=None, tgt_mask=None) -> dict[str, float]:
    """Max abs differences per kind of value; asserts each within TOL."""
    kw = {} if src_mask is None else {"attention_mask": src_mask}
    logits, trace = ours.run_with_cache(src, tgt, **kw)
    with torch.no_grad():
        ref = hf(input_ids=src, decoder_input_ids=tgt, output_attentions=True, output_hidden_states=True, **kw)
    cfg, n = ours.cfg, ours.cfg.n_layers
    worst = {"encoder hidden": 0.0, "decoder hidden": 0.0, "attention": 0.0, "logits": 0.0}
    for stack, states in (("encoder", ref.encoder_hidden_states), ("decoder", ref.decoder_hidden_states)):
        assert len(states) == n + 1
        for i, (name, h) in enumerate(zip(_hidden_names(cfg, stack), states)):
            a, b = trace[name], h
            if src_mask is not None and stack == "encoder":      # padded positions: compare real tokens only
                a, b = a[src_mask.bool()], b[src_mask.bool()]
            worst[f"{stack} hidden"] = max(worst[f"{stack} hidden"], _close(a, b, f"{stack} hidden state {i}"))
    for stack, maps in (("encoder", ref.encoder_attentions), ("decoder", ref.decoder_attentions),
                        ("cross", ref.cross_attentions)):
        assert len(maps) == n
        for i, p in enumerate(maps):
            ours_p = trace[act_name("pattern", i, stack)]
            if src_mask is not None and stack == "encoder":      # rows of padded queries are not used
                ours_p, p = ours_p.permute(0, 2, 1, 3)[src_mask.bool()], p.permute(0, 2, 1, 3)[src_mask.bool()]
            worst["attention"] = max(worst["attention"], _close(ours_p, p, f"{stack} attention {i}"))
    worst["logits"] = _close(logits, ref.logits, "logits")
    return worst


def _ids(seed: int, shape: tuple[int, int]) -> torch.Tensor:
    return torch.randint(2, tiny_hf.VOCAB, shape, generator=torch.Generator().manual_seed(seed))


@pytest.fixture(scope="module", params=FAMILIES)
def pair(request):
    hf = tiny_hf.build(request.param)
    ours, tok = load(hf)
    assert tok is None
    return request.param, ours, hf


def test_parity_from_memory(pair):
    family, ours, hf = pair
    assert ours.cfg.arch == "encoder-decoder"
    worst = assert_seq2seq_parity(ours, hf, _ids(0, (2, 9)), _ids(1, (2, 6)))
    print(family, {k: f"{v:.2g}" for k, v in worst.items()})


def test_parity_one_token_target(pair):
    _, ours, hf = pair
    assert_seq2seq_parity(ours, hf, _ids(2, (1, 5)), _ids(3, (1, 1)))


def test_parity_padded_source(pair):
    """A batch whose second source ends in padding: the real tokens' states, every
    decoder value (cross-attention must give padding exactly zero weight) and the logits."""
    _, ours, hf = pair
    mask = torch.ones(2, 8, dtype=torch.long)
    mask[1, 5:] = 0
    assert_seq2seq_parity(ours, hf, _ids(4, (2, 8)), _ids(5, (2, 4)), src_mask=mask)
    _, trace = ours.run_with_cache(_ids(4, (2, 8)), _ids(5, (2, 4)), attention_mask=mask)
    assert trace[act_name("pattern", 0, "cross")][1, :, :, 5:].abs().max() == 0


@pytest.mark.parametrize("family", FAMILIES)
def test_parity_from_folder(family, tmp_path):
    tiny_hf.save(family, tmp_path)
    hf_config, cfg = pretrained.check_folder(tmp_path)        # two stacks planned from the headers alone
    ours, tok = load(tmp_path)
    assert tok is not None and ours.cfg == cfg
    assert_seq2seq_parity(ours, tiny_hf.build(family), _ids(6, (2, 7)), _ids(7, (2, 5)))
    # the parameter count from the config alone is what the model holds
    params, buffers = safety.parameter_count(cfg)
    assert params == ours.n_params
    assert safety.expected_shapes(cfg) == {k: tuple(v.shape) for k, v in ours.state_dict().items()}
    del hf_config


@pytest.mark.parametrize("family,expect", [
    ("t5", dict(scale_attention=False, unembed_scale=True, tie_embeddings=True, activation="relu", norm="rmsnorm",
                positional="relative", bias=False)),
    # transformers 5 writes tie_word_embeddings=true and scale_decoder_outputs=false for v1.1, but keeps a checkpoint's
    # own lm_head (Flan-T5's): loaded untied, the head read from lm_head.weight (else shared.weight)
    ("t5-v1_1", dict(scale_attention=False, unembed_scale=False, tie_embeddings=False, activation="geglu")),
    ("marian", dict(positional="sinusoidal", sinusoidal_layout="halves", norm_position="post", activation="silu",
                    embed_scale=True, logit_bias=True)),
    ("bart", dict(positional="learned", pos_offset=2, embed_norm=True, norm_position="post", activation="gelu",
                  logit_bias=True)),
])
def test_config_mapping(family, expect):
    cfg = pretrained.config_from_hf(tiny_hf.build(family).config.to_dict())
    assert {k: getattr(cfg, k) for k in expect} == expect


def test_bart_positions_read_row_plus_two():
    hf = tiny_hf.build("bart")
    ours, _ = load(hf)
    table = hf.model.encoder.embed_positions.weight
    assert ours.encoder.pos_embed.weight.shape[0] == ours.cfg.max_len + 2
    _, trace = ours.run_with_cache(_ids(8, (1, 4)), _ids(9, (1, 3)))
    assert torch.equal(trace[act_name("pos_embed", None, "encoder")][0], table[2:6])


def test_marian_table_is_sin_cos_halves():
    from models import positional

    hf = tiny_hf.build("marian")
    ours, _ = load(hf)
    d = ours.cfg.d_model
    theirs = hf.model.encoder.embed_positions.weight[:10]
    assert (ours.encoder.pe_table[:10] - theirs).abs().max() <= 1e-6
    assert (ours.decoder.pe_table[:10] - hf.model.decoder.embed_positions.weight[:10]).abs().max() <= 1e-6
    inter = positional.sinusoidal(10, d)                       # the same numbers, dims permuted
    assert torch.equal(positional.sinusoidal(10, d, layout="halves"), torch.cat((inter[:, 0::2], inter[:, 1::2]), -1))


def test_relative_bucket_matches_hf():
    from transformers.models.t5.modeling_t5 import T5Attention

    from models import positional

    rel = torch.arange(-300, 300)[None, :] - torch.zeros(1, 1, dtype=torch.long)
    for bidirectional in (True, False):
        for buckets, dist in ((32, 128), (8, 20), (64, 256)):
            assert torch.equal(positional.relative_bucket(rel, bidirectional, buckets, dist),
                               T5Attention._relative_position_bucket(rel, bidirectional, buckets, dist))


def test_new_fields_default_to_old_behaviour():
    cfg = TransformerConfig(arch="encoder-decoder", vocab_size=50, d_model=32, n_heads=4, d_ff=64)
    assert (cfg.scale_attention, cfg.sinusoidal_layout, cfg.pos_offset, cfg.unembed_scale, cfg.logit_bias) == \
        (True, "interleaved", 0, False, False)
    assert type(Transformer(cfg, device="cpu").unembed) is torch.nn.Linear
    assert TransformerConfig.from_json(cfg.to_json()) == cfg


@pytest.mark.parametrize("field,value", [("scale_attention", 1), ("unembed_scale", "yes"), ("logit_bias", None),
                                         ("pos_offset", -1), ("pos_offset", 1.5), ("sinusoidal_layout", "mixed")])
def test_new_fields_validated(field, value):
    from models.errors import ConfigError

    with pytest.raises(ConfigError):
        TransformerConfig(**{field: value})


def _hf_dict(family: str) -> dict:
    return tiny_hf.build(family).config.to_dict()


@pytest.mark.parametrize("family,change,setting", [
    ("t5", {"feed_forward_proj": "gated-relu6"}, "feed_forward_proj"),
    ("t5", {"num_decoder_layers": 3}, "num_decoder_layers"),
    ("marian", {"share_encoder_decoder_embeddings": False}, "share_encoder_decoder_embeddings"),
    ("marian", {"decoder_vocab_size": 120}, "share_encoder_decoder_embeddings"),
    ("marian", {"normalize_before": True}, "normalize_before"),
    ("marian", {"static_position_embeddings": False}, "static_position_embeddings"),
    ("marian", {"activation_function": "tanh"}, "activation_function"),
    ("bart", {"decoder_layers": 3}, "decoder_layers"),
    ("bart", {"decoder_attention_heads": 2}, "decoder_attention_heads"),
    ("bart", {"add_final_layer_norm": True}, "add_final_layer_norm"),
])
def test_unsupported_variants_are_refused(family, change, setting):
    hf = {**_hf_dict(family), **change}
    with pytest.raises(CheckpointError) as e:
        pretrained.config_from_hf(hf)
    assert e.value.reason == "unsupported_variant" and setting in e.value.values["feature"]


def test_missing_cross_attention_weight_is_named(tmp_path):
    from safetensors.torch import load_file, save_file

    tiny_hf.save("bart", tmp_path)
    weights = load_file(str(tmp_path / "model.safetensors"))
    key = "model.decoder.layers.1.encoder_attn.k_proj.weight"
    del weights[key]
    save_file(weights, str(tmp_path / "model.safetensors"))
    with pytest.raises(CheckpointError, match="encoder_attn.k_proj"):
        pretrained.check_folder(tmp_path)


def test_t5_config_json_round_trip(tmp_path):
    """A v1.1 config.json as older transformers wrote it (no scale_decoder_outputs):
    untied means unscaled."""
    hf = _hf_dict("t5-v1_1")
    hf.pop("scale_decoder_outputs", None)
    hf["tie_word_embeddings"] = False
    cfg = pretrained.config_from_hf(json.loads(json.dumps(hf)))
    assert not cfg.unembed_scale and not cfg.tie_embeddings


def test_model_map_shows_the_conventions():
    from lab.model_map import compare, model_map

    cfgs = {f: pretrained.config_from_hf(_hf_dict(f)) for f in ("t5", "marian", "bart")}
    t5, marian, bart = (model_map(cfgs[f], 5, 3) for f in ("t5", "marian", "bart"))
    assert t5.stack("encoder").part("attn").info["scaled"] is False
    assert t5.stack("decoder").part("cross").info["scaled"] is False
    assert t5.stack("decoder").part("head").info["scaled"] is True
    assert marian.stack("encoder").part("pos").info["layout"] == "halves"
    assert marian.stack("decoder").part("head").info["bias"] is True
    assert bart.stack("decoder").part("pos").info["offset"] == 2
    fields = {d.field for d in compare(cfgs["t5"], cfgs["bart"])}
    assert {"scale_attention", "unembed_scale", "logit_bias"} <= fields
    assert "sinusoidal_layout" in {d.field for d in compare(cfgs["marian"], cfgs["marian"].replace(
        sinusoidal_layout="interleaved"))}


@pytest.mark.parametrize("family", ("t5", "marian", "bart"))
def test_cached_decoding_matches_the_full_pass(family):
    """One target token at a time through the KV cache: the relative bias (T5), the
    position table rows (Marian from 0, BART from row 2) continue where the cache ends."""
    from models.kv_cache import KVCache

    ours, _ = load(tiny_hf.build(family))
    src, tgt = _ids(10, (1, 6)), _ids(11, (1, 5))
    with torch.no_grad():
        full = ours(src, tgt)
        cache = KVCache.empty(ours.cfg)
        steps = [ours(src, tgt[:, j:j + 1], cache=cache) for j in range(tgt.shape[1])]
    assert (torch.cat(steps, 1) - full).abs().max() <= TOL


def test_labs_that_recompute_attention_follow_an_unscaled_t5():
    """The walkthrough and the FlashAttention lab recompute a head from q, k, v: with T5's
    unscaled scores they must still land on the model's own output."""
    from lab import flash, walkthrough

    ours, _ = load(tiny_hf.build("t5"))
    src, tgt = _ids(12, (1, 6)), _ids(13, (1, 4))
    for stack in ("encoder", "decoder"):
        walk = walkthrough.record_and_walk(ours, src, 1, 2, 3, stack=stack, tgt_ids=tgt)
        assert walk.scale == 1.0 and walk.error <= 1e-5
        run = flash.flash_head(ours, src, 1, 2, stack=stack, tgt_ids=tgt, tile_q=2, tile_k=2)
        assert run.error <= 1e-5


@pytest.mark.parametrize("family", ("marian", "bart"))
def test_input_layer_lab_rebuilds_the_block_input(family):
    """lab.input_layer adds E[id] (× √d_model for Marian), the position row (Marian's
    [sin | cos] table, BART's row p + 2) and BART's layernorm_embedding, and must land on
    what block 0 receives."""
    from lab import input_layer

    ours, _ = load(tiny_hf.build(family))
    for stack in ("encoder", "decoder"):
        r = input_layer.input_layer(ours, [5, 6, 7, 8], stack, [9, 10, 11])
        assert r.lookup_error <= 1e-5 and r.sum_error <= 1e-5
        assert r.scales_embeddings == ours.cfg.embed_scale


@pytest.mark.parametrize("family", ("t5", "bart"))
def test_direct_logit_attribution_closes(family):
    """T5 scales the decoder output by d_model^-0.5 before the unembedding (the direction
    of a logit includes that factor); BART adds final_logits_bias (one more part): the
    parts still add up to the logit."""
    from lab import attribution

    hf = tiny_hf.build(family)
    if family == "bart":
        hf.final_logits_bias.normal_()
    ours, _ = load(hf)
    _, trace = ours.run_with_cache(_ids(14, (1, 5)), _ids(15, (1, 4)))
    att = attribution.direct_logit_attribution(ours, trace, 2, 7, other=9, stack="decoder")
    assert abs(att.error) <= 1e-4 * max(1.0, abs(att.logit))

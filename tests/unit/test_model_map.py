"""The model map's structure and numbers (lab/model_map.py) against the model itself, and
its figure (viz_core/model_map.py): parts in execution order with the norms where the
config puts them, every stop's norm equal to the recorded tensor (or an independent path
through lab.residual), the head's prediction equal to the model's output, entropies equal
to lab.attention's, config differences, and the drawing's boxes, heads and frames."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import attention
import lab.model_map
from lab.residual import norm_inputs
from models.config import TransformerConfig
from models.trace import Stack, record_names
from models.transformer import Transformer
from models.weights.zoo import PRESETS
import viz_core.model_map
from viz_core.map_layout import layout, section_rows

SMALL = dict(vocab_size=50, d_model=16, n_layers=2, n_heads=4, d_ff=32, max_len=32)


def build(**kw) -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(**{**SMALL, **kw}), device="cpu").eval()


def run(model: Transformer, n: int = 7, n_tgt: int = 5):
    ids = list(range(3, 3 + n))
    kw = {}
    if model.cfg.arch == "encoder-decoder":
        kw = {"tgt_ids": ids[:n_tgt], "tgt_tokens": [f"t{i}" for i in range(n_tgt)]}
    names = record_names(model.cfg, (*lab.model_map.KINDS, "ln_embed.normalized"))      # + what lab.residual reads
    out, trace = model.run_with_cache(ids, names=names, tokens=[f"s{i}" for i in ids],
                                      **kw)
    return out, trace


def ids_of(stack: lab.model_map.StackMap) -> list[str]:
    return [p.id for p in stack.parts]


# ---- structure ---------------------------------------------------------------------------------
def test_pre_and_post_norm_order():
    pre = lab.model_map.model_map(TransformerConfig(**SMALL, norm_position="pre", positional="rope"), 7)
    assert ids_of(pre.stacks[0]) == ["tokens", "embed", "pos", "ln1", "attn", "add1", "ln2", "ffn", "add2",
                                     "ln_final", "head", "output"]
    post = lab.model_map.model_map(TransformerConfig(**SMALL, norm_position="post", embed_norm=True, n_token_types=2,
                                          output="hidden"), 7)
    assert ids_of(post.stacks[0]) == ["tokens", "embed", "type", "pos", "ln_embed", "attn", "add1", "ln1", "ffn",
                                      "add2", "ln2", "hidden"]
    assert not pre.stacks[0].part("ln1").on_stream and post.stacks[0].part("ln1").on_stream
    assert not pre.stacks[0].part("pos").info["added"] and post.stacks[0].part("pos").info["added"]


def test_encoder_decoder_shapes_and_cross_attention():
    mp = lab.model_map.model_map(TransformerConfig(**SMALL, arch="encoder-decoder", n_kv_heads=2), 7, 5)
    enc, dec = mp.stacks
    assert (enc.stack, dec.stack) == ("encoder", "decoder") and mp.cross
    assert enc.part("cross") is None and enc.part("head") is None
    cross = dec.part("cross")
    assert cross.info["pattern"] == (4, 5, 7) and cross.info["kv"] == (7, 2, 4) and cross.info["mask"] == "cross"
    assert dec.part("attn").info["mask"] == "causal" and enc.part("attn").info["mask"] == "full"
    assert cross.info["groups"] == [0, 0, 1, 1]
    assert dec.part("head").shape == (5, 50) and enc.part("embed").shape == (7, 16)
    assert dec.part("ffn").info["hidden"] == (5, 32)
    assert [p.id for p in mp.parts()][:3] == ["tokens", "embed", "pos"]


def test_swiglu_and_positions_inside_attention():
    mp = lab.model_map.model_map(TransformerConfig(**SMALL, activation="swiglu", positional="alibi"), 3)
    ffn, attn = mp.stacks[0].part("ffn"), mp.stacks[0].part("attn")
    assert ffn.info["gated"] and attn.info["positional"] == "alibi"
    with pytest.raises(ValueError):
        lab.model_map.model_map(TransformerConfig(**SMALL), 0)


# ---- numbers -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(norm_position="pre", positional="learned"),
    dict(norm_position="post", positional="sinusoidal", embed_norm=True, n_token_types=2),
    dict(arch="encoder-decoder", norm_position="pre", norm="rmsnorm", positional="relative"),
    dict(arch="encoder-decoder", norm_position="post"),
    dict(arch="encoder", norm="dyt", n_kv_heads=1, positional="rope", output="hidden"),
])
def test_every_stop_is_the_recorded_vector(kw):
    model = build(**kw)
    out, trace = run(model)
    mp = lab.model_map.model_map(model.cfg, 7, 5 if model.cfg.arch == "encoder-decoder" else None)
    data = lab.model_map.map_data(model, trace, mp)
    for s in mp.stacks:
        sd = data.stack(s.stack)
        stack = Stack(s.stack)
        last = model.cfg.n_layers - 1
        norm = lambda kind, layer=None, where=stack: trace.get(kind, layer, where, batch=0).norm(dim=-1).numpy()  # noqa
        np.testing.assert_allclose(sd.norms[sd.index("embed")], norm("embed"), rtol=1e-5)
        np.testing.assert_allclose(sd.norms[sd.index("attn", 1)], norm("attn_out", 1), rtol=1e-5)
        np.testing.assert_allclose(sd.norms[sd.index("ffn", last)], norm("mlp_out", last), rtol=1e-5)
        after_block = "add2" if model.cfg.norm_position == "pre" else "ln2"
        np.testing.assert_allclose(sd.norms[sd.index(after_block, 0)], norm("resid_post", 0), rtol=1e-5)
        # every ln2's input, rebuilt by lab.residual (another path), is the stop before it
        sites = {site.label.split(" ", 1)[-1] if site.label.startswith(("enc ", "dec ")) else site.label:
                 site.input.norm(dim=-1).numpy() for site in norm_inputs(model, trace, stack)}
        for i in range(model.cfg.n_layers):
            np.testing.assert_allclose(sd.norms[sd.index("ln2", i) - 1], sites[f"L{i} ln2"], rtol=1e-4)
        assert sd.entropy.shape == (model.cfg.n_layers, model.cfg.n_heads)
        patterns = trace.patterns(stack=stack).numpy()
        np.testing.assert_allclose(sd.entropy, attention.head_entropy(patterns, mask=trace.mask(stack).numpy()), rtol=1e-5)
        assert sd.value("attn", 0) == pytest.approx(float(norm("attn_out", 0).mean()), rel=1e-5)
        np.testing.assert_allclose(sd.per_layer("attn"), [norm("attn_out", i).mean() for i in range(2)], rtol=1e-5)
    out_stack = data.stack(Stack.output(model.cfg.arch).value)
    if model.cfg.output == "logits":
        logits = out[0]
        np.testing.assert_allclose(out_stack.norms[out_stack.index("head")], logits.norm(dim=-1).numpy(), rtol=1e-4)
        np.testing.assert_array_equal(out_stack.top_ids, logits.argmax(-1).numpy())
        np.testing.assert_allclose(out_stack.top_probs, logits.softmax(-1).max(-1).values.numpy(), rtol=1e-5)
    else:
        assert out_stack.top_ids is None
    if model.cfg.arch == "encoder-decoder":
        dec = data.stack("decoder")
        assert dec.cross_entropy.shape == (2, 4) and dec.cross_token_entropy.shape == (2, 5)
        assert len(dec.attention_entropy(cross=True)) == 2
    with pytest.raises(ValueError):
        out_stack.index("nope")


def test_map_data_without_a_given_map():
    model = build()
    _, trace = run(model)
    data = lab.model_map.map_data(model, trace)
    assert list(data.stacks) == ["self"] and data.stack("self").norms.shape[1] == 7
    with pytest.raises(ValueError):
        data.stack("encoder")


# ---- two configurations ------------------------------------------------------------------------
def test_compare_names_what_differs_and_where():
    bert, llama = PRESETS["bert"][2], PRESETS["llama"][2]
    diffs = {d.field: d for d in lab.model_map.compare(bert, llama)}
    assert diffs["norm_position"].a == "post" and diffs["norm_position"].b == "pre"
    assert diffs["positional"].b == "rope" and diffs["kv_heads"].b == "2 (GQA)"
    assert {"arch", "activation", "norm", "embed_norm", "output", "d_ff"} <= set(diffs)
    assert "n_layers" not in diffs and "d_model" not in diffs
    assert {"ln1", "ln2", "ln_final", "pos", "attn", "ffn"} <= lab.model_map.highlighted(list(diffs.values()))
    assert lab.model_map.compare(bert, bert) == []


# ---- the figure ----------------------------------------------------------------------------------
def assert_valid(fig) -> None:
    """The map is built without plotly's validation (it is drawn on every new text): what
    plotly would have made of it, validated, is exactly what it holds."""
    import json

    import plotly.graph_objects as go

    d = fig.to_dict()
    assert json.dumps(go.Figure(d).to_dict(), sort_keys=True, default=str) == json.dumps(d, sort_keys=True, default=str)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_figure_of_every_preset(preset):
    cfg = PRESETS[preset][2]
    mp = lab.model_map.model_map(cfg, 9, 6 if cfg.arch == "encoder-decoder" else None)
    fig = viz_core.model_map.model_map(mp)
    meta = fig.layout.meta
    assert len(meta["boxes"]) == len(mp.parts())
    click = [tr for tr in fig.data if tr.name == "click"][0]
    assert {c[0] for c in click.customdata} == set(range(len(mp.parts())))      # every part can be clicked
    heads = [tr for tr in fig.data if tr.name == "heads"]
    assert all(len(tr.x) == cfg.n_heads for tr in heads)
    texts = [a.text for a in fig.layout.annotations]
    assert sum(f"× {cfg.n_layers} blocks" in t for t in texts) == len(mp.stacks)
    assert not [tr for tr in fig.data if tr.name == "spark"]                    # no data: no sparklines
    assert_valid(fig)


def test_aligned_rows_and_highlight():
    a = lab.model_map.model_map(PRESETS["bert"][2], 9)
    b = lab.model_map.model_map(PRESETS["t5"][2], 9, 6)
    rows = section_rows(a, b)
    (_, ta, ha), (_, tb, hb) = layout(a, rows), layout(b, rows)
    assert ta == tb and ha == hb
    fig = viz_core.model_map.model_map(a, highlight=["ln1", "block"], rows=rows)
    assert_valid(fig)
    diff = [s for s in fig.layout.shapes if s.line.color == "#d9480f"]
    assert len(diff) == 2                                    # the ln1 box and the frame of the blocks
    with pytest.raises(ValueError):
        viz_core.model_map.model_map(a, layer=2)


def test_follow_frames_and_norm_path():
    model = build(positional="rope")
    _, trace = run(model)
    mp = lab.model_map.model_map(model.cfg, 7)
    sd = lab.model_map.map_data(model, trace, mp).stack("self")
    stops = [(s.part, s.layer) for s in sd.stops]
    follow = dict(stack="self", stops=stops, norms=sd.norms[:, 2], labels=[p for p, _ in stops], start=3)
    fig = viz_core.model_map.model_map(mp, lab.model_map.map_data(model, trace, mp), follow=follow)
    assert len(fig.frames) == len(stops) and fig.layout.sliders[0].active == 3
    assert_valid(fig)
    assert_valid(viz_core.model_map.model_map(mp, lab.model_map.map_data(model, trace, mp), layer=1))     # with the data: sparklines, heads
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["▶ Play", "❚❚ Pause"]
    ring = [tr for tr in fig.data if tr.name == "follow"][0]
    top = dict(((s, p), (y0, y1)) for s, p, y0, y1 in fig.layout.meta["boxes"])[("self", stops[3][0])]
    assert min(ring.y) < top[0] and max(ring.y) > top[1]                       # the outline is around stop 3
    with pytest.raises(ValueError):
        viz_core.model_map.model_map(mp, follow={**follow, "norms": sd.norms[:3, 2]})
    path = viz_core.model_map.norm_path([p for p, _ in stops], sd.norms[:, 2], 3, layers=[s.layer for s in sd.stops])
    assert list(path.data[1].x) == [3]


def test_figure_of_a_dyt_mqa_encoder_outside_the_catalogue():
    cfg = TransformerConfig(**SMALL, arch="encoder", norm="dyt", n_kv_heads=1, positional="none", output="hidden")
    fig = viz_core.model_map.model_map(lab.model_map.model_map(cfg, 5))
    texts = [a.text for a in fig.layout.annotations]
    assert sum("DyT (tanh)" in t for t in texts) == 3                    # ln1, ln2, the final norm
    assert "No positions" in " ".join(texts)
    brackets = [tr for tr in fig.data if tr.mode == "lines" and tr.name is None and len(tr.x) == 4]
    assert len(brackets) == 1                                            # MQA: one K/V head for all 4


# ---- the 2024-26 families (issue 32): every difference drawn --------------------------------------
GEMMA2 = dict(SMALL, n_layers=3, norm="rmsnorm", norm_plus_one=True, norm_position="sandwich", positional="rope",
              activation="geglu", qk_norm="head", local_layers=(0, 2), local_window=4, rope_local_base=10000.0,
              rope_base=1e6, attn_softcap=50.0, logit_softcap=30.0, attn_scale=0.0625)


def test_sandwich_output_and_missing_norms_sit_where_the_model_has_them():
    sandwich = lab.model_map.model_map(TransformerConfig(**GEMMA2), 7).stacks[0]
    assert ids_of(sandwich) == ["tokens", "embed", "pos", "ln1", "attn", "ln1_out", "add1", "ln2", "ffn", "ln2_out",
                                "add2", "ln_final", "head", "output"]
    assert not sandwich.part("ln1_out").on_stream and sandwich.part("ln1_out").info["out"]
    output = lab.model_map.model_map(TransformerConfig(**SMALL, norm_position="output", norm="rmsnorm"), 7).stacks[0]
    assert ids_of(output)[3:] == ["attn", "ln1_out", "add1", "ffn", "ln2_out", "add2", "ln_final", "head", "output"]
    modernbert = lab.model_map.model_map(TransformerConfig(**SMALL, arch="encoder", first_attn_norm=False, norm_bias=False,
                                                output="hidden", tie_embeddings=False), 7).stacks[0]
    assert modernbert.part("ln1").info["absent"] == (0,) and modernbert.part("ln2").info["absent"] == ()
    assert not modernbert.part("ln1").info["bias"]
    phi = lab.model_map.model_map(TransformerConfig(**SMALL, parallel_residual=True, shared_block_norm=True), 7).stacks[0]
    assert phi.part("ln2") is None and phi.part("ln1").info["shared"] and phi.part("ffn").info["shared_norm"]
    electra = lab.model_map.model_map(TransformerConfig(**SMALL, d_embed=8, embed_norm=True, tie_embeddings=False), 7).stacks[0]
    assert ids_of(electra)[:6] == ["tokens", "embed", "pos", "ln_embed", "embed_proj", "ln1"]
    assert electra.part("embed").shape == (7, 8) and electra.part("ln_embed").shape == (7, 8)
    assert electra.part("embed_proj").shape == (7, 16)
    attn = lab.model_map.model_map(TransformerConfig(**GEMMA2, nope_layers=(1,)), 7).stacks[0].part("attn").info
    assert (attn["qk_norm"], attn["softcap"], attn["scale"]) == ("head", 50.0, 0.0625)
    assert (attn["local_layers"], attn["local_window"], attn["rope_local_base"], attn["nope_layers"]) == \
        ((0, 2), 4, 10000.0, (1,))


@pytest.mark.parametrize("kw", [
    GEMMA2,
    dict(SMALL, norm_position="output", norm="rmsnorm", positional="rope", qk_norm="full", nope_layers=(1,)),
    dict(SMALL, arch="encoder", first_attn_norm=False, local_layers=(0,), local_window=1, embed_norm=True,
         output="hidden", tie_embeddings=False, activation="geglu_exact"),
    dict(SMALL, d_embed=8, embed_norm=True, tie_embeddings=False, positional="learned", residual_multiplier=0.5,
         embed_multiplier=3.0, logit_divisor=2.0),
    dict(SMALL, parallel_residual=True, shared_block_norm=True, positional="rope", unembed_bias=True,
         tie_embeddings=False),
])
def test_every_stop_of_the_new_placements_is_the_recorded_vector(kw):
    model = build(**kw)
    out, trace = run(model)
    cfg = model.cfg
    mp = lab.model_map.model_map(cfg, 7)
    sd = lab.model_map.map_data(model, trace, mp).stack("self")
    assert {s.part for s in sd.stops} <= {p.id for p in mp.stacks[0].parts}      # every stop is drawn
    norm = lambda kind, layer=None: trace.get(kind, layer, batch=0).norm(dim=-1).numpy()  # noqa: E731
    for i in range(cfg.n_layers):
        np.testing.assert_allclose(sd.norms[sd.index("add1", i)], norm("resid_mid", i), rtol=1e-5)
        np.testing.assert_allclose(sd.norms[sd.index("add2", i)], norm("resid_post", i), rtol=1e-5)
        if cfg.norm_position in ("sandwich", "output"):
            z = trace.get("z", i, batch=0)
            raw = model.blocks[i].attn.W_O(z.reshape(z.shape[0], -1))                 # before ln1_out
            np.testing.assert_allclose(sd.norms[sd.index("attn", i)], raw.norm(dim=-1).detach().numpy(), rtol=1e-4)
            np.testing.assert_allclose(sd.norms[sd.index("ln1_out", i)], norm("ln1_out.normalized", i), rtol=1e-5)
            np.testing.assert_allclose(sd.norms[sd.index("ln2_out", i)], norm("ln2_out.normalized", i), rtol=1e-5)
        else:
            np.testing.assert_allclose(sd.norms[sd.index("attn", i)], norm("attn_out", i), rtol=1e-5)
    has_ln1_0 = cfg.first_attn_norm and cfg.norm_position in ("pre", "sandwich")
    assert (lab.model_map.Stop("ln1", 0) in sd.stops) == has_ln1_0
    assert (lab.model_map.Stop("ln2", 0) in sd.stops) == (cfg.norm_position in ("pre", "sandwich") and not cfg.shared_block_norm)
    if cfg.d_embed is not None:
        np.testing.assert_allclose(sd.norms[sd.index("embed_proj")], norm("resid_pre", 0), rtol=1e-5)
        assert sd.norms[sd.index("embed")].shape == (7,)
    if cfg.output == "logits":
        np.testing.assert_allclose(sd.norms[sd.index("head")], out[0].norm(dim=-1).numpy(), rtol=1e-4)
        np.testing.assert_array_equal(sd.top_ids, out[0].argmax(-1).numpy())
    # each layer's entropy against its own mask (sliding-window layers beside global ones)
    patterns = trace.patterns().numpy()
    masks = np.stack([trace.mask(layer=i).numpy() for i in range(cfg.n_layers)])[:, None]
    np.testing.assert_allclose(sd.entropy, attention.head_entropy(patterns, mask=masks), rtol=1e-5)
    fig = viz_core.model_map.model_map(mp, lab.model_map.map_data(model, trace, mp), layer=1)
    assert_valid(fig)
    assert len(fig.layout.meta["boxes"]) == len(mp.parts())


def test_the_figure_names_every_new_setting():
    cfg = TransformerConfig(**{**GEMMA2, "nope_layers": (1,), "residual_multiplier": 0.5, "embed_multiplier": 3.0,
                               "logit_divisor": 8.0})
    mp = lab.model_map.model_map(cfg, 7)
    fig = viz_core.model_map.model_map(mp)
    assert_valid(fig)
    texts = " ".join(a.text for a in fig.layout.annotations)
    for words in ("window 4: layers 0, 2", "θ 10,000 there, 1,000,000 elsewhere", "no RoPE: layers 1",
                  "q/k norm per head", "soft-cap 50 · q·k × 0.0625", "sandwich: before the sub-layer",
                  "on its output, before ⊕", "soft-cap 30", "÷ 8", "× 3", "× 0.5", "RMSNorm × (1 + w)"):
        assert words in texts, words
    boxes = {(p, y0) for _, p, y0, _ in fig.layout.meta["boxes"]}
    y = dict(boxes)
    assert y["ln1"] < y["attn"] < y["ln1_out"] < y["add1"] < y["ln2"] < y["ffn"] < y["ln2_out"] < y["add2"]
    # many sliding-window layers are counted, not listed; the notes make the attention box taller
    many = lab.model_map.model_map(TransformerConfig(**{**GEMMA2, "n_layers": 12, "local_layers": tuple(range(0, 12, 2))}), 7)
    texts = " ".join(a.text for a in viz_core.model_map.model_map(many).layout.annotations)
    assert "window 4: 6 of 12 layers" in texts
    plain = layout(lab.model_map.model_map(TransformerConfig(**SMALL), 7))[0]
    noted = layout(mp)[0]
    attn_h = lambda boxes: next(b.y1 - b.y0 for b in boxes if b.part.id == "attn")  # noqa: E731
    assert attn_h(noted) > attn_h(plain)
    # ELECTRA's projection, ModernBERT's missing norm in block 0, Phi-2's shared norm, exact GeGLU
    texts = " ".join(a.text for a in viz_core.model_map.model_map(lab.model_map.model_map(TransformerConfig(
        **SMALL, arch="encoder", d_embed=8, first_attn_norm=False, norm_bias=False, activation="geglu_exact",
        output="hidden", tie_embeddings=False), 7)).layout.annotations)
    assert "Projection" in texts and "8 → 16: embeddings → stream" in texts and "none in block 0" in texts
    assert "LayerNorm · no bias" in texts and "GeGLU (erf)" in texts
    phi = viz_core.model_map.model_map(lab.model_map.model_map(TransformerConfig(**SMALL, parallel_residual=True, shared_block_norm=True), 7))
    assert "read by attention and FFN" in " ".join(a.text for a in phi.layout.annotations)
    assert_valid(phi)


def test_sparkline_marks_window_and_nope_layers():
    model = build(**{**GEMMA2, "nope_layers": (1,)})
    _, trace = run(model)
    mp = lab.model_map.model_map(model.cfg, 7)
    fig = viz_core.model_map.model_map(mp, lab.model_map.map_data(model, trace, mp))
    spark = [tr for tr in fig.data if tr.name == "spark"][0]                  # the attention's curve comes first
    assert list(spark.marker.symbol) == ["diamond", "circle-open", "diamond"]
    assert "(window)" in spark.hovertext[0] and "(no RoPE)" in spark.hovertext[1]
    assert any(tr.mode == "text" and "◆ window" in tr.text[0] for tr in fig.data if tr.text)


def test_compare_lists_the_new_settings():
    llama, gemma2 = TransformerConfig(**SMALL, norm="rmsnorm", positional="rope"), TransformerConfig(**GEMMA2)
    diffs = {d.field: d for d in lab.model_map.compare(llama, gemma2)}
    assert {"norm_position", "qk_norm", "local_layers", "local_window", "rope_local_base", "attn_scale",
            "attn_softcap", "logit_softcap", "activation", "norm_plus_one"} <= set(diffs)
    assert (diffs["local_layers"].a, diffs["local_layers"].b) == ("-", "0, 2")
    assert (diffs["attn_softcap"].a, diffs["attn_softcap"].b) == ("-", "50")
    assert diffs["norm_position"].b == "sandwich" and "ln1_out" in diffs["norm_position"].parts
    granite = TransformerConfig(**SMALL, residual_multiplier=0.22, embed_multiplier=12.0, logit_divisor=8.0,
                                d_embed=8, tie_embeddings=False)
    diffs = {d.field: d for d in lab.model_map.compare(TransformerConfig(**SMALL, tie_embeddings=False), granite)}
    assert (diffs["residual_multiplier"].b, diffs["embed_multiplier"].b, diffs["logit_divisor"].b) == \
        ("0.22", "12", "8")
    assert diffs["d_embed"].a == "-" and diffs["d_embed"].b == "8" and "embed_proj" in diffs["d_embed"].parts

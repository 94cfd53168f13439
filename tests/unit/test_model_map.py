"""The model map's structure and numbers (lab/model_map.py) against the model itself, and
its figure (viz_core/model_map.py): parts in execution order with the norms where the
config puts them, every stop's norm equal to the recorded tensor (or an independent path
through lab.residual), the head's prediction equal to the model's output, entropies equal
to lab.attention's, config differences, and the drawing's boxes, heads and frames."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import attention as LA
from lab import model_map as MM
from lab.residual import norm_inputs
from models.config import TransformerConfig
from models.trace import Stack, record_names
from models.transformer import Transformer
from models.weights.zoo import PRESETS
from viz_core import model_map as V
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
    names = record_names(model.cfg, (*MM.KINDS, "ln_embed.normalized"))      # + what lab.residual reads
    out, trace = model.run_with_cache(ids, names=names, tokens=[f"s{i}" for i in ids],
                                      **kw)
    return out, trace


def ids_of(stack: MM.StackMap) -> list[str]:
    return [p.id for p in stack.parts]


# ---- structure ---------------------------------------------------------------------------------
def test_pre_and_post_norm_order():
    pre = MM.model_map(TransformerConfig(**SMALL, norm_position="pre", positional="rope"), 7)
    assert ids_of(pre.stacks[0]) == ["tokens", "embed", "pos", "ln1", "attn", "add1", "ln2", "ffn", "add2",
                                     "ln_final", "head", "output"]
    post = MM.model_map(TransformerConfig(**SMALL, norm_position="post", embed_norm=True, n_token_types=2,
                                          output="hidden"), 7)
    assert ids_of(post.stacks[0]) == ["tokens", "embed", "type", "pos", "ln_embed", "attn", "add1", "ln1", "ffn",
                                      "add2", "ln2", "hidden"]
    assert not pre.stacks[0].part("ln1").on_stream and post.stacks[0].part("ln1").on_stream
    assert not pre.stacks[0].part("pos").info["added"] and post.stacks[0].part("pos").info["added"]


def test_encoder_decoder_shapes_and_cross_attention():
    mp = MM.model_map(TransformerConfig(**SMALL, arch="encoder-decoder", n_kv_heads=2), 7, 5)
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
    mp = MM.model_map(TransformerConfig(**SMALL, activation="swiglu", positional="alibi"), 3)
    ffn, attn = mp.stacks[0].part("ffn"), mp.stacks[0].part("attn")
    assert ffn.info["gated"] and attn.info["positional"] == "alibi"
    with pytest.raises(ValueError):
        MM.model_map(TransformerConfig(**SMALL), 0)


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
    mp = MM.model_map(model.cfg, 7, 5 if model.cfg.arch == "encoder-decoder" else None)
    data = MM.map_data(model, trace, mp)
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
        np.testing.assert_allclose(sd.entropy, LA.head_entropy(patterns, mask=trace.mask(stack).numpy()), rtol=1e-5)
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
    data = MM.map_data(model, trace)
    assert list(data.stacks) == ["self"] and data.stack("self").norms.shape[1] == 7
    with pytest.raises(ValueError):
        data.stack("encoder")


# ---- two configurations ------------------------------------------------------------------------
def test_compare_names_what_differs_and_where():
    bert, llama = PRESETS["bert"][2], PRESETS["llama"][2]
    diffs = {d.field: d for d in MM.compare(bert, llama)}
    assert diffs["norm_position"].a == "post" and diffs["norm_position"].b == "pre"
    assert diffs["positional"].b == "rope" and diffs["kv_heads"].b == "2 (GQA)"
    assert {"arch", "activation", "norm", "embed_norm", "output", "d_ff"} <= set(diffs)
    assert "n_layers" not in diffs and "d_model" not in diffs
    assert {"ln1", "ln2", "ln_final", "pos", "attn", "ffn"} <= MM.highlighted(list(diffs.values()))
    assert MM.compare(bert, bert) == []


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
    mp = MM.model_map(cfg, 9, 6 if cfg.arch == "encoder-decoder" else None)
    fig = V.model_map(mp)
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
    a = MM.model_map(PRESETS["bert"][2], 9)
    b = MM.model_map(PRESETS["t5"][2], 9, 6)
    rows = section_rows(a, b)
    (_, ta, ha), (_, tb, hb) = layout(a, rows), layout(b, rows)
    assert ta == tb and ha == hb
    fig = V.model_map(a, highlight=["ln1", "block"], rows=rows)
    assert_valid(fig)
    diff = [s for s in fig.layout.shapes if s.line.color == "#d9480f"]
    assert len(diff) == 2                                    # the ln1 box and the frame of the blocks
    with pytest.raises(ValueError):
        V.model_map(a, layer=2)


def test_follow_frames_and_norm_path():
    model = build(positional="rope")
    _, trace = run(model)
    mp = MM.model_map(model.cfg, 7)
    sd = MM.map_data(model, trace, mp).stack("self")
    stops = [(s.part, s.layer) for s in sd.stops]
    follow = dict(stack="self", stops=stops, norms=sd.norms[:, 2], labels=[p for p, _ in stops], start=3)
    fig = V.model_map(mp, MM.map_data(model, trace, mp), follow=follow)
    assert len(fig.frames) == len(stops) and fig.layout.sliders[0].active == 3
    assert_valid(fig)
    assert_valid(V.model_map(mp, MM.map_data(model, trace, mp), layer=1))     # with the data: sparklines, heads
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["▶ Play", "❚❚ Pause"]
    ring = [tr for tr in fig.data if tr.name == "follow"][0]
    top = dict(((s, p), (y0, y1)) for s, p, y0, y1 in fig.layout.meta["boxes"])[("self", stops[3][0])]
    assert min(ring.y) < top[0] and max(ring.y) > top[1]                       # the outline is around stop 3
    with pytest.raises(ValueError):
        V.model_map(mp, follow={**follow, "norms": sd.norms[:3, 2]})
    path = V.norm_path([p for p, _ in stops], sd.norms[:, 2], 3, layers=[s.layer for s in sd.stops])
    assert list(path.data[1].x) == [3]


def test_figure_of_a_dyt_mqa_encoder_outside_the_catalogue():
    cfg = TransformerConfig(**SMALL, arch="encoder", norm="dyt", n_kv_heads=1, positional="none", output="hidden")
    fig = V.model_map(MM.model_map(cfg, 5))
    texts = [a.text for a in fig.layout.annotations]
    assert sum("DyT (tanh)" in t for t in texts) == 3                    # ln1, ln2, the final norm
    assert "No positions" in " ".join(texts)
    brackets = [tr for tr in fig.data if tr.mode == "lines" and tr.name is None and len(tr.x) == 4]
    assert len(brackets) == 1                                            # MQA: one K/V head for all 4

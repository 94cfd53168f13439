"""The model map on the overview page (ui/widgets/model_map.py) through AppTest: drawn for
every catalogue entry with the right blocks, heads, key/value heads, norm position and
positional scheme; a click on a part opens the page that shows it with the layer/head in
the link; follow one token; two models side by side; Chinese; hostile text."""
from __future__ import annotations

import numpy as np
import pytest

from models.weights import zoo
from tests.app.helpers import (EVIL, GPT_LABEL, LLAMA_LABEL, T5_LABEL, TEXT, TEXT_TOKENS, as_shown, assert_escaped,
                               decode, everything_rendered, new_app, open_app, rerun, select, spec)

DIFF = "#d9480f"


def boxes(fig: dict) -> dict[tuple[str, str], tuple[float, float]]:
    """(stack, part id) -> (top, bottom) of every drawn part (the figure's layout.meta)."""
    return {(s, p): (y0, y1) for s, p, y0, y1 in fig["layout"]["meta"]["boxes"]}


def index_of(fig: dict, stack: str, part: str) -> int:
    return [(s, p) for s, p, *_ in fig["layout"]["meta"]["boxes"]].index((stack, part))


def texts_of(fig: dict) -> list[str]:
    return [a.get("text", "") for a in fig["layout"]["annotations"]]


def click(at, part_index: int, layer: int = -1, head: int = -1, key: str = "model_map"):
    event = {"selection": {"points": [{"curve_number": 0, "point_number": 0, "point_index": 0, "x": 0, "y": 0,
                                       "customdata": [part_index, layer, head]}],
                           "point_indices": [0], "box": [], "lasso": []}}
    return select(at, key, event)


def check_map(fig: dict, cfg) -> None:
    """The drawing agrees with the config: stacks, blocks, heads, K/V groups, norms, PE."""
    drawn = boxes(fig)
    stacks = ["encoder", "decoder"] if cfg.arch == "encoder-decoder" else ["self"]
    assert sorted({s for s, _ in drawn}) == sorted(stacks)
    assert fig["layout"]["meta"]["n_layers"] == cfg.n_layers
    assert sum(f"× {cfg.n_layers} blocks" in t for t in texts_of(fig)) == len(stacks)
    heads = [tr for tr in fig["data"] if tr.get("name") == "heads"]
    n_attn = len(stacks) + (cfg.arch == "encoder-decoder")                   # + the decoder's cross-attention
    assert len(heads) == n_attn
    for tr in heads:
        assert [c[2] for c in tr["customdata"]] == list(range(cfg.n_heads))
    brackets = [tr for tr in fig["data"] if tr.get("mode") == "lines" and tr.get("name") is None
                and len(decode(tr["x"])) == 4]
    assert len(brackets) == (cfg.kv_heads * n_attn if cfg.kv_heads < cfg.n_heads else 0)
    assert any(f"{cfg.n_heads} heads · {cfg.kv_heads} K/V heads" in t for t in texts_of(fig))
    for s in stacks:
        for ln, body, add in (("ln1", "attn", "add1"), ("ln2", "ffn", "add2")):
            if cfg.norm_position == "pre":        # the norm opens the branch, before the sub-layer
                assert drawn[(s, ln)][1] <= drawn[(s, body)][0]
            else:                                 # the norm follows the addition, on the stream
                assert drawn[(s, ln)][0] >= drawn[(s, add)][1]
        assert ((s, "ln_final") in drawn) == (cfg.norm_position == "pre")
        assert ((s, "cross") in drawn) == (s == "decoder")
    pos_on_flow = cfg.positional in ("learned", "sinusoidal")
    note = {"rope": "RoPE", "alibi": "ALiBi", "relative": "T5 relative positions", "none": "No positions"}
    if not pos_on_flow:
        assert any(note[cfg.positional] in t for t in texts_of(fig))
    norm_word = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "dyt": "DyT"}[cfg.norm]
    assert any(norm_word in t for t in texts_of(fig))


def test_map_renders_for_every_catalogue_entry():
    entries = [e for e in zoo.catalogue() if e.available]
    assert len(entries) >= 20                          # MiniLM, the toy checkpoints, every preset
    at = open_app({"text": TEXT}, page=None)
    seen = set()
    for entry in entries:
        at.selectbox(key="model").set_value(entry.key)
        rerun(at)
        fig = spec(at, "model_map")
        check_map(fig, entry.config)
        c = entry.config
        seen.add((c.arch, c.norm, c.norm_position, c.positional, c.activation, c.attention_kind))
    # every option the zoo offers was drawn
    archs, norms, places, pes, acts, kinds = (set(x) for x in zip(*seen))
    assert archs == {"encoder", "decoder", "encoder-decoder"} and places == {"pre", "post"}
    assert {"layernorm", "rmsnorm"} <= norms and {"MHA", "GQA"} <= kinds
    assert pes == {"none", "sinusoidal", "learned", "rope", "alibi", "relative"}
    assert {"relu", "gelu", "gelu_tanh", "swiglu"} == acts


def test_shapes_on_the_arrows_are_this_texts():
    at = open_app({"text": TEXT}, page=None)
    fig = spec(at, "model_map")
    n = len(TEXT_TOKENS)
    labels = texts_of(fig)
    assert f"[{n} × 384]" in labels and f"[{n}]" in labels
    assert f"weights [12 × {n} × {n}]" in labels and f"hidden [{n} × 1536]" in labels
    # the blue numbers are this pass's: 6 layers of entropies and stream norms as sparklines
    sparks = [tr for tr in fig["data"] if tr.get("name") == "spark"]
    assert len(sparks) == 2 and all(len(tr["customdata"]) == 6 for tr in sparks)


@pytest.mark.parametrize("query,part,layer,head,page_title,expect", [
    ({}, ("self", "attn"), 3, 5, "Attention explorer", {"layer": 3, "head": 5}),
    ({}, ("self", "ffn"), 2, -1, "Feed-forward network (FFN)", {"layer": 2}),
    ({}, ("self", "ln1"), 1, -1, "The residual stream", {"rview": "norms"}),
    ({}, ("self", "add2"), 1, -1, "The residual stream", {"rview": "stream"}),
    ({}, ("self", "embed"), -1, -1, None, {"pe_view": "tables"}),
    ({"model": LLAMA_LABEL}, ("self", "pos"), -1, -1, None, {"pe_view": "rope"}),
    ({"model": GPT_LABEL}, ("self", "head"), -1, -1, "The residual stream", {"rview": "lens"}),
    ({"model": GPT_LABEL}, ("self", "output"), -1, -1, None, {}),
    ({"model": T5_LABEL}, ("decoder", "cross"), 1, 2, "Attention explorer", {"layer": 1, "head": 2, "stack": "cross"}),
])
def test_click_on_a_part_opens_its_page(query, part, layer, head, page_title, expect):
    at = open_app({"text": TEXT, **query}, page=None)
    fig = spec(at, "model_map")
    click(at, index_of(fig, *part), layer, head)
    assert not at.get("plotly_chart") or "model_map" not in str([c.proto.id for c in at.get("plotly_chart")])
    if page_title:
        assert [t.value for t in at.title] == [page_title]
    assert at.query_params["text"] == TEXT                        # the sidebar's link goes along
    for key, value in expect.items():
        if key in ("layer", "head"):
            assert at.slider(key=key).value == value
            assert at.query_params[key] == str(value)
        else:
            assert at.session_state[f"_{key}"] == value


def test_click_on_a_sparkline_point_opens_that_layer():
    at = open_app({"text": TEXT}, page=None)
    fig = spec(at, "model_map")
    spark = next(tr for tr in fig["data"] if tr.get("name") == "spark")
    idx, layer, _ = spark["customdata"][4]
    assert layer == 4
    click(at, idx, layer)
    assert [t.value for t in at.title] == ["Attention explorer"]
    assert at.slider(key="layer").value == 4


def test_layer_shown_in_the_block_follows_the_slider():
    at = open_app({"text": TEXT}, page=None)
    at.slider(key="mlayer").set_value(5)
    fig = spec(rerun(at), "model_map")
    assert "numbers: layer 5" in texts_of(fig)
    heads = next(tr for tr in fig["data"] if tr.get("name") == "heads")
    assert {c[1] for c in heads["customdata"]} == {5}


def test_follow_one_token_steps_and_shows_the_real_norm():
    at = open_app({"text": TEXT, "mview": "follow"}, page=None)
    fig = spec(at, "model_map")
    n_stops = len(fig["frames"])
    assert n_stops == 4 + 6 * 6                                   # embed, +type, +pos, ln_embed; 6 per layer
    assert fig["layout"]["sliders"][0]["active"] == 0
    assert any(m.value.startswith(f"Stop 1 of {n_stops}") for m in at.markdown)
    # the first stop is the token embedding: ‖W_E[id of "the"]‖, computed here from the weights
    model, tok = zoo.load("minilm")
    expected = float(model.embed.weight[tok.encode(TEXT).ids[1]].detach().norm())
    shown = [tr for tr in fig["data"] if tr.get("name") == "follow_norm"][0]["text"][0]
    assert f"‖x‖ = {expected:.3g}" in shown
    at.button(key="map_next").click()
    fig = spec(rerun(at), "model_map")
    assert fig["layout"]["sliders"][0]["active"] == 1
    # at the attention stop of layer 0: the token's attention entropy, the mean over heads of its row's
    attn_stop = 4
    frame = fig["frames"][attn_stop]["data"][1]["text"][0]
    from lab import attention
    from models.trace import record_names
    _, trace = model.run_with_cache(tok.encode(TEXT).ids, names=record_names(model.cfg, ["pattern"]))
    entropy = attention.entropy(trace.pattern(0).numpy())[:, 1].mean()
    assert f"entropy {entropy:.2f}" in frame
    assert any(m.value.startswith(f"Stop 2 of {n_stops}") for m in at.markdown)
    path = spec(at, "map_path")
    assert len(decode(path["data"][0]["y"])) == n_stops


def test_follow_a_decoder_token_to_its_prediction():
    at = open_app({"text": TEXT, "mview": "follow", "model": GPT_LABEL}, page=None)
    at.slider(key="mstep").set_value(len(spec(at, "model_map")["frames"]) - 1)
    fig = spec(rerun(at), "model_map")
    last = [tr for tr in fig["data"] if tr.get("name") == "follow_norm"][0]["text"][0]
    assert "next token" in last


def test_follow_in_an_encoder_decoder_picks_the_stack():
    at = open_app({"text": TEXT, "mview": "follow", "model": T5_LABEL}, page=None)
    at.radio(key="mstack__en").set_value("encoder")
    fig = spec(rerun(at), "model_map")
    assert len(fig["frames"]) == 1 + 2 * 6 + 1                  # embed, 6 per layer, final norm


def test_two_models_side_by_side():
    at = open_app({"text": TEXT, "mview": "compare"}, page=None)
    a, b = spec(at, "model_map"), spec(at, "model_map_b")
    table = as_shown(next(m.value for m in at.markdown if m.value.startswith("| setting")))
    for row in ("norm position | post-norm | pre-norm", "positions | learned | RoPE (rotary)",
                "activation | GELU | SwiGLU", "key/value heads | 12 (MHA) | 2 (GQA)"):
        assert row in table, table
    for fig in (a, b):                                          # the norms are outlined on both maps
        assert sum(s.get("line", {}).get("color") == DIFF for s in fig["layout"]["shapes"]) >= 3
    # aligned: the sections start at the same height on both maps
    assert boxes(a)[("self", "tokens")] == boxes(b)[("self", "tokens")]
    at.selectbox(key="vs").set_value("custom:bert")
    rerun(at)
    table = as_shown(next(m.value for m in at.markdown if m.value.startswith("| setting")))
    assert "norm position" not in table and "blocks | 6 | 2" in table


def test_map_in_chinese():
    at = open_app({"text": TEXT, "lang": "中文"}, page=None)
    labels = texts_of(spec(at, "model_map"))
    assert any("词元嵌入" in t for t in labels) and any("前馈网络" in t for t in labels)
    assert any("Post-LN" in t for t in labels)


def test_empty_text_draws_the_structure_alone():
    at = new_app()
    at.query_params["text"] = "   "
    at.run()
    fig = spec(at, "model_map")
    assert not [tr for tr in fig["data"] if tr.get("name") == "spark"]
    assert not at.exception


def test_hostile_text_is_shown_literally_in_follow_mode():
    at = open_app({"text": EVIL, "mview": "follow", "model": GPT_LABEL}, page=None)
    at.selectbox(key="mtok").set_value(3)
    at.slider(key="mstep").set_value(len(spec(at, "model_map")["frames"]) - 1)
    assert_escaped(everything_rendered(rerun(at)))
    assert np.isfinite(decode(spec(at, "map_path")["data"][0]["y"])).all()


def test_bad_link_values_give_a_notice_not_a_traceback():
    at = open_app({"text": TEXT, "mlayer": "99", "vs": "nope"}, page=None)
    notes = [w.value for w in at.warning] + [i.value for i in at.info]
    assert any("mlayer" in n for n in notes), notes
    at = open_app({"text": TEXT, "mview": "bogus"}, page=None)
    assert any("mview" in w.value for w in at.warning), [w.value for w in at.warning]
    assert spec(at, "model_map")                                # the default map is drawn


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_a_busy_server_draws_the_map_when_asked(monkeypatch, lang):
    """Above GLASSBOX_MAP_SESSIONS sessions the overview runs no pass for the map until the
    reader clicks; then it stays drawn for that reader. A link naming a map setting draws it."""
    from ui import serving
    from server import sessions

    monkeypatch.setenv("GLASSBOX_MAP_SESSIONS", "5")
    monkeypatch.setattr(sessions, "count", lambda: 12)
    runs = []
    real = serving.map_view
    monkeypatch.setattr(serving, "map_view", lambda *a, **k: runs.append(a[0].text) or real(*a, **k))
    text = "A busy classroom reads this sentence."
    at = open_app({"text": text, "lang": lang}, page=None)
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("-model_map")]
    info = " ".join(i.value for i in at.info)
    assert "12" in info and "GLASSBOX_MAP_SESSIONS" in info
    assert runs == []                                         # no pass for the map
    at.button(key="map_draw").click().run()
    fig = spec(at, "model_map")
    assert [tr for tr in fig["data"] if tr.get("name") == "spark"] and runs == [text]    # this text's numbers
    at.sidebar.text_area[0].set_value("Another sentence now.").run()
    spec(at, "model_map")                                                      # still drawn
    linked = open_app({"text": text, "lang": lang, "mview": "follow"}, page=None)
    assert [c for c in linked.get("plotly_chart") if c.proto.id.endswith("-model_map") or "follow" in c.proto.id]

"""The browser form of a model (models/weights/browser.py): weights that decode to the
model's own tensors within each format's stated error, the tokenizer as data, the size,
and a ValueError that names what the browser pass does not compute. The pass itself is
compared with PyTorch in Chromium: tests/e2e/test_browser_model_e2e.py."""
from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from models import TransformerConfig
from models import limits
from models.config import MaskSpec
from models.tokenizer import WordTokenizer
from models.weights import zoo
from models.weights.browser import (FLOAT16_ABSOLUTE_ERROR, FLOAT16_RELATIVE_ERROR, browser_model, bundle_bytes,
                                    bundle_json, decode_tensor, exact_weights, unsupported_feature,
                                    weights_bytes)
from models.weights.checkpoint import shipped_checkpoints

MODEL_JS = Path(__file__).resolve().parents[2] / "viz_core" / "web" / "model.js"


@pytest.fixture(scope="module")
def verse():
    return zoo.load("toy:verse-lm", "cpu")


@pytest.fixture(scope="module")
def reverse():   # biases, untied unembedding, post-norm
    return zoo.load("toy:reverse-sinusoidal-postln", "cpu")


@pytest.fixture(scope="module")
def minilm():
    return zoo.load("minilm", "cpu")


def _state(model) -> dict[str, np.ndarray]:
    return {k: v.float().numpy() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("which", ["verse", "reverse"])
def test_float32_weights_round_trip_exactly(which, request) -> None:
    model, tok = request.getfixturevalue(which)
    bundle = browser_model(model, tok, weights="float32")
    state = _state(model)
    for name, entry in bundle["weights"].items():
        assert entry["dtype"] == "float32"
        np.testing.assert_array_equal(decode_tensor(entry), state[name], err_msg=name)


@pytest.mark.parametrize("which", ["verse", "reverse"])
def test_float16_weights_within_half_an_ulp(which, request) -> None:
    model, tok = request.getfixturevalue(which)
    state = _state(model)
    for name, entry in browser_model(model, tok, weights="float16")["weights"].items():
        w = state[name]
        err = np.abs(decode_tensor(entry) - w)
        assert (err <= np.abs(w) * FLOAT16_RELATIVE_ERROR + FLOAT16_ABSOLUTE_ERROR).all(), name


@pytest.mark.parametrize("which", ["verse", "reverse"])
def test_int8_weights_per_row_within_half_a_step(which, request) -> None:
    model, tok = request.getfixturevalue(which)
    state = _state(model)
    entries = browser_model(model, tok, weights="int8")["weights"]
    for name, entry in entries.items():
        w = state[name]
        if w.ndim == 1:          # vectors travel as float16
            assert entry["dtype"] == "float16", name
            continue
        assert entry["dtype"] == "int8" and "scale" in entry, name
        rows = w.reshape(-1, w.shape[-1])
        step = np.abs(rows).max(axis=1) / 127                                  # one scale per row
        err = np.abs(decode_tensor(entry).reshape(rows.shape) - rows)
        # half a step, plus float32's rounding of q * scale (ties at exactly half a step occur)
        assert (err <= step[:, None] / 2 + np.abs(rows) * 2.0 ** -23).all(), name
        assert err.max() > 0, f"{name}: int8 changed nothing, so the bound was not tested"


def test_the_bundle_holds_every_parameter_once(verse, reverse) -> None:
    for model, tok in (verse, reverse):
        names = set(browser_model(model, tok)["weights"])
        expected = set(model.state_dict()) - ({"unembed.weight"} if model.cfg.tie_embeddings else set())
        assert names == expected
    assert "unembed.weight" in browser_model(*reverse)["weights"]        # untied: its own matrix


def test_config_subset(verse, minilm) -> None:
    cfg = browser_model(*verse)["config"]
    assert (cfg["arch"], cfg["positional"], cfg["norm"], cfg["activation"]) == ("decoder", "rope", "rmsnorm", "swiglu")
    assert cfg["d_head"] == 32 and cfg["n_kv_heads"] == 4 and cfg["attn_scale"] == pytest.approx(32 ** -0.5)
    mini = browser_model(*minilm, weights="int8")["config"]
    assert (mini["norm_position"], mini["embed_norm"], mini["n_token_types"], mini["output"]) == \
        ("post", True, 2, "hidden")
    rel, tok = zoo.load("toy:copy-relative", "cpu")
    buckets = browser_model(rel, tok)["config"]["relative_bucket_by_offset"]
    n = rel.cfg.max_len
    assert len(buckets) == 2 * n - 1 and buckets[n - 1] == 0          # offset 0 is bucket 0
    assert buckets[n - 1 + 1] == 0 and buckets[n - 1 - 1] == 1        # a decoder: only looking back counts


def test_char_tokenizer_data(verse) -> None:
    model, tok = verse
    spec = browser_model(model, tok)["tokenizer"]
    assert spec["kind"] == "char" and spec["vocab"] == tok.vocab
    assert (spec["unk_id"], spec["bos_id"]) == (tok.unk_id, tok.bos_id)
    assert (spec["add_bos"], spec["lowercase"]) == (False, False)
    assert spec["max_len"] == model.cfg.max_len == 512
    assert spec["max_chars"] == limits.value("text_chars")


def test_wordpiece_tokenizer_data(minilm) -> None:
    model, tok = minilm
    spec = browser_model(model, tok, weights="int8")["tokenizer"]
    assert spec["kind"] == "wordpiece" and len(spec["vocab"]) == tok.vocab_size == 30522
    assert all(spec["vocab"][i] == tok.tok.id_to_token(i) for i in range(0, 30522, 97))
    assert (spec["cls_id"], spec["sep_id"], spec["unk_token"], spec["prefix"]) == (101, 102, "[UNK]", "##")
    assert (spec["lowercase"], spec["strip_accents"]) == (True, True)
    assert {"content": "[MASK]", "id": 103} in spec["added_tokens"]
    assert spec["max_input_chars_per_word"] == 100 and spec["max_len"] == 512


def test_wordpiece_character_classes_are_those_of_tokenizers(minilm) -> None:
    classes = browser_model(*minilm, weights="int8")["tokenizer"]["char_classes"]

    def member(name: str, ch: str) -> bool:
        return any(a <= ord(ch) <= b for a, b in classes[name])

    for name, ranges in classes.items():                                 # sorted, disjoint
        assert all(a <= b < c for (a, b), (c, _) in zip(ranges, ranges[1:] + [[1 << 21, 0]])), name
    assert member("removed", "\u0301") and member("removed", "\x00") and member("removed", "\u200d")
    assert member("space", "\u3000") and member("space", "\t") and not member("space", "a")
    assert member("padded", "中") and member("padded", "\U0002b920") and not member("padded", "\U0002b820")
    assert member("punct", "!") and member("punct", "$") and member("punct", "，")
    assert not member("punct", "\u2e43")        # punctuation since Unicode 10, a letter to `tokenizers`
    assert not member("removed", "\u07fd")      # a mark since Unicode 11, kept by `tokenizers`



def test_character_classes_asked_in_batches_are_those_asked_one_by_one(minilm) -> None:
    """The batched probe (one call per 5,000 characters) against asking every character alone,
    over every probed code point, for MiniLM's normaliser and one with every switch off."""
    from tokenizers import Tokenizer

    from models.weights.browser import _BATCH, CHARACTER_CLASSES, _ask, _ask_batch, probed_points

    doc = json.loads(minilm[1].tok.to_str())
    plain = dict(doc["normalizer"], clean_text=False, handle_chinese_chars=False, strip_accents=False, lowercase=False)
    points = probed_points()
    for normalizer in (doc["normalizer"], plain):
        probe = Tokenizer.from_str(json.dumps({"version": "1.0", "model": {"type": "WordLevel", "vocab": {},
                                               "unk_token": "x"}, "normalizer": normalizer,
                                               "pre_tokenizer": doc["pre_tokenizer"]}))
        some = points if normalizer is plain else points[::7]       # every character once, the two together
        one_by_one = _ask(probe.normalizer, probe.pre_tokenizer, some)
        for lo in range(0, len(some), _BATCH):                      # the SEP letter itself: asked alone inside
            batched = _ask_batch(probe.normalizer, probe.pre_tokenizer, some[lo:lo + _BATCH])
            for name in CHARACTER_CLASSES:
                assert np.array_equal(batched[name], one_by_one[name][lo:lo + _BATCH]), (name, lo)

def test_bundle_size(verse, minilm) -> None:
    model, tok = verse
    sizes = {w: bundle_bytes(browser_model(model, tok, weights=w)) for w in ("float32", "float16", "int8")}
    bundle = browser_model(model, tok, weights="int8")
    assert sizes["int8"] == len(bundle_json(bundle).encode("utf-8"))
    json.loads(bundle_json(bundle))                                     # plain JSON
    params = sum(p.numel() for p in model.parameters())                 # tied: the table once
    assert sizes["float32"] == pytest.approx(params * 4 * 4 / 3, rel=0.05)   # base64 of 4 bytes a weight
    assert sizes["float32"] > sizes["float16"] > sizes["int8"]
    assert sizes["int8"] <= 3_000_000                                   # the verse-lm target
    # MiniLM int8 is 30.7 MB of JSON plain (22.6 MB of bytes, base64 adds a third); deflated, as
    # the small export sends it, 28.2 MB: the live file (plus ~90 KB of page) is under 30 MB
    assert bundle_bytes(browser_model(*minilm, weights="int8")) > 30_000_000
    assert bundle_bytes(browser_model(*minilm, weights="int8", deflate=True)) <= 29_800_000


@pytest.mark.parametrize("weights", ["float32", "float16", "int8"])
def test_deflated_tensors_decode_to_the_same_values(verse, weights) -> None:
    """deflate changes how the bytes travel, never the values; a tensor deflate would grow
    travels plain (no "packing")."""
    plain = browser_model(*verse, weights=weights)["weights"]
    packed = browser_model(*verse, weights=weights, deflate=True)["weights"]
    assert plain.keys() == packed.keys()
    for name, entry in packed.items():
        assert np.array_equal(decode_tensor(entry), decode_tensor(plain[name])), name
        if "packing" in entry:
            assert entry["packing"] == "deflate" and len(entry["data"]) < len(plain[name]["data"]), name
        else:
            assert entry["data"] == plain[name]["data"], name
    if weights == "int8":                                # the embedding's rows compress
        assert packed["embed.weight"]["packing"] == "deflate"
    with pytest.raises(ValueError, match="packing"):
        decode_tensor({**next(iter(packed.values())), "packing": "gzip"})


def test_every_shipped_checkpoint_has_a_browser_form_or_a_reason() -> None:
    refused = {}
    for path in shipped_checkpoints():
        model, tok = zoo.load("toy:" + path.stem, "cpu")
        if unsupported_feature(model) is None:
            assert browser_model(model, tok, weights="int8")["weights"]
        else:
            with pytest.raises(ValueError, match="no browser form") as e:
                browser_model(model, tok)
            refused[path.stem] = str(e.value)
    assert list(refused) == ["spell"] and "encoder-decoder" in refused["spell"]


@pytest.mark.parametrize("change, named", [
    ({"arch": "encoder-decoder"}, "encoder-decoder"),
    ({"attention": MaskSpec("longformer")}, "longformer"),
    ({"norm": "dyt"}, "dyt"),
    ({"norm_position": "sandwich"}, "sandwich"),
    ({"rope_scaling": "linear", "rope_factor": 2.0}, "rope_scaling"),
    ({"qk_norm": "head"}, "qk_norm"),
    ({"attn_softcap": 50.0}, "attn_softcap"),
    ({"parallel_residual": True}, "parallel_residual"),
])
def test_value_error_names_the_unsupported_feature(verse, change, named) -> None:
    model, tok = verse
    other = zoo.build_random(model.cfg.replace(positional="rope", **change))
    with pytest.raises(ValueError, match=named):
        browser_model(other, tok)


def test_value_errors_for_formats_tokenizers_and_range(verse) -> None:
    model, tok = verse
    with pytest.raises(ValueError, match="Unknown weight format"):
        browser_model(model, tok, weights="bfloat16")
    with pytest.raises(ValueError, match="characters and WordPiece"):
        browser_model(model, WordTokenizer(["a", "b"]))
    big = zoo.build_random(TransformerConfig(vocab_size=tok.vocab_size, d_model=32, n_layers=1, n_heads=2, d_ff=64))
    with torch.no_grad():
        big.blocks[0].mlp.W_in.weight[0, 0] = 1e5
    with pytest.raises(ValueError, match="float16's range"):
        browser_model(big, tok, weights="float16")
    assert browser_model(big, tok, weights="float32")["weights"]        # float32 carries it


# ---- the WebAssembly kernel ships as base64 beside its source: the source must build those bytes --------
def _wasm_sections(blob: bytes) -> list[tuple[int, bytes]]:
    """(id, payload) of every section but the custom ones (names and other metadata)."""
    def leb(i: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = blob[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value, i
    out, i = [], 8                                       # after the magic number and the version
    while i < len(blob):
        size, start = leb(i + 1)
        if blob[i] != 0:
            out.append((blob[i], blob[start:start + size]))
        i = start + size
    return out


def test_the_wasm_kernel_is_its_source_text_assembled():
    from wasmtime import wat2wasm

    src = MODEL_JS.read_text(encoding="utf-8")
    start = src.index("   * (module")
    wat = "\n".join(line[5:] for line in src[start:src.index("   */", start)].splitlines())
    shipped = base64.b64decode("".join(re.findall(r'"([A-Za-z0-9+/=]+)"',
                                                  src[src.index("const KERNEL_WASM"):src.index("const KERNELS")])))
    assert shipped[:4] == b"\0asm"
    assert _wasm_sections(wat2wasm(wat)) == _wasm_sections(shipped)


def test_exact_weights_is_float16_only_when_nothing_is_lost(verse, reverse) -> None:
    """verse-lm's checkpoint is float16 already: float16 carries it exactly (and halves the
    download); the reverse toy is float32, so float16 would round it."""
    assert exact_weights(verse[0]) == "float16"
    state = _state(verse[0])
    for name, entry in browser_model(*verse, weights="float16")["weights"].items():
        np.testing.assert_array_equal(decode_tensor(entry), state[name], err_msg=name)
    assert exact_weights(reverse[0]) == "float32"


@pytest.mark.parametrize("weights", ["float32", "float16", "int8"])
def test_weights_bytes_predicts_the_bundle_without_building_it(verse, weights) -> None:
    """The live view decides whether a model travels without asking from this estimate:
    the bundle is the weights plus a config and a vocabulary (a few tens of KB here)."""
    model, tok = verse
    actual = bundle_bytes(browser_model(model, tok, weights=weights))
    assert weights_bytes(model, weights) <= actual <= weights_bytes(model, weights) + 100_000

"""Real, valid artefacts the fuzz starts from, and Hypothesis strategies that break them.

Mutating a valid file reaches deep code (a checkpoint whose header is right but one shape
is wrong gets past every earlier check); raw random bytes test the first checks. The
artefacts: the shipped checkpoints (models/weights/checkpoints/), tiny Hugging Face
models of each supported family saved with `save_pretrained(safe_serialization=True)`
(as tests/unit/test_pretrained.py builds them), their safetensors headers, and small
tokenizer files.
"""
from __future__ import annotations

import functools
import io
import json
import math
import struct
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from models.weights.checkpoint import CHECKPOINT_DIR
from tests.unit import helpers

# ---- the shipped checkpoints ------------------------------------------------------------------
SHIPPED = sorted(p.stem for p in CHECKPOINT_DIR.glob("*.json"))


@functools.cache
def shipped(stem: str) -> tuple[bytes, bytes]:
    """(JSON bytes, safetensors bytes) of a shipped checkpoint."""
    return (CHECKPOINT_DIR / f"{stem}.json").read_bytes(), (CHECKPOINT_DIR / f"{stem}.safetensors").read_bytes()


def split_safetensors(raw: bytes) -> tuple[dict, bytes]:
    """(header dict, data bytes) of a safetensors file."""
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n]), raw[8 + n:]


def join_safetensors(header: Any, data: bytes, *, pad: bool = True) -> bytes:
    raw = json.dumps(header, allow_nan=True).encode()
    if pad:
        raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw)) + raw + data


def zip_of(files: list[tuple[str, bytes]], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip of (name, bytes) pairs (a name may repeat), deflated unless told otherwise."""
    return helpers.zip_of(files, compression)


def set_claimed_size(data: bytes, member: str, size: int) -> bytes:
    """A zip whose `member` claims `size` bytes unpacked (local header and central
    directory): a zip bomb when the real data is larger."""
    out = bytearray(data)
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(member)
    struct.pack_into("<I", out, info.header_offset + 22, size)
    pos = 0
    while (pos := out.find(b"PK\x01\x02", pos)) >= 0:
        name_len = struct.unpack_from("<H", out, pos + 28)[0]
        if out[pos + 46:pos + 46 + name_len].decode("utf-8", "replace") == member:
            struct.pack_into("<I", out, pos + 24, size)
        pos += 4
    return bytes(out)


# ---- tiny Hugging Face models, one per family -------------------------------------------------
FAMILIES = ("bert", "gpt2", "llama", "mistral")


def _tiny(family: str):
    import torch
    from transformers import (BertConfig, BertModel, GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM,
                              MistralConfig, MistralForCausalLM)

    torch.manual_seed(0)
    if family == "bert":
        return BertModel(BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                    intermediate_size=64, max_position_embeddings=64))
    if family == "gpt2":
        return GPT2LMHeadModel(GPT2Config(n_embd=32, n_layer=2, n_head=4, vocab_size=100, n_positions=64,
                                          bos_token_id=0, eos_token_id=0))
    if family == "llama":
        return LlamaForCausalLM(LlamaConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                            num_key_value_heads=2, intermediate_size=64, max_position_embeddings=64,
                                            bos_token_id=0, eos_token_id=0, pad_token_id=0))
    return MistralForCausalLM(MistralConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                            num_key_value_heads=2, intermediate_size=64, max_position_embeddings=64,
                                            sliding_window=4096, bos_token_id=0, eos_token_id=0))


@functools.cache
def hf_folder(family: str) -> dict[str, bytes]:
    """The files of a tiny `family` model saved with save_pretrained (safetensors)."""
    with tempfile.TemporaryDirectory() as tmp:
        _tiny(family).save_pretrained(tmp, safe_serialization=True)
        return {p.name: p.read_bytes() for p in Path(tmp).iterdir() if p.is_file()}


@functools.cache
def tokenizer_files() -> dict[str, dict[str, bytes]]:
    """Valid tokenizer files of each kind load_tokenizer reads: tokenizer.json, BERT's
    vocab.txt, GPT-2's vocab.json + merges.txt (100 tokens or fewer)."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "cat", "sat", "on", "mat", "a"]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return {
        "tokenizer.json": {"tokenizer.json": tok.to_str().encode()},
        "vocab.txt": {"vocab.txt": "\n".join(words).encode(),
                      "tokenizer_config.json": b'{"do_lower_case": true}'},
        "bpe": {"vocab.json": json.dumps({w: i for i, w in enumerate(["<|endoftext|>", "t", "h", "e", "th",
                                                                       "the"])}).encode(),
                "merges.txt": b"#version: 0.2\nt h\nth e\n"},
    }


def warm() -> None:
    """Import and run once everything the doors use, so that what a door's examples cost
    in memory is theirs, not the first import's."""
    from models.weights import pretrained
    from models.weights.checkpoint import read_checkpoint_zip

    for family in FAMILIES:
        hf_folder(family)
    tokenizer_files()
    js, w = shipped("reverse-rope")
    read_checkpoint_zip(zip_of([("a.json", js), ("a.safetensors", w)]))
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in hf_folder("gpt2").items():
            (Path(tmp) / name).write_bytes(data)
        pretrained.load(tmp)
    import ui.refusals  # noqa: F401  (the strings tables)


def warm_app() -> None:
    """The app as a server holds it once a class has used it: opened once (its imports,
    the catalogue), and its model cache full (ui/serving/gate.py keeps 6 models: MiniLM
    and five of the random-weight presets)."""
    from tests.app.helpers import open_app
    from ui import serving

    open_app(page="app_pages/attention.py", errors_ok=True)
    for key in ("custom:gpt", "custom:llama", "custom:bert", "custom:t5", "custom:transformer"):
        serving.load_model(key, "cpu")


# ---- strategies -------------------------------------------------------------------------------
# numbers a hostile file writes: huge, negative, zero, NaN, infinities, floats for ints, bools
NUMBERS = st.one_of(
    st.integers(-2, 8), st.integers(-2**64, 2**64), st.sampled_from([0, 1, -1, 2**31, 2**63, 10**9, 10**18, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([math.nan, math.inf, -math.inf, 1e308, 0.5, 64.0]),
    st.booleans(),
)
ODD_TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", " ", "\x00", "\u202e", "e\u0301", "../../x", "/etc/passwd", "C:\\x", "null", "NaN",
                     "🤖", "中文", "<script>", "%s%n", "{}", "{0}", "{need}", "list", "dict", "9" * 5000]),
)
JSON_LEAF = st.one_of(st.none(), NUMBERS, ODD_TEXT)
JSON = st.recursive(JSON_LEAF, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                      st.dictionaries(ODD_TEXT, kids, max_size=4)), max_leaves=12)
# zip member names: path traversal, absolute paths, odd unicode, NUL, backslashes, long names
ZIP_NAMES = st.one_of(
    st.sampled_from(["../../../../tmp/evil.json", "/etc/cron.d/x.json", "..\\..\\win.json", "C:/x.safetensors",
                     "a/../../b.safetensors", "\u202egnp.json", "e\u0301\u0301.json", "名前.safetensors",
                     "a\x00.json", "./.json", ".safetensors", "x" * 300 + ".json", "dir/", "🤖/../m.safetensors"]),
    st.builds(lambda s, ext: s + ext, st.text(min_size=0, max_size=30), st.sampled_from([".json", ".safetensors",
                                                                                          ".txt", ""])),
)


def mutate_value(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """A JSON value changed in one place: a key replaced, removed or added, a leaf
    replaced by anything."""
    if isinstance(value, dict) and value and depth < 4 and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        out = dict(value)
        how = draw(st.sampled_from(["deeper", "replace", "remove", "add"]))
        if how == "deeper":
            out[key] = mutate_value(draw, value[key], depth + 1)
        elif how == "replace":
            out[key] = draw(JSON)
        elif how == "remove":
            del out[key]
        else:
            out[draw(ODD_TEXT)] = draw(JSON)
        return out
    if isinstance(value, list) and value and depth < 4 and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        out = list(value)
        out[i] = mutate_value(draw, value[i], depth + 1)
        return out
    return draw(JSON)


def mutate_bytes(draw: st.DrawFn, data: bytes, max_changes: int = 6) -> bytes:
    """Bytes with a few flipped, cut, inserted or deleted, favouring the start (headers)."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, max_changes))):
        if not out:
            out += draw(st.binary(min_size=1, max_size=16))
            continue
        hi = len(out) - 1 if draw(st.booleans()) else min(len(out) - 1, 4096)
        i = draw(st.integers(0, hi))
        how = draw(st.sampled_from(["flip", "set", "cut", "insert", "delete"]))
        if how == "flip":
            out[i] ^= 1 << draw(st.integers(0, 7))
        elif how == "set":
            out[i] = draw(st.integers(0, 255))
        elif how == "cut":
            del out[i:]
        elif how == "insert":
            out[i:i] = draw(st.binary(min_size=1, max_size=16))
        else:
            del out[i:i + draw(st.integers(1, 64))]
    return bytes(out)


@st.composite
def safetensors_bytes(draw: st.DrawFn, valid: bytes) -> bytes:
    """A safetensors file broken in its header (a value, a dtype, a shape, an offset, its
    length), its data (cut, extended), or raw bytes."""
    header, data = split_safetensors(valid)
    how = draw(st.sampled_from(["entry", "header", "length", "data", "bytes", "lying", "random"]))
    if how == "entry":
        names = sorted(k for k in header if k != "__metadata__")
        key = draw(st.sampled_from(names))
        entry = dict(header[key])
        field = draw(st.sampled_from(["dtype", "shape", "data_offsets"]))
        entry[field] = draw(st.one_of(
            JSON,
            st.sampled_from(["F16", "BF16", "F64", "I64", "BOOL", "U8", "F8_E5M2", "f32", ""]),
            st.lists(st.integers(-3, 2**40), max_size=4),
            st.lists(NUMBERS, max_size=3)))
        header = {**header, key: entry}
        return join_safetensors(header, data)
    if how == "header":
        return join_safetensors(mutate_value(draw, header), data)
    if how == "length":
        raw = join_safetensors(header, data)
        n = draw(st.one_of(st.integers(0, 2**64 - 1), st.integers(0, len(raw))))
        return struct.pack("<Q", n) + raw[8:]
    if how == "data":
        if draw(st.booleans()):
            return join_safetensors(header, data[:draw(st.integers(0, len(data)))])
        return join_safetensors(header, data + draw(st.binary(max_size=64)))
    if how == "bytes":
        return mutate_bytes(draw, join_safetensors(header, data))
    if how == "lying":                 # a header that claims tensors the data cannot hold
        name = draw(st.sampled_from(sorted(k for k in header if k != "__metadata__")))
        shape = draw(st.lists(st.integers(0, 2**31), min_size=1, max_size=3))
        n = math.prod(shape) * 4
        return join_safetensors({name: {"dtype": "F32", "shape": shape, "data_offsets": [0, n]}}, b"\0" * min(n, 64))
    return draw(st.binary(max_size=256))

"""Door: a checkpoint zip uploaded on the training page (`read_checkpoint_zip`), its
JSON document, and the zip's own bytes.

Three ways in: zips put together from the shipped checkpoints with one part broken
(names with path traversal, absolute paths and odd unicode; extra or missing members;
every compression); checkpoints of small random models whose JSON document (config,
tokenizer, meta) is mutated; and the bytes of a valid zip mutated, zip bombs (a member
that claims a few bytes and unpacks to hundreds of MB), pickles and random bytes.
An accepted checkpoint must fit the model budget and run on its own tokenizer's ids.
"""
from __future__ import annotations

import functools
import io
import json
import pickle
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models import Transformer, TransformerConfig
from models.tokenizer import CharTokenizer
from models.weights.checkpoint import checkpoint_zip, read_checkpoint_zip
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import BUDGET_MB, examples
from tests.fuzz.props import check_model_fits, run_door

COMPRESSIONS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)


def accepted(result, budget_mb: float = BUDGET_MB) -> None:
    """What an accepted checkpoint must be: within the budget, a tokenizer that fits
    it, and a forward pass over that tokenizer's ids that runs."""
    if isinstance(result, BaseException):
        return
    model, tok, meta = result
    check_model_fits(model, budget_mb)
    assert tok is not None and tok.vocab_size <= model.cfg.vocab_size and isinstance(meta, dict)
    enc = tok.encode("abc =xyz", max_len=min(16, model.cfg.max_len))
    if enc.ids:
        kw = {"tgt_ids": enc.ids} if model.cfg.arch == "encoder-decoder" else {}
        model.run_with_cache(enc.ids, **kw)


# ---- zips put together from shipped checkpoints --------------------------------------------------
@st.composite
def assembled_zips(draw):
    stem = draw(st.sampled_from(artefacts.SHIPPED))
    js, weights = artefacts.shipped(stem)
    part = draw(st.sampled_from(["names", "json", "weights", "members", "other weights", "none"]))
    json_name, weights_name = "m.json", "m.safetensors"
    members: list[tuple[str, bytes]] = []
    if part == "names":
        json_name = draw(artefacts.ZIP_NAMES.filter(lambda n: n.endswith(".json"))) if draw(st.booleans()) else \
            draw(st.sampled_from(["../../../../tmp/evil.json", "/etc/x.json", "\u202egnp.json", "名前.json"]))
        weights_name = draw(st.sampled_from(["../w.safetensors", "/abs/w.safetensors", "e\u0301.safetensors",
                                             "..\\..\\w.safetensors", "🤖.safetensors"]))
    elif part == "json":
        js = artefacts.mutate_bytes(draw, js)
    elif part == "weights":
        weights = draw(artefacts.safetensors_bytes(weights))
    elif part == "other weights":
        weights = artefacts.shipped(draw(st.sampled_from(artefacts.SHIPPED)))[1]
    elif part == "members":
        members = draw(st.lists(st.tuples(artefacts.ZIP_NAMES, st.binary(max_size=64)), min_size=1, max_size=4))
    files = [(json_name, js), (weights_name, weights), *members]
    if draw(st.booleans()):
        files = list(reversed(files))
    if part == "members" and draw(st.booleans()):
        files = files[draw(st.integers(0, len(files) - 1)):]          # some missing
    return artefacts.zip_of(files, draw(st.sampled_from(COMPRESSIONS))), f"{json_name} {weights_name} {members}"


@examples("checkpoint_zip")
@given(assembled_zips())
def test_assembled_zips(case):
    data, names = case
    accepted(run_door("checkpoint_zip", lambda: read_checkpoint_zip(data), given=names, what=names))


# ---- the JSON document of a checkpoint of a small random model -------------------------------
SMALL = dict(arch=st.sampled_from(["decoder", "encoder", "encoder-decoder"]),
             positional=st.sampled_from(["none", "sinusoidal", "learned", "rope", "alibi", "relative"]),
             norm=st.sampled_from(["layernorm", "rmsnorm", "dyt"]), norm_position=st.sampled_from(["pre", "post"]),
             activation=st.sampled_from(["relu", "gelu", "gelu_tanh", "swiglu"]), n_layers=st.integers(1, 2),
             d_model=st.sampled_from([8, 16]), n_heads=st.sampled_from([1, 2, 4]), d_ff=st.sampled_from([8, 24]),
             max_len=st.integers(4, 40), tie_embeddings=st.booleans(), bias=st.booleans())


@functools.lru_cache(maxsize=64)
def small_checkpoint(kw: tuple, vocab: tuple[str, ...]) -> tuple[bytes, dict]:
    """The zip of a small random model and its JSON document."""
    cfg = TransformerConfig(vocab_size=len(vocab) + 8, **dict(kw))
    model = Transformer(cfg, device="cpu")
    tok = CharTokenizer(list(vocab))
    data = checkpoint_zip(model, tok, {"task": "copy", "label": "small"}, "small")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        doc = json.loads(z.read("small.json"))
    return data, doc


@st.composite
def mutated_documents(draw):
    kw = tuple(sorted((k, draw(v)) for k, v in SMALL.items()))
    vocab = tuple(dict.fromkeys(draw(st.lists(st.characters(), min_size=0, max_size=12))))
    data, doc = small_checkpoint(kw, vocab)
    where = draw(st.sampled_from(["config", "tokenizer", "meta", "document", "hf tokenizer", "none"]))
    if where == "hf tokenizer":                # a Hugging Face tokenizer's JSON inside the document, broken
        hf = artefacts.tokenizer_files()["tokenizer.json"]["tokenizer.json"]
        if draw(st.booleans()):
            text = json.dumps(artefacts.mutate_value(draw, json.loads(hf)), allow_nan=True)
        else:
            text = artefacts.mutate_bytes(draw, hf).decode("utf-8", "replace")
        doc = {**doc, "tokenizer": {"kind": "hf", "json": text}}
    elif where == "document":
        doc = artefacts.mutate_value(draw, doc)
    elif where != "none":
        doc = {**doc, where: artefacts.mutate_value(draw, doc.get(where))}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        weights = z.read("small.safetensors")
    # a lone surrogate from the vocabulary: escaped (valid JSON) or raw (not UTF-8)
    raw = json.dumps(doc, allow_nan=True, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    return artefacts.zip_of([("small.json", raw), ("small.safetensors", weights)]), json.dumps(doc, allow_nan=True)


@examples("checkpoint_json")
@given(mutated_documents())
def test_mutated_documents(case):
    data, doc = case
    accepted(run_door("checkpoint_json", lambda: read_checkpoint_zip(data), given=doc, what=doc[:160]))


# ---- the bytes of a zip ------------------------------------------------------------------------
@functools.cache
def bomb() -> bytes:
    """A valid checkpoint JSON beside a weights member of 300 MB of zeros (300 KB
    deflated), written without holding the 300 MB."""
    js, _ = artefacts.shipped("reverse-rope")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("m.json", js)
        with z.open("m.safetensors", "w") as f:
            chunk = bytes(2**20)
            for _ in range(300):
                f.write(chunk)
    return buf.getvalue()


@functools.cache
def many_members(n: int = 20_000) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for i in range(n):
            z.writestr(f"{i}.json", b"")
    return buf.getvalue()


@pytest.fixture(scope="module")
def warm():
    """The bombs are built before the door's memory is measured."""
    bomb()
    many_members()


@st.composite
def zip_bytes(draw):
    js, weights = artefacts.shipped(draw(st.sampled_from(artefacts.SHIPPED)))
    valid = artefacts.zip_of([("m.json", js), ("m.safetensors", weights)], draw(st.sampled_from(COMPRESSIONS)))
    how = draw(st.sampled_from(["mutate", "bomb", "honest bomb", "many", "pickle", "random", "empty", "nested",
                                "truncated"]))
    return how, _zip_bytes(draw, how, valid, js)


def _zip_bytes(draw, how: str, valid: bytes, js: bytes) -> bytes:
    if how == "mutate":
        return artefacts.mutate_bytes(draw, valid, 12)
    if how == "bomb":
        return artefacts.set_claimed_size(bomb(), "m.safetensors", draw(st.sampled_from([1000, 2**20, 50 * 2**20])))
    if how == "honest bomb":
        return bomb()                          # claims 300 MB unpacked: over 4x the upload limit
    if how == "many":
        return many_members()
    if how == "pickle":                        # a pickled checkpoint, bare or as torch.save's zip
        blob = pickle.dumps({"state_dict": {"w": [0.0] * 8}, "config": {"d_model": 8}})
        return blob if draw(st.booleans()) else artefacts.zip_of([("archive/data.pkl", blob), ("archive/version", b"3")])
    if how == "random":
        return draw(st.binary(max_size=512))
    if how == "empty":
        return artefacts.zip_of([])
    if how == "nested":
        return artefacts.zip_of([("inner.zip", valid), ("m.json", js)])
    return valid[:draw(st.integers(0, len(valid)))]


@examples("zip_bytes")
@given(zip_bytes())
def test_zip_bytes(case):
    how, data = case
    accepted(run_door("zip_bytes", lambda: read_checkpoint_zip(data), what=how))

"""Door: a safetensors header (`models.weights.safety.read_header`, from bytes as an
uploaded zip's weights and from a file as a model folder's), then the checks against
the tensors a config needs (`check_tensors`, `check_data_size`).

Inputs: the weights of the shipped checkpoints and of tiny Hugging Face models with their
header broken (a dtype, a shape, an offset, the length, the data), lying headers (shapes
of billions of values over a few bytes), headers built from scratch and random bytes.
A header that is read must be consistent: its byte ranges tile the data exactly.
"""
from __future__ import annotations

import json
import math
import struct
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from models import TransformerConfig
from models.weights import safety
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import examples
from tests.fuzz.props import run_door

SOURCES = [("shipped", stem) for stem in artefacts.SHIPPED] + [("hf", family) for family in artefacts.FAMILIES]


def valid_weights(source: tuple[str, str]) -> bytes:
    kind, name = source
    return artefacts.shipped(name)[1] if kind == "shipped" else artefacts.hf_folder(name)["model.safetensors"]


ENTRY = st.fixed_dictionaries({}, optional={
    "dtype": st.one_of(st.sampled_from(sorted(safety.DTYPE_BYTES)), artefacts.JSON),
    "shape": st.one_of(st.lists(st.integers(-2, 2**33), max_size=4), artefacts.JSON),
    "data_offsets": st.one_of(st.lists(st.integers(-2, 2**40), min_size=2, max_size=2), artefacts.JSON)})


@st.composite
def from_scratch(draw) -> bytes:
    """A header of random entries over a random amount of data."""
    header = draw(st.dictionaries(artefacts.ODD_TEXT, st.one_of(ENTRY, artefacts.JSON), max_size=4))
    if draw(st.booleans()):
        header["__metadata__"] = draw(artefacts.JSON)
    data = bytes(draw(st.integers(0, 64)))
    raw = json.dumps(header, allow_nan=True).encode()
    return struct.pack("<Q", len(raw)) + raw + data


@st.composite
def headers(draw):
    source = draw(st.sampled_from(SOURCES))
    how = draw(st.sampled_from(["mutated", "mutated", "mutated", "scratch", "text"]))
    if how == "mutated":
        return source, draw(artefacts.safetensors_bytes(valid_weights(source)))
    if how == "scratch":
        return source, draw(from_scratch())
    # a header that is not JSON, or JSON that is not an object
    raw = draw(st.one_of(st.binary(max_size=64), st.text(max_size=64).map(str.encode),
                         st.sampled_from([b"[]", b"null", b"7", b"{" * 5000, b"[" * 100_000, b'{"a": 1e999}',
                                          b'{"a": ' + b"9" * 5000 + b"}", b"\xef\xbb\xbf{}", b'{"a":{}, "a":{}}'])))
    return source, struct.pack("<Q", len(raw)) + raw + draw(st.binary(max_size=16))


def expected_of(source: tuple[str, str]) -> tuple[dict, int]:
    """(the tensors its config needs, their bytes) for the source a header came from."""
    kind, name = source
    if kind == "shipped":
        doc = json.loads(artefacts.shipped(name)[0])
        cfg = TransformerConfig.from_dict(doc["config"])
        expected = dict(safety.expected_shapes(cfg))         # read-only: a copy to edit
        if cfg.output == "logits" and cfg.tie_embeddings:
            expected.pop("unembed.weight", None)
        return expected, safety.model_bytes(cfg)
    header = safety.read_header(artefacts.hf_folder(name)["model.safetensors"])   # the HF names, as the folder has them
    return header.shapes(), header.data_bytes


@examples("safetensors_header")
@given(headers(), st.booleans())
def test_headers(case, from_file):
    source, data = case
    text = data[8:].decode("utf-8", "replace")
    try:                                # the header as its sentences may quote it: keys and values decoded
        text += json.dumps(json.loads(data[8:8 + struct.unpack("<Q", data[:8])[0]]), ensure_ascii=False)
    except (ValueError, RecursionError, struct.error):
        pass
    if from_file:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "model.safetensors"
            path.write_bytes(data)
            result = run_door("safetensors_header", lambda: safety.read_header(path), temp_paths=(tmp,), given=text)
    else:
        result = run_door("safetensors_header", lambda: safety.read_header(data, "w.safetensors"), given=text)
    if isinstance(result, BaseException):
        return
    # what was read is what the file holds: ranges that tile the data, sizes that match the dtypes
    assert result.data_bytes == sum(t.nbytes for t in result.tensors.values())
    for info in result.tensors.values():
        assert info.nbytes == math.prod(info.shape) * safety.DTYPE_BYTES[info.dtype]
    expected, need = expected_of(source)

    def check():
        safety.check_tensors(expected, result)
        safety.check_data_size(result, need)

    run_door("safetensors_header", check, counted=False)

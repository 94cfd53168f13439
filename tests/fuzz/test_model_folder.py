"""Door: a Hugging Face model folder (`models.weights.pretrained.load`, which a hub
download ends in too, and the catalogue's `zoo.folder_entry`), one test per family
(bert, gpt2, llama, mistral) and one for the folder's files themselves.

Each example starts from a tiny model of the family saved with
`save_pretrained(safe_serialization=True)` and breaks it: config.json (a value changed to
anything, a family variant Glassbox does not support, another family's model_type, its
bytes), the safetensors weights (header, data, a lying header), the tokenizer files
(tokenizer.json, vocab.txt + tokenizer_config.json, vocab.json + merges.txt), or the
folder (no weights, pickled weights only, a directory where a file should be, shards
that overlap or leave gaps). An accepted model fits the budget and runs.
"""
from __future__ import annotations

import json
import pickle
import tempfile
from pathlib import Path

import torch
from hypothesis import given
from hypothesis import strategies as st

from models.weights import zoo
from models.weights.pretrained import load
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import BUDGET_MB, examples
from tests.fuzz.props import check_model_fits, run_door

# settings each family reads, and values its variants use
VARIANTS = {
    "bert": {"position_embedding_type": ["absolute", "relative_key", None, 3], "hidden_act": ["gelu", "gelu_new", "relu",
             "silu", "swish", ["gelu"]], "type_vocab_size": [0, 1, 2, None, -1], "layer_norm_eps": [0, -1, "x", None],
             "pad_token_id": [0, 99, 100, 10**6, -1, None]},
    "gpt2": {"scale_attn_by_inverse_layer_idx": [True, False], "reorder_and_upcast_attn": [True], "activation_function":
             ["gelu_new", "relu", "tanh", None, 7], "scale_attn_weights": [False, True], "n_inner": [None, 0, 64, -3, "x"],
             "tie_word_embeddings": [False, True, "no"], "layer_norm_epsilon": [1e-5, 0, None]},
    "llama": {"rope_scaling": [None, {"type": "linear", "factor": 2.0}, {"rope_type": "default"}, [], "x", {"type": 3}],
              "rope_theta": [10000.0, "fast", -1, 0, 1e400, None, [1]], "sliding_window": [None, 8, 64, 10**9, "x"],
              "attention_bias": [True, False], "mlp_bias": [True, False], "hidden_act": ["silu", "gelu", None],
              "head_dim": [None, 4, 8, 16, 0, 7], "num_key_value_heads": [None, 1, 2, 3, 4, 0, 8],
              "tie_word_embeddings": [True, False], "rope_parameters": [{"rope_type": "yarn"}, {"rope_theta": "x"}]},
}
VARIANTS["mistral"] = {**VARIANTS["llama"], "sliding_window": [None, 4, 64, 4096, -1]}


def tokenizer_variant(draw) -> dict[str, bytes]:
    kind = draw(st.sampled_from(["none", "none", *artefacts.tokenizer_files()]))
    if kind == "none":
        return {}
    files = dict(artefacts.tokenizer_files()[kind])
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(files)))
        files[name] = artefacts.mutate_bytes(draw, files[name]) if draw(st.booleans()) else draw(st.binary(max_size=64))
    return files


@st.composite
def family_folders(draw, family: str):
    files = dict(artefacts.hf_folder(family))
    hf = json.loads(files["config.json"])
    part = draw(st.sampled_from(["variant", "value", "value", "config", "model_type", "config bytes", "weights",
                                 "tokenizer", "none"]))
    if part == "variant":
        for _ in range(draw(st.integers(1, 3))):
            key = draw(st.sampled_from(sorted(VARIANTS[family])))
            hf[key] = draw(st.sampled_from(VARIANTS[family][key]))
    elif part == "value":
        key = draw(st.sampled_from(sorted(hf)))
        hf[key] = draw(st.one_of(artefacts.NUMBERS, artefacts.JSON, st.integers(0, 200)))
    elif part == "config":
        hf = artefacts.mutate_value(draw, hf)
    elif part == "model_type":
        hf["model_type"] = draw(st.one_of(st.sampled_from([*artefacts.FAMILIES, "t5", "", None, 7, ["bert"]]), artefacts.ODD_TEXT))
    files["config.json"] = json.dumps(hf, allow_nan=True).encode()
    if part == "config bytes":
        files["config.json"] = artefacts.mutate_bytes(draw, files["config.json"])
    elif part == "weights":
        files["model.safetensors"] = draw(artefacts.safetensors_bytes(files["model.safetensors"]))
    if part == "tokenizer" or draw(st.integers(0, 3)) == 0:
        files.update(tokenizer_variant(draw))
    return files


def write(folder: Path, files: dict[str, bytes | None]) -> None:
    for name, data in files.items():
        if data is None:                            # a directory where a file should be
            (folder / name).mkdir()
        else:
            (folder / name).write_bytes(data)


def through_the_door(door: str, files: dict[str, bytes | None], what: str = "") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "model"
        folder.mkdir()
        write(folder, files)
        given = " ".join((files.get("config.json") or b"").decode("utf-8", "replace").split())[:20_000]
        result = run_door(door, lambda: load(str(folder)), temp_paths=(tmp,), given=given, what=what)
        entry = run_door(door, lambda: zoo.folder_entry(folder), temp_paths=(tmp,), counted=False)
        assert isinstance(entry, zoo.Entry) and tmp not in entry.label
    if isinstance(result, BaseException):
        return
    model, tok = result
    check_model_fits(model, BUDGET_MB)
    assert tok is None or tok.vocab_size <= model.cfg.vocab_size
    ids = list(range(min(model.cfg.vocab_size, 5)))
    if tok is not None:
        ids = tok.encode("the cat sat", max_len=min(model.cfg.max_len, 16)).ids or ids
    model.run_with_cache(ids[:model.cfg.max_len])


def family_test(family: str):
    @examples(f"folder_{family}")
    @given(family_folders(family))
    def test(files):
        through_the_door(f"folder_{family}", files, what=files["config.json"][:160].decode("utf-8", "replace"))

    test.__name__ = f"test_{family}_folders"
    return test


test_bert_folders = family_test("bert")
test_gpt2_folders = family_test("gpt2")
test_llama_folders = family_test("llama")
test_mistral_folders = family_test("mistral")


# ---- the folder's files ----------------------------------------------------------------------
def shards(weights: bytes, how: str) -> dict[str, bytes]:
    """The weights split into two files: disjoint, overlapping (a key in both) or with a
    key in neither."""
    from safetensors.torch import load, save

    tensors = load(weights)
    keys = sorted(tensors)
    half = len(keys) // 2
    first, second = keys[:half], keys[half:]
    if how == "overlap":
        second = keys[half - 1:]
    elif how == "gap":
        second = keys[half + 1:]
    return {"model-00001-of-00002.safetensors": save({k: tensors[k] for k in first}),
            "model-00002-of-00002.safetensors": save({k: tensors[k] for k in second})}


@st.composite
def folders(draw):
    family = draw(st.sampled_from(artefacts.FAMILIES))
    files: dict[str, bytes | None] = dict(artefacts.hf_folder(family))
    how = draw(st.sampled_from(["no weights", "pickle only", "weights dir", "config dir", "tokenizer dir",
                                "empty config", "no config", "shards", "overlap", "gap", "extra file",
                                "float64", "float16", "int weights"]))
    weights = files.pop("model.safetensors")
    if how == "no weights":
        pass
    elif how == "pickle only":
        files["pytorch_model.bin"] = pickle.dumps({"wte.weight": [0.0]})
    elif how == "weights dir":
        files["model.safetensors"] = None
    elif how == "config dir":
        files["model.safetensors"] = weights
        files["config.json"] = None
    elif how == "tokenizer dir":
        files["model.safetensors"] = weights
        files["tokenizer.json"] = None
    elif how == "empty config":
        files["model.safetensors"], files["config.json"] = weights, b""
    elif how == "no config":
        files["model.safetensors"] = weights
        del files["config.json"]
    elif how in ("shards", "overlap", "gap"):
        files.update(shards(weights, {"shards": "disjoint"}.get(how, how)))
    elif how == "extra file":
        files["model.safetensors"] = weights
        files["extra.safetensors"] = draw(st.binary(max_size=64))
    else:
        from safetensors.torch import load, save

        dtype = {"float64": torch.float64, "float16": torch.float16, "int weights": torch.int64}[how]
        files["model.safetensors"] = save({k: v.to(dtype) for k, v in load(weights).items()})
    return family, how, files


@examples("folder_files")
@given(folders())
def test_folder_files(case):
    family, how, files = case
    through_the_door("folder_files", files, what=f"{family}: {how}")

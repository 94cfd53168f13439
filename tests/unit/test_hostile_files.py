"""Hostile files: the four cases found by trying the app as a hostile user would, and the
checks that now run before anything is allocated (models/weights/safety.py)."""
from __future__ import annotations

import io
import json
import re
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from models import Transformer, TransformerConfig
from models.errors import ModelTooBig, Refused
from models.weights import safety
from models.weights.checkpoint import CHECKPOINT_DIR, read_checkpoint_zip
from models.weights.pretrained import CheckpointError, load
from tests.unit.helpers import zip_of

ROOT = Path(__file__).resolve().parents[2]
TYPE_NAMES = re.compile(r"\b[A-Z][a-zA-Z]*(Error|Exception)\b|Traceback|NoneType|\bdict\b|\blist\b")


def glassbox_json(config: dict) -> bytes:
    return json.dumps({"format": "glassbox-checkpoint", "version": 1, "config": config,
                       "tokenizer": None, "meta": {}}).encode()


GOOD_JSON = (CHECKPOINT_DIR / "reverse-rope.json").read_bytes()
GOOD_WEIGHTS = (CHECKPOINT_DIR / "reverse-rope.safetensors").read_bytes()


# ---- the four cases -----------------------------------------------------------------------------
HUGE_GPT2 = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_layer": 48, "n_embd": 6400, "n_head": 50,
             "n_positions": 1024, "vocab_size": 50257}


def test_a_folder_claiming_a_huge_gpt2_beside_16_bytes_is_refused_before_anything_is_built(tmp_path, monkeypatch):
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "2000")     # not the machine's: the sentence's number is known
    (tmp_path / "config.json").write_text(json.dumps(HUGE_GPT2))
    (tmp_path / "model.safetensors").write_bytes(b"\x08" + b"\x00" * 15)
    # in a fresh process, so that a regression is a refused test, not a killed test runner
    # The peak is VmHWM, which belongs to this process's own memory map. ru_maxrss would not do:
    # Linux carries it across fork + exec, so the child reports the test runner's own peak.
    code = ("import sys\nfrom models.weights.pretrained import load\n"
            "try:\n    load(sys.argv[1])\nexcept Exception as e:\n"
            "    print(type(e).__name__, getattr(e, 'reason', ''), e)\n"
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
            "print('peak_mb', int(hwm.split()[1]) // 1024)\n")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    first, peak = r.stdout.splitlines()[0], int(r.stdout.split("peak_mb")[1])
    assert " model_too_big " in first, first                                  # before the 16 bytes are even read
    need = safety.model_bytes(TransformerConfig(arch="decoder", vocab_size=50257, d_model=6400, n_layers=48,
                                                n_heads=50, d_ff=25600, max_len=1024, positional="learned",
                                                activation="gelu_tanh"))
    assert f"{need / 1e6:,.0f} MB" in first and "2,000 MB" in first          # both numbers
    assert peak < 2000, f"the refused load peaked at {peak} MB"                # python + torch, no model


def test_a_zip_asking_for_a_billion_tokens_and_a_million_dims_is_refused_with_both_numbers(monkeypatch):
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "2000")     # not the machine's: the sentence's number is known
    data = zip_of({"m.json": glassbox_json({"vocab_size": 10**9, "d_model": 10**6, "n_heads": 4}),
                   "m.safetensors": GOOD_WEIGHTS})
    with pytest.raises(Refused) as e:
        read_checkpoint_zip(data)
    assert e.value.reason == "model_too_big"
    assert "MB" in str(e.value) and "2,000 MB" in str(e.value)
    assert float(e.value.values["need"].replace(",", "")) > 4e9                 # MB: the embeddings alone are 4e15 B


def test_a_zip_whose_json_is_a_list_gets_a_sentence():
    with pytest.raises(Refused) as e:
        read_checkpoint_zip(zip_of({"m.json": b"[1, 2, 3]", "m.safetensors": GOOD_WEIGHTS}))
    assert e.value.reason == "not_checkpoint" and str(e.value) == "m.json is not a Glassbox checkpoint."


BAD_ZIPS = {
    "list json": {"m.json": b"[1]", "m.safetensors": GOOD_WEIGHTS},
    "not json": {"m.json": b"\x00\x01garbage", "m.safetensors": GOOD_WEIGHTS},
    "config a list": {"m.json": glassbox_json([]), "m.safetensors": GOOD_WEIGHTS},   # type: ignore[arg-type]
    "config string values": {"m.json": glassbox_json({"d_model": "wide"}), "m.safetensors": GOOD_WEIGHTS},
    "unknown field": {"m.json": glassbox_json({"colour": "red"}), "m.safetensors": GOOD_WEIGHTS},
    "garbage weights": {"m.json": GOOD_JSON, "m.safetensors": b"garbage"},
    "lying header": {"m.json": GOOD_JSON, "m.safetensors": struct.pack("<Q", 10**12) + b"{}"},
    "other weights": {"m.json": GOOD_JSON, "m.safetensors": (CHECKPOINT_DIR / "brackets.safetensors").read_bytes()},
    "tokenizer junk": {"m.json": GOOD_JSON.replace(b'"kind": "char"', b'"kind": 7'), "m.safetensors": GOOD_WEIGHTS},
    "tokenizer vocab a number": {"m.json": GOOD_JSON.replace(b'"vocab": [', b'"vocab": 5, "x": ['),
                                 "m.safetensors": GOOD_WEIGHTS},
    "huge": {"m.json": glassbox_json({"vocab_size": 10**9, "d_model": 10**6, "n_heads": 4}),
             "m.safetensors": GOOD_WEIGHTS},
}


@pytest.mark.parametrize("files", BAD_ZIPS.values(), ids=BAD_ZIPS.keys())
def test_refusals_name_the_problem_without_temp_paths_or_type_names(files):
    with pytest.raises(Refused) as e:
        read_checkpoint_zip(zip_of(files))
    message = str(e.value)
    assert tempfile.gettempdir() not in message and "upload.json" not in message
    assert not TYPE_NAMES.search(message), message
    assert e.value.reason and message.endswith((".", ")"))


def test_a_good_zip_still_loads():
    model, tok, meta = read_checkpoint_zip(zip_of({"a.json": GOOD_JSON, "a.safetensors": GOOD_WEIGHTS}))
    assert meta["task"] == "reverse" and model.cfg.positional == "rope" and tok.vocab_size <= model.cfg.vocab_size


# ---- the checks behind them ----------------------------------------------------------------------
@pytest.mark.parametrize("kw", [dict(), dict(arch="encoder-decoder", positional="relative", norm="rmsnorm"),
                                dict(arch="encoder", n_token_types=2, embed_norm=True, positional="learned",
                                     norm_position="post", output="hidden", tie_embeddings=False),
                                dict(activation="swiglu", n_kv_heads=2, bias=False, positional="alibi", norm="dyt")])
def test_the_size_of_a_model_is_known_exactly_from_its_config(kw):
    cfg = TransformerConfig(vocab_size=97, d_model=32, n_heads=4, d_ff=48, max_len=40, **kw)
    model = Transformer(cfg, device="cpu")
    params = sum(p.numel() for p in model.parameters())
    buffers = sum(b.numel() for b in model.buffers())
    assert safety.parameter_count(cfg) == (params, buffers)
    assert safety.model_bytes(cfg) == 4 * (params + buffers)
    assert safety.expected_shapes(cfg) == {k: tuple(v.shape) for k, v in model.state_dict().items()}


def test_budget_and_layer_limits_come_from_the_settings(monkeypatch):
    cfg = TransformerConfig(vocab_size=1000, d_model=64)
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "0.1")
    with pytest.raises(ModelTooBig) as e:
        safety.check_model(cfg)
    assert e.value.budget == 100_000 and e.value.need == safety.model_bytes(cfg)
    monkeypatch.delenv("GLASSBOX_MODEL_BUDGET_MB")
    assert safety.check_model(cfg) == safety.model_bytes(cfg)
    monkeypatch.setenv("GLASSBOX_MAX_LAYERS", "3")
    with pytest.raises(Refused, match="at most 3"):
        safety.check_model(cfg.replace(n_layers=4))


def header_bytes(header: dict, data: bytes) -> bytes:
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + data


def test_a_header_is_read_without_the_tensors_and_checked_against_the_file(tmp_path):
    h = safety.read_header(CHECKPOINT_DIR / "reverse-rope.safetensors")
    assert h.tensors["embed.weight"].dtype == "F32" and h.data_bytes == sum(t.nbytes for t in h.tensors.values())
    ok = header_bytes({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, b"\x00" * 8)
    assert safety.read_header(ok, "x.safetensors").tensors["a"].shape == (2,)
    bad = {
        "short": b"\x01\x02",
        "claims more than it has": struct.pack("<Q", 999) + b"{}",
        "not an object": header_bytes([1, 2], b""),                                          # type: ignore[arg-type]
        "unknown dtype": header_bytes({"a": {"dtype": "F33", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4),
        "negative shape": header_bytes({"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, b"\0" * 4),
        "size mismatch": header_bytes({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}, b"\0" * 4),
        "past the end": header_bytes({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, b"\0" * 4),
        "a gap": header_bytes({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}, b"\0" * 8),
        "overlap": header_bytes({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
                                 "b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4),
    }
    for what, data in bad.items():
        with pytest.raises(Refused) as e:
            safety.read_header(data, "w.safetensors")
        assert e.value.reason == "weights_corrupt", what


def test_tensors_are_checked_by_name_dtype_and_shape():
    header = safety.Header("w.safetensors", {"a": safety.TensorInfo("F32", (2, 3), 24),
                                             "b": safety.TensorInfo("I64", (4,), 32)}, 56)
    safety.check_tensors({"a": (2, 3)}, header)
    for expected, reason in (({"c": (1,)}, "weights_missing"), ({"b": (4,)}, "weights_dtype"),
                             ({"a": (3, 2)}, "weights_shape")):
        with pytest.raises(Refused) as e:
            safety.check_tensors(expected, header)
        assert e.value.reason == reason


def test_a_model_folder_is_checked_before_a_tensor_is_read(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({**HUGE_GPT2, "n_layer": 2, "n_embd": 64, "n_head": 4,
                                                      "vocab_size": 100, "n_positions": 32}))
    (tmp_path / "model.safetensors").write_bytes(header_bytes({"wte.weight": {"dtype": "F32", "shape": [100, 64],
                                                                             "data_offsets": [0, 25600]}},
                                                              b"\0" * 25600))
    with pytest.raises(CheckpointError) as e:
        load(tmp_path)
    assert e.value.reason == "weights_missing" and "wpe.weight" in str(e.value)
    (tmp_path / "config.json").write_text("[1, 2]")
    with pytest.raises(CheckpointError, match="JSON object"):
        load(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({**HUGE_GPT2, "n_embd": "wide"}))
    with pytest.raises(Refused) as e:
        load(tmp_path)
    assert e.value.reason in ("config_values", "whole")


def test_configs_check_the_types_of_their_values():
    for bad in ({"d_model": "64"}, {"n_layers": 2.5}, {"bias": "yes"}, {"dropout": float("nan")},
                {"vocab_size": True}, {"attention": {"kind": "local", "window": "2"}}, {"arch": ["decoder"]},
                {"attention": 5}, {"norm_eps": -1.0}):
        with pytest.raises(Refused):
            TransformerConfig.from_dict(bad)
    assert TransformerConfig.from_dict({"d_model": 64.0}).d_model == 64           # an integral float from JSON
    for doc in ("[1]", "null", "7", "not json"):
        with pytest.raises(Refused, match="JSON"):
            TransformerConfig.from_json(doc)


def test_every_reason_a_refusal_can_carry_is_said_in_both_languages():
    from ui.i18n import STRINGS

    source = "\n".join(p.read_text() for p in (ROOT / "models").rglob("*.py"))
    reasons = set(re.findall(r'(?:Refused|Error|_unsupported|CheckpointZipError)\(\s*"([a-z_]+)"', source))
    reasons |= {"model_too_big", "weights_corrupt", "unsupported_variant"}
    assert len(reasons) > 40
    missing = [r for r in sorted(reasons) if f"refused_{r}" not in STRINGS or
               set(STRINGS[f"refused_{r}"]) != {"en", "zh"}]
    assert not missing, missing


# ---- found by the fuzz suite (tests/fuzz/, docs/hostile-files.md) ---------------------------------
def test_a_zip_bomb_is_refused_without_inflating_it():
    """A member that claims 1,000 bytes and inflates to 300 MB: zipfile's read() of a whole
    member inflated all of it before cutting it to the claim (300 KB uploaded -> 300 MB)."""
    import tracemalloc

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("m.json", GOOD_JSON)
        with z.open("m.safetensors", "w") as f:
            for _ in range(300):
                f.write(bytes(2**20))
    data = bytearray(buf.getvalue())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("m.safetensors")
    struct.pack_into("<I", data, info.header_offset + 22, 1000)          # the local header's claim
    central = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 1000)                      # and the central directory's
    tracemalloc.start()
    try:
        with pytest.raises(Refused) as e:
            read_checkpoint_zip(bytes(data))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.value.reason in ("not_zip", "weights_corrupt")
    assert peak < 20 * 2**20, f"reading the bomb allocated {peak / 2**20:.0f} MB"


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_members_zipfile_cannot_bound_are_refused(method):
    """zipfile inflates bzip2 and LZMA members without a bound: only stored and deflate."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr("m.json", GOOD_JSON)
        z.writestr("m.safetensors", GOOD_WEIGHTS)
    with pytest.raises(Refused) as e:
        read_checkpoint_zip(buf.getvalue())
    assert e.value.reason == "zip_method" and "m.json" in str(e.value)


def test_a_header_entry_whose_dtype_is_a_list_is_corrupt():
    data = header_bytes({"a": {"dtype": [], "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4)
    with pytest.raises(Refused) as e:                                      # was TypeError: unhashable type
        safety.read_header(data, "w.safetensors")
    assert e.value.reason == "weights_corrupt"


BIG = "9" * 5000                                                             # over Python's 4,300-digit limit


def test_numbers_of_thousands_of_digits_are_refused_as_not_json(tmp_path):
    with pytest.raises(Refused, match="JSON"):                              # were ValueError: Exceeds the limit
        TransformerConfig.from_json('{"d_model": ' + BIG + "}")
    raw = ('{"a": {"dtype": "F32", "shape": [' + BIG + '], "data_offsets": [0, 4]}}').encode()
    with pytest.raises(Refused) as e:
        safety.read_header(struct.pack("<Q", len(raw)) + raw + b"\0" * 4, "w.safetensors")
    assert e.value.reason == "weights_corrupt"
    with pytest.raises(Refused) as e:
        read_checkpoint_zip(zip_of({"m.json": b'{"format": ' + BIG.encode() + b"}", "m.safetensors": GOOD_WEIGHTS}))
    assert e.value.reason == "not_json"
    (tmp_path / "config.json").write_text('{"model_type": "gpt2", "n_layer": ' + BIG + "}")
    (tmp_path / "model.safetensors").write_bytes(GOOD_WEIGHTS)
    with pytest.raises(Refused) as e:
        load(tmp_path)
    assert e.value.reason == "config_json"


def test_config_values_are_shown_as_json_not_python():
    with pytest.raises(Refused) as e:
        TransformerConfig.from_dict({"d_ff": {"a": None, "b": [True]}})
    assert '{"a": null, "b": [true]}'[:40] in str(e.value) and "None" not in str(e.value)
    with pytest.raises(Refused) as e:
        TransformerConfig.from_dict({"arch": 5})
    assert str(e.value).startswith("Unknown architecture '5'") and "int" not in str(e.value)
    with pytest.raises(Refused) as e:
        TransformerConfig.from_dict({"bias": ["yes"]})
    assert '["yes"]' in str(e.value)


def test_a_thousand_unknown_fields_make_a_short_sentence():
    with pytest.raises(Refused) as e:
        TransformerConfig.from_dict({f"field_{i}_" + "x" * 1000: 1 for i in range(1000)})
    assert e.value.reason == "unknown_fields" and len(str(e.value)) < 150
    assert e.value.values["names"] in str(e.value)


def test_a_model_too_big_for_a_float_is_refused_with_a_power_of_ten(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({**HUGE_GPT2, "vocab_size": 10**300, "n_embd": 10**300,
                                                      "n_head": 1}))
    (tmp_path / "model.safetensors").write_bytes(GOOD_WEIGHTS)
    with pytest.raises(ModelTooBig) as e:                                  # was OverflowError: int too large
        load(tmp_path)
    assert "10^" in e.value.values["need"] and "10^" in str(e.value)


def tiny_bert_folder(path: Path) -> dict:
    from tests.unit.test_pretrained import tiny_bert

    tiny_bert().save_pretrained(path, safe_serialization=True)
    return json.loads((path / "config.json").read_text())


def test_a_folder_whose_config_a_model_cannot_have_is_listed_as_unavailable(tmp_path):
    from models.weights import zoo

    config = tiny_bert_folder(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({**config, "layer_norm_eps": 0}))
    entry = zoo.folder_entry(tmp_path)                                     # was ConfigError out of the catalogue
    assert not entry.available and "norm_eps" in entry.reason


def test_a_bert_without_token_types_loads(tmp_path):
    config = tiny_bert_folder(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({**config, "type_vocab_size": 0}))
    model, _ = load(tmp_path)                                              # was KeyError: 'type_embed.weight'
    assert model.cfg.n_token_types == 0


def test_a_llama_whose_rope_theta_is_text_is_refused(tmp_path):
    from tests.unit.test_pretrained import tiny_llama

    tiny_llama().save_pretrained(tmp_path, safe_serialization=True)
    config = json.loads((tmp_path / "config.json").read_text())
    rope = {**(config.get("rope_parameters") or {}), "rope_theta": "fast"}
    (tmp_path / "config.json").write_text(json.dumps({**config, "rope_theta": "fast", "rope_parameters": rope}))
    with pytest.raises(CheckpointError) as e:                              # was ValueError: could not convert
        load(tmp_path)
    assert e.value.reason == "config_values"


def test_a_directory_where_the_weights_should_be(tmp_path):
    tiny_bert_folder(tmp_path)
    (tmp_path / "model.safetensors").unlink()
    (tmp_path / "model.safetensors").mkdir()
    with pytest.raises(CheckpointError) as e:                              # was IsADirectoryError
        load(tmp_path)
    assert e.value.reason == "no_weights"
    with pytest.raises(Refused) as e:
        safety.read_header(tmp_path / "model.safetensors")
    assert e.value.reason == "not_readable" and str(tmp_path) not in str(e.value)


@pytest.mark.parametrize("files", [
    {"tokenizer.json": b""}, {"tokenizer.json": None}, {"vocab.txt": b"a\nb\n"},
    {"vocab.txt": b"[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\n", "tokenizer_config.json": b"7"},
    {"vocab.txt": b"[PAD]\n", "tokenizer_config.json": b"\x80\x81"}, {"vocab.json": b"{", "merges.txt": b""},
], ids=["empty tokenizer.json", "tokenizer.json a directory", "vocab.txt without [SEP]",
        "tokenizer_config a number", "tokenizer_config not utf-8", "vocab.json not json"])
def test_tokenizer_files_that_cannot_be_read_are_refused(tmp_path, files):
    tiny_bert_folder(tmp_path)
    for name, data in files.items():
        if data is None:
            (tmp_path / name).mkdir()
        else:
            (tmp_path / name).write_bytes(data)
    with pytest.raises(CheckpointError) as e:             # were ValueError (with the path), TypeError, JSONDecodeError
        load(tmp_path)
    assert e.value.reason == "tokenizer" and str(tmp_path) not in str(e.value)


@pytest.mark.parametrize("tokenizer", [{"add_bos": None}, {"lowercase": [1]}, {"vocab": [1, 2, 3]},
                                       {"vocab": "abc"}])
def test_a_checkpoint_tokenizer_with_wrong_types_is_refused(tokenizer):
    doc = json.loads(GOOD_JSON)
    doc["tokenizer"] = {**doc["tokenizer"], **tokenizer}
    with pytest.raises(Refused) as e:                      # add_bos null was accepted, then encode() raised TypeError
        read_checkpoint_zip(zip_of({"m.json": json.dumps(doc).encode(), "m.safetensors": GOOD_WEIGHTS}))
    assert e.value.reason == "tokenizer"


def test_the_cli_refuses_a_config_over_the_budget_before_building_it(tmp_path, monkeypatch, capsys):
    from cli.trace import main

    (tmp_path / "c.json").write_text(json.dumps({"vocab_size": 10**6, "d_model": 4096, "n_heads": 4}))
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "100")
    assert main(["--text", "hi", "--out", str(tmp_path / "t.npz"), "--config", str(tmp_path / "c.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: This config needs about") and "budget of 100 MB" in err


@pytest.mark.parametrize("page, param", [("app_pages/positional.py", "pe_d"), ("app_pages/ffn.py", "neuron"),
                                         ("app_pages/positional.py", "pe_seed")])
def test_an_integer_link_value_too_large_for_a_float_gets_a_notice(page, param):
    """?pe_d=1e309: Streamlit's integer number_input raised OverflowError on it. (A widget
    drawn after the page's notices gets its notice on the next run, as for any bad value.)"""
    from tests.app.helpers import open_app, rerun, warnings_text

    at = open_app({param: "1e309", "pe_view": "rope" if param == "pe_seed" else "tables"}, page=page, direct=True)
    shown = warnings_text(at) + warnings_text(rerun(at))
    assert shown.count(f"{param}=1e309 is not valid") == 1                 # said once, not once per check


def test_a_slider_link_value_that_is_not_a_number_is_said_once():
    from tests.app.helpers import open_app, warnings_text

    at = open_app({"layer": "<b>x</b>"}, page="app_pages/attention.py", direct=True)
    assert warnings_text(at).count("layer=") == 1


def test_a_vocabulary_with_a_lone_surrogate_saves_and_reads_back():
    """Found by the fuzz suite: save_checkpoint wrote its JSON as UTF-8, which cannot hold a
    lone surrogate (UnicodeEncodeError); it is escaped now, which JSON allows."""
    from models.tokenizer import CharTokenizer
    from models.weights.checkpoint import checkpoint_zip

    model = Transformer(TransformerConfig(vocab_size=16, d_model=16, n_heads=2, n_layers=1, d_ff=32, max_len=16),
                        device="cpu")
    _, tok, _ = read_checkpoint_zip(checkpoint_zip(model, CharTokenizer(["a", "\ud800"]), {}, "s"))
    assert tok.to_dict()["vocab"][-2:] == ["a", "\ud800"]


def test_a_tensor_name_a_sentence_quotes_is_kept_apart_from_it():
    """Found by the fuzz suite: a tensor named 'list' made the sentence look like it named a
    Python type; the quoted name travels in the refusal's values now."""
    data = header_bytes({"list": {"dtype": None, "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4)
    with pytest.raises(Refused) as e:
        safety.read_header(data, "w.safetensors")
    assert e.value.values["tensor"] == "list" and "'list'" in str(e.value)

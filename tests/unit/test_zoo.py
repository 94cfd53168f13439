import json

import pytest
import torch

from models.weights import zoo
from models.weights.checkpoint import load_checkpoint, read_checkpoint_info, save_checkpoint
from models.tokenizer import CharTokenizer


def test_catalogue_lists_minilm_first_and_every_preset():
    entries = zoo.catalogue()
    assert entries[0].key == "minilm" and entries[0].available and entries[0].config.n_heads == 12
    keys = {e.key for e in entries}
    assert {f"custom:{k}" for k in zoo.PRESETS} <= keys
    assert all(e.available == (e.reason == "") for e in entries)


def test_unavailable_entries_say_why(tmp_path):
    missing = zoo.folder_entry(tmp_path / "nope")
    assert not missing.available and "not a folder" in missing.reason
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "xlnet"}))
    xlnet = zoo.folder_entry(tmp_path)
    assert not xlnet.available and "Unsupported architecture" in xlnet.reason
    with pytest.raises(ValueError, match="not available here"):
        zoo.load(f"folder:{tmp_path}")
    with pytest.raises(ValueError, match="Unknown model"):
        zoo.get("nope")


def test_an_unavailable_entry_carries_its_refusal_for_the_app_to_translate(tmp_path, monkeypatch):
    """Issue 35 (review E19): the app says why in the reader's language, from the refusal's id
    and values; `reason` keeps the English sentence for logs and notebooks."""
    from models.errors import Refused
    from models.weights.pretrained import CheckpointError

    missing = zoo.folder_entry(tmp_path / "nope")
    assert missing.refusal.reason == "not_folder" and missing.refusal.values == {"folder": "nope"}
    assert missing.reason == str(missing.refusal)

    def no_minilm():
        raise CheckpointError("minilm_missing", "The bundled MiniLM is not installed.")

    monkeypatch.setattr(zoo, "minilm_path", no_minilm)
    entries = {e.key: e for e in zoo.catalogue()}
    assert entries["minilm"].refusal.reason == "minilm_missing"
    custom = entries["custom:gpt"]
    assert not custom.available and custom.refusal.reason == "needs_minilm" and custom.config is not None
    assert "not installed" in custom.reason
    assert all(isinstance(e.refusal, Refused) for e in entries.values() if not e.available)
    assert all(e.refusal is None for e in entries.values() if e.available)


@pytest.mark.parametrize("preset", sorted(zoo.PRESETS))
def test_every_preset_loads_and_runs(preset):
    model, tok = zoo.load(f"custom:{preset}")
    enc = tok.encode("Attention lets every token look at the others.")
    tgt = enc.ids if model.cfg.arch == "encoder-decoder" else None
    out, trace = model.run_with_cache(enc.ids, tgt)
    assert torch.isfinite(out).all() and len(trace) > 10


def test_custom_models_are_seeded_and_configurable():
    a, _ = zoo.load("custom:gpt", seed=1)
    b, _ = zoo.load("custom:gpt", seed=1)
    c, _ = zoo.load("custom:gpt", seed=2)
    assert torch.equal(a.embed.weight, b.embed.weight) and not torch.equal(a.embed.weight, c.embed.weight)
    cfg = zoo.PRESETS["gpt"][2].replace(n_layers=3, positional="rope")
    d, _ = zoo.load("custom:gpt", config=cfg)
    assert d.cfg.n_layers == 3 and d.cfg.positional == "rope"
    with pytest.raises(ValueError, match="too small"):
        zoo.load("custom:gpt", config=cfg.replace(vocab_size=100))


def test_checkpoint_round_trip_and_toy_listing(tmp_path, monkeypatch):
    tok = CharTokenizer.from_corpus(["abcab"])
    model = zoo.build_random(zoo.PRESETS["gpt"][2].replace(vocab_size=tok.vocab_size), seed=3)
    path = save_checkpoint(model, tok, tmp_path / "copy", meta={"label": "Copy task", "description": "toy"})
    assert read_checkpoint_info(path)["meta"]["label"] == "Copy task"
    back, back_tok, meta = load_checkpoint(path)
    ids = tok.encode("abc").ids
    with torch.no_grad():
        assert torch.equal(back(ids), model(ids))
    assert back.unembed.weight is back.embed.weight and back_tok.vocab == tok.vocab
    monkeypatch.setattr(zoo, "shipped_checkpoints", lambda: [path])
    monkeypatch.setattr(zoo, "CHECKPOINT_DIR", tmp_path)
    toy = zoo.get("toy:copy")
    assert toy.available and toy.label == "Copy task"
    assert zoo.load("toy:copy")[0].cfg == model.cfg
    (tmp_path / "copy.safetensors").write_bytes(b"broken")
    with pytest.raises(ValueError, match="corrupt or truncated"):
        load_checkpoint(path)
    (tmp_path / "copy.safetensors").unlink()
    gone = zoo.get("toy:copy")
    assert not gone.available and gone.refusal.reason == "weights_absent"

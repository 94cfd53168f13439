"""The "Load a model" panel (ui/widgets/model_loader.py): a tiny random Hugging Face folder
loads through it, joins the picker, is selected and shows a ✓ parity badge; every bad
folder gets its one sentence (English and Chinese) and leaves what the user had alone."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from models.weights import tiny_hf

from .helpers import assert_no_exception, open_app

FAMILY = "qwen2"          # a tiny random Qwen2 folder (QKV bias, tied embeddings)


def bad_folders(root: Path) -> dict[str, tuple[Path, str, str]]:
    """name -> (path, English fragment, Chinese fragment) of the sentence it must get."""
    good = tiny_hf.save(FAMILY, root / "good")
    out: dict[str, tuple[Path, str, str]] = {}

    def copy(name: str) -> Path:
        return Path(shutil.copytree(good, root / name))

    (root / "a-file.txt").write_text("hello")
    out["not a folder"] = (root / "a-file.txt", "is not a folder", "不是文件夹")
    out["does not exist"] = (root / "nowhere", "does not exist", "不存在")
    (root / "empty").mkdir()
    out["missing config"] = (root / "empty", "has no config.json", "没有 config.json")
    nw = copy("no-weights")
    (nw / "model.safetensors").unlink()
    out["missing weights"] = (nw, "has no .safetensors weights", "没有 .safetensors 权重")
    pk = copy("pickle-only")
    (pk / "model.safetensors").rename(pk / "pytorch_model.bin")
    out["pickle only"] = (pk, "never unpickles", "从不反序列化")
    tr = copy("truncated")
    data = (tr / "model.safetensors").read_bytes()
    (tr / "model.safetensors").write_bytes(data[:len(data) // 2])
    out["truncated"] = (tr, "not a readable safetensors", "safetensors 文件")
    ws = copy("wrong-shapes")
    cfg = json.loads((ws / "config.json").read_text())
    cfg["intermediate_size"] = cfg["intermediate_size"] * 2
    (ws / "config.json").write_text(json.dumps(cfg))
    out["wrong shapes"] = (ws, "has shape", "形状")
    ua = copy("unsupported")
    cfg = json.loads((ua / "config.json").read_text())
    cfg["model_type"] = "glassbox-nope"
    (ua / "config.json").write_text(json.dumps(cfg))
    out["unsupported"] = (ua, "Unsupported architecture", "不支持的结构")
    tk = copy("foreign-tokenizer")
    doc = json.loads((tk / "tokenizer.json").read_text())
    doc["model"]["vocab"].update({f"w{i}": 100 + i for i in range(300)})
    (tk / "tokenizer.json").write_text(json.dumps(doc))
    out["foreign tokenizer"] = (tk, "do not belong together", "并不匹配")
    return out


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("hf")
    return root / "good", bad_folders(root)


def load_through_panel(at, source: str):
    at.text_input(key="_ml_source").input(source)
    at.button(key="_ml_load").click()
    at.run()
    assert_no_exception(at)
    return at


def sidebar_captions(at) -> list[str]:
    return [c.value for c in at.sidebar.caption]


def test_a_tiny_folder_loads_joins_the_picker_and_matches_transformers(folders):
    good, _ = folders
    at = open_app(page=None)
    before = list(at.selectbox(key="model").options)
    load_through_panel(at, str(good))
    picker = at.selectbox(key="model")
    assert len(picker.options) == len(before) + 1
    assert picker.value.startswith("trained:") and picker.format_func(picker.value).startswith("good")
    assert any("joined the model picker" in s.value for s in at.success)
    badges = [c for c in sidebar_captions(at) if "transformers" in c]
    assert badges and badges[0].startswith(":green[✓] matches transformers"), sidebar_captions(at)
    home = [c.value for c in at.main.caption if "transformers" in c.value]
    assert home and home[0].startswith(":green[✓] matches transformers") and "max |Δ| = " in home[0]
    # every page works on it: the attention page draws its maps
    at.switch_page("app_pages/attention.py").run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_bad_folders_get_one_sentence_and_lose_nothing(folders, lang):
    good, bad = folders
    at = open_app({"lang": lang}, page=None)
    load_through_panel(at, str(good))
    kept = at.selectbox(key="model").value
    n_options = len(at.selectbox(key="model").options)
    for name, (path, en, zh) in bad.items():
        load_through_panel(at, str(path))
        warnings = [w.value for w in at.warning if ("Nothing was loaded" in w.value or "未加载任何模型" in w.value)]
        assert len(warnings) == 1, (name, [w.value for w in at.warning])
        assert (zh if lang == "中文" else en) in warnings[0], (name, warnings[0])
        assert "Traceback" not in warnings[0] and "/tmp" not in warnings[0]
        assert at.selectbox(key="model").value == kept, name
        assert len(at.selectbox(key="model").options) == n_options, name


def test_a_hub_id_offline_and_a_model_over_the_budget_are_refused_at_once(folders, monkeypatch):
    good, _ = folders
    at = open_app(page=None)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    load_through_panel(at, "gpt2")
    said = [w.value for w in at.warning if "Nothing was loaded" in w.value]
    assert said and "offline" in said[0] and "gpt2" in said[0]
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "0.1")          # 100 kB: the tiny model needs ~0.4 MB
    load_through_panel(at, str(good))
    said = [w.value for w in at.warning if "Nothing was loaded" in w.value]
    assert said and "budget" in said[0], said
    assert not at.selectbox(key="model").value.startswith("trained:")


def test_minilm_gets_its_badge_on_any_page_from_the_sidebar_button():
    at = open_app({"text": "A sentence no other test reads, for the parity button."})
    captions = [c for c in sidebar_captions(at) if "transformers" in c]
    if not captions:                                               # not computed for this text yet: the button
        at.button(key="_ml_check").click()
        at.run()
        assert_no_exception(at)
        captions = [c for c in sidebar_captions(at) if "transformers" in c]
    assert captions and captions[0].startswith(":green[✓] matches transformers"), sidebar_captions(at)


def test_a_model_changed_after_loading_gets_a_cross(folders):
    import torch

    from ui.serving import trained

    good, _ = folders
    at = open_app(page=None)
    load_through_panel(at, str(good))
    holder = trained.find(at.selectbox(key="model").value)
    with torch.no_grad():
        holder.model.blocks[0].mlp.W_out.weight[0] += 0.5         # the card is computed, not asserted
    at.text_area(key="text").input("A text the loaded model has not been compared on.").run()
    assert_no_exception(at)
    home = [c.value for c in at.main.caption if "transformers" in c.value]
    assert home and home[0].startswith(":red[✗] differs from transformers"), home


def test_a_server_can_hide_the_panel(monkeypatch):
    """GLASSBOX_LOAD_PANEL=0: no panel (a public server's visitors cannot make it read paths);
    the badge of the selected model stays."""
    monkeypatch.setenv("GLASSBOX_LOAD_PANEL", "0")
    at = open_app(page=None)
    assert not [w for w in at.text_input if w.key == "_ml_source"]
    monkeypatch.setenv("GLASSBOX_LOAD_PANEL", "1")
    at.run()
    assert [w for w in at.text_input if w.key == "_ml_source"]

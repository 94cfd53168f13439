"""The "Load a model" panel (ui/widgets/model_loader.py): a tiny random Hugging Face folder
loads through it, joins the picker, is selected and shows a ✓ parity badge; every bad
folder gets its one sentence (English and Chinese) and leaves what the user had alone."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from models.weights import tiny_hf

from .helpers import assert_no_exception, open_app, open_folded

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
    if not [w for w in at.text_input if w.key == "_ml_source"]:
        open_folded(at, "_ml_open")                          # the panel is built only while open
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


def test_a_hub_id_offline_and_a_model_over_the_budget_are_refused_at_once(monkeypatch, tmp_path):
    at = open_app(page=None)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    load_through_panel(at, "gpt2")
    said = [w.value for w in at.warning if "Nothing was loaded" in w.value]
    assert said and "offline" in said[0] and "gpt2" in said[0]
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", "0.1")          # 100 kB: the tiny model needs ~0.4 MB
    fresh = tiny_hf.save("llama", tmp_path / "nobody-holds-this", seed=3)   # not in memory: a load would add it
    load_through_panel(at, str(fresh))
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
    assert not [e for e in at.sidebar.expander if e.label == "Load a model"]
    monkeypatch.setenv("GLASSBOX_LOAD_PANEL", "1")
    at.run()
    assert [e for e in at.sidebar.expander if e.label == "Load a model"]
    assert not [w for w in at.text_input if w.key == "_ml_source"]          # folded: built only when opened
    open_folded(at, "_ml_open")
    assert [w for w in at.text_input if w.key == "_ml_source"]


# ---- the size before loading, the precision, the suggestions, the hub (issue 32) --------------------
def size_caption(at) -> str:
    said = [c.value for c in at.sidebar.caption if " in float32, " in c.value or "float32 占" in c.value
            or "float32 约占" in c.value]
    assert len(said) == 1, sidebar_captions(at)
    return said[0]


def test_the_size_is_said_before_loading_in_the_precision_chosen(folders, monkeypatch):
    from models.weights import pretrained, safety

    good, _ = folders
    cfg = pretrained.config_from_hf(pretrained.read_hf_config(good))
    need32 = safety.model_bytes(cfg)
    at = open_app(page=None)                                                        # MiniLM loaded first
    open_folded(at, "_ml_open")
    monkeypatch.setenv("GLASSBOX_MODEL_BUDGET_MB", str(0.75 * need32 / 1e6))       # bfloat16 fits, float32 not
    at.text_input(key="_ml_source").input(str(good)).run()                          # typed, not loaded
    said = size_caption(at)
    n = safety.parameter_count(cfg)[0]
    assert said.startswith(f"{n:,} parameters: ") and "in float32" in said, said
    assert "does not fit in float32" in said and "it fits in bfloat16 or float16" in said, said
    at.radio(key="_ml_dtype").set_value("bfloat16").run()
    assert "— fits in bfloat16" in size_caption(at)
    help_ = next(c.proto.help for c in at.sidebar.caption if c.value == size_caption(at))
    assert "operator set this budget" in help_
    assert not at.selectbox(key="model").value.startswith("trained:")             # nothing was loaded
    at.radio(key="lang").set_value("中文").run()
    assert not [w for w in at.text_input if w.key == "_ml_source"]      # its title changed: the panel folds,
    open_folded(at, "_ml_open")                                        # and opens again on what was typed
    assert at.text_input(key="_ml_source").value == str(good)
    said = size_caption(at)
    assert said.startswith(f"参数量 {n / 1e4:.3g} 万：") and "按 bfloat16 加载，在本服务器单个模型的内存预算" in said, said


def test_a_bfloat16_load_runs_in_bfloat16_and_its_badge_names_the_dtype_and_tolerance(folders):
    import torch

    from models.weights import parity
    from ui.serving import trained

    good, _ = folders
    at = open_app(page=None)
    open_folded(at, "_ml_open")
    at.radio(key="_ml_dtype").set_value("bfloat16").run()
    load_through_panel(at, str(good))
    assert any("(bfloat16) joined the model picker" in s.value for s in at.success)
    holder = trained.find(at.selectbox(key="model").value)
    assert holder.card["dtype"] == "bfloat16"
    assert {p.dtype for p in holder.model.parameters()} == {torch.bfloat16}
    badges = [c for c in at.sidebar.caption if "transformers" in c.value]
    assert badges and badges[0].value.startswith(":green[✓] matches transformers"), sidebar_captions(at)
    assert " in bfloat16 on this text: max |Δ| = " in badges[0].value and "(tolerance " in badges[0].value
    tol = float(badges[0].value.rsplit("(tolerance ", 1)[1].rstrip(")"))
    assert 0 < tol <= parity.HALF_EPS * torch.finfo(torch.bfloat16).eps * 100                 # relative, logits ~1 here
    help_ = badges[0].proto.help
    assert "both models in bfloat16" in help_ and "8 times bfloat16's machine epsilon" in help_ and "1/16" in help_
    home = [c.value for c in at.main.caption if "transformers" in c.value]
    assert home and home[0] == badges[0].value
    at.switch_page("app_pages/attention.py").run()                                   # pages run on it
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]


def test_a_float32_badge_says_float32_and_1e_4():
    at = open_app({"text": "A sentence for the float32 badge's words."}, page=None)
    captions = [c for c in at.sidebar.caption if "transformers" in c.value]
    if not captions:
        at.button(key="_ml_check").click()
        at.run()
        captions = [c for c in at.sidebar.caption if "transformers" in c.value]
    assert captions and " in float32 on this text" in captions[0].value and "(tolerance 1e-4)" in captions[0].value
    assert "Tolerance: 1e-4" in captions[0].proto.help


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_a_suggestion_fills_the_hub_id_and_says_its_approximate_size(lang):
    from ui.widgets import model_loader

    at = open_app({"lang": lang}, page=None)
    open_folded(at, "_ml_open")
    pills = at.pills(key="_ml_pick")
    words = (("135 M", "268 M", "278 M", "362 M", "596 M", "1.24 B", "3.84 B") if lang == "English"
             else ("1.35 亿", "2.68 亿", "2.78 亿", "3.62 亿", "5.96 亿", "12.4 亿", "38.4 亿"))
    assert list(pills.options) == [f"{s.hub_id.split('/')[-1]} · {w}" for s, w in zip(model_loader.SUGGESTIONS, words)]
    pills.set_value("Qwen/Qwen3-0.6B").run()
    assert_no_exception(at)
    assert at.text_input(key="_ml_source").value == "Qwen/Qwen3-0.6B"
    said = size_caption(at)
    if lang == "English":
        assert said.startswith("About 596 M parameters (approximate): about 2.38 GB in float32, 1.19 GB in "
                               "bfloat16 or float16 — "), said
    else:
        assert said.startswith("参数量约 5.96 亿（近似值）：float32 约占 2.38 GB，bfloat16 或 float16 约占 1.19 GB——"), said
    assert at.pills(key="_ml_pick").value is None                                   # ready for another click
    at.pills(key="_ml_pick").set_value("microsoft/Phi-4-mini-instruct").run()
    assert at.text_input(key="_ml_source").value == "microsoft/Phi-4-mini-instruct"


def test_the_offline_check_follows_hf_endpoint(folders, monkeypatch):
    """A mirror that does not answer: the offline sentence at once (no download tried)."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    at = open_app(page=None)
    load_through_panel(at, "someone/some-model")
    said = [w.value for w in at.warning if "Nothing was loaded" in w.value]
    assert said and "offline" in said[0] and "someone/some\\-model" in said[0], said


def fake_hub(monkeypatch, folder: Path, endpoint: str) -> list:
    """huggingface_hub's two downloads, answered from `folder`; the snapshot reports its bytes
    through the tqdm_class it is given, as huggingface_hub does, in a thread of its own."""
    import threading
    import time

    import huggingface_hub

    from models.weights import hub

    calls: list = []

    def config(name, filename, **kwargs):
        calls.append(("config", name, kwargs.get("endpoint")))
        return str(folder / filename)

    def snapshot(name, tqdm_class=None, **kwargs):
        calls.append(("snapshot", name, kwargs.get("endpoint")))
        total = sum(f.stat().st_size for f in folder.iterdir())
        bar = tqdm_class(total=total, unit="B", unit_scale=True, desc="Downloading bytes")

        def feed():
            for _ in range(4):
                bar.update(total // 4)
                time.sleep(0.15)
        worker = threading.Thread(target=feed)                  # huggingface_hub updates from its workers
        worker.start()
        worker.join()
        bar.close()
        calls.append(("seen", bar.n, bar.total))
        return str(folder)

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", config)
    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot)
    monkeypatch.setattr(hub, "reachable", lambda address=None, timeout=3.0: True)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    return calls


def test_a_hub_id_downloads_from_the_endpoint_with_progress_and_loads(folders, monkeypatch):
    good, _ = folders
    calls = fake_hub(monkeypatch, good, "https://your-mirror.example")
    at = open_app(page=None)
    open_folded(at, "_ml_open")
    at.radio(key="_ml_dtype").set_value("float16").run()
    load_through_panel(at, "someone/tiny-qwen2")
    assert [c[:3] for c in calls if c[0] != "seen"] == [("config", "someone/tiny-qwen2", "https://your-mirror.example"),
                                                         ("snapshot", "someone/tiny-qwen2", "https://your-mirror.example")]
    assert any("someone/tiny\\-qwen2" in s.value and "(float16)" in s.value for s in at.success), at.success
    assert at.selectbox(key="model").value.startswith("trained:")
    said = size_caption(at)                                     # now exact, from the config it downloaded
    assert "(approximate)" not in said and "— fits in float16" in said, said


def test_download_progress_reads_the_bars_huggingface_hub_opens():
    """The tqdm class the panel hands to snapshot_download works with huggingface_hub's own
    helpers (its byte bars and its per-file thread map), and reports bytes before files."""
    import importlib
    import logging

    from ui.widgets.model_loader import DownloadProgress

    hf_tqdm = importlib.import_module("huggingface_hub.utils.tqdm")
    progress = DownloadProgress()
    cls = progress.tqdm_class()
    assert progress.done() is None
    done = hf_tqdm.hf_thread_map(lambda x: x * 2, [1, 2, 3], max_workers=2, tqdm_class=cls, desc="Fetching 3 files")
    assert sorted(done) == [2, 4, 6]
    assert progress.done() == ("files", 3.0, 3.0)
    create = getattr(hf_tqdm, "_create_progress_bar", None)
    if create is None:                                          # an older huggingface_hub: files only
        return
    bar = create(cls=cls, log_level=logging.INFO, name="huggingface_hub.snapshot_download", desc="Reconstructing",
                 total=0, initial=0, unit="B", unit_scale=True)
    bar.total = 1000
    bar.update(250)
    assert progress.done() == ("B", 250.0, 1000.0)


@pytest.mark.parametrize("lang", ["English", "中文"])
def test_a_busy_server_checks_the_overview_badge_when_asked(monkeypatch, lang):
    """Above GLASSBOX_MAP_SESSIONS sessions the overview's card runs no parity check on a new
    text until the reader clicks (a transformers pass and ours per text); then the badge is
    there, on the card and, from the next run, in the sidebar."""
    from server import sessions
    from ui.serving import parity

    monkeypatch.setenv("GLASSBOX_MAP_SESSIONS", "5")
    monkeypatch.setattr(sessions, "count", lambda: 12)
    checks = []
    real = parity.check
    monkeypatch.setattr(parity, "check", lambda key, text, *a, **k: checks.append(text) or real(key, text, *a, **k))
    text = f"A busy classroom checks this sentence against transformers ({lang})."     # checked by no other test
    at = open_app({"text": text, "lang": lang}, page=None)
    assert checks == []                                                   # nothing ran for the badge
    button = at.button(key="_ml_check_card")
    assert "12" in button.help and "GLASSBOX_MAP_SESSIONS" in button.help
    button.click().run()
    assert_no_exception(at)
    assert checks == [text]
    word = "一致" if lang == "中文" else "matches"

    def badges(captions: list[str]) -> list[str]:
        return [c for c in captions if "transformers" in c and word in c]
    assert badges([c.value for c in at.main.caption]), [c.value for c in at.main.caption]
    at.run()                                                  # the sidebar (drawn before the page) has it too
    assert badges(sidebar_captions(at)), sidebar_captions(at)

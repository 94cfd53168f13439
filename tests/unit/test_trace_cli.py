import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from models import Trace, TransformerConfig

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "cli.trace", *args], cwd=ROOT, capture_output=True, text=True)


def test_cli_writes_every_tensor_with_tokens_and_config(tmp_path):
    out = tmp_path / "trace.npz"
    r = cli("--text", "the cat sat", "--out", str(out))
    assert r.returncode == 0, r.stderr
    with np.load(out) as data:
        meta = json.loads(str(data["__meta__"]))
        assert meta["tokens"] == list("the cat sat")
        assert TransformerConfig.from_dict(meta["config"]) == TransformerConfig()
        assert data["blocks.0.attn.hook_pattern"].shape == (1, 4, 11, 11)
        assert data["blocks.1.attn.hook_pattern"].dtype == np.float32
    trace = Trace.load_npz(out)
    assert trace.names()[0] == "hook_embed" and "ln_final.hook_normalized" in trace


def test_cli_config_file_names_filter_and_errors(tmp_path):
    cfg = tmp_path / "cfg.json"
    cfg.write_text(TransformerConfig(arch="encoder", positional="rope", n_layers=1, vocab_size=64).to_json())
    out = tmp_path / "t.npz"
    r = cli("--text", "注意力 is all", "--config", str(cfg), "--tokenizer", "word", "--names", "*hook_pattern",
            "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert Trace.load_npz(out).names() == ["blocks.0.attn.hook_pattern"]
    bad = cli("--text", "   ", "--tokenizer", "word", "--out", str(out))
    assert bad.returncode == 2 and "empty" in bad.stderr and "Traceback" not in bad.stderr
    cfg.write_text(json.dumps({"d_model": 30, "n_heads": 4}))
    bad = cli("--text", "x", "--config", str(cfg), "--out", str(out))
    assert bad.returncode == 2 and "divisible" in bad.stderr

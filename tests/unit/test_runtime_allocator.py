"""`import models` applies the allocator setting (models/runtime.py) in a fresh process,
GLASSBOX_TUNE_ALLOCATOR=0 leaves the allocator alone, and recording gives the same
numbers either way."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import torch
import models
from models import runtime, Transformer, TransformerConfig
cfg = TransformerConfig(arch="encoder", vocab_size=50, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=32,
                        output="hidden")
torch.manual_seed(0)
model = Transformer(cfg).eval()
ids = torch.arange(12).unsqueeze(0)
out, trace = model.run_with_cache(ids)
print(json.dumps({"tuned": runtime.allocator_tuned(),
                  "out": out.flatten().tolist(),
                  "pattern": trace.patterns().flatten().tolist()}))
"""


def _fresh(env_value: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "GLASSBOX_TUNE_ALLOCATOR"}
    if env_value is not None:
        env["GLASSBOX_TUNE_ALLOCATOR"] = env_value
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mallopt is glibc's")
def test_import_models_tunes_the_allocator_and_the_opt_out_leaves_it_alone():
    on, off = _fresh(None), _fresh("0")
    assert on["tuned"] is True
    assert off["tuned"] is False
    assert on["out"] == off["out"] and on["pattern"] == off["pattern"]   # same numbers, bit for bit


def test_opt_out_spellings():
    from models import runtime

    for v in ("0", "false", "No", " off "):
        assert runtime.allocator_opted_out({"GLASSBOX_TUNE_ALLOCATOR": v})
    for v in ("", "1", "yes"):
        assert not runtime.allocator_opted_out({"GLASSBOX_TUNE_ALLOCATOR": v})
    assert runtime.tune_allocator_by_default() == runtime.tune_allocator_by_default()   # idempotent

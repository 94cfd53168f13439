"""Door: the command line (`python -m cli.trace`), given a --config file or a --model
folder. It must exit 0 (the trace written inside the temporary directory) or 2 with one
line "error: <sentence>" on stderr, never a traceback, and never build a model larger
than the budget. Run in-process (`cli.trace.main`), so that the write watch and the
memory reading see it."""
from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cli.trace import main
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import examples
from tests.fuzz.props import run_door
from tests.fuzz.test_config import config_dicts
from tests.fuzz.test_model_folder import family_folders, write

TEXTS = st.one_of(st.sampled_from(["the cat sat", "", " ", "a" * 2000, "e\u0301\u202e中文🤖"]), st.text(max_size=40))


@st.composite
def invocations(draw):
    if draw(st.booleans()):
        return "config", json.dumps(draw(config_dicts()), allow_nan=True).encode(), draw(TEXTS)
    family = draw(st.sampled_from(artefacts.FAMILIES))
    return family, draw(family_folders(family)), draw(TEXTS)


@examples("cli")
@given(invocations(), st.sampled_from(["char", "word"]))
def test_cli(case, tokenizer):
    kind, files, text = case
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out" / "trace.npz"
        if kind == "config":
            (Path(tmp) / "config.json").write_bytes(files)
            argv = [f"--text={text}", "--out", str(out), "--config", str(Path(tmp) / "config.json"),
                    "--tokenizer", tokenizer]
        else:
            folder = Path(tmp) / "model"
            folder.mkdir()
            write(folder, files)
            argv = [f"--text={text}", "--out", str(out), "--model", str(folder)]
        err, std = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(std):
            code = run_door("cli", lambda: main(argv), what=kind)
        assert code in (0, 2), (code, err.getvalue()[-2000:])
        lines = [line for line in err.getvalue().splitlines() if not line.startswith("note: ")]
        if code == 0:
            assert out.is_file() and not lines, err.getvalue()
        else:
            assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err.getvalue(), lines

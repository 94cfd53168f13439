"""Door: the character-level language model's training text on the training page, as an
uploaded .txt (`text_from_upload`) or pasted, then everything the page checks before a
run starts (`CharLMTask`, the task's config from the form's numbers, `check_fits`, the
model budget), and one training batch through the accepted model.

Uploads: random bytes, one character repeated up to the limit, 200 KB on one line, text
in other encodings (Latin-1, UTF-16, GB18030, Shift-JIS, CP1252), a UTF-8 BOM, CRLF, NUL
bytes, broken UTF-8 (surrogates, overlong forms), 4-byte characters at and over the
limit, and file names with path traversal and odd unicode. The char-LM task's own
ValueError sentences ("the text is empty", "needs at least ...") are allowed refusals.
"""
from __future__ import annotations

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

from models import Transformer, limits
from models.training.tasks import CharLMTask, text_from_upload
from models.training.trainer import check_fits
from models.weights import safety
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import BUDGET_MB, examples
from tests.fuzz.props import check_model_fits, run_door

LIMIT = int(limits.value("text_kb")) * 1000          # characters
SAMPLE = "To be, or not to be: 生存还是毁灭 — e\u0301 \u202eRTL\u202c 🤖\tend\n"
ENCODINGS = ("latin-1", "utf-16", "utf-16-le", "utf-32", "gb18030", "shift_jis", "cp1252", "utf-8-sig", "utf-7")


@st.composite
def uploads(draw):
    how = draw(st.sampled_from(["random", "repeated", "one line", "encoding", "bom", "crlf", "nul", "broken",
                                "four byte", "over", "text", "empty"]))
    n = draw(st.sampled_from([1, 200, 5_000, LIMIT - 1, LIMIT, LIMIT + 1]))
    if how == "random":
        data = draw(st.binary(max_size=2048))
    elif how == "repeated":
        data = (draw(st.sampled_from(["a", " ", "\n", "é", "中", "🤖", "\u0301", "\x00"])) * n).encode()
    elif how == "one line":
        data = ("word " * (n // 5 + 1))[:n].encode()
    elif how == "encoding":
        enc = draw(st.sampled_from(ENCODINGS))
        data = (SAMPLE * draw(st.integers(1, 50))).encode(enc, errors="replace")
    elif how == "bom":
        data = b"\xef\xbb\xbf" + (SAMPLE * draw(st.integers(1, 20))).encode()
    elif how == "crlf":
        data = ("line\r\n" * draw(st.integers(1, 3000))).encode()
    elif how == "nul":
        data = b"\x00" * draw(st.integers(1, 5000)) + SAMPLE.encode()
    elif how == "broken":
        data = SAMPLE.encode() + draw(st.sampled_from([b"\xed\xa0\x80", b"\xc0\xaf", b"\xff\xfe", b"\x80", b"\xf4\x90"
                                                                                                 b"\x80\x80"]))
    elif how == "four byte":
        data = ("🤖" * draw(st.sampled_from([LIMIT // 4, LIMIT, LIMIT + 1]))).encode()
    elif how == "over":
        data = b"a" * (LIMIT * 4 + 1)
    elif how == "text":
        data = draw(st.text(max_size=600)).encode("utf-8", "surrogatepass")
    else:
        data = b""
    return how, data, draw(artefacts.ZIP_NAMES)


# the training form's bounds (ui/views/training.py)
FORM = st.fixed_dictionaries({
    "context": st.integers(1, 128), "n_layers": st.integers(1, 6), "n_heads": st.integers(1, 16),
    "n_kv_heads": st.integers(1, 16), "d_model": st.integers(1, 64).map(lambda k: 8 * k),
    "d_ff": st.integers(1, 256).map(lambda k: 8 * k),
    "positional": st.sampled_from(["none", "sinusoidal", "learned", "rope", "alibi", "relative"]),
    "norm": st.sampled_from(["layernorm", "rmsnorm", "dyt"]), "norm_position": st.sampled_from(["pre", "post"]),
    "activation": st.sampled_from(["relu", "gelu", "gelu_tanh", "swiglu"])})


def before_a_run(text: str, form: dict):
    """What the training page checks when Start is pressed (ui/views/training.py start())."""
    task = CharLMTask(text, form["context"])
    cfg = task.default_config(**{k: v for k, v in form.items() if k != "context"})
    check_fits(task, cfg)
    safety.check_model(cfg)
    return task, cfg


def accepted(result) -> None:
    if isinstance(result, BaseException):
        return
    task, cfg = result
    model = Transformer(cfg, device="cpu")
    check_model_fits(model, BUDGET_MB)
    batch = task.batch(2, np.random.default_rng(0))
    with torch.no_grad():
        logits = model(batch.ids)
    assert logits.shape == (*batch.ids.shape, cfg.vocab_size)


@examples("charlm_upload")
@given(uploads(), FORM)
def test_uploads(case, form):
    how, data, name = case
    text = run_door("charlm_upload", lambda: text_from_upload(data, name), given=name, what=how)
    if isinstance(text, str):
        assert len(text) <= LIMIT and not text.startswith("\ufeff")
        accepted(run_door("charlm_upload", lambda: before_a_run(text, form), allow=(ValueError,), counted=False))


PASTED = st.one_of(
    st.text(max_size=400),
    st.builds(lambda c, n: c * n, st.sampled_from(["a", " ", "\n", "\u0301", "\u200b", "\x00", "中", "🤖", "\r\n"]),
              st.integers(0, 3000)),
    st.sampled_from(["", " " * 500, SAMPLE * 40, "\u202e" + SAMPLE * 10, "x" * LIMIT, "x" * (LIMIT + 1)]),
)


@examples("charlm_text")
@given(PASTED, FORM)
def test_pasted(text, form):
    accepted(run_door("charlm_text", lambda: before_a_run(text, form), allow=(ValueError,), given=text[:2000],
                      what=f"{len(text)} characters"))

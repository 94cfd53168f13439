"""Door: text typed in the sidebar (and the compare panel's second text): every
tokenizer the app uses, the escaping every shown token and user text goes through
(`ui.markup.md_escape`, `md_code`, `viz_core.visible_label`, `escape_label`), and a few
app runs with such text (AppTest).

Texts: control characters, NUL, RTL and bidi marks, zero-width joiners, combining marks
(one, or a thousand on one letter), emoji sequences, CJK, markdown and HTML syntax,
backtick runs, 100 KB. Lone surrogates are left out: the browser sends UTF-8, which
cannot carry them (and Streamlit's protobuf refuses them).
"""
from __future__ import annotations

import functools
import html
import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.tokenizer import CharTokenizer, WordTokenizer, minilm_tokenizer
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint
from tests.app.helpers import GPT_LABEL, MINILM_LABEL, open_app
from tests.fuzz.fuzzing import APP_BUDGET_MB, examples
from tests.fuzz.props import run_door
from tests.fuzz.test_url_params import check_page
from ui.markup import md_code, md_escape
from viz_core.labels import MAX_LABEL_CHARS, escape_label, visible_label

SPECIAL = ["\x00", "\x07", "\x1b[31m", "\r", "\r\n", "\t", "\u200b", "\u200d", "\u2028", "\u2029", "\ufeff",
           "\u202e", "\u202d", "\u2066", "\u061c", "\u0301", "\u0301" * 1000, "\U0001f469\u200d\U0001f4bb",
           "\U0001f1fa\U0001f1f3", "中文", "עברית", "العربية", "`", "``` x ```", "**b**", "<b>x</b>",
           "<script>alert(1)</script>", "[a](javascript:x)", "$x$", "\\", "{x}", "%s", "\ue000", "\U000e0001",
           "\ufffd", "\u0378", " " * 50]
TEXTS = st.one_of(
    st.lists(st.one_of(st.sampled_from(SPECIAL), st.text(st.characters(exclude_categories=("Cs",)), max_size=8)),
             max_size=20).map("".join),
    st.builds(lambda c, n: c * n, st.sampled_from(["a", "中", "\u0301", "`", "\u202e", "x y ", "\x00"]),
              st.integers(0, 100_000)),
    st.sampled_from(["", " ", "e" + "\u0301" * 1000, "x" * 100_000]),
)


@functools.cache
def tokenizers():
    _, toy, _ = load_checkpoint(CHECKPOINT_DIR / "reverse-rope.json")
    return {"minilm": minilm_tokenizer(), "toy": toy, "char": CharTokenizer.from_corpus([" ".join(SPECIAL)]),
            "word": WordTokenizer.from_corpus(["the cat sat on the mat 中文"])}


INVISIBLE = {"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"}


def check_text(text: str) -> None:
    for name, tok in tokenizers().items():
        for max_len in (None, 8, 512):
            enc = tok.encode(text, max_len=max_len)
            assert len(enc.ids) == len(enc.tokens) and (max_len is None or len(enc.ids) <= max_len), name
            assert all(0 <= i < tok.vocab_size for i in enc.ids), name
            for token in enc.tokens[:200]:
                shown = visible_label(token)
                assert len(shown) <= MAX_LABEL_CHARS and shown
                assert not any(unicodedata.category(c) in INVISIBLE for c in shown), (name, token, shown)
                assert not re.search(r"<[a-zA-Z/]", escape_label(token)), token
    escaped = md_escape(text)
    assert "<" not in escaped and ">" not in escaped                            # no HTML reaches markdown
    assert html.unescape(re.sub(r"\\(.)", r"\1", escaped)) == text              # and it reads as typed
    fence = re.match(r"`+", md_code(text)).group()                          # longer than any run inside
    assert md_code(text) == f"{fence} {text} {fence}"
    assert max((len(r) for r in re.findall(r"`+", text)), default=0) < len(fence)


@examples("typed_text")
@given(TEXTS)
def test_typed_text(text):
    run_door("typed_text", lambda: check_text(text), what=f"{len(text)} characters")


# ---- the app with such text -----------------------------------------------------------------
DOOR_BUDGET_MB = APP_BUDGET_MB                  # the app doors (tests/fuzz/conftest.py's budget_mb)


@pytest.fixture(scope="module")
def warm(budget_mb):
    tokenizers()
    open_app(page="app_pages/attention.py", errors_ok=True)


PAGES = ["app_pages/attention.py", "app_pages/walkthrough.py", "app_pages/generate.py", "app_pages/ffn.py"]


@examples("typed_text_app")
@given(TEXTS.filter(lambda t: len(t) < 30_000), st.sampled_from(PAGES),
       st.sampled_from([MINILM_LABEL, "Toy: reverse · rope", GPT_LABEL]))
def test_typed_text_in_the_app(text, page, model):
    def run():
        at = open_app({"model": model}, page=page, direct=True, errors_ok=True)
        at.text_area(key="text").input(text).run()
        return at

    at = run_door("typed_text_app", run, what=f"{page} {model} {len(text)} characters")
    check_page(at)


# ---- the live box's text (attention's instant view, ui/widgets/attention_canvas.py) -------------
# "Use this text on every page" sends the box's text back as the component's `text` state; a
# forged message can send anything there. A string becomes the sidebar's text (as if typed),
# anything else is ignored.
LIVE_MODEL = "Toy: reverse · rope"          # has a browser form: the live box is on
FORGED = st.one_of(TEXTS.filter(lambda t: len(t) < 30_000), st.none(), st.integers(), st.floats(allow_nan=True),
                   st.lists(st.text(max_size=3), max_size=3), st.dictionaries(st.text(max_size=3), st.text(max_size=3),
                                                                               max_size=2))


@examples("live_text_app")
@given(FORGED)
def test_live_box_text_in_the_app(value):
    import json

    from streamlit.proto.WidgetStates_pb2 import WidgetState

    def run():
        at = open_app({"model": LIVE_MODEL, "view": "instant", "text": "abc"}, page="app_pages/attention.py",
                      direct=True, errors_ok=True)
        nodes = [n for n in at.get("bidi_component") if n.proto.id.endswith("-instant_canvas")]
        assert len(nodes) == 1 and "live" in json.loads(nodes[0].proto.bytes)
        states = at._tree.get_widget_states()
        states.widgets.append(WidgetState(id=nodes[0].proto.id, json_value=json.dumps({"text": value})))
        at._run(states)
        return at

    at = run_door("live_text_app", run, what=f"{type(value).__name__} {len(str(value))} characters")
    check_page(at)
    wanted = value if isinstance(value, str) and value.strip() else "abc"
    assert at.text_area(key="text").value == wanted

"""Doors as a user meets them: a checkpoint zip and a char-LM .txt uploaded on the
training page (AppTest's file_uploader), and the uploaded model opened on the pages
that read it. What the parsers' own doors accept must also draw in the app: a model
whose tokenizer came from a hostile file (odd characters, a lone surrogate escaped in
JSON, a vocabulary of RTL marks) is read by the attention, walk-through and generation
pages without an exception; a refused file leaves one sentence. File names carry path
traversal, absolute paths and odd unicode but end in the uploader's extension: a browser
offers no other file, and Streamlit answers a crafted request with another extension
itself (its redacted error, before Glassbox's code runs).
"""
from __future__ import annotations


import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.app.helpers import open_app
from tests.fuzz import artefacts
from tests.fuzz.fuzzing import APP_BUDGET_MB, examples
from tests.fuzz.props import run_door
from tests.fuzz.test_charlm import uploads
from tests.fuzz.test_checkpoint_zip import assembled_zips, mutated_documents, zip_bytes
from tests.fuzz.test_url_params import check_page

TRAINING = "app_pages/training.py"
READERS = ["app_pages/attention.py", "app_pages/walkthrough.py", "app_pages/generate.py"]


DOOR_BUDGET_MB = APP_BUDGET_MB                  # the app doors (tests/fuzz/conftest.py's budget_mb)


@pytest.fixture(scope="module")
def warm(budget_mb):
    open_app(page=TRAINING, errors_ok=True)


def named(ext: str) -> st.SearchStrategy[str]:
    # no NUL: no file system (so no browser) has such a name, and Streamlit refuses it itself
    return artefacts.ZIP_NAMES.map(lambda n: n.replace("\x00", "").rsplit(".", 1)[0] + ext)


ZIPS = st.one_of(mutated_documents().map(lambda c: ("doc", c[0])), assembled_zips().map(lambda c: ("zip", c[0])),
                 zip_bytes().map(lambda c: (c[0], c[1])))


def valid_zip() -> bytes:
    return artefacts.zip_of([("m.json", artefacts.shipped("reverse-rope")[0]), ("m.safetensors", artefacts.shipped("reverse-rope")[1])])


@examples("zip_upload_app")
@example(("valid", valid_zip()), "app_pages/generate.py", "../名前\u202e.zip")      # accepted: read on a page
@given(ZIPS, st.sampled_from(READERS), named(".zip"))
def test_zip_upload(case, reader, name):
    how, data = case

    def run():
        at = open_app(page=TRAINING, direct=True, errors_ok=True)
        at.file_uploader(key="tr_upload").set_value((name, data, "application/zip")).run()
        check_page(at)
        held = at.session_state["_trained_models"] if "_trained_models" in at.session_state else []
        if held:                            # the model joins the picker on the next run: read it on a page
            at.run()
            at.selectbox(key="model").set_value(held[-1].key).run()
            at.text_area(key="text").input("abc=cba \u202e中 ").run()
            at.switch_page(reader).run()
        return at

    check_page(run_door("zip_upload_app", run, what=f"{how} -> {reader}"))


@examples("charlm_app")
@given(uploads(), named(".txt"))
def test_charlm_upload(case, name):
    how, data, _ = case

    def run():
        at = open_app(page=TRAINING, direct=True, errors_ok=True)
        at.selectbox(key="tr_task").set_value("char_lm").run()
        at.file_uploader(key="tr_text_file").set_value((name, data, "text/plain")).run()
        return at

    check_page(run_door("charlm_app", run, what=how))

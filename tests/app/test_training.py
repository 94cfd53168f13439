"""The training lab through AppTest: start a run, see it finish, its scrubber, the model
in the picker, refusals of settings that cannot work, and checkpoint upload."""
from __future__ import annotations

import json
import time

import pytest
from streamlit.testing.v1 import AppTest

from models.weights.checkpoint import CHECKPOINT_DIR
from tests.app.helpers import ATTENTION, assert_no_exception, assert_ok, open_app
from tests.unit.helpers import zip_of

TRAINING = "app_pages/training.py"


def open_training() -> AppTest:
    return open_app(page=TRAINING, errors_ok=True)


def records(at: AppTest) -> list:
    return at.session_state["_train_runs"] if "_train_runs" in at.session_state else []


def wait_finished(at: AppTest, timeout: float = 240) -> None:
    rec = records(at)[-1]
    deadline = time.monotonic() + timeout
    while not rec.run.finished and time.monotonic() < deadline:
        time.sleep(0.2)
    assert rec.run.finished, "the run did not finish in time"
    at.run()
    assert_no_exception(at)


def start(at: AppTest, **numbers) -> AppTest:
    for key, value in numbers.items():
        at.number_input(key=key).set_value(value)
    at.button(key="tr_start").click().run()
    assert_no_exception(at)
    return at


def test_form_offers_every_task_and_the_architecture_options():
    at = open_training()
    assert at.title[0].value.startswith("Training lab")
    task = at.selectbox(key="tr_task")
    assert set(task.options) >= {"Copy", "Reverse", "Sort", "Induction (repeated sequence)", "Close the brackets",
                                 "Spell digits (encoder-decoder)", "Character language model (your text)"}
    assert task.value == "reverse"
    for key in ("tr_layers", "tr_heads", "tr_kv", "tr_d_model", "tr_d_ff", "tr_steps_reverse", "tr_lr"):
        at.number_input(key=key)
    assert {s.key for s in at.selectbox} >= {"tr_pe", "tr_norm", "tr_norm_pos", "tr_act"}


def test_a_short_run_finishes_with_curves_scrubber_and_joins_the_picker():
    at = open_training()
    start(at, tr_steps_reverse=60, tr_every=20)
    assert records(at), "a run was started"
    wait_finished(at)
    rec = records(at)[-1]
    assert rec.run.state == "done" and rec.run.step == 60
    assert any("Training finished" in s.value for s in at.success)
    scrub = at.select_slider(key="tr_scrub")
    assert list(scrub.options) == ["0", "20", "40", "60"] and scrub.value == 60
    charts = at.get("plotly_chart")
    assert len(charts) >= 4                                  # curves, all heads, ideal pattern, replay
    replay = json.loads(charts[-1].proto.spec)
    assert len(replay["frames"]) == 4 and replay["layout"]["sliders"][0]["steps"][-1]["label"] == "60"
    # scrub back to step 20: the curves get a marker there
    scrub.set_value(20).run()
    assert_no_exception(at)
    curves = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert any(s.get("x0") == 20 for s in curves["layout"].get("shapes", []))
    # the trained model is in the sidebar's picker and the attention page can read it
    model = at.selectbox(key="model")
    assert "Trained: Reverse · sinusoidal (#1)" in model.options
    model.set_value(rec.key).run()
    at.text_area(key="text").input("abcd=dcba").run()
    at.switch_page(ATTENTION).run()
    assert_ok(at)
    assert at.title[0].value


@pytest.mark.parametrize("numbers, message", [
    ({"tr_heads": 5}, "divisible"),
    ({"tr_kv": 3}, "divisible"),
    ({"tr_kv": 8}, "key/value heads"),
    ({"tr_steps_reverse": 0}, "at least 1 step"),
    ({"tr_lr": 0.0}, "positive"),
])
def test_settings_that_cannot_work_are_refused_with_a_sentence(numbers, message):
    at = open_training()
    start(at, **numbers)
    assert not records(at), "nothing was started"
    assert any(message in e.value for e in at.error), [e.value for e in at.error]


def test_char_lm_text_too_short_for_the_context_is_refused():
    at = open_training()
    at.selectbox(key="tr_task").set_value("char_lm").run()
    at.text_area(key="tr_lm_text").input("far too short").run()
    start(at)
    assert not records(at)
    assert any("needs at least" in e.value for e in at.error), [e.value for e in at.error]


def test_stop_keeps_the_last_snapshot_and_the_model():
    at = open_training()
    start(at, tr_steps_reverse=20000, tr_every=10)
    rec = records(at)[-1]
    deadline = time.monotonic() + 120
    while rec.run.step < 12 and time.monotonic() < deadline:
        time.sleep(0.1)
    rec.stop.set()                                   # what the Stop button does
    wait_finished(at)
    assert rec.run.state == "stopped" and rec.run.snapshots[-1].step == rec.run.step
    assert any("Stopped" in w.value for w in at.warning)
    assert at.select_slider(key="tr_scrub").value == rec.run.step
    assert any(o.startswith("Trained: Reverse") for o in at.selectbox(key="model").options)


def test_checkpoint_zip_round_trip_and_bad_uploads():
    from models.weights.checkpoint import load_checkpoint
    from models.training.trainer import same_weights
    from models.weights.checkpoint import checkpoint_zip, read_checkpoint_zip

    model, tok, meta = load_checkpoint(CHECKPOINT_DIR / "reverse-rope.json")
    data = checkpoint_zip(model, tok, meta, "x")
    back, tok2, meta2 = read_checkpoint_zip(data)
    assert same_weights(model, back) and tok2.vocab == tok.vocab and meta2["task"] == "reverse"
    with pytest.raises(ValueError, match="not a zip"):
        read_checkpoint_zip(b"hello")
    with pytest.raises(ValueError, match="exactly one"):
        read_checkpoint_zip(zip_of({"a.json": b"{}"}))
    good_json = (CHECKPOINT_DIR / "reverse-rope.json").read_bytes()
    other_weights = (CHECKPOINT_DIR / "brackets.safetensors").read_bytes()     # another config's weights
    with pytest.raises(ValueError, match="shape|missing"):
        read_checkpoint_zip(zip_of({"a.json": good_json, "a.safetensors": other_weights}))
    with pytest.raises(ValueError, match="safetensors"):
        read_checkpoint_zip(zip_of({"a.json": good_json, "a.safetensors": b"garbage"}))
    with pytest.raises(ValueError, match="limit"):
        read_checkpoint_zip(b"0" * (21 * 2**20))


def test_two_sessions_never_see_each_others_runs():
    a, b = open_training(), open_training()
    start(a, tr_steps_reverse=50, tr_every=25)
    wait_finished(a)
    b.run()
    assert records(a) and not records(b)
    assert not any("Run:" in s.value for s in b.subheader)
    assert not any(o.startswith("Trained:") for o in b.selectbox(key="model").options)
    assert any(o.startswith("Trained:") for o in a.selectbox(key="model").options)


def test_a_trained_model_offers_its_task_example_on_other_pages():
    at = open_training()
    start(at, tr_steps_reverse=30, tr_every=30)
    wait_finished(at)
    rec = records(at)[-1]
    assert at.selectbox(key="model").value == rec.key          # selected for the user when training ended
    at.switch_page("app_pages/ffn.py").run()
    assert_ok(at)
    example = [b for b in at.button if "jggifhic=" in b.label]
    assert example, [b.label for b in at.button]

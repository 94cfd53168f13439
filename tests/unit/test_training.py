"""Toy tasks, the trainer, the shipped checkpoints and the training CLI."""
from __future__ import annotations

import json
import threading

import numpy as np
import pytest
import torch

from models.weights import zoo
from models.weights.checkpoint import CHECKPOINT_DIR, load_checkpoint
from models.training.tasks import IGNORE, TASKS, char_lm_task, get_task, shipped
from cli.train import main as train_main
from recipes.toys import SHIPPED
from models.training.trainer import TrainRun, TrainSettings, check_fits, same_weights, train


# ---- tasks -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(TASKS))
def test_every_task_makes_consistent_examples(name):
    task = get_task(name)
    rng = np.random.default_rng(0)
    b = task.batch(16, rng)
    assert b.ids.dtype == torch.long and b.ids.shape[0] == 16
    scored = b.targets != IGNORE
    assert scored.any(1).all(), "every example has answer tokens"
    assert (b.targets[scored] < task.tokenizer.vocab_size).all()
    ex = task.probe()
    assert ex == task.probe(), "the probe is fixed"
    ideal = task.ideal_for(ex)
    rows = ideal.sum(-1)
    assert np.all((np.isclose(rows, 1.0)) | (rows == 0)), "ideal rows are distributions or empty"
    assert rows.sum() >= 1


def test_reverse_layout_and_anti_diagonal():
    task = get_task("reverse")
    ex = task.encode_pair("abcd", "dcba")
    assert ex.tokens == ["<bos>", "a", "b", "c", "d", "=", "d", "c", "b", "a"]
    assert ex.answer == slice(5, 9)                     # "=" and y1..y3 predict y1..y4
    ideal = task.ideal_for(ex)
    assert [int(np.argmax(ideal[q])) for q in range(5, 9)] == [4, 3, 2, 1]   # d c b a sit at 4 3 2 1
    b = task.batch(4, np.random.default_rng(1), length=4)
    for row in range(4):
        x = b.ids[row, 1:5].tolist()
        y = b.targets[row, 5:9].tolist()
        assert y == x[::-1]
        assert (b.targets[row, :5] == IGNORE).all() and b.targets[row, 9] == IGNORE


def test_copy_sort_induction_brackets_spell_answers():
    rng = np.random.default_rng(3)
    x, y = get_task("copy").sample_pair(rng, 6)
    assert x == y
    x, y = get_task("sort").sample_pair(rng, 6)
    assert y == "".join(sorted(x))
    x, _ = get_task("induction").sample_pair(rng, 10)
    assert len(set(x)) == 10
    brackets = get_task("brackets")
    for _ in range(50):
        x, y = brackets.sample_pair(rng, 7)
        stack = []
        for ch in x + y:
            if ch in "([{":
                stack.append(ch)
            else:
                assert stack and brackets.PAIRS[stack.pop()] == ch
        assert not stack and y, (x, y)
    x, y = get_task("spell").sample_pair(rng, 3)
    assert y.split(" ") == [("zero one two three four five six seven eight nine".split())[int(d)] for d in x]


def test_task_bad_input_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match="Unknown task"):
        get_task("nope")
    with pytest.raises(ValueError, match="at least"):
        get_task("reverse").probe(1)
    with pytest.raises(ValueError, match="at most 26"):
        get_task("induction").probe(27)
    with pytest.raises(ValueError, match="needs at least"):
        char_lm_task("too short", 64)
    with pytest.raises(ValueError, match="empty"):
        char_lm_task("   " * 100, 16)
    with pytest.raises(ValueError, match="limit"):
        char_lm_task("x" * 300_000, 16)


def test_char_lm_task_predicts_the_next_character():
    task = char_lm_task("hello world, hello glassbox. " * 20, 16)
    b = task.batch(4, np.random.default_rng(0))
    assert b.ids.shape == (4, 16)
    assert torch.equal(b.ids[:, 1:], b.targets[:, :-1])


# ---- settings and configs that cannot work ---------------------------------------------------------
@pytest.mark.parametrize("kw, msg", [({"steps": 0}, "at least 1 step"), ({"lr": 0.0}, "positive"),
                                     ({"lr": -1e-3}, "positive"), ({"lr": float("nan")}, "positive"),
                                     ({"lr": 5.0}, "explode"), ({"batch_size": 0}, "batch size")])
def test_bad_settings_are_refused(kw, msg):
    with pytest.raises(ValueError, match=msg):
        TrainSettings(**kw)


def test_configs_that_cannot_run_the_task_are_refused():
    task = get_task("reverse")
    with pytest.raises(ValueError, match="divisible"):
        task.default_config(d_model=60, n_heads=8)
    with pytest.raises(ValueError, match="encoder-decoder model"):
        check_fits(get_task("spell"), task.default_config())
    with pytest.raises(ValueError, match="max_len"):
        check_fits(get_task("reverse", train_len=40), task.default_config(max_len=32))
    with pytest.raises(ValueError, match="too small"):
        check_fits(task, task.default_config(vocab_size=5))


# ---- the trainer ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def reverse_run() -> TrainRun:
    """The lab's default reverse model trained from scratch (a few seconds on 2 cores)."""
    task = get_task("reverse")
    return train(task, task.default_config(), TrainSettings(steps=400, seed=0))


def test_reverse_reaches_95_percent_from_scratch(reverse_run):
    assert reverse_run.state == "done", reverse_run.error
    assert reverse_run.task.evaluate(reverse_run.model) >= 0.95
    assert max(reverse_run.accuracy) >= 0.95 and reverse_run.loss[-1] < reverse_run.loss[0] / 10


def test_trained_reverse_last_layer_is_the_anti_diagonal(reverse_run):
    task, probe = reverse_run.task, reverse_run.probe
    last = reverse_run.snapshots[-1].patterns["self"][-1].astype(np.float64)      # [heads, q, k]
    mean = last.mean(0)
    ideal = task.ideal_for(probe)
    answer = np.flatnonzero(ideal.sum(-1) > 0)
    top = [int(np.argmax(mean[q])) for q in answer]
    mirror = [int(np.argmax(ideal[q])) for q in answer]
    # most answer queries look hardest at their mirror position (heads may share the work,
    # so the head average can peak next to it on a row or two)
    assert sum(a == b for a, b in zip(top, mirror)) >= 0.75 * len(answer), (top, mirror)
    score = task.attention_score(mean, example=probe)
    n_keys = np.arange(1, mean.shape[0] + 1)[answer]
    assert score >= 0.4 and score > 4 * np.mean(1.0 / n_keys), score   # far above uniform attention
    untrained = reverse_run.snapshots[0].patterns["self"][-1].astype(np.float64).mean(0)
    assert task.attention_score(untrained, example=probe) < 0.2


def test_snapshots_record_the_probe_every_n_steps(reverse_run):
    steps = [s.step for s in reverse_run.snapshots]
    assert steps[0] == 0 and steps[-1] == reverse_run.step and all(s % 25 == 0 for s in steps)
    n = len(reverse_run.probe.ids)
    assert reverse_run.snapshots[-1].patterns["self"].shape == (1, 4, n, n)
    assert reverse_run.snapshots[-1].patterns["self"].dtype == np.float16
    assert len(reverse_run.loss) == len(reverse_run.lr) == reverse_run.step


def test_same_seed_same_weights_and_another_seed_differs():
    task = get_task("copy", train_len=4)
    cfg = task.default_config(n_layers=1, d_model=32, d_ff=64)
    a = train(task, cfg, TrainSettings(steps=15, seed=5, snapshot_every=100))
    b = train(task, cfg, TrainSettings(steps=15, seed=5, snapshot_every=100))
    c = train(task, cfg, TrainSettings(steps=15, seed=6, snapshot_every=100))
    assert same_weights(a.model, b.model) and a.loss == b.loss
    assert not same_weights(a.model, c.model)


def test_training_leaves_the_global_random_state_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    task = get_task("copy", train_len=3)
    train(task, task.default_config(n_layers=1, d_model=16, d_ff=32), TrainSettings(steps=3))
    assert torch.equal(torch.rand(3), expected)


def test_stop_keeps_what_was_learned_and_its_last_snapshot():
    task = get_task("reverse")
    stop = threading.Event()

    def stop_at_7(run):
        if run.step == 7:
            stop.set()

    run = train(task, task.default_config(), TrainSettings(steps=500, snapshot_every=100), stop=stop,
                callback=stop_at_7)
    assert run.state == "stopped" and run.step == 7
    assert run.snapshots[-1].step == 7 and run.eval_steps[-1] == 7
    assert run.frozen_model() is not run.model and same_weights(run.frozen_model(), run.model)


def test_a_diverging_run_fails_with_a_message():
    task = get_task("copy", train_len=3)
    cfg = task.default_config(n_layers=1, d_model=16, d_ff=32)
    original = torch.nn.functional.cross_entropy

    def poisoned(*a, **k):
        return original(*a, **k) * float("nan")

    torch.nn.functional.cross_entropy = poisoned
    try:
        run = train(task, cfg, TrainSettings(steps=5))
    finally:
        torch.nn.functional.cross_entropy = original
    assert run.state == "failed" and "learning rate" in run.error


def test_encoder_decoder_training_records_cross_attention():
    task = get_task("spell", train_len=2)
    run = train(task, task.default_config(n_layers=1, d_model=32, d_ff=64), TrainSettings(steps=5, snapshot_every=5))
    assert run.state == "done"
    assert set(run.snapshots[-1].patterns) == {"encoder", "decoder", "cross"}
    probe = run.probe
    assert run.snapshots[-1].patterns["cross"].shape[-2:] == (len(probe.tgt_ids), len(probe.ids))


def test_char_lm_trains_and_improves():
    task = char_lm_task("the quick brown fox jumps over the lazy dog. " * 30, 16)
    run = train(task, task.default_config(n_layers=1, d_model=32, d_ff=64), TrainSettings(steps=60, lr=1e-2))
    assert run.state == "done" and run.loss[-1] < run.loss[0] * 0.7
    assert 0.0 <= task.evaluate(run.model) <= 1.0


# ---- shipped checkpoints ---------------------------------------------------------------------------
def test_every_recipe_is_shipped_with_a_card_and_under_1_mb():
    stems = {p.stem for p in CHECKPOINT_DIR.glob("*.json")}
    assert {r.stem for r in SHIPPED} <= stems
    for r in SHIPPED:
        meta = json.loads((CHECKPOINT_DIR / f"{r.stem}.json").read_text())["meta"]
        for field in ("label", "description", "task", "positional", "norm_position", "seed", "steps", "train_len",
                      "accuracy", "command"):
            assert field in meta, (r.stem, field)
        assert (CHECKPOINT_DIR / f"{r.stem}.safetensors").stat().st_size <= 1_000_000
    keys = {e.key for e in zoo.catalogue() if e.available}
    assert {c["key"] for c in shipped()} <= keys and len(shipped("reverse")) == 7


@pytest.mark.parametrize("recipe", SHIPPED, ids=lambda r: r.stem)
def test_shipped_checkpoint_reproduces_its_card(recipe):
    model, tok, meta = load_checkpoint(CHECKPOINT_DIR / f"{recipe.stem}.json")
    task = get_task(meta["task"])
    assert model.cfg.positional == meta["positional"] and model.cfg.norm_position == meta["norm_position"]
    assert tok.vocab == task.tokenizer.vocab
    assert task.evaluate(model) == pytest.approx(meta["accuracy"], abs=2 / 256)


def test_cli_trains_one_model_and_writes_a_card(tmp_path, capsys):
    assert train_main(["--task", "copy", "--positional", "rope", "--steps", "10", "--out", str(tmp_path)]) == 0
    meta = json.loads((tmp_path / "copy-rope.json").read_text())["meta"]
    assert meta["task"] == "copy" and meta["positional"] == "rope" and meta["steps"] <= 10
    model, tok, _ = load_checkpoint(tmp_path / "copy-rope.json")
    assert tok is not None and model.cfg.n_layers == 2
    assert train_main(["--task", "copy", "--steps", "0", "--out", str(tmp_path)]) == 1
    assert "at least 1 step" in capsys.readouterr().err

"""Head detectors (lab/detectors.py): hand-made patterns score as defined; the shipped
induction model's induction heads score > 0.9, the copy models' heads do not, a random
model scores at chance; the training lab records them at every snapshot."""
from __future__ import annotations

import numpy as np
import pytest

from lab import detectors
from models.tokenizer import minilm_tokenizer
from models.trace import record_names
from models.training.tasks import get_task
from models.training.trainer import TrainSettings, train
from models.weights import zoo

TOKENS = ["<bos>", "a", "b", "c", "a", "b", "c"]


def test_targets_by_hand():
    t = detectors.targets("previous_token", TOKENS)
    assert t[0].sum() == 0 and all(t[q, q - 1] == 1 and t[q].sum() == 1 for q in range(1, 7))
    dup = detectors.targets("duplicate_token", TOKENS)
    assert [list(np.flatnonzero(r)) for r in dup] == [[], [], [], [], [1], [2], [3]]
    ind = detectors.targets("induction", TOKENS)
    assert [list(np.flatnonzero(r)) for r in ind] == [[], [], [], [], [2], [3], [4]]
    first = detectors.targets("first_token", TOKENS)
    assert first[0].sum() == 0 and first[1:, 0].all() and first[:, 1:].sum() == 0
    diag = detectors.targets("diagonal", TOKENS, offsets=(2, -1))
    assert list(np.flatnonzero(diag[3])) == [1, 4] and list(np.flatnonzero(diag[6])) == [4]
    with pytest.raises(ValueError, match="Unknown detector"):
        detectors.targets("nonsense", TOKENS)


def test_a_perfect_head_scores_one_and_chance_is_even_attention():
    n = len(TOKENS)
    ind = detectors.targets("induction", TOKENS)
    perfect = np.where(ind.sum(-1, keepdims=True) > 0, ind, np.eye(n))          # induction rows, else itself
    patterns = np.stack([perfect, np.eye(n)])[None]                              # [1 layer, 2 heads, q, k]
    causal = np.tril(np.ones((n, n), bool))
    s = detectors.detect(patterns, TOKENS, causal)
    assert s.scores["induction"][0, 0] == 1.0 and s.scores["induction"][0, 1] == 0.0
    assert s.best("induction") == (0, 0, 1.0)
    assert s.chance["induction"] == pytest.approx(np.mean([1 / 5, 1 / 6, 1 / 7]))
    assert s.chance["previous_token"] == pytest.approx(np.mean([1 / (q + 1) for q in range(1, n)]))
    assert s.queries == {"previous_token": 6, "duplicate_token": 3, "induction": 3, "first_token": 6, "diagonal": 6}
    rows = s.table()
    assert len(rows) == 2 and rows[0]["layer"] == 0 and rows[0]["induction"] == 1.0
    with pytest.raises(ValueError, match="patterns"):
        detectors.detect(patterns[0], TOKENS)


def test_offsets_typed_by_a_user():
    assert detectors.parse_offsets("1", 5) == (1,)
    assert detectors.parse_offsets(" 2, 1，-1 ", 5) == (-1, 1, 2)
    for bad in ("", "one", "1.5", "9"):
        with pytest.raises(ValueError):
            detectors.parse_offsets(bad, 5)


def scores_of(key: str) -> detectors.DetectorScores:
    model, tok = zoo.load(key)
    seq = detectors.for_task(get_task(zoo.get(key).task), model.cfg.max_len)
    _, trace = model.run_with_cache(seq.ids, names=record_names(model.cfg, ["pattern", "mask"]))
    patterns = trace.patterns().numpy()
    return detectors.detect(patterns, seq.ids, np.broadcast_to(trace.mask().numpy(), patterns.shape[-2:]))


def test_the_induction_checkpoint_has_induction_heads():
    s = scores_of("toy:induction")
    layer, head, score = s.best("induction")
    assert score > 0.9 and layer == 1                  # the second layer: it needs a previous-token signal first
    assert (s.scores["induction"][1] > 0.9).sum() >= 2
    assert s.scores["induction"][0].max() < 0.5


@pytest.mark.parametrize("key", [e.key for e in zoo.toy_entries() if e.task == "copy"])
def test_the_copy_checkpoints_have_none(key):
    s = scores_of(key)
    assert s.scores["induction"].max() < 0.4, s.scores["induction"]


def random_scores(preset: str) -> detectors.DetectorScores:
    model, tok = zoo.load(preset)
    seq = detectors.repeated_sequence(tok, 20, seed=3, max_len=model.cfg.max_len)
    _, trace = model.run_with_cache(seq.ids, names=record_names(model.cfg, ["pattern", "mask"]))
    patterns = trace.patterns().numpy()
    return detectors.detect(patterns, seq.ids, np.broadcast_to(trace.mask().numpy(), patterns.shape[-2:]))


@pytest.mark.parametrize("preset", ["custom:gpt", "custom:llama", "custom:bert"])
def test_a_random_model_scores_at_chance(preset):
    s = random_scores(preset)
    for d in detectors.DETECTORS:
        assert np.abs(s.scores[d] - s.chance[d]).max() < 0.02, d


def test_alibi_looks_back_before_it_learns_anything():
    """ALiBi's distance penalty alone (random weights) makes its steepest head a weak
    previous-token head: the bias is the architecture, not learning."""
    s = random_scores("custom:alibi")
    assert s.scores["previous_token"][:, 0].min() > s.chance["previous_token"] + 0.05
    assert np.abs(s.scores["previous_token"][:, 3] - s.chance["previous_token"]).max() < 0.02


def test_the_repeated_sequence():
    tok = minilm_tokenizer()
    seq = detectors.repeated_sequence(tok, 12, seed=5)
    assert seq.tokens[0] == "[CLS]" and seq.tokens[-1] == "[SEP]" and seq.start == 1
    body = seq.ids[1:-1]
    assert body[:12] == body[12:] and len(set(body[:12])) == 12
    assert all(t.isalpha() and t.isascii() for t in seq.tokens[1:-1])
    assert tok.encode(tok.decode(body)).ids == seq.ids                 # as text, it tokenizes back the same
    assert detectors.repeated_sequence(tok, 12, seed=5).ids == seq.ids          # seeded
    toy = get_task("induction")
    inp = detectors.for_task(toy, 128)
    assert inp.half == toy.train_len and inp.tokens[0] == "<bos>"
    assert set(inp.tokens[1:]) <= set(toy.symbols)
    with pytest.raises(ValueError, match="ordinary tokens"):
        detectors.repeated_sequence(toy.tokenizer, 27, symbols=toy.symbols)
    with pytest.raises(ValueError, match="positions"):
        detectors.repeated_sequence(tok, 40, max_len=32)


def test_training_records_detector_scores_at_every_snapshot():
    task = get_task("induction")
    cfg = task.default_config(positional="rope")
    run = train(task, cfg, TrainSettings(steps=4, snapshot_every=2, eval_every=2, eval_size=8, batch_size=8),
                run=None)
    assert all(s.detector_patterns is None for s in run.snapshots)     # none asked for
    from models.training.trainer import TrainRun

    seq = detectors.for_task(task, cfg.max_len)
    asked = TrainRun(task, cfg, TrainSettings(steps=4, snapshot_every=2, eval_every=2, eval_size=8, batch_size=8),
                     task.probe(), detector_ids=seq.ids)
    train(task, cfg, asked.settings, run=asked)
    steps = [s.step for s in asked.snapshots]
    assert steps == [0, 2, 4]
    hist = detectors.history(steps, [s.detector_patterns for s in asked.snapshots], seq.ids)
    assert hist.scores["induction"].shape == (3, cfg.n_layers, cfg.n_heads)
    assert hist.best("induction").shape == (3,) and 0 <= hist.best("induction").min() <= 1
    assert hist.head_at_end("induction")[0] < cfg.n_layers

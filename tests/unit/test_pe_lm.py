"""The six shipped "train short, test long" models (recipes/pe_lm.py): they load,
differ only in their positional scheme (and the learned table's length), carry their card,
are listed after verse-lm, and beat the unigram on held-out text at their training length."""
from __future__ import annotations

import math

import numpy as np
import pytest

from lab import length_curve
from models.config import POSITIONALS
from models.training import corpus
from recipes import pe_lm
from recipes.verse_eval import unigram_bits
from models.weights import safety, zoo
from models.weights.checkpoint import CHECKPOINT_DIR, read_checkpoint_info

CARD = ("kind", "family", "positional", "context", "train_len", "label", "label_zh", "description",
        "description_zh", "steps", "seconds", "seed", "loss_curve", "command")


@pytest.fixture(scope="module")
def models():
    return {s: pe_lm.load(s) for s in POSITIONALS}


def test_six_checkpoints_identical_but_for_the_positional_scheme(models):
    infos = {s: read_checkpoint_info(CHECKPOINT_DIR / f"{pe_lm.stem(s)}.json") for s in POSITIONALS}
    base = dict(infos["rope"]["config"])
    for s, info in infos.items():
        cfg = dict(info["config"])
        assert cfg["positional"] == s
        assert cfg["max_len"] == (pe_lm.TRAIN_LEN if s == "learned" else 8 * pe_lm.TRAIN_LEN)
        assert {k: v for k, v in cfg.items() if k not in ("positional", "max_len")} == \
            {k: v for k, v in base.items() if k not in ("positional", "max_len")}
        path = CHECKPOINT_DIR / f"{pe_lm.stem(s)}.safetensors"
        assert path.stat().st_size <= 2 * 2**20
        assert {t.dtype for t in safety.read_header(path).tensors.values()} == {"F16"}
    vocabs = {tuple(tok.vocab) for _, tok, _ in models.values()}
    assert len(vocabs) == 1


def test_cards(models):
    steps = set()
    for s, (_, _, meta) in models.items():
        assert all(k in meta for k in CARD), [k for k in CARD if k not in meta]
        assert meta["kind"] == "language-model" and meta["family"] == "pe-lm" and meta["positional"] == s
        assert meta["train_len"] == meta["context"] == 64 and meta["command"] == "make pe-lm"
        assert "64" in meta["label_zh"] and "训练长度" in meta["label_zh"]
        assert {k: meta[k] for k in pe_lm.texts(s)} == pe_lm.texts(s)       # the script's words
        assert meta["seed"] == pe_lm.SEED and len(meta["loss_curve"]) > 10
        steps.add(meta["steps"])
    assert steps == {pe_lm.SETTINGS.steps}          # a fixed step count, the same for all six


def test_listed_as_language_models_after_verse_lm():
    lms = [e for e in zoo.toy_entries() if e.kind == "lm"]
    assert lms[0].key == "toy:verse-lm"
    keys = [e.key for e in lms]
    assert all(f"toy:{pe_lm.stem(s)}" in keys for s in POSITIONALS)
    assert zoo.get("toy:pe64-alibi").task is None


def test_the_config_is_what_the_training_script_builds(models):
    task = pe_lm.task()
    for s, (model, tok, _) in models.items():
        assert pe_lm.config(task, s) == model.cfg
        assert task.tokenizer.vocab == tok.vocab


def test_held_out_bits_at_the_training_length(models):
    """English and modern Chinese: below the unigram fit on the training text. The poems
    (a few thousand held-out characters, many rare) only finite and below the uniform
    distribution's log2(V) (docs/pe_lm.md)."""
    docs = corpus.load_corpus()
    tok = models["rope"][1]
    for part in corpus.PARTS:
        ids = length_curve.heldout_ids(tok, part)[:8 * 64 + 1]
        train = np.asarray(tok.encode(corpus.split_text(docs, False, part), add_special_tokens=False).ids)
        uni, _ = unigram_bits(train, np.asarray(ids, dtype=np.int64), tok.vocab_size)
        for s, (model, _, _) in models.items():
            bpc = length_curve.bits_per_char(model, ids, 64, max_windows=8)
            assert math.isfinite(bpc) and bpc < math.log2(tok.vocab_size), (s, part, bpc)
            if part != "zh-verse":
                assert bpc < uni - 0.5, (s, part, bpc, uni)

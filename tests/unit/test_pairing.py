"""lab/pairing.py: the contrastive loss against a by-hand numpy InfoNCE, the similarity matrix
against normalised dot products, zero-shot probabilities (they sum to 1, they are the softmax
of cosine × 1/τ), the shipped towers' held-out zero-shot accuracy as their meta says and above
chance, the batch's true pairs on the diagonal, uploads made into 8×8 digits, seeded training,
save and load."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lab import pairing


def infonce_by_hand(a: np.ndarray, b: np.ndarray, scale: float) -> float:
    """Symmetric InfoNCE, one loop per direction: rows a_i against every b_j, columns b_j against
    every a_i; a and b are unit vectors, a_i with b_i the true pair."""
    n = len(a)
    s = np.array([[float(np.dot(a[i], b[j])) * scale for j in range(n)] for i in range(n)])
    i2t = -sum(s[i, i] - np.log(sum(np.exp(s[i, j]) for j in range(n))) for i in range(n)) / n
    t2i = -sum(s[j, j] - np.log(sum(np.exp(s[i, j]) for i in range(n))) for j in range(n)) / n
    return (i2t + t2i) / 2


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


@pytest.fixture(scope="module")
def shipped():
    return pairing.load()


@pytest.mark.parametrize("n, scale", [(10, 14.3), (4, 1.0), (7, 100.0)])
def test_loss_is_symmetric_infonce(n, scale):
    rng = np.random.default_rng(n)
    a, b = unit(rng.normal(size=(n, 8))), unit(rng.normal(size=(n, 8)))
    want = infonce_by_hand(a, b, scale)
    sim = torch.as_tensor(a @ b.T)
    assert float(pairing.contrastive(sim, scale)) == pytest.approx(want, rel=1e-9)
    parts = pairing.loss_parts(a @ b.T, scale)
    assert parts["loss"] == pytest.approx(want, rel=1e-9)
    np.testing.assert_allclose(parts["rows"].sum(1), 1.0)
    np.testing.assert_allclose(parts["cols"].sum(0), 1.0)
    # groups of pairs (the trainer's [g, n, n]): the mean of each group's loss
    sims = torch.stack([sim, sim.T])
    assert float(pairing.contrastive(sims, scale)) == pytest.approx(want, rel=1e-9)


def test_loss_of_equal_cosines_is_log_n():
    assert pairing.loss_parts(np.full((10, 10), 0.3), 20.0)["loss"] == pytest.approx(np.log(10))


def test_similarity_is_normalised_dot_products(shipped):
    model, _ = shipped
    images, _ = pairing.held_out()
    words = ["seven", "七", "sevn"]
    with torch.no_grad():
        img = model.encode_images(images[:5])
        txt = model.encode_texts(words)
        raw_i = model.image_proj(model.image_body(inputs_embeds=model.front(torch.as_tensor(images[:5])[:, None]),
                                                  out_positions=[0])[:, 0]).numpy()
        ids, valid = model.ids(words)
        raw_t = model.text_proj(model.text_body(ids, attention_mask=valid, out_positions=[0])[:, 0]).numpy()
        sim = pairing.similarity(img, txt).numpy()
    np.testing.assert_allclose(np.linalg.norm(img.numpy(), axis=1), 1.0, atol=1e-6)
    want = np.array([[np.dot(x, y) / np.linalg.norm(x) / np.linalg.norm(y) for y in raw_t] for x in raw_i])
    np.testing.assert_allclose(sim, want, atol=1e-5)


def test_zero_shot_probabilities(shipped):
    model, _ = shipped
    images, _ = pairing.held_out()
    for lang in pairing.LANGS:
        p = pairing.zero_shot(model, images[:20], lang)
        assert p.shape == (20, 10)
        np.testing.assert_allclose(p.sum(1), 1.0, atol=1e-5)
        with torch.no_grad():
            cos = pairing.similarity(model.encode_images(images[:20]),
                                     model.encode_texts(list(pairing.CAPTIONS[lang]))).numpy()
        logits = cos * model.inverse_temperature()
        want = np.exp(logits - logits.max(1, keepdims=True))
        np.testing.assert_allclose(p, want / want.sum(1, keepdims=True), atol=1e-5)


def test_shipped_accuracy_beats_chance_as_the_meta_says(shipped):
    model, meta = shipped
    images, labels = pairing.held_out()
    base = pairing.baselines()
    for lang in pairing.LANGS:
        acc = pairing.accuracy(model, images, labels, lang)
        assert acc == pytest.approx(meta["zero_shot_accuracy"][lang], abs=1e-4)
        assert acc > 5 * base["chance"]
    assert base["logreg"] > 0.9 and base["chance"] == 0.1
    assert meta["seconds"] < 120 and meta["recipe"] == "recipes/pairing_digits.py"


def test_shipped_files_are_small():
    total = sum(f.stat().st_size for f in pairing.FOLDER.iterdir())
    assert total < 1_000_000, total


def test_batch_has_the_true_pairs_on_the_diagonal(shipped):
    model, _ = shipped
    images, labels = pairing.held_out()
    for lang in pairing.LANGS:
        b = pairing.batch(model, images, labels, seed=3, lang=lang)
        assert sorted(b["digits"]) == list(range(10))
        assert list(labels[b["idx"]]) == list(b["digits"])
        assert b["captions"] == [pairing.CAPTIONS[lang][d] for d in b["digits"]]
        assert b["sim"].shape == (10, 10) and np.abs(b["sim"]).max() <= 1 + 1e-5
    a, c = (pairing.batch(model, images, labels, seed=s, lang="en")["idx"] for s in (3, 4))
    assert not np.array_equal(a, c)


def test_words_of_both_languages_meet(shipped):
    """Trained only through pictures, "seven" lies nearer "七" than the other Chinese words."""
    w = pairing.word_agreement(shipped[0])
    assert (w.argmax(1) == np.arange(10)).all()


def test_as_digit():
    images, _ = pairing.held_out()
    big = np.kron(images[0], np.ones((12, 12), dtype=np.float32))        # 96×96, light strokes on black
    small, inverted = pairing.as_digit(big)
    assert small.shape == (8, 8) and not inverted and small.max() == pytest.approx(1.0)
    paper, inverted = pairing.as_digit(1.0 - big)                       # dark ink on white paper
    assert inverted
    np.testing.assert_allclose(paper, small, atol=1e-6)
    blank, _ = pairing.as_digit(np.zeros((5, 5), dtype=np.float32))
    assert blank.shape == (8, 8) and blank.max() == 0


def test_training_is_seeded(tmp_path):
    a = pairing.train(seed=0, steps=4, n_groups=2)
    b = pairing.train(seed=0, steps=4, n_groups=2)
    assert a.losses == b.losses
    pairing.save(a.model, {"recipe": "test"}, tmp_path)
    c, meta = pairing.load(tmp_path)
    images, _ = pairing.held_out()
    assert meta["recipe"] == "test"
    np.testing.assert_allclose(pairing.zero_shot(a.model, images[:5], "zh"), pairing.zero_shot(c, images[:5], "zh"),
                               atol=1e-6)

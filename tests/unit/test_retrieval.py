"""lab/retrieval.py against independent computations: the MiniLM sentence embedding against
transformers' BertModel (mean pooling and normalisation written here) and sentence-transformers,
the nearest chunks against scikit-learn's cosine similarity, the chunk-causality mask against a
construction by hand from RETRO's rule, and the chunked cross-attention against PyTorch's
scaled_dot_product_attention with that mask."""
from __future__ import annotations

import functools

import numpy as np
import pytest
import torch

from lab import retrieval
from models.training import corpus
from models.weights import pretrained

SENTENCES = ["Vanity of vanities, all is vanity.", "A time to be born, and a time to die.",
             "The sun also ariseth, and the sun goeth down.", "x"]


@functools.lru_cache(maxsize=1)
def minilm():
    return pretrained.load("minilm")


def test_our_embedding_is_berts_mean_pooled_and_normalised():
    from transformers import AutoTokenizer, BertModel

    model, tok = minilm()
    ours = retrieval.embed_texts(model, tok, SENTENCES, batch=3)       # two batches, padded
    folder = str(pretrained.minilm_path())
    hf_tok = AutoTokenizer.from_pretrained(folder)
    bert = BertModel.from_pretrained(folder).eval()
    batch = hf_tok(SENTENCES, padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = bert(**batch).last_hidden_state
    mask = batch["attention_mask"][..., None].float()
    mean = (hidden * mask).sum(1) / mask.sum(1)
    theirs = (mean / mean.norm(dim=1, keepdim=True)).numpy()
    np.testing.assert_allclose(ours, theirs, atol=2e-5)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)


def test_our_embedding_is_sentence_transformers():
    sentence_transformers = pytest.importorskip("sentence_transformers")
    model, tok = minilm()
    st_model = sentence_transformers.SentenceTransformer(str(pretrained.minilm_path()), device="cpu")
    np.testing.assert_allclose(retrieval.embed_texts(model, tok, SENTENCES), st_model.encode(SENTENCES), atol=2e-5)


def test_nearest_is_sklearn_cosine_ranking():
    from sklearn.metrics.pairwise import cosine_similarity

    rng = np.random.default_rng(0)
    keys = rng.standard_normal((50, 8))
    q = rng.standard_normal(8)
    cos = cosine_similarity(q[None], keys)[0]
    idx, got = retrieval.nearest(q, keys, 5)
    np.testing.assert_array_equal(idx, np.argsort(-cos)[:5])
    np.testing.assert_allclose(got, np.sort(cos)[::-1][:5], atol=1e-12)
    assert len(retrieval.nearest(q, keys, 99)[0]) == 50 and len(retrieval.nearest(q, keys, 0)[0]) == 0


def test_chunks_cover_each_document_in_order():
    _, tok = minilm()
    docs = retrieval.corpus_docs(corpus.load_corpus(corpus.CORPUS_PATH))
    assert [d[0] for d in docs] == ["kjv-ec"] * 12
    chunks = retrieval.chunk_docs(docs[:2], tok, size=32)
    for source, index, text in docs[:2]:
        mine = [c for c in chunks if c.doc == index]
        n = len(tok.encode(text, add_special_tokens=False).ids)
        assert [c.start for c in mine] == list(range(0, n, 32))
        assert all(c.text in text for c in mine)
        assert [c.next_text for c in mine] == [c.text for c in mine[1:]] + [""]
        assert all(len(tok.encode(c.text, add_special_tokens=False).ids) <= 33 for c in mine)


def by_hand_mask(n: int, m: int, widths: list[int]) -> np.ndarray:
    """RETRO's rule written out: chunk u (tokens u·m … u·m + m − 1) has its neighbours read by its
    last token u·m + m − 1 and the next chunk's first m − 1 tokens, up to u·m + 2m − 2."""
    cols = []
    for u, w in enumerate(widths):
        first, last = u * m + m - 1, u * m + 2 * m - 2
        cols += [[first <= i <= last for i in range(n)]] * w
    return np.array(cols, bool).T.reshape(n, sum(widths))


@pytest.mark.parametrize("n,m,widths", [(8, 3, [2, 2, 2]), (12, 4, [3, 1, 2]), (5, 1, [1] * 5), (3, 4, [2]),
                                        (9, 3, [2, 2, 2])])
def test_cca_mask_is_the_rule_by_hand(n, m, widths):
    np.testing.assert_array_equal(retrieval.cca_mask(n, m, widths), by_hand_mask(n, m, widths))


def test_cca_mask_small_case_spelled_out():
    # n = 7, m = 3: tokens 0, 1 read nothing; 2, 3, 4 read chunk 0's neighbours; 5, 6 chunk 1's
    mask = retrieval.cca_mask(7, 3, [1, 1, 1])
    assert mask.astype(int).tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0]]
    # causality: a token never reads the neighbours of a chunk whose last token comes after it
    n, m = 20, 4
    for i, u in enumerate(retrieval.reads_chunk(n, m)):
        assert u < 0 or u * m + m - 1 <= i


@pytest.mark.parametrize("identity", [False, True])
def test_cca_weights_are_sdpa_with_the_mask(identity):
    rng = np.random.default_rng(1)
    n, m, d = 11, 3, 16
    widths = [5, 4, 6, 3]
    x = rng.standard_normal((n, d))
    nbs = [rng.standard_normal((w, d)) for w in widths]
    r = retrieval.cca_weights(x, nbs, m, d_head=8, seed=7, identity=identity)
    if identity:
        wq = wk = np.eye(d)
    else:
        g = np.random.default_rng(7)
        wq, wk = g.standard_normal((d, 8)) / np.sqrt(d), g.standard_normal((d, 8)) / np.sqrt(d)
    e = np.concatenate(nbs)
    v = rng.standard_normal((len(e), 5))
    q, k = torch.tensor(x @ wq), torch.tensor(e @ wk)
    reading = r.mask.any(1)
    want = torch.nn.functional.scaled_dot_product_attention(
        q[reading][None], k[None], torch.tensor(v)[None], attn_mask=torch.tensor(r.mask[reading])[None])[0]
    np.testing.assert_allclose(np.nan_to_num(r.weights[reading]) @ v, want.numpy(), atol=1e-10)
    assert np.isnan(r.weights[~reading]).all() and reading.sum() == n - (m - 1)
    assert np.isnan(r.weights[~r.mask]).all()
    np.testing.assert_allclose(np.nansum(r.weights[reading], 1), 1.0, atol=1e-12)
    assert r.col_starts.tolist() == [0, 5, 9, 15, 18]


def test_cca_with_nobody_reading():
    r = retrieval.cca_weights(np.ones((2, 4)), [np.ones((3, 4))], 4, d_head=2, seed=0)
    assert not r.mask.any() and np.isnan(r.weights).all()


def test_the_notes_layer_list_never_reaches_32():
    layers = retrieval.every(9, 3, 32)
    assert layers[:3] == [9, 12, 15] and layers[-1] == 30 and 32 not in layers
    assert all((x - 9) % 3 == 0 for x in layers)

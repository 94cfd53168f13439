"""The Beyond page's retrieval section, cached (computations: lab/retrieval.py).

- `database()`: the corpus chunks and their MiniLM embeddings, computed once per server
  (st.cache_resource) with the time the pass took;
- `search(text, k)`: the k nearest chunks of a sentence (cached per sentence and k);
- `chunked(text, m, n_nb, seed, identity)`: the reader's chunks, the neighbours each one
  retrieved, and one seeded head of chunked cross-attention over them.

MiniLM is the catalogue's (ui/serving/gate.py `load_model("minilm", "cpu")`), used under its
lock (`run_held`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import streamlit as st

from lab import retrieval
from models.training import corpus

from .gate import load_model, run_held

NEIGHBOUR_TOKENS = 16          # each neighbour's first tokens enter the cross-attention figure


@dataclass(frozen=True)
class Database:
    chunks: tuple[retrieval.Chunk, ...]
    keys: np.ndarray           # [N, d] unit vectors
    seconds: float             # the embedding pass, wall clock
    n_tokens: int              # MiniLM tokens embedded ([CLS] and [SEP] included)


def minilm():
    return load_model("minilm", "cpu")


@st.cache_resource(show_spinner=False)
def database() -> Database:
    """Every chunk of the corpus (lab.retrieval.SOURCES) embedded once per server."""
    model, tok = minilm()
    docs = retrieval.corpus_docs(corpus.load_corpus(corpus.CORPUS_PATH))
    chunks = retrieval.chunk_docs(docs, tok)
    texts = [c.text for c in chunks]
    n_tokens = sum(len(tok.encode(s, max_len=retrieval.MAX_LEN).ids) for s in texts)
    start = time.perf_counter()
    parts = []
    for b in range(0, len(texts), retrieval.BATCH):       # one batch per turn of the guard: others may pass between
        batch = texts[b:b + retrieval.BATCH]
        n = len(batch) * (retrieval.CHUNK_TOKENS + 2)
        parts.append(run_held(model, lambda m, x=batch: retrieval.embed_texts(m, tok, x), n))
    keys = np.concatenate(parts) if parts else np.zeros((0, model.cfg.d_model), np.float32)
    return Database(tuple(chunks), keys, time.perf_counter() - start, n_tokens)


@st.cache_data(max_entries=32, show_spinner=False)
def search(text: str, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(chunk indices, cosines, the sentence's embedding) of the k nearest chunks."""
    model, tok = minilm()
    db = database()
    query = run_held(model, lambda m: retrieval.embed_texts(m, tok, [text]), retrieval.MAX_LEN)[0]
    idx, cos = retrieval.nearest(query, db.keys, k)
    return idx, cos, query


@dataclass(frozen=True)
class Chunked:
    tokens: list[str]                       # the reader's tokens (MiniLM WordPiece)
    chunks: list[tuple[int, int]]           # [start, end) of each reader chunk
    retrieved: list[list[tuple[int, float]]]  # per reader chunk: (database chunk, cosine) of its neighbours
    nb_tokens: list[str]                    # the figure's columns: "u·j·token" labels
    cca: retrieval.CCA
    cut: bool                               # the text had more than MAX_QUERY_TOKENS tokens


@st.cache_data(max_entries=16, show_spinner=False)
def chunked(text: str, m: int, n_nb: int, seed: int, identity: bool) -> Chunked:
    """The reader's text cut into chunks of m tokens; each chunk's n_nb nearest database chunks
    (by its own MiniLM embedding); the neighbours' first NEIGHBOUR_TOKENS token states; one
    head of chunked cross-attention (lab.retrieval.cca_weights)."""
    model, tok = minilm()
    db = database()
    n_all = len(tok.encode(text).ids) - 2
    tokens, states = run_held(model, lambda mm: retrieval.token_states(mm, tok, text, retrieval.MAX_QUERY_TOKENS),
                              retrieval.MAX_QUERY_TOKENS + 2)
    spans = retrieval.query_chunks(len(tokens), m)
    enc = tok.encode(text, max_len=retrieval.MAX_QUERY_TOKENS + 2)
    offsets = enc.offsets[1:-1]
    texts = [text[offsets[s][0]:offsets[e - 1][1]] for s, e in spans]
    keys = run_held(model, lambda mm: retrieval.embed_texts(mm, tok, texts), retrieval.MAX_QUERY_TOKENS)
    retrieved, blocks, labels = [], [], []
    for u, q in enumerate(keys):
        idx, cos = retrieval.nearest(q, db.keys, n_nb)
        retrieved.append([(int(i), float(c)) for i, c in zip(idx, cos)])
        parts = []
        for j, i in enumerate(idx):
            nb_tok, nb_states = run_held(model, lambda mm, s=db.chunks[i].text: retrieval.token_states(
                mm, tok, s, NEIGHBOUR_TOKENS), NEIGHBOUR_TOKENS + 2)
            parts.append(nb_states)
            labels += [f"C{u + 1}·N{j + 1}·{w}" for w in nb_tok]
        blocks.append(np.concatenate(parts) if parts else np.zeros((0, states.shape[1])))
    cca = retrieval.cca_weights(states, blocks, m, d_head=64, seed=seed, identity=identity)
    return Chunked(list(tokens), spans, retrieved, labels, cca, n_all > len(tokens))

"""Retrieval augmentation, the RETRO way (Borgeaud et al. 2021), on what the app ships.

Two halves:

- the database: a small English corpus (Ecclesiastes, from the shipped verse corpus,
  models/training/corpus.py) cut into chunks of a fixed number of MiniLM tokens
  (`chunk_docs`), each embedded by the bundled all-MiniLM-L6-v2 the way sentence-transformers
  does for that model: the encoder's last hidden states, their mean over the real tokens
  ([CLS] and [SEP] included, padding left out), L2-normalised (`embed_texts`). The nearest
  chunks of a sentence are the largest cosines, i.e. dot products of unit vectors (`nearest`);
  each chunk keeps its continuation (the chunk after it in the same document), RETRO's value
  [neighbour, continuation].
- the reading: RETRO's chunked cross-attention (`cca_mask`, `cca_weights`). The reader's
  tokens are cut into chunks of m; the neighbours retrieved for chunk u are read by the last
  token of chunk u and the first m - 1 tokens of chunk u + 1, never by chunk u's earlier
  tokens (they would see text retrieved with the help of later tokens). The first m - 1
  tokens read no neighbour at all. The weights here are seeded (or the identity): the
  mechanism, not a trained RETRO.

No streamlit here; the cached database lives in ui/serving/retrieval.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from models.tokenizer import Tokenizer

SOURCES = ("kjv-ec",)                    # Ecclesiastes: 12 chapters, ~6.9k MiniLM tokens
CHUNK_TOKENS = 32                       # database chunk length (RETRO: 64)
MAX_LEN = 256                           # sentence-transformers' max_seq_length for all-MiniLM-L6-v2
BATCH = 64
MAX_K = 10
MAX_QUERY_TOKENS = 64                   # the chunked cross-attention reads at most this many tokens


@dataclass(frozen=True)
class Chunk:
    source: str          # the corpus source (kjv-ec)
    doc: int             # the document's (chapter's) index in its source
    start: int           # the first token's index in the document (MiniLM tokens, no specials)
    text: str            # the original characters the chunk's tokens cover
    next_text: str       # the following chunk of the same document ("" at the end): RETRO's continuation


def chunk_docs(docs: Sequence[tuple[str, int, str]], tokenizer: Tokenizer, size: int = CHUNK_TOKENS) -> list[Chunk]:
    """Each (source, index, text) document cut into chunks of `size` tokens (the last one of a
    document may be shorter); a chunk's text is the span of characters its tokens cover."""
    if size < 1:
        raise ValueError("A chunk needs at least one token.")
    out: list[Chunk] = []
    for source, index, text in docs:
        enc = tokenizer.encode(text, add_special_tokens=False)
        spans = []
        for s in range(0, len(enc.ids), size):
            off = enc.offsets[s:s + size]
            spans.append((s, text[off[0][0]:off[-1][1]]))
        for j, (s, piece) in enumerate(spans):
            nxt = spans[j + 1][1] if j + 1 < len(spans) else ""
            out.append(Chunk(source, index, s, piece, nxt))
    return out


def mean_pool(hidden: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """[b, n, d] hidden states, [b, n] real-token mask -> [b, d] unit vectors: the mean over the
    real tokens, divided by its L2 norm (sentence-transformers' Pooling + Normalize)."""
    w = valid.to(hidden.dtype)[..., None]
    mean = (hidden * w).sum(1) / w.sum(1).clamp(min=1e-9)
    return torch.nn.functional.normalize(mean, p=2, dim=-1)


def embed_texts(model, tokenizer: Tokenizer, texts: Sequence[str], batch: int = BATCH,
                max_len: int = MAX_LEN) -> np.ndarray:
    """[len(texts), d] float32 unit vectors from our `Transformer` loaded with the MiniLM weights
    (cfg.output == "hidden"): each text with [CLS] … [SEP], cut to `max_len` tokens, padded per
    batch and mean-pooled over its real tokens."""
    if model.cfg.arch != "encoder" or model.cfg.output != "hidden":
        raise ValueError("Sentence embeddings need an encoder that returns its hidden states (the bundled MiniLM).")
    out = []
    for b in range(0, len(texts), batch):
        encs = [tokenizer.encode(t, max_len=max_len) for t in texts[b:b + batch]]
        n = max(len(e.ids) for e in encs)
        ids = torch.zeros(len(encs), n, dtype=torch.long)
        valid = torch.zeros(len(encs), n, dtype=torch.bool)
        for i, e in enumerate(encs):
            ids[i, :len(e.ids)] = torch.tensor(e.ids)
            valid[i, :len(e.ids)] = True
        with torch.inference_mode():
            hidden = model(ids.to(model.device), attention_mask=valid.to(model.device))
        out.append(mean_pool(hidden.float().cpu(), valid).numpy())
    d = model.cfg.d_model
    return np.concatenate(out).astype(np.float32) if out else np.zeros((0, d), np.float32)


def nearest(query: np.ndarray, keys: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k rows of `keys` [N, d] with the largest cosine to `query` [d] (exact search), best
    first: (indices, cosines). Ties keep the earlier row."""
    q = np.asarray(query, np.float64)
    keys = np.asarray(keys, np.float64)
    cos = keys @ q / (np.linalg.norm(keys, axis=1) * np.linalg.norm(q) + 1e-12)
    k = max(0, min(int(k), len(keys)))
    idx = np.argsort(-cos, kind="stable")[:k]
    return idx, cos[idx]


# ---- chunked cross-attention ---------------------------------------------------------------
def query_chunks(n: int, m: int) -> list[tuple[int, int]]:
    """The reader's chunks: [start, end) of each, m tokens (the last may be shorter)."""
    if m < 1:
        raise ValueError("A chunk needs at least one token.")
    return [(s, min(s + m, n)) for s in range(0, n, m)]


def reads_chunk(n: int, m: int) -> np.ndarray:
    """[n] the index of the reader's chunk whose neighbours token i reads, -1 for none:
    token i reads chunk (i + 1) // m - 1 (RETRO's attending chunk: the last token of chunk u
    and the first m - 1 tokens of chunk u + 1)."""
    return (np.arange(n) + 1) // m - 1


def cca_mask(n: int, m: int, widths: Sequence[int]) -> np.ndarray:
    """[n, sum(widths)] True where query token i may attend to a neighbour token. widths[u]:
    how many neighbour tokens (all k neighbours of chunk u together) chunk u retrieved; the
    columns are chunk 0's neighbour tokens, then chunk 1's, …"""
    starts = np.concatenate([[0], np.cumsum(widths)]).astype(int)
    mask = np.zeros((n, int(starts[-1])), bool)
    for i, u in enumerate(reads_chunk(n, m)):
        if 0 <= u < len(widths):
            mask[i, starts[u]:starts[u + 1]] = True
    return mask


@dataclass(frozen=True)
class CCA:
    weights: np.ndarray        # [n, cols] attention weights, NaN where masked; rows of no neighbours all NaN
    scores: np.ndarray         # [n, cols] scaled dot products before the mask
    mask: np.ndarray           # [n, cols] bool
    col_starts: np.ndarray     # [n_chunks + 1] first column of each chunk's neighbour block
    d_head: int


def cca_weights(queries: np.ndarray, neighbours: Sequence[np.ndarray], m: int, d_head: int, seed: int,
                identity: bool = False) -> CCA:
    """One head of chunked cross-attention: queries [n, d] (the reader's token states), one
    [r_u, d] array of neighbour token states per reader chunk u (its k neighbours one after the
    other). q = x W_Q, k = e W_K with seeded N(0, 1/d) matrices [d, d_head] (identity: W_Q = W_K
    = I, d_head = d, the raw dot products of the states); scores q·k / √d_head; softmax over each
    query's allowed neighbour tokens (`cca_mask`)."""
    x = np.asarray(queries, np.float64)
    n, d = x.shape
    e = np.concatenate([np.asarray(a, np.float64) for a in neighbours]) if len(neighbours) else np.zeros((0, d))
    if identity:
        wq = wk = np.eye(d)
        d_head = d
    else:
        rng = np.random.default_rng(seed)
        wq = rng.standard_normal((d, d_head)) / np.sqrt(d)
        wk = rng.standard_normal((d, d_head)) / np.sqrt(d)
    scores = (x @ wq) @ (e @ wk).T / np.sqrt(d_head)
    widths = [len(a) for a in neighbours]
    mask = cca_mask(n, m, widths)
    starts = np.concatenate([[0], np.cumsum(widths)]).astype(int)
    if not mask.any():                     # nobody reads a neighbour (fewer than m tokens, or none)
        return CCA(np.full(scores.shape, np.nan), scores, mask, starts, int(d_head))
    masked = np.where(mask, scores, -np.inf)
    top = masked.max(axis=1, keepdims=True)
    ex = np.where(mask, np.exp(masked - np.where(np.isfinite(top), top, 0.0)), 0.0)
    total = ex.sum(axis=1, keepdims=True)
    weights = np.where(mask, ex / np.where(total > 0, total, 1.0), np.nan)
    return CCA(weights, scores, mask, starts, int(d_head))


def token_states(model, tokenizer: Tokenizer, text: str, max_tokens: int) -> tuple[list[str], np.ndarray]:
    """The tokens of `text` (no [CLS]/[SEP]), at most `max_tokens`, and MiniLM's last hidden
    state of each [n, d] (the encoder read the text with [CLS] … [SEP] around it)."""
    enc = tokenizer.encode(text, max_len=max_tokens + 2)
    with torch.inference_mode():
        hidden = model(torch.tensor([enc.ids], device=model.device))[0].float().cpu().numpy()
    return enc.tokens[1:-1], hidden[1:-1].astype(np.float64)


def corpus_docs(docs, sources: Sequence[str] = SOURCES) -> list[tuple[str, int, str]]:
    """(source, index, text) of the shipped corpus's documents from `sources`, in corpus order."""
    return [(d.source, d.index, d.text) for d in docs if d.source in sources]


def every(first: int, step: int, n_layers: int) -> list[int]:
    """Layers first, first + step, … up to n_layers (1-based, as the notes count them)."""
    return list(range(first, n_layers + 1, step))

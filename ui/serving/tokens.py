"""The "Tokens from anything" page, cached (computations: lab/tokens.py, lab/text.py).

- `verse_bpe()`: byte-level BPE learned on the shipped verse corpus's training split
  (models/training/corpus.py): the word table and the first MAX_MERGES merges with their
  counts, once per server, with the seconds it took;
- `bpe_at(n)`: the `tokenizers` tokenizer that knows the first n of those merges;
- `wordpiece_tokenizer()`: the bundled MiniLM's WordPiece (None when the package is missing);
- `cut_four_ways(source, n)`: a text as characters, UTF-8 bytes, WordPiece and BPE with n merges
  (the text section and the lesson's steps read the same cuts).
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

import streamlit as st

from lab import text
from lab.tokens import Cut
from models.tokenizer import minilm_tokenizer
from models.training import corpus

MAX_MERGES = 2000          # the merge slider's end; learning them takes about a second


@dataclass(frozen=True)
class VerseBPE:
    table: Counter                    # pre-token (ByteLevel alphabet) -> count
    merges: tuple[text.Merge, ...]
    n_docs: int
    n_chars: int
    seconds: float                    # reading the corpus, the word table and the merges


@st.cache_resource(show_spinner=False)
def verse_bpe() -> VerseBPE:
    start = time.perf_counter()
    docs = [d.text for d in corpus.load_corpus(corpus.CORPUS_PATH) if not d.heldout]
    table = text.word_table(docs)
    merges = text.learn_merges(table, MAX_MERGES)
    return VerseBPE(table, tuple(merges), len(docs), sum(len(d) for d in docs), time.perf_counter() - start)


@st.cache_resource(show_spinner=False, max_entries=8)
def bpe_at(n: int):
    return text.bpe_tokenizer(list(verse_bpe().merges), n)


@st.cache_resource(show_spinner=False)
def wordpiece_tokenizer():
    try:
        return minilm_tokenizer()
    except ValueError:
        return None


def cut_four_ways(source: str, n: int) -> dict[str, Cut]:
    """`source` cut four ways (WordPiece left out when its tokenizer cannot be loaded)."""
    out = {"chars": text.characters(source), "bytes": text.utf8_bytes(source)}
    wp = wordpiece_tokenizer()
    if wp is not None:
        out["wordpiece"] = text.wordpiece(wp, source)
    out["bpe"] = text.bpe(bpe_at(n), source)
    return out

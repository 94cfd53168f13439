"""Text cut four ways (the "Tokens from anything" page's text section): characters, UTF-8 bytes,
WordPiece (the bundled MiniLM's) and byte-level BPE learned here on a corpus.

- `characters`, `utf8_bytes`, `wordpiece`, `bpe`: one `lab.tokens.Cut` each;
- `word_table(texts)`: the corpus as pre-tokens and their counts, cut by the `tokenizers`
  library's ByteLevel pre-tokenizer (GPT-2's rule: a space goes with the word after it);
- `learn_merges(table, n)`: byte-level BPE training written out — start from the 256 bytes,
  count every adjacent pair in the table, merge the most frequent (ties: the pair of lower
  ids), repeat — returning each merge with the count it had when it was chosen. Its order
  and tie rule are those of the library's `BpeTrainer` (tests/unit/test_tokens_text.py
  checks the list equals the library's on the shipped corpus);
- `bpe_tokenizer(merges, n)`: a `tokenizers` BPE tokenizer that knows the first n merges;
- `utf8_layout(ch)`: how UTF-8 spells one character (its bits in 1, 2, 3 or 4 bytes).
"""
from __future__ import annotations

import heapq
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass

from lab.tokens import Cut

UNICODE_SIZE = sys.maxunicode + 1            # the character "vocabulary": every code point


def characters(text: str) -> Cut:
    return Cut("chars", tuple(text), tuple((i, i + 1) for i in range(len(text))), UNICODE_SIZE)


def byte_spans(text: str) -> list[tuple[int, int]]:
    """For each UTF-8 byte of `text`, the character it belongs to (as a span)."""
    out = []
    for i, ch in enumerate(text):
        out += [(i, i + 1)] * len(ch.encode("utf-8", "surrogatepass"))
    return out


def utf8_bytes(text: str) -> Cut:
    data = text.encode("utf-8", "surrogatepass")
    return Cut("bytes", tuple(f"{b:02x}" for b in data), tuple(byte_spans(text)), 256)


def wordpiece(tok, text: str) -> Cut:
    """`tok`: models.tokenizer.HFTokenizer (MiniLM's WordPiece), no [CLS] / [SEP]."""
    enc = tok.tok.encode(text, add_special_tokens=False)
    unk = tok.tok.id_to_token(tok.unk_id) if tok.unk_id is not None else None
    spans = tuple((int(a), int(b)) for a, b in enc.offsets)
    return Cut("wordpiece", tuple(enc.tokens), spans, tok.vocab_size, sum(1 for t in enc.tokens if t == unk))


# ---- byte-level BPE -----------------------------------------------------------------------------
def byte_to_char() -> dict[int, str]:
    """GPT-2's printable stand-in for each byte (the ByteLevel alphabet): printable Latin-1
    bytes stand for themselves, the others are moved to code points 256 and up."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    out, extra = {}, 0
    for b in range(256):
        if b in keep:
            out[b] = chr(b)
        else:
            out[b] = chr(256 + extra)
            extra += 1
    return out


BYTE_CHAR = byte_to_char()
CHAR_BYTE = {c: b for b, c in BYTE_CHAR.items()}
ALPHABET = tuple(sorted(BYTE_CHAR.values()))     # id order of the library's trainer: by code point


def token_bytes(token: str) -> bytes:
    """The bytes a byte-level token stands for."""
    return bytes(CHAR_BYTE[c] for c in token)


def piece_label(data: bytes) -> str:
    """A byte-level piece as text: its characters when the bytes are whole UTF-8
    characters, otherwise its bytes in hex between ⟨ ⟩ (a part of a character), thin spaces between."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "⟨" + "\u2009".join(f"{b:02x}" for b in data) + "⟩"     # thin spaces: not a space of the text


def word_table(texts) -> Counter:
    """The pre-tokens of `texts` (ByteLevel alphabet strings) and how often each occurs."""
    from tokenizers import pre_tokenizers

    pre = pre_tokenizers.ByteLevel(add_prefix_space=False)
    counts: Counter = Counter()
    for text in texts:
        counts.update(w for w, _ in pre.pre_tokenize_str(text))
    return counts


@dataclass(frozen=True)
class Merge:
    left: str            # ByteLevel alphabet strings
    right: str
    count: int           # how often the pair stood side by side in the corpus when it was merged

    @property
    def token(self) -> str:
        return self.left + self.right


def learn_merges(table: Counter, n: int) -> list[Merge]:
    """The first `n` byte-level BPE merges of a word table (fewer when no pair is left)."""
    vocab = list(ALPHABET)
    ids = {c: i for i, c in enumerate(vocab)}
    words = [[ids[c] for c in w] for w in table]
    freqs = list(table.values())
    pair_count: dict[tuple[int, int], int] = defaultdict(int)
    where: dict[tuple[int, int], set[int]] = defaultdict(set)
    for wi, w in enumerate(words):
        for pair in zip(w, w[1:]):
            pair_count[pair] += freqs[wi]
            where[pair].add(wi)
    heap = [(-c, pair) for pair, c in pair_count.items()]
    heapq.heapify(heap)
    merges: list[Merge] = []
    while len(merges) < n and heap:
        neg, pair = heapq.heappop(heap)
        now = pair_count[pair]
        if -neg != now:                       # stale: counts only fall until a pair is merged
            heapq.heappush(heap, (-now, pair))
            continue
        if now < 1:
            break
        a, b = pair
        token = vocab[a] + vocab[b]
        if token not in ids:
            ids[token] = len(vocab)
            vocab.append(token)
        new = ids[token]
        merges.append(Merge(vocab[a], vocab[b], now))
        grown: dict[tuple[int, int], set[int]] = defaultdict(set)
        for wi in where[pair]:
            w, f = words[wi], freqs[wi]
            i = 0
            while i < len(w) - 1:
                if w[i] == a and w[i + 1] == b:
                    if i > 0:
                        pair_count[(w[i - 1], a)] -= f
                        pair_count[(w[i - 1], new)] += f
                        grown[(w[i - 1], new)].add(wi)
                    w[i:i + 2] = [new]
                    if i < len(w) - 1:
                        pair_count[(b, w[i + 1])] -= f
                        pair_count[(new, w[i + 1])] += f
                        grown[(new, w[i + 1])].add(wi)
                i += 1
        for p, ws in grown.items():
            where[p] |= ws
            if pair_count[p] > 0:
                heapq.heappush(heap, (-pair_count[p], p))
    return merges


def bpe_tokenizer(merges: list[Merge], n: int):
    """A `tokenizers.Tokenizer`: byte-level BPE knowing the 256 bytes and the first n merges."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    vocab = {c: i for i, c in enumerate(ALPHABET)}
    for m in merges[:n]:
        vocab.setdefault(m.token, len(vocab))
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[(m.left, m.right) for m in merges[:n]]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    return tok


def bpe(tok, text: str) -> Cut:
    """`text` cut by a byte-level BPE tokenizer (`bpe_tokenizer`); each piece labelled by the
    bytes it stands for, its span the characters those bytes belong to."""
    tokens = tok.encode(text, add_special_tokens=False).tokens
    spans_of_bytes = byte_spans(text)
    pieces, spans, at = [], [], 0
    for token in tokens:
        data = token_bytes(token)
        pieces.append(piece_label(data))
        covered = spans_of_bytes[at:at + len(data)]
        spans.append((covered[0][0], covered[-1][1]) if covered else (0, 0))
        at += len(data)
    if at != len(spans_of_bytes):
        raise ValueError("The byte-level pieces do not add up to the text's bytes.")
    return Cut("bpe", tuple(pieces), tuple(spans), tok.get_vocab_size())


def unseen(table: Counter, word: str) -> int:
    """How often `word` occurs in the corpus as a pre-token, alone or after a space."""
    spelled = "".join(BYTE_CHAR[b] for b in word.encode("utf-8", "surrogatepass"))
    return table.get(spelled, 0) + table.get(BYTE_CHAR[ord(" ")] + spelled, 0)


@dataclass(frozen=True)
class Layout:
    char: str
    code_point: int
    bits: str              # the code point's bits as UTF-8 places them (its "payload")
    data: bytes
    patterns: tuple[str, ...]   # each byte in binary, the marker bits then payload bits, "1110|0100"


def utf8_layout(ch: str) -> Layout:
    """How UTF-8 writes one character: up to U+007F one byte (0xxxxxxx), up to U+07FF two
    (110xxxxx 10xxxxxx), up to U+FFFF three (1110xxxx 10xxxxxx 10xxxxxx), above four."""
    cp = ord(ch)
    data = ch.encode("utf-8", "surrogatepass")
    n = len(data)
    marker = 1 if n == 1 else n + 1                   # 0 / 110 / 1110 / 11110 in the first byte
    patterns = []
    for i, byte in enumerate(data):
        head = marker if i == 0 else 2
        s = f"{byte:08b}"
        patterns.append(f"{s[:head]}|{s[head:]}")
    payload = "".join(p.split("|")[1] for p in patterns)
    return Layout(ch, cp, payload, data, tuple(patterns))

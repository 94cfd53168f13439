"""Toy tasks with a known ideal attention pattern, for the training lab.

Each task makes seeded examples as plain text over a tiny character vocabulary, so the
same strings can be typed into the app's sidebar ("cdba=abdc" for reverse). Decoder
tasks are laid out as one causal sequence

    <bos> x1 … xn = y1 … ym        (the answer y follows "=")

and the model is trained to predict every answer token from what precedes it; the
encoder-decoder task ("spell") reads the digits with the encoder and writes the words
with the decoder. Exact-sequence accuracy under teacher forcing equals greedy decoding's
(if every answer position's argmax is right, greedy decoding writes exactly that answer).

- copy:       y = x                    (attend to the token n places back)
- reverse:    y = x reversed           (anti-diagonal: y_j looks at x_{n+1-j})
- sort:       y = sorted(x)            (y_j looks at where its value sits in x)
- induction:  r1…rm r1…rm (distinct)   (previous-token + induction heads, Olsson et al. 2022)
- brackets:   a prefix of brackets = the closers that balance it (a stack: each closer
              looks at the opener it matches)
- spell:      digits -> English number words, encoder-decoder (cross-attention alignment)
- char_lm_task(text): a character-level language model on the user's text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from .. import limits
from ..config import TransformerConfig
from ..errors import Refused
from ..tokenizer import SPECIALS, CharTokenizer

SEP = "="
IGNORE = -100              # target id that the loss and the accuracy skip
MAX_LM_CHARS = int(limits.LIMITS["text_kb"].default * 1000)   # a char-LM text longer than this is refused
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass
class Example:
    """One sequence of a task (what the app probes and shows)."""

    text: str                              # the decoder text (source text for encoder-decoder)
    ids: list[int]
    tokens: list[str]
    answer: slice                          # query positions whose next-token prediction is the answer
    tgt_text: str | None = None            # encoder-decoder: the decoder input text
    tgt_ids: list[int] | None = None
    tgt_tokens: list[str] | None = None


@dataclass
class Batch:
    ids: torch.Tensor                      # [b, n] decoder input (source for encoder-decoder)
    targets: torch.Tensor                  # [b, n or m] next-token targets, IGNORE elsewhere
    tgt_ids: torch.Tensor | None = None    # [b, m] encoder-decoder decoder input


class Task:
    """A seeded toy task. Subclasses define `sample_pair` (one input/answer pair)."""

    name = ""
    title = ""
    description = ""
    arch = "decoder"
    symbols = "abcdefghij"
    default_positional = "sinusoidal"
    default_layers = 2

    def __init__(self, train_len: int = 8, min_len: int = 2, sample_from: int | None = None) -> None:
        if train_len < min_len:
            raise ValueError(f"train_len ({train_len}) must be at least {min_len}.")
        self.train_len, self.min_len = train_len, min_len
        # training inputs have sample_from..train_len symbols; by default exactly train_len
        # ("train short, test long", as in the ALiBi paper)
        self.sample_from = train_len if sample_from is None else max(min_len, min(sample_from, train_len))
        self.tokenizer = CharTokenizer(list(SPECIALS) + list(self.alphabet()), add_bos=True)

    # ---- what subclasses define ------------------------------------------------------
    def alphabet(self) -> str:
        return self.symbols + SEP

    def sample_pair(self, rng: np.random.Generator, length: int) -> tuple[str, str]:
        """(x, y) for an input of `length` symbols."""
        raise NotImplementedError

    def ideal_attention(self, length: int) -> np.ndarray:
        """[q, k] where the answer queries of a `length` example should look (rows sum
        to 1 on answer queries, 0 elsewhere). Default: the probe's own ideal pattern."""
        return self.ideal_for(self.probe(length))

    def ideal_for(self, ex: Example) -> np.ndarray:
        raise NotImplementedError

    # ---- shared machinery ----------------------------------------------------------------
    def default_config(self, **overrides: Any) -> TransformerConfig:
        """The toy model the lab trains by default (small: trains in seconds on a CPU)."""
        base = dict(arch=self.arch, vocab_size=self.tokenizer.vocab_size, d_model=64, n_layers=self.default_layers,
                    n_heads=4, d_ff=256, max_len=128, positional=self.default_positional, norm_position="pre",
                    activation="gelu", tie_embeddings=False, pad_id=self.tokenizer.pad_id)
        base.update(overrides)
        return TransformerConfig(**base)

    def check_length(self, length: int) -> int:
        length = int(length)
        if length < self.min_len:
            raise ValueError(f"The {self.name} task needs inputs of at least {self.min_len} symbols (got {length}).")
        return length

    def seq_len(self, length: int) -> int:
        """Tokens in a decoder sequence for an input of `length` symbols."""
        x, y = self.sample_pair(np.random.default_rng(0), length)
        return len(self.tokenizer.encode(x + SEP + y))

    def encode_pair(self, x: str, y: str) -> Example:
        text = x + SEP + y
        enc = self.tokenizer.encode(text)
        start = 1 + len(x)                                     # position of "=" (after <bos> and x)
        return Example(text, enc.ids, enc.tokens, slice(start, start + len(y)))

    def example(self, rng: np.random.Generator, length: int) -> Example:
        return self.encode_pair(*self.sample_pair(rng, self.check_length(length)))

    def probe(self, length: int | None = None, seed: int = 7) -> Example:
        """The fixed example the lab watches while training (same seed, same example)."""
        return self.example(np.random.default_rng(seed), length or self.train_len)

    def batch(self, n: int, rng: np.random.Generator, length: int | None = None) -> Batch:
        """n examples of one input length (random in [sample_from, train_len] unless
        given); every batch is a pure function of the generator state."""
        if length is None:
            length = int(rng.integers(self.sample_from, self.train_len + 1))
        exs = [self.example(rng, length) for _ in range(n)]
        width = max(len(e.ids) for e in exs)                    # answers may differ in length (brackets)
        ids = torch.full((n, width), self.tokenizer.pad_id, dtype=torch.long)
        targets = torch.full_like(ids, IGNORE)
        for row, e in enumerate(exs):
            ids[row, :len(e.ids)] = torch.tensor(e.ids)
            a = e.answer
            targets[row, a] = ids[row, a.start + 1:a.stop + 1]
        # right padding in a causal decoder: real positions never see it, and its
        # predictions are ignored
        return Batch(ids, targets)

    def forward(self, model: torch.nn.Module, batch: Batch) -> torch.Tensor:
        """Logits of the model on a batch."""
        return model(batch.ids) if batch.tgt_ids is None else model(batch.ids, batch.tgt_ids)

    @torch.no_grad()
    def accuracy(self, model: torch.nn.Module, batch: Batch, exact: bool = True) -> float:
        """Fraction of examples whose every answer token is the argmax (exact=True), or
        the fraction of answer tokens right (exact=False)."""
        was_training = model.training
        model.eval()
        try:
            dev = model.device if hasattr(model, "device") else torch.device("cpu")
            b = Batch(batch.ids.to(dev), batch.targets.to(dev), None if batch.tgt_ids is None else batch.tgt_ids.to(dev))
            pred = self.forward(model, b).argmax(-1)
        finally:
            model.train(was_training)
        scored = b.targets != IGNORE
        right = (pred == b.targets) | ~scored
        if exact:
            return float(right.all(-1).float().mean())
        return float(right[scored].float().mean()) if bool(scored.any()) else 0.0

    def evaluate(self, model: torch.nn.Module, length: int | None = None, n: int = 256, seed: int = 1234) -> float:
        """Exact-sequence accuracy on n fresh examples of an input length (default the
        training length). Raises ValueError if the sequence does not fit the model."""
        length = self.check_length(length or self.train_len)
        cfg: TransformerConfig = model.cfg
        need = self.seq_len(length)
        if cfg.positional == "learned" and need > cfg.max_len:
            raise Refused("table_too_short", f"Inputs of {length} symbols need {need} positions; this model's "
                          f"learned position table ends at {cfg.max_len}.", length=length, need=need, rows=cfg.max_len)
        rng = np.random.default_rng(seed)
        right, done = 0.0, 0
        while done < n:
            k = min(128, n - done)
            right += self.accuracy(model, self.batch(k, rng, length)) * k
            done += k
        return right / n

    def attention_score(self, pattern: np.ndarray | torch.Tensor, length: int | None = None,
                        example: Example | None = None) -> float:
        """Mean attention mass that the answer queries put on their ideal keys, for a
        pattern [..., q, k] of the probe (or `example`); leading axes are averaged."""
        ex = example or self.probe(length)
        ideal = self.ideal_for(ex)
        p = np.asarray(pattern, dtype=np.float64)
        rows = ideal.sum(-1) > 0
        if p.shape[-2:] != ideal.shape:
            raise ValueError(f"The pattern is {p.shape[-2:]}, the example needs {ideal.shape}.")
        mass = (p * ideal).sum(-1)[..., rows]                   # [..., answer queries]
        return float(mass.mean())

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "description": self.description, "arch": self.arch,
                "train_len": self.train_len, "vocab": self.tokenizer.vocab_size}


def _rows(n_q: int, n_k: int) -> np.ndarray:
    return np.zeros((n_q, n_k), dtype=np.float64)


class CopyTask(Task):
    name, title = "copy", "Copy"
    description = "Write the input again after '='. A head learns to look n places back."

    def sample_pair(self, rng, length):
        x = "".join(rng.choice(list(self.symbols), length))
        return x, x

    def ideal_for(self, ex):
        out = _rows(len(ex.ids), len(ex.ids))
        for j, q in enumerate(range(ex.answer.start, ex.answer.stop)):
            out[q, 1 + j] = 1.0                                 # predicting y_{j+1} = x_{j+1} at position 1+j
        return out


class ReverseTask(Task):
    name, title = "reverse", "Reverse"
    description = "Write the input backwards after '='. The answer's attention is the anti-diagonal."
    default_layers = 1          # with absolute positions one layer suffices: its attention IS the anti-diagonal

    def sample_pair(self, rng, length):
        x = "".join(rng.choice(list(self.symbols), length))
        return x, x[::-1]

    def ideal_for(self, ex):
        out = _rows(len(ex.ids), len(ex.ids))
        n = ex.answer.start - 1
        for j, q in enumerate(range(ex.answer.start, ex.answer.stop)):
            out[q, n - j] = 1.0                                 # y_{j+1} = x_{n-j}, at position n-j
        return out


class SortTask(Task):
    name, title = "sort", "Sort"
    description = "Write the input's symbols in ascending order after '='."

    def sample_pair(self, rng, length):
        x = "".join(rng.choice(list(self.symbols), length))
        return x, "".join(sorted(x))

    def ideal_for(self, ex):
        out = _rows(len(ex.ids), len(ex.ids))
        n = ex.answer.start - 1
        x = ex.tokens[1:1 + n]
        y = ex.tokens[ex.answer.start + 1:ex.answer.stop + 1]
        for q, want in zip(range(ex.answer.start, ex.answer.stop), y):
            where = [1 + i for i, s in enumerate(x) if s == want]
            out[q, where] = 1.0 / len(where)
        return out


class InductionTask(Task):
    name, title = "induction", "Induction (repeated sequence)"
    description = ("A random sequence of distinct letters, then the same again. In the second copy the next "
                   "letter is predictable: find this letter earlier and read the one after it.")
    symbols = "abcdefghijklmnopqrstuvwxyz"

    def alphabet(self):
        return self.symbols

    def sample_pair(self, rng, length):
        x = "".join(rng.choice(list(self.symbols), length, replace=False))
        return x, x

    def check_length(self, length):
        length = super().check_length(length)
        if length > len(self.symbols):
            raise ValueError(f"The induction task repeats distinct letters: at most {len(self.symbols)} (got {length}).")
        return length

    def encode_pair(self, x, y):
        text = x + y
        enc = self.tokenizer.encode(text)
        n = len(x)
        # the second copy's first letter is not predictable; its others are
        return Example(text, enc.ids, enc.tokens, slice(n + 1, 2 * n))

    def seq_len(self, length):
        return 2 * length + 1

    def ideal_for(self, ex):
        out = _rows(len(ex.ids), len(ex.ids))
        n = (len(ex.ids) - 1) // 2
        for q in range(ex.answer.start, ex.answer.stop):
            out[q, q - n + 1] = 1.0                             # the token after this one's first occurrence
        return out


class BracketsTask(Task):
    name, title = "brackets", "Close the brackets"
    description = ("A sequence of brackets that leaves some open; after '=' write the closers that balance it, "
                   "innermost first. Each closer should look at the opener it matches (a stack).")
    symbols = "()[]{}"
    default_layers = 3
    PAIRS = {"(": ")", "[": "]", "{": "}"}

    def sample_pair(self, rng, length):
        x, stack = [], []
        for i in range(length):
            left = length - i
            # close when allowed with prob 0.4, but keep at least one bracket open at the end
            if stack and len(stack) < left and rng.random() < 0.4:
                x.append(self.PAIRS[stack.pop()])
            else:
                o = "([{"[int(rng.integers(3))]
                stack.append(o)
                x.append(o)
        if not stack:                                          # length 1 corner: nothing was opened
            stack.append(x[-1])
        return "".join(x), "".join(self.PAIRS[o] for o in reversed(stack))

    def seq_len(self, length):
        return 2 + length + length                             # at most every bracket stays open

    def ideal_for(self, ex):
        out = _rows(len(ex.ids), len(ex.ids))
        n = ex.answer.start - 1
        stack = []
        for pos in range(1, 1 + n):
            s = ex.tokens[pos]
            if s in self.PAIRS:
                stack.append(pos)
            elif stack:
                stack.pop()
        for q in range(ex.answer.start, ex.answer.stop):
            if stack:
                out[q, stack.pop()] = 1.0                      # the innermost still-open bracket
        return out


class SpellTask(Task):
    name, title = "spell", "Spell digits (encoder-decoder)"
    description = ("The encoder reads digits, the decoder writes them as English words: 307 -> three zero "
                   "seven. Cross-attention learns which digit each letter comes from.")
    arch = "encoder-decoder"
    symbols = "0123456789"
    default_positional = "sinusoidal"

    def __init__(self, train_len: int = 5, min_len: int = 1, sample_from: int | None = 1) -> None:
        super().__init__(train_len, min_len, sample_from)

    def alphabet(self):
        letters = sorted(set("".join(WORDS)))
        return self.symbols + "".join(letters) + " "

    def sample_pair(self, rng, length):
        x = "".join(rng.choice(list(self.symbols), length))
        return x, " ".join(WORDS[int(d)] for d in x)

    def seq_len(self, length):
        return 1 + 6 * length

    def encode_pair(self, x, y):
        src = self.tokenizer.encode(x)                          # <bos> digits
        tgt = self.tokenizer.encode(y)                          # <bos> words; query j predicts letter j+1
        return Example(x, src.ids, src.tokens, slice(0, len(tgt.ids) - 1), y, tgt.ids, tgt.tokens)

    def batch(self, n, rng, length=None):
        if length is None:
            length = int(rng.integers(self.sample_from, self.train_len + 1))
        exs = [self.example(rng, length) for _ in range(n)]
        pad = self.tokenizer.pad_id
        m = max(len(e.tgt_ids) for e in exs) + 1                # words differ in length: pad the decoder side
        tgt = torch.full((n, m), pad, dtype=torch.long)
        targets = torch.full((n, m), IGNORE, dtype=torch.long)
        for row, e in enumerate(exs):
            full = e.tgt_ids + [self.tokenizer.eos_id]          # <bos> words <eos>
            tgt[row, :len(full)] = torch.tensor(full)
            targets[row, :len(full) - 1] = torch.tensor(full[1:])
        return Batch(torch.tensor([e.ids for e in exs]), targets[:, :-1], tgt[:, :-1])

    def ideal_for(self, ex):
        """Cross-attention [target q, source k]: each query predicting a letter of digit
        i's word (or the space after it) looks at digit i."""
        words = ex.tgt_text.split(" ")
        out = _rows(len(ex.tgt_ids), len(ex.ids))
        q = 0
        for i, w in enumerate(words):
            for _ in range(len(w) + (1 if i < len(words) - 1 else 0)):
                out[q, 1 + i] = 1.0
                q += 1
        # the final query (predicting <eos>) has no single digit
        return out


class CharLMTask(Task):
    """A character-level language model on a user's text: predict the next character."""

    name, title = "char_lm", "Character language model"
    description = "Predict the next character of your own text (a tiny GPT)."
    default_positional = "rope"

    def __init__(self, text: str, train_len: int = 64) -> None:
        if not isinstance(text, str):
            raise ValueError("The training text must be a string.")
        text = text.replace("\r\n", "\n")
        if len(text) > MAX_LM_CHARS:
            raise ValueError(f"The text has {len(text):,} characters; the limit is {MAX_LM_CHARS:,}.")
        if len(text.strip()) == 0:
            raise ValueError("The training text is empty.")
        if len(text) < 2 * train_len + 2:
            raise ValueError(f"The text has {len(text)} characters; a context of {train_len} needs at least "
                             f"{2 * train_len + 2}. Paste more text or shorten the context.")
        self.text = text
        self.train_len = self.min_len = self.sample_from = int(train_len)
        self.tokenizer = CharTokenizer.from_corpus([text], add_bos=False)
        self.data = torch.tensor(self.tokenizer.encode(text).ids, dtype=torch.long)

    def alphabet(self):
        return "".join(self.tokenizer.vocab[len(SPECIALS):])

    def seq_len(self, length):
        return length

    def probe(self, length=None, seed=7):
        n = min(length or self.train_len, 48)
        chunk = self.text[:n]
        enc = self.tokenizer.encode(chunk)
        return Example(chunk, enc.ids, enc.tokens, slice(0, len(enc.ids) - 1))

    def batch(self, n, rng, length=None):
        length = length or self.train_len
        starts = rng.integers(0, len(self.data) - length - 1, n)
        ids = torch.stack([self.data[s:s + length] for s in starts])
        targets = torch.stack([self.data[s + 1:s + length + 1] for s in starts])
        return Batch(ids, targets)

    def evaluate(self, model, length=None, n=256, seed=1234):
        """Next-character accuracy (not exact sequences: text is not predictable exactly)."""
        rng = np.random.default_rng(seed)
        return self.accuracy(model, self.batch(n, rng, length or self.train_len), exact=False)

    def ideal_for(self, ex):
        raise ValueError("A language model has no single ideal attention pattern.")


TASKS: dict[str, type[Task]] = {c.name: c for c in (CopyTask, ReverseTask, SortTask, InductionTask, BracketsTask,
                                                     SpellTask)}


def text_from_upload(data: bytes, name: str = "the file") -> str:
    """The training text of an uploaded .txt file: UTF-8 (a leading byte-order mark is
    dropped), at most the text limit (models/limits.py, in KB of characters, and 4 bytes
    a character at most); Refused with a sentence otherwise (text_too_big, text_not_utf8)."""
    limit_kb = int(limits.value("text_kb"))
    if len(data) > limit_kb * 1000 * 4:
        raise Refused("text_too_big", f"That file is {len(data) // 1000} KB; the limit is {limit_kb} KB.",
                      kb=len(data) // 1000, limit=limit_kb)
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused("text_not_utf8", f"{name} is not UTF-8 text.", name=name[:80]) from None
    if len(text) > limit_kb * 1000:
        raise Refused("text_too_big", f"That file is {len(text) // 1000} KB of text; the limit is {limit_kb} KB.",
                      kb=len(text) // 1000, limit=limit_kb)
    return text


def get_task(name: str, **kw: Any) -> Task:
    """A task by name (train_len=... to change the training length)."""
    if name not in TASKS:
        raise ValueError(f"Unknown task {name!r}: choose one of {', '.join(TASKS)}.")
    return TASKS[name](**kw)


def char_lm_task(text: str, context: int = 64) -> CharLMTask:
    return CharLMTask(text, context)


def shipped(task: str | None = None) -> list[dict[str, Any]]:
    """The cards of the shipped toy checkpoints (optionally of one task), each with its
    zoo key ("toy:<stem>"): the catalogue's toy entries that know their task."""
    from ..weights import zoo

    return [{"key": e.key, **e.card} for e in zoo.toy_entries()
            if e.task is not None and (task is None or e.task == task)]


def checkpoint_stem(task: str, positional: str | None = None, norm_position: str = "pre") -> str:
    """The file stem of a shipped checkpoint: 'reverse-rope', 'reverse-sinusoidal-postln', 'sort'."""
    stem = task if positional is None else f"{task}-{positional}"
    return stem + ("-postln" if norm_position == "post" else "")



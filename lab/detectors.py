"""Head detectors: how much of each head's attention follows a known pattern.

A detector names, for some queries q, the keys a head of that kind attends to; its
score is the attention mass the head puts there, averaged over those queries:

    score = (1/|Q|) Σ_{q ∈ Q} Σ_{k ∈ T(q)} p_{qk}          (between 0 and 1)

- previous token:  T(q) = {q − 1}                         (q ≥ 1)
- duplicate token: T(q) = {k < q : t_k = t_q}             (queries whose token came before)
- induction:       T(q) = {k + 1 : k + 1 < q, t_k = t_q}  (the token after its earlier copy;
                   Olsson et al. 2022, "In-context Learning and Induction Heads")
- first token:     T(q) = {0}                             (q ≥ 1; the [CLS] / <bos> sink)
- diagonal:        T(q) = {q − d : d ∈ offsets}           (a pattern the user picks)

On a random sequence repeated twice (`repeated_sequence`) the second copy has every
token once before, so duplicate and induction have a clear answer: TransformerLens's
`detect_head` and Olsson et al. score heads the same way. `chance` is what a head that
spreads its attention evenly over the keys it may see would score: a random model
lands near it.

numpy in, numpy out; no Streamlit, no translated text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Sequence

import numpy as np

from models.tokenizer import Tokenizer
from models.training.tasks import Task

COMMON_WORDS = 2000          # the word tokens a detector sequence draws from (the most frequent)
DETECTORS = ("previous_token", "duplicate_token", "induction", "first_token", "diagonal")


def targets(detector: str, tokens: Sequence[Hashable], offsets: Sequence[int] = (1,)) -> np.ndarray:
    """[q, k] float: 1 where the detector expects a head to look; rows of queries it
    does not score are all 0."""
    n = len(tokens)
    t = np.zeros((n, n), np.float64)
    if detector == "previous_token":
        t[np.arange(1, n), np.arange(n - 1)] = 1
    elif detector == "first_token":
        t[1:, 0] = 1
    elif detector in ("duplicate_token", "induction"):
        for q in range(n):
            for k in range(q):
                if tokens[k] == tokens[q]:
                    if detector == "duplicate_token":
                        t[q, k] = 1
                    elif k + 1 < q:
                        t[q, k + 1] = 1
    elif detector == "diagonal":
        for d in offsets:
            q = np.arange(max(0, d), min(n, n + d))
            t[q, q - d] = 1
    else:
        raise ValueError(f"Unknown detector {detector!r}: use one of {', '.join(DETECTORS)}.")
    return t


def _score(patterns: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Mean over scored queries of the mass on their targets: patterns [..., q, k] -> [...]."""
    rows = target.sum(-1) > 0
    if not rows.any():
        return np.full(patterns.shape[:-2], np.nan)
    mass = (patterns[..., rows, :].astype(np.float64) * target[rows]).sum(-1)     # [..., |Q|]
    return mass.mean(-1)


def uniform(mask: np.ndarray) -> np.ndarray:
    """[q, k] the attention of a head that spreads evenly over the keys it may see."""
    m = np.asarray(mask, dtype=np.float64)
    return m / np.maximum(m.sum(-1, keepdims=True), 1)


@dataclass
class DetectorScores:
    """Every head's score for every detector on one sequence."""

    scores: dict[str, np.ndarray]    # detector -> [L, H]
    chance: dict[str, float]         # detector -> the score of even attention (NaN: no query scored)
    queries: dict[str, int]          # detector -> how many queries it scored (0: none on this sequence)
    offsets: tuple[int, ...]         # the diagonal detector's offsets

    def best(self, detector: str) -> tuple[int, int, float]:
        """(layer, head, score) of the head that scores highest."""
        s = np.nan_to_num(self.scores[detector], nan=-1.0)
        layer, head = np.unravel_index(int(np.argmax(s)), s.shape)
        return int(layer), int(head), float(self.scores[detector][layer, head])

    def table(self) -> list[dict[str, float | int]]:
        """One row per head: layer, head and every detector's score."""
        n_layers, n_heads = next(iter(self.scores.values())).shape
        return [{"layer": l, "head": h, **{d: float(s[l, h]) for d, s in self.scores.items()}}
                for l in range(n_layers) for h in range(n_heads)]


def detect(patterns: np.ndarray, tokens: Sequence[Hashable], mask: np.ndarray | None = None,
           offsets: Sequence[int] = (1,), detectors: Sequence[str] = DETECTORS) -> DetectorScores:
    """Scores [L, H] of every detector for patterns [L, H, q, k] of a pass over `tokens`
    (ids or token strings: equal tokens are what duplicate and induction look for).
    mask [q, k] (True = may attend) gives the chance level; None: all keys."""
    p = np.asarray(patterns)
    if p.ndim != 4 or p.shape[-1] != p.shape[-2] or p.shape[-1] != len(tokens):
        raise ValueError(f"detect expects self-attention patterns [layers, heads, q, k] over {len(tokens)} tokens; "
                         f"got shape {p.shape}.")
    even = uniform(np.ones(p.shape[-2:], bool) if mask is None else mask)
    scores, chance, queries = {}, {}, {}
    for d in detectors:
        t = targets(d, tokens, offsets)
        scores[d] = _score(p, t)
        chance[d] = float(_score(even, t))
        queries[d] = int((t.sum(-1) > 0).sum())
    return DetectorScores(scores, chance, queries, tuple(int(o) for o in offsets))


def parse_offsets(text: str, n: int) -> tuple[int, ...]:
    """Offsets typed as "1" or "1, 2" or "-1" (a key d places before the query; negative:
    after), each within ±(n − 1). Raises ValueError with a sentence."""
    parts = [p for p in text.replace("，", ",").replace(";", ",").split(",") if p.strip()]
    try:
        offsets = tuple(sorted({int(p) for p in parts}))
    except ValueError:
        raise ValueError(f"{text!r} is not a list of whole numbers (e.g. 1 or 1, 2).") from None
    if not offsets:
        raise ValueError("Give at least one offset (e.g. 1: the previous token).")
    bad = [o for o in offsets if abs(o) >= n]
    if bad:
        raise ValueError(f"Offset {bad[0]} does not fit a sequence of {n} tokens (at most ±{n - 1}).")
    return offsets


# ---- the sequence the detectors read ---------------------------------------------------------------
@dataclass
class DetectorInput:
    """A random sequence repeated twice, wrapped in the tokenizer's special tokens."""

    ids: list[int]
    tokens: list[str]
    half: int                    # tokens in each copy
    start: int                   # position of the first copy's first token


def _wrapping(tok: Tokenizer) -> tuple[list[int], list[int]]:
    """(ids before, ids after) the text that the tokenizer adds ([CLS] … [SEP], <bos> …)."""
    plain = tok.encode("a", add_special_tokens=False).ids
    full = tok.encode("a").ids
    for i in range(len(full) - len(plain) + 1):
        if full[i:i + len(plain)] == plain:
            return full[:i], full[i + len(plain):]
    return [], []


def ordinary_ids(tok: Tokenizer, symbols: str | None = None) -> list[int]:
    """Token ids a detector sequence is drawn from: the toy task's symbols when given,
    else every vocabulary entry that is a whole word of letters: "Ġword" in a byte-level
    BPE (GPT-2), "▁word" in a SentencePiece vocabulary (LLaMA), "word" but not "##ing" in
    WordPiece (BERT), so that the sequence, written out as text, tokenizes back into
    the same tokens. No special tokens. Only the first COMMON_WORDS of them: BPE and
    WordPiece vocabularies list frequent words first, so the sequence reads as common
    words (a classroom screen), not rare ones."""
    texts = [tok.id_to_token(i) or "" for i in range(tok.vocab_size)]
    if symbols:
        index = {text: i for i, text in enumerate(texts)}
        return [index[s] for s in dict.fromkeys(symbols) if s in index]
    before, after = _wrapping(tok)
    specials = set(before + after) | {getattr(tok, a, None) for a in ("pad_id", "unk_id", "bos_id", "eos_id")}
    marker = next((m for m in ("Ġ", "▁") if sum(t.startswith(m) for t in texts) > len(texts) // 4), "")
    latin = getattr(tok, "kind", "") == "hf"      # a subword vocabulary: English words (its frequent ones)
    words = [i for i, text in enumerate(texts) if i not in specials and text.startswith(marker)
             and text[len(marker):].isalpha() and (text.isascii() or not latin)]
    return words[:COMMON_WORDS]


def repeated_sequence(tok: Tokenizer, half: int, seed: int = 0, symbols: str | None = None,
                      max_len: int | None = None) -> DetectorInput:
    """`half` distinct random tokens (seeded), then the same again, in the tokenizer's
    special tokens. Fewer than `half` tokens to draw from, or more than `max_len` in
    all, raise ValueError with a sentence."""
    pool = ordinary_ids(tok, symbols)
    if half < 2:
        raise ValueError("A detector sequence needs at least 2 tokens in each copy.")
    if half > len(pool):
        raise ValueError(f"This vocabulary has only {len(pool)} ordinary tokens; use at most {len(pool)} per copy.")
    before, after = _wrapping(tok)
    n = len(before) + 2 * half + len(after)
    if max_len is not None and n > max_len:
        raise ValueError(f"{n} tokens do not fit this model's {max_len} positions; use at most "
                         f"{(max_len - len(before) - len(after)) // 2} per copy.")
    rng = np.random.default_rng(seed)
    body = [pool[int(i)] for i in rng.choice(len(pool), half, replace=False)]
    ids = before + body + body + after
    return DetectorInput(ids, [tok.id_to_token(i) for i in ids], half, len(before))


def for_task(task: Task, max_len: int, seed: int = 0) -> DetectorInput:
    """The detector sequence of a toy task's model: its own symbols, each copy as long as
    its training inputs (a model trained on 8 symbols may not generalise to more; the
    shipped induction model does not), so the scores read the behaviour it learned. A
    character language model: letters of its text, the two copies filling its context."""
    lm = task.name == "char_lm"
    symbols = None if lm else task.symbols
    pool = ordinary_ids(task.tokenizer, symbols)
    before, after = _wrapping(task.tokenizer)
    half = min(task.train_len // 2 if lm else task.train_len, len(pool),
               (max_len - len(before) - len(after)) // 2)
    return repeated_sequence(task.tokenizer, half, seed, symbols, max_len)


# ---- over the snapshots of a training run -----------------------------------------------------------
@dataclass
class DetectorHistory:
    """Detector scores at every snapshot of a training run."""

    steps: list[int]
    scores: dict[str, np.ndarray]    # detector -> [snapshots, L, H]
    chance: dict[str, float]

    def best(self, detector: str) -> np.ndarray:
        """[snapshots] the best head's score at each snapshot."""
        return np.nanmax(self.scores[detector].reshape(len(self.steps), -1), axis=1)

    def head_at_end(self, detector: str) -> tuple[int, int]:
        """(layer, head) that scores highest at the last snapshot."""
        last = np.nan_to_num(self.scores[detector][-1], nan=-1.0)
        layer, head = np.unravel_index(int(np.argmax(last)), last.shape)
        return int(layer), int(head)


def history(steps: Sequence[int], patterns: Sequence[np.ndarray], tokens: Sequence[Hashable],
            offsets: Sequence[int] = (1,)) -> DetectorHistory:
    """`detect` on each snapshot's patterns [L, H, q, k] (causal chance level)."""
    if len(steps) != len(patterns) or not len(steps):
        raise ValueError("history needs one pattern array per step, and at least one step.")
    runs = [detect(np.asarray(p, np.float32), tokens, np.tril(np.ones((len(tokens),) * 2, bool)), offsets)
            for p in patterns]
    return DetectorHistory(list(steps), {d: np.stack([r.scores[d] for r in runs]) for d in DETECTORS},
                           runs[0].chance)

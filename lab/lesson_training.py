"""What the "watch a model learn" lesson reads from a training run: the short recipes it
trains, where the loss falls fastest, which attention pattern each head shows on the
task's answer positions, and when that pattern forms.

A pattern is a set of keys per query (as in `lab.detectors`); a head's score for it is
the attention mass the head puts there, averaged over the probe's answer queries (the
positions whose next token is part of the answer), so a random model scores near the
chance level of even attention:

- diagonal:       T(q) = {q}                       (the query's own position)
- anti_diagonal:  T(q) = {2·s − 1 − q}             (s = the first answer query: the last
                  input for the first answer, the first input for the last: reversing)
- previous:       T(q) = {q − 1}
- induction:      T(q) = {k + 1 : t_k = t_q, k + 1 < q}   (the token after an earlier copy)

numpy in, numbers and dataclasses out; no Streamlit, no translated text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

import numpy as np

from models.training.tasks import Task, get_task
from models.training.trainer import TrainSettings

from . import detectors

PATTERNS = ("diagonal", "anti_diagonal", "previous", "induction")
PHASES = ("early", "middle", "late")
TIMING = ("before", "together", "after")
AT = ("start", "middle", "end")


@dataclass(frozen=True)
class Recipe:
    """A run that trains in a few seconds on one CPU thread and still learns its task."""

    task: str
    train_len: int
    steps: int
    model: dict[str, Any] = field(default_factory=dict)
    lr: float = 5e-3
    batch_size: int = 32
    warmup: int = 20
    snapshots: int = 20            # attention snapshots (and evaluations) over the run

    def build(self, seed: int = 0, steps: int | None = None):
        """(task, model config, settings) of this recipe with a seed and a number of steps."""
        task = get_task(self.task, train_len=self.train_len)
        cfg = task.default_config(**self.model)
        n = int(steps or self.steps)
        every = max(1, n // self.snapshots)
        return task, cfg, TrainSettings(steps=n, lr=self.lr, batch_size=self.batch_size, seed=seed,
                                        warmup=min(self.warmup, n // 4), eval_every=every, snapshot_every=every,
                                        eval_size=128)


# reverse: one layer is enough (its attention IS the anti-diagonal); induction needs two
RECIPES = {
    "reverse": Recipe("reverse", 5, 200, dict(n_layers=1, d_model=64, d_ff=256, n_heads=4)),
    "induction": Recipe("induction", 6, 300, dict(n_layers=2, d_model=64, d_ff=256, n_heads=4)),
}


# ---- the loss -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LossDrop:
    step: int                      # the step at the middle of the fastest fall
    phase: str                     # early | middle | late: which third of the run
    rate: float                    # fall of ln(loss) per 100 steps there
    loss_before: float             # smoothed loss half a window before and after
    loss_after: float


def smooth(y: np.ndarray, window: int) -> np.ndarray:
    """Centred moving mean (shorter at the ends)."""
    y = np.asarray(y, np.float64)
    h = window // 2
    c = np.concatenate([[0.0], np.cumsum(y)])
    lo = np.clip(np.arange(len(y)) - h, 0, len(y))
    hi = np.clip(np.arange(len(y)) + h + 1, 0, len(y))
    return (c[hi] - c[lo]) / (hi - lo)


def phase(step: float, total: int) -> str:
    """Which third of a run of `total` steps `step` falls in."""
    return PHASES[min(2, int(3 * step / max(total, 1)))]


def fastest_drop(steps: Sequence[int], loss: Sequence[float], total: int | None = None,
                 window: int | None = None) -> LossDrop:
    """Where ln(loss), smoothed, falls fastest: the largest fall over `window` steps
    (default a tenth of the run)."""
    s = np.asarray(steps, np.float64)
    y = np.log(np.maximum(np.asarray(loss, np.float64), 1e-12))
    if len(s) != len(y) or len(s) < 3:
        raise ValueError("fastest_drop needs the loss of at least 3 steps.")
    w = max(2, window or len(s) // 10)
    z = smooth(y, w)
    fall = z[:-w] - z[w:]                           # fall from i to i + w
    i = int(np.argmax(fall))
    mid = i + w // 2
    rate = float(fall[i] / max(s[i + w] - s[i], 1) * 100)
    return LossDrop(int(s[mid]), phase(s[mid], total or int(s[-1])), rate, float(np.exp(z[i])),
                    float(np.exp(z[i + w])))


# ---- the patterns -------------------------------------------------------------------------------
def targets(pattern: str, tokens: Sequence[Hashable], answer: slice) -> np.ndarray:
    """[q, k] 1 where `pattern` expects an answer query to look (other rows are 0; keys
    after the query, which a decoder cannot see, are dropped)."""
    n = len(tokens)
    t = np.zeros((n, n))
    rows = range(answer.start, min(answer.stop, n))
    if pattern == "induction":
        t[list(rows)] = detectors.targets("induction", tokens)[list(rows)]
        return t
    for q in rows:
        k = {"diagonal": q, "anti_diagonal": 2 * answer.start - 1 - q, "previous": q - 1}.get(pattern)
        if k is None:
            raise ValueError(f"Unknown pattern {pattern!r}: use one of {', '.join(PATTERNS)}.")
        if 0 <= k <= q:
            t[q, k] = 1
    return t


def pattern_scores(patterns: np.ndarray, tokens: Sequence[Hashable], answer: slice) -> dict[str, np.ndarray]:
    """Every pattern's score for every head: patterns [L, H, q, k] -> {pattern: [L, H]}
    (NaN where the pattern has no answer query on this probe)."""
    p = np.asarray(patterns, np.float64)
    out = {}
    for name in PATTERNS:
        t = targets(name, tokens, answer)
        rows = t.sum(-1) > 0
        out[name] = (p[..., rows, :] * t[rows]).sum(-1).mean(-1) if rows.any() else np.full(p.shape[:2], np.nan)
    return out


def chance(tokens: Sequence[Hashable], answer: slice) -> dict[str, float]:
    """The score of a head that spreads its attention evenly over the keys it may see."""
    n = len(tokens)
    even = detectors.uniform(np.tril(np.ones((n, n), bool)))[None, None]
    return {k: float(v[0, 0]) for k, v in pattern_scores(even, tokens, answer).items()}


@dataclass(frozen=True)
class Strongest:
    pattern: str                   # the pattern that some head follows most
    layer: int
    head: int
    score: float
    scores: dict[str, float]       # each pattern's best head score


def strongest(patterns: np.ndarray, tokens: Sequence[Hashable], answer: slice) -> Strongest:
    """The (head, pattern) pair with the highest score."""
    scores = pattern_scores(patterns, tokens, answer)
    best = {k: float(np.nanmax(v)) if np.isfinite(v).any() else -1.0 for k, v in scores.items()}
    name = max(best, key=best.get)
    s = np.nan_to_num(scores[name], nan=-1.0)
    layer, head = np.unravel_index(int(np.argmax(s)), s.shape)
    return Strongest(name, int(layer), int(head), best[name], best)


def history(snapshots: Sequence[np.ndarray], tokens: Sequence[Hashable], answer: slice) -> dict[str, np.ndarray]:
    """{pattern: [snapshots]} the best head's score at each snapshot."""
    runs = [pattern_scores(p, tokens, answer) for p in snapshots]
    return {k: np.array([np.nanmax(r[k]) if np.isfinite(r[k]).any() else np.nan for r in runs]) for k in PATTERNS}


def at_index(n: int, at: str) -> int:
    """The snapshot a lesson names: the first, the one half-way, the last."""
    if at not in AT:
        raise ValueError(f"Unknown point {at!r}: use one of {', '.join(AT)}.")
    return {"start": 0, "middle": (n - 1) // 2, "end": n - 1}[at]


@dataclass(frozen=True)
class Forming:
    step: int                      # first snapshot past half-way from its start to its end score
    start: float
    end: float


def forms_at(steps: Sequence[int], scores: Sequence[float]) -> Forming:
    """When a score that rises over training gets half-way (its first snapshot there)."""
    s = np.asarray(scores, np.float64)
    if len(s) != len(steps) or not len(s):
        raise ValueError("forms_at needs one score per step.")
    half = s[0] + (s[-1] - s[0]) / 2
    i = int(np.argmax(s >= half)) if s[-1] >= s[0] else len(s) - 1
    return Forming(int(steps[i]), float(s[0]), float(s[-1]))


def timing(form_step: int, drop_step: int, tolerance: int) -> str:
    """Whether a pattern forms before, together with, or after the loss falls fastest."""
    if abs(form_step - drop_step) <= tolerance:
        return "together"
    return "before" if form_step < drop_step else "after"


def ln_vocab(n: int) -> float:
    """The loss of a uniform guess over n tokens."""
    return math.log(n)

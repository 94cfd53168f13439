"""Experiments on the toy checkpoints trained once per scheme (`<task>-<scheme>` in
models/weights/checkpoints/), the positional page's checkpoints section:
- `attention_maps`: every layer's attention on one input; `probe_scores`: how much of it
  lands where the task needs it.
- `permutation_test`: shuffle the tokens of a model without positions and watch the
  attention permute with them (exactly for the layer-0 scores; what survives a causal
  mask is stated and measured).
- `shift_test`: the same tokens preceded by k filler tokens; how much the attention
  among the original tokens changes (absolute schemes change, relative ones do not).
- `extrapolation`: a task's exact-match accuracy at multiples of its training length,
  with "beyond the learned table" reported instead of an error; `fits`: whether a model
  can read that many positions at all; `positions_used`: the positions one example takes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from models.config import TransformerConfig
from models.errors import Refused
from models.trace import act_name, as_numpy
from models.transformer import Transformer


def fits(cfg: TransformerConfig, n_tokens: int) -> bool:
    """Whether a model can read n_tokens positions (a learned table has max_len rows)."""
    return cfg.positional != "learned" or n_tokens <= cfg.max_len


def _record(model: Transformer, ids: Sequence[int]) -> dict[str, np.ndarray]:
    """Scores [L, H, q, k], patterns [L, H, q, k] and the mask [q, k] of one pass."""
    if model.cfg.arch == "encoder-decoder":
        raise ValueError("These experiments take a single-stack model (decoder or encoder).")
    _, trace = model.run_with_cache(list(ids), names=[act_name("scores"), act_name("pattern"), act_name("mask", 0)])
    scores, pattern = as_numpy(trace.stacked("scores")), as_numpy(trace.stacked("pattern"))
    mask = np.broadcast_to(as_numpy(trace.mask()), pattern.shape[-2:]).copy()
    return {"scores": scores.astype(np.float64), "pattern": pattern.astype(np.float64), "mask": mask}


def attention_maps(model: Transformer, ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(patterns [L, H, q, k] float32, mask [q, k] bool) of one input."""
    rec = _record(model, ids)
    return rec["pattern"].astype(np.float32), rec["mask"]


@dataclass
class ProbeScores:
    """One layer's attention on a task's probe, scored against the keys the task needs."""

    shown: np.ndarray                 # [q, k] float32 one head or the mean of heads, NaN where masked
    ideal: float                      # its attention mass on the ideal keys (task.attention_score)
    best_head: int                    # the head with the most mass there
    best: float                       # that head's mass


def probe_scores(task, example, pattern: np.ndarray, mask: np.ndarray, layer: int, head: int | None) -> ProbeScores:
    """Score `pattern` [L, H, q, k] of the probe `example` in `layer`: one `head`, or
    the mean of heads (head=None), and every head on its own."""
    shown = pattern[layer].mean(0) if head is None else pattern[layer, head]
    per_head = [task.attention_score(pattern[layer, h], example=example) for h in range(pattern.shape[1])]
    best = int(np.argmax(per_head))
    return ProbeScores(np.where(mask, shown, np.nan).astype(np.float32),
                       float(task.attention_score(shown, example=example)), best, float(per_head[best]))


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(-1, keepdims=True)


@dataclass
class PermutationResult:
    perm: list[int]                 # position i of the shuffled input holds token perm[i]
    scores: np.ndarray              # layer-0 scores of the original [H, n, n]
    scores_shuffled: np.ndarray     # layer-0 scores of the shuffled input [H, n, n]
    pattern: np.ndarray             # layer-0 pattern (with the model's mask) [H, n, n]
    pattern_shuffled: np.ndarray
    full: np.ndarray                # softmax of the scores without any mask [H, n, n]
    full_shuffled: np.ndarray
    score_error: float              # max |S'[i, j] - S[perm i, perm j]|
    full_error: float               # the same for the unmasked softmax
    pattern_error: float            # the same for the model's (masked) pattern
    fixed_rows: list[int]           # queries whose visible keys are the same set after shuffling
    fixed_rows_error: float         # max error of the masked pattern on those rows

    def undone(self, head: int) -> np.ndarray:
        """The shuffled input's unmasked softmax of one head [n, n], the permutation undone
        (equal to `full[head]` without positions)."""
        inv = np.argsort(self.perm)
        return self.full_shuffled[head][np.ix_(inv, inv)]


def permutation_test(model: Transformer, ids: Sequence[int], perm: Sequence[int]) -> PermutationResult:
    """Run `ids` and `ids[perm]`; compare layer 0 with the permutation undone.

    Without positions, the layer-0 scores q_i·k_j/√d depend only on the two tokens, so
    S'[i, j] = S[perm[i], perm[j]] exactly, and so does the softmax without a mask
    (self-attention is permutation-equivariant). A causal mask is positional: query i
    sees keys 0..i, so a row permutes exactly only when its visible set of tokens is the
    same before and after (e.g. the last query when the shuffle keeps it in place)."""
    ids = list(ids)
    perm = [int(p) for p in perm]
    if sorted(perm) != list(range(len(ids))):
        raise ValueError(f"perm must be a permutation of 0..{len(ids) - 1}.")
    a, b = _record(model, ids), _record(model, [ids[p] for p in perm])
    idx = np.asarray(perm)
    s, s2 = a["scores"][0], b["scores"][0]                              # [H, n, n]
    p, p2 = a["pattern"][0], b["pattern"][0]
    f, f2 = _softmax(s), _softmax(s2)
    undo = np.ix_(range(s.shape[0]), idx, idx)
    fixed = [i for i in range(len(ids))
             if set(idx[b["mask"][i]].tolist()) == set(np.flatnonzero(a["mask"][perm[i]]).tolist())]
    rows_err = max((float(np.abs(p2[:, i] - p[undo][:, i]).max()) for i in fixed), default=float("nan"))
    return PermutationResult(perm, s, s2, p, p2, f, f2,
                             float(np.abs(s2 - s[undo]).max()), float(np.abs(f2 - f[undo]).max()),
                             float(np.abs(p2 - p[undo]).max()), fixed, rows_err)


@dataclass
class ShiftResult:
    k: int
    score_change: float             # max |Δ| of the layer-0 scores among the original tokens
    pattern_change: list[float]     # per layer: mean total-variation distance of the rows
    pattern: np.ndarray             # [L, H, n, n] original
    pattern_shifted: np.ndarray     # [L, H, n, n] the shifted run, original rows and keys, renormalised
    mask: np.ndarray                # [n, n] bool, the original run's mask (True = may attend)

    def first_layer_change(self) -> np.ndarray:
        """[n, n] float32 |Δ pattern| of layer 0, the largest over heads; NaN where masked."""
        diff = np.abs(self.pattern_shifted[0] - self.pattern[0]).max(0)
        return np.where(self.mask, diff, np.nan).astype(np.float32)


def shift_test(model: Transformer, ids: Sequence[int], k: int, filler: int) -> ShiftResult:
    """Prepend k copies of `filler`; compare attention among the original tokens.

    Scores of the original pairs (q, k) move from (q, k) to (q + k, k + k). With RoPE,
    ALiBi, T5 buckets or no positions the layer-0 scores depend on the tokens and on q - k
    only, so they do not change; with sinusoidal or learned vectors added to the input
    they do. The rows of the pattern are compared on the original keys only (the filler
    keys take some weight; renormalising removes it). Deeper layers also read the
    fillers' content through the residual stream, so they change under every scheme."""
    if k < 0:
        raise ValueError(f"k must be 0 or more (got {k}).")
    ids = list(ids)
    a, b = _record(model, ids), _record(model, [filler] * k + ids)
    score_change = float(np.abs(b["scores"][0][:, k:, k:] - a["scores"][0]).max())
    sub = b["pattern"][:, :, k:, k:]
    sub = sub / np.clip(sub.sum(-1, keepdims=True), 1e-30, None)
    tv = 0.5 * np.abs(sub - a["pattern"]).sum(-1)                         # [L, H, n]
    return ShiftResult(k, score_change, [float(x) for x in tv.mean(axis=(1, 2))],
                       a["pattern"].astype(np.float32), sub.astype(np.float32), a["mask"])


def token_accuracy(task, model: Transformer, length: int, n: int = 256, seed: int = 1234) -> float:
    """Fraction of answer tokens right on the same n examples that `task.evaluate` draws
    (same seed, same batches of 128), instead of whole answers right."""
    rng = np.random.default_rng(seed)
    right, done = 0.0, 0
    while done < n:
        k = min(128, n - done)
        right += task.accuracy(model, task.batch(k, rng, length), exact=False) * k
        done += k
    return right / n


def extrapolation(task, model: Transformer, factors: Sequence[float] = (1, 1.5, 2, 4), n: int = 256,
                  seed: int = 1234, tokens: bool = False) -> list[dict]:
    """Exact-match accuracy at round(f · train_len) for each factor f, with the task's
    own `evaluate` (and, with `tokens`, the per-token accuracy on the same examples). A
    length the model cannot read (longer than its learned table) gives accuracy None and
    the reason, instead of an error."""
    out = []
    for f in factors:
        length = max(1, int(round(f * task.train_len)))
        row = {"factor": float(f), "length": length, "accuracy": None, "token_accuracy": None, "reason": ""}
        try:
            row["accuracy"] = float(task.evaluate(model, length=length, n=n, seed=seed))
            if tokens:
                row["token_accuracy"] = float(token_accuracy(task, model, length, n=n, seed=seed))
        except ValueError as e:
            row["reason"] = str(e)
            if isinstance(e, Refused):               # the UI says it in its language
                row["refused"] = (e.reason, dict(e.values))
        out.append(row)
    return out


def positions_used(task, length: int) -> int:
    """Positions one example of the task takes at this input length (its probe's tokens)."""
    return len(task.probe(length).ids)

"""The numbers of the positional-encoding lab (models/positional.py holds the schemes'
functions and stays free of the Transformer, which imports it).

The schemes themselves (no model run; a model's weights read where the scheme learns them):
- `vector_table`, `similarity`, `similarity_by_distance`: position vectors and how alike
  two positions are; `sinusoidal_shift`, `rope_demo`, `alibi`, `relative_table`,
  `relative_view`: each scheme's own arithmetic; `sinusoidal_entry`, `worked_numbers`:
  the formulas' worked examples.

Experiments on the toy checkpoints trained once per scheme:
- `attention_maps`: every layer's attention on one input; `probe_scores`: how much of it
  lands where the task needs it.
- `permutation_test`: shuffle the tokens of a model without positions and watch the
  attention permute with them (exactly for the layer-0 scores; what survives a causal
  mask is stated and measured).
- `shift_test`: the same tokens preceded by k filler tokens; how much the attention
  among the original tokens changes (absolute schemes change, relative ones do not).
- `extrapolation`: a task's exact-match accuracy at multiples of its training length,
  with "beyond the learned table" reported instead of an error; `fits`: whether a model
  can read that many positions at all.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from models import positional as P
from models.config import STOCK_BASE, TransformerConfig
from models.errors import Refused
from models.trace import act_name, as_numpy
from models.transformer import Transformer


# ---- position vectors and similarity ---------------------------------------------------------------
@dataclass
class VectorTable:
    """One scheme's position vectors."""

    table: np.ndarray                 # [n, d'] float32; NaN rows past a learned table's end
    wavelengths: np.ndarray | None    # [d'] wavelength of each dimension (sinusoidal, RoPE), else None
    rows: int | None                  # rows a learned table has (None for computed tables)


def vector_table(scheme: str, n: int, d: int, base: float = STOCK_BASE,
                 model: Transformer | None = None) -> VectorTable:
    """The first n position vectors of `scheme`: sinusoidal and RoPE (unit pairs cos, sin)
    are computed at width d with `base`; learned ones are `model`'s own table, at its width
    (rows past its end are NaN). Schemes without vectors (none, alibi, relative) raise."""
    if scheme == "sinusoidal":
        return VectorTable(P.sinusoidal(n, d, base).numpy(), P.sinusoidal_wavelengths(d, base).numpy(), None)
    if scheme == "rope":
        wave = (2 * math.pi / P.rope_inv_freq(d, base)).numpy()
        return VectorTable(P.rope_unit_table(n, d, base).numpy(), np.concatenate([wave, wave]).astype(np.float32), None)
    if scheme == "learned":
        if model is None:
            raise ValueError("A learned table is read from a model: pass one with learned positions.")
        weight = model.stack_module("encoder").pos_embed.weight.detach().float().cpu().numpy()   # [max_len, d]
        weight = weight[model.cfg.pos_offset:]      # BART: the rows before position 0 are never read
        out = np.full((n, weight.shape[1]), np.nan, dtype=np.float32)
        out[: min(n, weight.shape[0])] = weight[:n]
        return VectorTable(out, None, weight.shape[0])
    raise ValueError(f"{scheme} has no position vectors.")


def similarity(table: np.ndarray, kind: str = "cosine") -> np.ndarray:
    """[n, n] float32 similarity (cosine or dot) of every pair of positions of `table`
    [n, d]; NaN for rows that are NaN (past a learned table's end)."""
    n = table.shape[0]
    ok = np.isfinite(table).all(axis=1)
    sim = np.full((n, n), np.nan, dtype=np.float32)
    if ok.any():
        sim[np.ix_(ok, ok)] = P.position_similarity(torch.from_numpy(table[ok]), kind).numpy()
    return sim


def similarity_by_distance(sim: np.ndarray) -> np.ndarray:
    """[n] float32 mean similarity of the pairs at each distance 0..n-1; NaN where no
    pair is measured (beyond a learned table's end)."""
    n = sim.shape[0]
    valid = int(np.isfinite(np.diag(sim)).sum())
    y = np.full(n, np.nan, dtype=np.float32)
    if valid:
        y[:valid] = P.by_distance(torch.from_numpy(sim[:valid, :valid]))[1].numpy()
    return y


# ---- each scheme's own arithmetic ---------------------------------------------------------------------
@dataclass
class ShiftDemo:
    """PE(pos + k) = M_k · PE(pos) for sinusoidal vectors, checked at every position."""

    matrix: np.ndarray                # [d, d] M_k (block-diagonal 2x2 rotations)
    error: float                      # max |M_k · PE(p) − PE(p + k)| over the positions checked
    checked: int                      # positions checked
    pairs: list[int]                  # the dimension pairs i drawn (dims 2i, 2i+1)
    omega: np.ndarray                 # [d/2] each pair's frequency ω_i
    points: np.ndarray                # [pairs, 3, 2] PE(pos), M_k · PE(pos), PE(pos + k) in each pair


def sinusoidal_shift(n: int, d: int, k: int, pos: int, base: float = STOCK_BASE) -> ShiftDemo:
    """The shift matrix M_k at width d (even), checked on positions 0..max(n, pos)."""
    m = P.sinusoidal_shift_matrix(k, d, base)
    pe = P.sinusoidal(max(n, pos) + k + 1, d, base)
    moved = pe[: pe.shape[0] - k] @ m.T                                  # M_k · PE(p) for every p
    pairs = sorted({0, 1, d // 4, d // 2 - 1} & set(range(d // 2)))
    before, after, target = pe[pos].numpy(), (m @ pe[pos]).numpy(), pe[pos + k].numpy()
    points = np.stack([np.stack([before[[2 * i, 2 * i + 1]], after[[2 * i, 2 * i + 1]],
                                 target[[2 * i, 2 * i + 1]]]) for i in pairs])        # [pairs, 3, 2]
    return ShiftDemo(m.numpy(), float((moved - pe[k:]).abs().max()), moved.shape[0], pairs,
                     base ** (-np.arange(0, d, 2) / d), points)


@dataclass
class RopeDemo:
    """A random q and k rotated by RoPE: q at m and k at m − gap turn together."""

    positions: list[int]              # the query positions m (keys at m − gap)
    freqs: list[int]                  # the frequency indices i drawn
    theta: np.ndarray                 # [d/2] each pair's frequency θ_i
    points: np.ndarray                # [freqs, 2·positions, 2] q at m, k at m − gap, alternating
    queries: list[int]                # query positions of the score curves
    offsets: list[int]                # key offsets n − m of the curves
    scores: np.ndarray                # [queries, offsets] q·k after rotation
    error: float                      # max difference between the curves (0: only the offset matters)


def rope_demo(n: int, d: int, seed: int, gap: int, base: float = STOCK_BASE) -> RopeDemo:
    """Seeded random q, k [d] (d even) rotated at three positions m and at m − gap; the
    score q(m)·k(m + offset) at several query positions m up to n − 1."""
    g = torch.Generator().manual_seed(int(seed))
    q, k = torch.randn(d, generator=g), torch.randn(d, generator=g)
    ms = [gap + s for s in (0, 3, 7)]
    qp = P.rope_rotate_pairs(q, ms, base).numpy()                            # [m, d/2, 2]
    kp = P.rope_rotate_pairs(k, [m - gap for m in ms], base).numpy()
    freqs = sorted({0, 1, d // 8, d // 2 - 1} & set(range(d // 2)))
    arrows = np.stack([x for j in range(len(ms)) for x in (qp[j], kp[j])])   # [2m, d/2, 2]
    span = min(n - 1, 64)
    offsets = list(range(-span, span + 1))
    queries = sorted({0, n // 2, n - 1, min(n - 1, 2 * span)})
    scores = P.rope_scores(q, k, queries, offsets, base).numpy()           # [Q, O]
    return RopeDemo(ms, freqs, P.rope_inv_freq(d, base).numpy(), np.transpose(arrows[:, freqs, :], (1, 0, 2)),
                    queries, offsets, scores, float(np.abs(scores - scores[:1]).max()))


def alibi(heads: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """ALiBi's slopes [heads] and bias [heads, n, n]."""
    slopes = P.alibi_slopes(int(heads))
    return slopes.numpy(), P.alibi_bias(slopes, n).numpy()


@dataclass
class RelativeTable:
    """A model's T5-style relative-position bias table (one stack)."""

    table: np.ndarray                 # [buckets, heads] float32, the learned bias per bucket
    bidirectional: bool               # an encoder's buckets tell left from right; a decoder's look back only
    max_distance: int                 # distances beyond share the last bucket


def relative_table(model: Transformer, stack: str) -> RelativeTable:
    """The bias table of one stack of a model with relative positions."""
    mod = model.stack_module(stack)
    return RelativeTable(mod.rel_bias.weight.detach().float().cpu().numpy(), not mod.is_decoder,
                         model.cfg.relative_max_distance)


@dataclass
class RelativeView:
    buckets: np.ndarray               # [n, n] the bucket of each (query, key)
    bias: np.ndarray                  # [heads, shown, shown] the bias added to the scores
    offsets: np.ndarray               # [2·span + 1] key − query
    curves: np.ndarray                # [2·span + 1, heads] the bias at each offset


def relative_view(rt: RelativeTable, n: int, shown: int, span: int = 160) -> RelativeView:
    """Buckets on n positions, the bias on the first `shown`, and the bias per offset
    within ±min(n − 1, span)."""
    buckets = P.relative_bucket_map(n, bidirectional=rt.bidirectional, num_buckets=rt.table.shape[0],
                                    max_distance=rt.max_distance).numpy()
    bias = P.relative_bias(torch.from_numpy(rt.table), shown, bidirectional=rt.bidirectional,
                           max_distance=rt.max_distance).numpy()                  # [head, q, k]
    span = min(n - 1, span)
    rel = torch.arange(-span, span + 1)
    b = P.relative_bucket(rel, rt.bidirectional, rt.table.shape[0], rt.max_distance).numpy()
    return RelativeView(buckets, bias, rel.numpy(), rt.table[b])


# ---- the formulas' worked examples ----------------------------------------------------------------
@dataclass(frozen=True)
class SinusoidalEntry:
    """One entry PE(pos, dim) of the sinusoidal table and how it is computed."""

    fn: str                           # "sin" (even dim) or "cos" (odd dim)
    two_i: int                        # 2i, the even dimension of its pair
    angle: float                      # pos / base^(2i/d), in radians
    value: float                      # PE(pos, dim): the angle read in radians, as the model does
    degrees: float = float("nan")     # the same formula with the angle read in degrees (the usual slip)


def sinusoidal_entry(pos: int, dim: int, d: int = 64, base: float = STOCK_BASE) -> SinusoidalEntry:
    """PE(pos, dim) for a table of width d (even), at any position: the model's own
    function (`models.positional.sinusoidal_at`), and the degree-mode value beside it."""
    if not 0 <= dim < d:
        raise ValueError(f"Dimension {dim} does not exist in a table of width {d} (0..{d - 1}).")
    two_i = dim - dim % 2
    angle = pos / base ** (two_i / d)
    fn = math.sin if dim % 2 == 0 else math.cos
    return SinusoidalEntry("sin" if dim % 2 == 0 else "cos", two_i, angle,
                           float(P.sinusoidal_at([pos], d, base)[0, dim]), fn(math.radians(angle)))


NOTES_EXAMPLE = (10, 512, (0, 1, 2, 3, 510, 511))    # (pos, d_model, dims) of the course notes' worked table


def notes_example(pos: int = NOTES_EXAMPLE[0], d: int = NOTES_EXAMPLE[1],
                  dims: Sequence[int] = NOTES_EXAMPLE[2]) -> list[SinusoidalEntry]:
    """The rows of a worked table PE(pos, dim) for several dims, each with its
    degree-mode value beside it (the course notes' example reads the angles in degrees)."""
    return [sinusoidal_entry(pos, dim, d) for dim in dims]


def neighbour_gap(pos: int, d: int, base: float = STOCK_BASE) -> float:
    """‖PE(pos + 1) − PE(pos)‖: the same at every position, because each (sin, cos) pair
    turns by a fixed angle per step. Far positions are as distinct as near ones."""
    rows = P.sinusoidal_at([pos, pos + 1], d, base)
    return float((rows[1] - rows[0]).norm())


@dataclass(frozen=True)
class WorkedNumbers:
    """The fixed examples under the formulas, computed by the functions the model uses."""

    sin_pos10: tuple[float, float]    # PE(10, 0), PE(10, 1) at d = 2: sin(10 rad), cos(10 rad)
    sin_10_degrees: float             # sin(10°): what a degree-mode calculator gives instead
    rope_degrees: float               # RoPE's angle of position 3, pair 0, d = 64, in degrees
    alibi_slope: float                # the first of 8 heads' slopes
    alibi_bias: float                 # its bias for query 5, key 0
    buckets: tuple[int, ...]          # T5 buckets of offsets −7, −8, −20, −200 (bidirectional, 32, 128)


def worked_numbers() -> WorkedNumbers:
    pe = P.sinusoidal(11, 2)
    slopes = P.alibi_slopes(8)
    return WorkedNumbers((float(pe[10, 0]), float(pe[10, 1])), math.sin(math.radians(10)),
                         math.degrees(float(P.rope_angles(4, 64)[3, 0])), float(slopes[0]),
                         float(P.alibi_bias(slopes, 6)[0, 5, 0]),
                         tuple(P.relative_bucket(torch.tensor([-7, -8, -20, -200])).tolist()))


# ---- experiments on the toy checkpoints -------------------------------------------------------------
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


def shuffle(n: int, seed: int = 0, keep: Sequence[int] = ()) -> list[int]:
    """A seeded shuffle of 0..n-1 that leaves the positions in `keep` in place."""
    g = torch.Generator().manual_seed(seed)
    free = [i for i in range(n) if i not in set(keep)]
    shuffled = [free[i] for i in torch.randperm(len(free), generator=g).tolist()]
    it = iter(shuffled)
    return [i if i in set(keep) else next(it) for i in range(n)]


def positions_used(task, length: int) -> int:
    """Positions one example of the task takes at this input length (its probe's tokens)."""
    return len(task.probe(length).ids)

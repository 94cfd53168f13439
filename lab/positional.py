"""The numbers of the positional-encoding lab (models/positional.py holds the schemes'
functions and stays free of the Transformer, which imports it).

The schemes themselves (no model run; a model's weights read where the scheme learns them):
- `vector_table`, `similarity`, `similarity_by_distance`: position vectors and how alike
  two positions are; `sinusoidal_shift`, `rope_demo`, `alibi`, `relative_table`,
  `relative_view`: each scheme's own arithmetic; `sinusoidal_entry`, `worked_numbers`:
  the formulas' worked examples.

`shuffle`: a seeded shuffle that keeps some positions in place (the checkpoints' permutation
test, the masks and mixer labs). The experiments on the toy checkpoints
trained once per scheme are lab/checkpoints.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

import models.positional
from models.config import STOCK_BASE
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
        return VectorTable(models.positional.sinusoidal(n, d, base).numpy(),
                           models.positional.sinusoidal_wavelengths(d, base).numpy(), None)
    if scheme == "rope":
        wave = (2 * math.pi / models.positional.rope_inv_freq(d, base)).numpy()
        return VectorTable(models.positional.rope_unit_table(n, d, base).numpy(),
                           np.concatenate([wave, wave]).astype(np.float32), None)
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
        sim[np.ix_(ok, ok)] = models.positional.position_similarity(torch.from_numpy(table[ok]), kind).numpy()
    return sim


def similarity_by_distance(sim: np.ndarray) -> np.ndarray:
    """[n] float32 mean similarity of the pairs at each distance 0..n-1; NaN where no
    pair is measured (beyond a learned table's end)."""
    n = sim.shape[0]
    valid = int(np.isfinite(np.diag(sim)).sum())
    y = np.full(n, np.nan, dtype=np.float32)
    if valid:
        y[:valid] = models.positional.by_distance(torch.from_numpy(sim[:valid, :valid]))[1].numpy()
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
    m = models.positional.sinusoidal_shift_matrix(k, d, base)
    pe = models.positional.sinusoidal(max(n, pos) + k + 1, d, base)
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
    qp = models.positional.rope_rotate_pairs(q, ms, base).numpy()                            # [m, d/2, 2]
    kp = models.positional.rope_rotate_pairs(k, [m - gap for m in ms], base).numpy()
    freqs = sorted({0, 1, d // 8, d // 2 - 1} & set(range(d // 2)))
    arrows = np.stack([x for j in range(len(ms)) for x in (qp[j], kp[j])])   # [2m, d/2, 2]
    span = min(n - 1, 64)
    offsets = list(range(-span, span + 1))
    queries = sorted({0, n // 2, n - 1, min(n - 1, 2 * span)})
    scores = models.positional.rope_scores(q, k, queries, offsets, base).numpy()           # [Q, O]
    return RopeDemo(ms, freqs, models.positional.rope_inv_freq(d, base).numpy(),
                    np.transpose(arrows[:, freqs, :], (1, 0, 2)),
                    queries, offsets, scores, float(np.abs(scores - scores[:1]).max()))


def alibi(heads: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """ALiBi's slopes [heads] and bias [heads, n, n]."""
    slopes = models.positional.alibi_slopes(int(heads))
    return slopes.numpy(), models.positional.alibi_bias(slopes, n).numpy()


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
    buckets = models.positional.relative_bucket_map(n, bidirectional=rt.bidirectional, num_buckets=rt.table.shape[0],
                                    max_distance=rt.max_distance).numpy()
    bias = models.positional.relative_bias(torch.from_numpy(rt.table), shown, bidirectional=rt.bidirectional,
                           max_distance=rt.max_distance).numpy()                  # [head, q, k]
    span = min(n - 1, span)
    rel = torch.arange(-span, span + 1)
    b = models.positional.relative_bucket(rel, rt.bidirectional, rt.table.shape[0], rt.max_distance).numpy()
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
                           float(models.positional.sinusoidal_at([pos], d, base)[0, dim]), fn(math.radians(angle)))


def exponent_mistake_radii(pos: int, d: int = 64, base: float = STOCK_BASE) -> np.ndarray:
    """A code mistake of the notes: the frequency written base^(i/d) with i every dimension's
    own index instead of base^(2i/d) shared by the pair (2i, 2i+1). Then sin and cos of a
    pair turn at different speeds, so the pair is no longer a point on the unit circle and
    PE(pos + k) is no longer a rotation of PE(pos). Returns each pair's radius
    sqrt(PE[2i]² + PE[2i+1]²) at `pos` with the mistake (the model's own table gives 1)."""
    if d < 2 or d % 2:
        raise ValueError(f"A sinusoidal table needs an even width; got {d}.")
    dims = np.arange(d, dtype=np.float64)
    row = np.where(dims % 2 == 0, np.sin(pos / base ** (dims / d)), np.cos(pos / base ** (dims / d)))
    return np.hypot(row[0::2], row[1::2])


NOTES_EXAMPLE = (10, 512, (0, 1, 2, 3, 510, 511))    # (pos, d_model, dims) of the course notes' worked table


def notes_example(pos: int = NOTES_EXAMPLE[0], d: int = NOTES_EXAMPLE[1],
                  dims: Sequence[int] = NOTES_EXAMPLE[2]) -> list[SinusoidalEntry]:
    """The rows of a worked table PE(pos, dim) for several dims, each with its
    degree-mode value beside it (the course notes' example reads the angles in degrees)."""
    return [sinusoidal_entry(pos, dim, d) for dim in dims]


def neighbour_gap(pos: int, d: int, base: float = STOCK_BASE) -> float:
    """‖PE(pos + 1) − PE(pos)‖: the same at every position, because each (sin, cos) pair
    turns by a fixed angle per step. Far positions are as distinct as near ones."""
    rows = models.positional.sinusoidal_at([pos, pos + 1], d, base)
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
    pe = models.positional.sinusoidal(11, 2)
    slopes = models.positional.alibi_slopes(8)
    return WorkedNumbers((float(pe[10, 0]), float(pe[10, 1])), math.sin(math.radians(10)),
                         math.degrees(float(models.positional.rope_angles(4, 64)[3, 0])), float(slopes[0]),
                         float(models.positional.alibi_bias(slopes, 6)[0, 5, 0]),
                         tuple(models.positional.relative_bucket(torch.tensor([-7, -8, -20, -200])).tolist()))


def shuffle(n: int, seed: int = 0, keep: Sequence[int] = ()) -> list[int]:
    """A seeded shuffle of 0..n-1 that leaves the positions in `keep` in place."""
    g = torch.Generator().manual_seed(seed)
    free = [i for i in range(n) if i not in set(keep)]
    shuffled = [free[i] for i in torch.randperm(len(free), generator=g).tolist()]
    it = iter(shuffled)
    return [i if i in set(keep) else next(it) for i in range(n)]

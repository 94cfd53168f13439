"""Positional encodings as pure functions: the model and the PE page call the same code.

Angles are always in radians: PE(pos=10, i=0) = sin(10 rad) = -0.5440.

- sinusoidal: Vaswani et al. 2017, §3.5 — PE[pos, 2i] = sin(pos / base^(2i/d)),
  PE[pos, 2i+1] = cos(pos / base^(2i/d)), added to the token embeddings.
- learned: a trainable table of `max_len` vectors (BERT, GPT-2); see `Transformer.pos_embed`.
- RoPE: Su et al. 2021 (RoFormer) — rotate each pair of query/key dimensions by an angle
  m·θ_i, so q(m)·k(n) depends only on m - n. Pairs are (i, i + d/2) ("rotate half", the
  GPT-NeoX/LLaMA layout), a fixed permutation of the paper's interleaved pairs (2i, 2i+1).
  Context extension (position interpolation, NTK-aware, YaRN): `RopeScaling`.
- ALiBi: Press et al. 2022 — no vectors at all; each head adds -slope·|q - k| to its scores.
- relative: Raffel et al. 2020 (T5) — a learned scalar per (bucket, head) added to scores,
  with exact buckets for small distances and log-spaced buckets up to `max_distance`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .config import STOCK_BASE


def sinusoidal(n_pos: int, d_model: int, base: float = STOCK_BASE, layout: str = "interleaved") -> torch.Tensor:
    """The sinusoidal table [n_pos, d_model] (float32)."""
    return sinusoidal_at(torch.arange(n_pos), d_model, base, layout).float()


def sinusoidal_at(positions: torch.Tensor | list[int], d_model: int, base: float = STOCK_BASE,
                  layout: str = "interleaved") -> torch.Tensor:
    """The rows of the sinusoidal table at `positions` [len, d_model], in float64 (any
    position, without building the rows before it). layout "interleaved": sin and cos
    of frequency i at dims 2i, 2i+1 (Vaswani); "halves": the sines of every frequency
    in the first half, their cosines in the second (Marian, XLM without interleaving):
    the same numbers, dims permuted."""
    if d_model % 2 != 0:
        raise ValueError(f"Sinusoidal encodings need an even d_model (got {d_model}).")
    pos = torch.as_tensor(positions, dtype=torch.float64).reshape(-1, 1)     # [pos, 1]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)[None, :]        # [1, d/2]
    angle = pos / base ** (two_i / d_model)                                  # [pos, d/2], radians
    if layout == "halves":
        return torch.cat((torch.sin(angle), torch.cos(angle)), dim=-1)
    if layout != "interleaved":
        raise ValueError(f"Unknown sinusoidal layout {layout!r}: use 'interleaved' or 'halves'.")
    pe = torch.empty(pos.shape[0], d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe


def rope_inv_freq(dim: int, base: float = STOCK_BASE) -> torch.Tensor:
    """θ_i = base^(-2i/dim) for i = 0..dim/2-1: the rotation speed of each pair [dim/2]."""
    if dim % 2 != 0:
        raise ValueError(f"RoPE rotates pairs of dimensions, so it needs an even number of dims (got {dim}).")
    # computed exactly as LLaMA's reference implementation, so loaded models match bitwise
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


@dataclass(frozen=True)
class RopeScaling:
    """How a RoPE model is stretched to a longer context than it was trained on, by a
    factor s (cfg.rope_scaling, rope_factor, rope_original_len and the fields below); each
    kind is computed exactly as transformers' `modeling_rope_utils` computes it:

    - "linear": position interpolation (Chen et al. 2023): position m is read as m / s, so
      s·L positions take the angles L positions had in training; every frequency slows down.
    - "ntk": NTK-aware scaling (bloc97, 2023): the base becomes base · s^(d/(d-2)). The
      fastest pair keeps its speed, the slowest is slowed by s: high frequencies (local
      order) are kept, low ones interpolated.
    - "dynamic": dynamic NTK (emozilla, 2023): the NTK base grows with the text. Up to the
      original context L nothing changes; at n > L tokens the base is
      base · (s·n/L − (s − 1))^(d/(d-2)), recomputed for every length (so the angles of a
      position depend on how long the text is).
    - "yarn": YaRN (Peng et al. 2023): pairs that turn more than β_fast = 32 times within the
      original context keep their frequency, pairs that turn less than β_slow = 1 time are
      interpolated by s, a linear ramp in between; cos and sin are multiplied by
      0.1·ln s + 1, which sharpens the softmax (Eq. 19-22; as in transformers' `yarn`), or by
      attn_factor when the checkpoint gives one (attention_factor, DeepSeek's mscale ratio).
    - "llama3": Llama 3.1's frequency-dependent interpolation: pairs whose wavelength is
      longer than L / low_freq_factor are interpolated by s, pairs shorter than
      L / high_freq_factor keep their frequency, a smooth blend in between.
    - "longrope": LongRoPE (Ding et al. 2024; Phi-3, Phi-4-mini): each pair's frequency is
      divided by its own factor, `short_factor` while the text fits the original context L,
      `long_factor` once it is longer; cos and sin are multiplied by
      √(1 + ln s / ln L) (or attn_factor).
    """

    kind: str = "none"
    factor: float = 1.0
    original_len: int = 2048
    low_freq_factor: float = 1.0                # llama3
    high_freq_factor: float = 4.0               # llama3
    short_factor: tuple[float, ...] = ()        # longrope: one divisor per pair (() = all 1)
    long_factor: tuple[float, ...] = ()         # longrope, beyond original_len
    attn_factor: float | None = None            # yarn, longrope: cos and sin × this; None = the kind's default

    @property
    def active(self) -> bool:
        """Whether the rotation differs from the stock one. llama3, dynamic and longrope
        always compute their own frequencies (even at factor 1, as transformers does)."""
        if self.kind in ("llama3", "dynamic", "longrope"):
            return True
        if self.kind == "yarn" and self.attn_factor is not None:
            return True
        return self.kind != "none" and self.factor != 1.0

    @property
    def length_dependent(self) -> bool:
        """The frequencies depend on the length of the text (dynamic NTK, LongRoPE)."""
        return self.kind in ("dynamic", "longrope")


YARN_BETA_FAST, YARN_BETA_SLOW = 32.0, 1.0


def rope_scaling_of(cfg) -> RopeScaling | None:
    """A config's RoPE scaling (cfg.rope_scaling, rope_factor, rope_original_len and the
    llama3/longrope fields), or None for the stock rotation (then the angles are computed
    exactly as before)."""
    scaling = RopeScaling(cfg.rope_scaling, cfg.rope_factor, cfg.rope_original_len or cfg.max_len,
                          cfg.rope_low_freq_factor, cfg.rope_high_freq_factor, tuple(cfg.rope_short_factor),
                          tuple(cfg.rope_long_factor), cfg.rope_attn_factor)
    return scaling if scaling.active else None


def _pair_shape(dim: int) -> torch.Tensor:
    """2i/dim for every pair [dim/2] (float32, as transformers computes it)."""
    return torch.arange(0, dim, 2, dtype=torch.int64).float() / dim


def rope_scaled_inv_freq(dim: int, base: float, scaling: RopeScaling,
                         seq_len: int | None = None) -> tuple[torch.Tensor, float, float]:
    """(inverse frequencies [dim/2], position divisor, attention factor) of a scaled RoPE.
    seq_len: the length of the text (max position + 1), read by the length-dependent kinds
    (dynamic, longrope); None = within the original context."""
    s = scaling.factor
    if dim % 2 != 0:
        raise ValueError(f"RoPE rotates pairs of dimensions, so it needs an even number of dims (got {dim}).")
    if not scaling.active or scaling.kind == "linear":
        return rope_inv_freq(dim, base), (s if scaling.active else 1.0), 1.0
    if scaling.kind == "ntk":
        return rope_inv_freq(dim, base * s ** (dim / (dim - 2))), 1.0, 1.0
    if scaling.kind == "yarn":
        return _yarn_inv_freq(dim, base, scaling)
    if scaling.kind == "llama3":
        return _llama3_inv_freq(dim, base, scaling), 1.0, 1.0
    if scaling.kind == "dynamic":
        return _dynamic_inv_freq(dim, base, scaling, seq_len), 1.0, 1.0
    if scaling.kind == "longrope":
        return _longrope_inv_freq(dim, base, scaling, seq_len)
    raise ValueError(f"Unknown RoPE scaling {scaling.kind!r}: use none, linear, ntk, yarn, llama3, dynamic or "
                     "longrope.")


def _yarn_inv_freq(dim: int, base: float, scaling: RopeScaling) -> tuple[torch.Tensor, float, float]:
    s = scaling.factor
    extra = rope_inv_freq(dim, base)                       # the trained frequencies (extrapolation)
    inter = extra / s                                      # position interpolation

    def pair_of(turns: float) -> float:   # the pair index that turns `turns` times within original_len
        return dim * math.log(scaling.original_len / (turns * 2 * math.pi)) / (2 * math.log(base))

    low = max(math.floor(pair_of(YARN_BETA_FAST)), 0)
    high = min(math.ceil(pair_of(YARN_BETA_SLOW)), dim - 1)
    ramp = (torch.arange(dim // 2, dtype=torch.float32) - low) / ((high - low) or 0.001)
    keep = 1 - ramp.clamp(0, 1)                            # 1: keep the trained frequency, 0: interpolate
    attn = scaling.attn_factor if scaling.attn_factor is not None else (0.1 * math.log(s) + 1.0 if s > 1 else 1.0)
    return inter * (1 - keep) + extra * keep, 1.0, attn


def _llama3_inv_freq(dim: int, base: float, scaling: RopeScaling) -> torch.Tensor:
    """transformers' `_compute_llama3_parameters`, operation for operation."""
    inv_freq = rope_inv_freq(dim, base)
    factor, low, high = scaling.factor, scaling.low_freq_factor, scaling.high_freq_factor
    old_len = scaling.original_len
    low_freq_wavelen, high_freq_wavelen = old_len / low, old_len / high
    wavelen = 2 * math.pi / inv_freq
    # longer than low_freq_wavelen: interpolated by the factor; shorter than high_freq_wavelen: kept
    scaled = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth = (old_len / wavelen - low) / (high - low)        # 0 at low_freq_wavelen .. 1 at high_freq_wavelen
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return torch.where(medium, smoothed, scaled)


def _dynamic_inv_freq(dim: int, base: float, scaling: RopeScaling, seq_len: int | None) -> torch.Tensor:
    """transformers' `_compute_dynamic_ntk_parameters` as its rotary embedding calls it: once
    for the original context (Python floats), then again for every longer text (its length
    a tensor, so the new base is computed in float32)."""
    s, L = scaling.factor, scaling.original_len
    if seq_len is None or seq_len <= L:
        grown = base * ((s * L / L) - (s - 1)) ** (dim / (dim - 2))
    else:
        n = torch.tensor(int(seq_len), dtype=torch.int64)
        grown = base * ((s * n / L) - (s - 1)) ** (dim / (dim - 2))      # a float32 scalar tensor
    return 1.0 / (grown ** _pair_shape(dim))


def _longrope_inv_freq(dim: int, base: float, scaling: RopeScaling,
                       seq_len: int | None) -> tuple[torch.Tensor, float, float]:
    """transformers' `_compute_longrope_parameters`: short factors up to original_len, long
    factors beyond."""
    long = seq_len is not None and seq_len > scaling.original_len
    factors = scaling.long_factor if long else scaling.short_factor
    if not factors:
        factors = (1.0,) * (dim // 2)
    if len(factors) != dim // 2:
        which = "long_factor" if long else "short_factor"
        raise ValueError(f"LongRoPE needs one {which} per rotating pair ({dim // 2}), got {len(factors)}.")
    ext = torch.tensor(factors, dtype=torch.float32)
    inv_freq = 1.0 / (ext * base ** _pair_shape(dim))
    s, L = scaling.factor, scaling.original_len
    if scaling.attn_factor is not None:
        attn = scaling.attn_factor
    else:
        attn = 1.0 if s <= 1.0 else math.sqrt(1 + math.log(s) / math.log(L))
    return inv_freq, 1.0, attn


def _seq_len(positions: torch.Tensor, seq_len: int | None) -> int:
    """The text's length as transformers' dynamic RoPE reads it: the last position + 1."""
    if seq_len is not None:
        return int(seq_len)
    return int(positions.max()) + 1 if positions.numel() else 0


def _scaled_angles(positions: torch.Tensor, dim: int, base: float, scaling: RopeScaling,
                   seq_len: int | None) -> tuple[torch.Tensor, float]:
    """(angles [pos, dim/2], attention factor) of a scaled RoPE."""
    n = _seq_len(positions, seq_len) if scaling.length_dependent else None
    inv_freq, divisor, attn = rope_scaled_inv_freq(dim, base, scaling, n)
    pos = positions.float() / divisor if divisor != 1.0 else positions.float()
    return pos[:, None] * inv_freq.to(positions.device)[None, :], attn


def rope_angles(positions: torch.Tensor | int, dim: int, base: float = STOCK_BASE,
                scaling: RopeScaling | None = None, seq_len: int | None = None) -> torch.Tensor:
    """Rotation angles m·θ_i [pos, dim/2] (radians) for positions m (an int n means 0..n-1).
    seq_len (dynamic, longrope): the length of the text the positions belong to; None =
    the last position + 1 (a forward pass over positions offset..end-1, as the model runs)."""
    if isinstance(positions, int):
        positions = torch.arange(positions)
    if scaling is None or not scaling.active:
        inv_freq = rope_inv_freq(dim, base).to(positions.device)
        return positions.float()[:, None] * inv_freq[None, :]
    return _scaled_angles(positions, dim, base, scaling, seq_len)[0]


def rope_cos_sin(positions: torch.Tensor | int, dim: int, base: float = STOCK_BASE,
                 scaling: RopeScaling | None = None, seq_len: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of the angles, each [pos, dim], duplicated for the two halves (× the
    attention factor of YaRN and LongRoPE). For dynamic NTK and LongRoPE they depend on the
    length of the text, seq_len (None = the last position + 1: the model passes positions
    offset..end-1, so a cached decoding step uses the length so far, as transformers does)."""
    if isinstance(positions, int):
        positions = torch.arange(positions)
    if scaling is None or not scaling.active:
        ang = rope_angles(positions, dim, base)
        emb = torch.cat((ang, ang), dim=-1)
        return emb.cos(), emb.sin()
    ang, factor = _scaled_angles(positions, dim, base, scaling, seq_len)
    emb = torch.cat((ang, ang), dim=-1)
    if factor != 1.0:
        return emb.cos() * factor, emb.sin() * factor
    return emb.cos(), emb.sin()


def rope_wavelengths(dim: int, base: float = STOCK_BASE, scaling: RopeScaling | None = None,
                     seq_len: int | None = None) -> torch.Tensor:
    """Wavelength of every rotating pair [dim/2], in positions: 2π / θ_i (after scaling).
    seq_len: the text's length, for dynamic NTK and LongRoPE (None = within the original
    context)."""
    if scaling is None or not scaling.active:
        return (2 * math.pi / rope_inv_freq(dim, base).double()).float()
    inv_freq, divisor, _ = rope_scaled_inv_freq(dim, base, scaling, seq_len if scaling.length_dependent else None)
    return (2 * math.pi * divisor / inv_freq.double()).float()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """(x1, x2) -> (-x2, x1) on the last dim: a 90° turn of every pair (i, i + d/2)."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate x [b, pos, head, d_head] by the angles (cos, sin: [pos, rot], or already
    [1, pos, 1, rot] as the model passes them, shaped once per pass instead of in every
    layer); when rot < d_head only the first `rot` dims turn (partial rotary), the rest
    pass through."""
    rot = cos.shape[-1]
    if cos.dim() == 2:
        cos, sin = cos[None, :, None, :], sin[None, :, None, :]              # [1, pos, 1, rot]
    if rot == x.shape[-1]:                                                   # every dim turns
        return x * cos + rotate_half(x) * sin
    x_rot, x_pass = x[..., :rot], x[..., rot:]
    return torch.cat((x_rot * cos + rotate_half(x_rot) * sin, x_pass), dim=-1)


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """Head slopes [n_heads]: the geometric sequence 2^(-8/n), 2^(-16/n), ..., 2^(-8)
    (8 heads: 1/2, 1/4, ..., 1/256). For n not a power of two, the paper takes the slopes
    of the closest smaller power of two and fills up with every other slope of twice that."""
    if n_heads < 1:
        raise ValueError(f"ALiBi needs at least one head (got {n_heads}).")

    def power_of_two(n: int) -> list[float]:
        start = 2.0 ** (-8.0 / n)
        return [start ** (i + 1) for i in range(n)]

    if math.log2(n_heads).is_integer():
        slopes = power_of_two(n_heads)
    else:
        p = 2 ** math.floor(math.log2(n_heads))
        slopes = power_of_two(p) + power_of_two(2 * p)[0::2][: n_heads - p]
    return torch.tensor(slopes, dtype=torch.float32)


def alibi_bias(slopes: torch.Tensor, n_q: int, n_k: int | None = None, q_offset: int = 0) -> torch.Tensor:
    """The ALiBi bias [head, q, k] = -slope · |q - k| (a linear penalty on distance).
    Queries sit at positions q_offset..q_offset+n_q-1 (a decoding step with a KV cache:
    the new token's row), keys at 0..n_k-1."""
    n_k = n_q if n_k is None else n_k
    q = torch.arange(q_offset, q_offset + n_q, device=slopes.device)
    dist = (q[:, None] - torch.arange(n_k, device=slopes.device)[None, :]).abs()
    return -slopes[:, None, None] * dist[None].to(slopes.dtype)


def relative_bucket(
    relative_position: torch.Tensor, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> torch.Tensor:
    """T5's bucket of each relative position (key - query), as an int tensor of the same shape.

    Half the buckets (bidirectional) are for keys after the query. Within a direction,
    the first half of the buckets are exact distances 0..max_exact-1; the rest grow
    logarithmically up to `max_distance`, beyond which all distances share the last bucket.
    """
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        buckets += (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = -torch.clamp(relative_position, max=0)
    max_exact = num_buckets // 2
    is_small = distance < max_exact
    # log-spaced buckets for the larger distances
    large = max_exact + (
        torch.log(distance.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    large = torch.clamp(large, max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)


def relative_bias(
    table: torch.Tensor, n_q: int, n_k: int | None = None, bidirectional: bool = True, max_distance: int = 128,
    q_offset: int = 0,
) -> torch.Tensor:
    """T5 relative-position bias [head, q, k] from a learned table [num_buckets, head];
    queries at positions q_offset..q_offset+n_q-1, keys at 0..n_k-1."""
    n_k = n_q if n_k is None else n_k
    q = torch.arange(q_offset, q_offset + n_q, device=table.device)[:, None]
    k = torch.arange(n_k, device=table.device)[None, :]
    bucket = relative_bucket(k - q, bidirectional, table.shape[0], max_distance)    # [q, k]
    return table[bucket].permute(2, 0, 1)                                           # [head, q, k]


# ---- analysis helpers for the positional-encoding lab (the model never calls these) ------
def sinusoidal_wavelengths(d_model: int, base: float = STOCK_BASE) -> torch.Tensor:
    """Wavelength of every dimension [d_model], in positions: 2π · base^(2i/d) for both
    members (sin at 2i, cos at 2i+1) of pair i. From 2π ≈ 6.28 up to almost 2π · base."""
    if d_model % 2 != 0:
        raise ValueError(f"Sinusoidal encodings need an even d_model (got {d_model}).")
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    wave = 2 * math.pi * base ** (two_i / d_model)                                # [d/2]
    return wave.repeat_interleave(2).float()


def sinusoidal_shift_matrix(k: int, d_model: int, base: float = STOCK_BASE) -> torch.Tensor:
    """The matrix M_k [d, d] with PE(pos + k) = M_k · PE(pos) for every pos (Vaswani et al.
    §3.5: "PE_{pos+k} can be represented as a linear function of PE_pos").

    It is block diagonal: pair i (sin at 2i, cos at 2i+1) is turned by the angle k·ω_i,
    ω_i = base^(-2i/d), by the addition formulas
    sin(a + b) = sin a cos b + cos a sin b,  cos(a + b) = cos a cos b - sin a sin b.
    It does not depend on pos: the same rotation for every position."""
    if d_model % 2 != 0:
        raise ValueError(f"Sinusoidal encodings need an even d_model (got {d_model}).")
    omega = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)  # [d/2]
    c, s = torch.cos(k * omega), torch.sin(k * omega)
    m = torch.zeros(d_model, d_model, dtype=torch.float64)
    idx = torch.arange(0, d_model, 2)
    m[idx, idx], m[idx, idx + 1] = c, s               # new sin =  cos·sin + sin·cos
    m[idx + 1, idx], m[idx + 1, idx + 1] = -s, c      # new cos = -sin·sin + cos·cos
    return m.float()


def position_similarity(pe: torch.Tensor, kind: str = "dot") -> torch.Tensor:
    """Similarity of every pair of position vectors [n, n] from a table [n, d]:
    "dot" = PE(m)·PE(n), "cosine" = the dot product of the unit vectors."""
    if pe.dim() != 2 or pe.shape[0] == 0:
        raise ValueError(f"Expected a position table [positions, dims], got shape {tuple(pe.shape)}.")
    x = pe.double()
    if kind == "cosine":
        x = x / x.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    elif kind != "dot":
        raise ValueError(f"Unknown similarity {kind!r}: use 'dot' or 'cosine'.")
    return (x @ x.T).float()


def by_distance(matrix: torch.Tensor, signed: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean of a square position x position matrix along its diagonals, as a curve over
    the distance: (distances, means). |m - n| = 0..n-1, or m - n = -(n-1)..n-1 when
    `signed` (for matrices that are not symmetric, e.g. a causal T5 bias)."""
    if matrix.dim() != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] == 0:
        raise ValueError(f"Expected a square matrix [positions, positions], got shape {tuple(matrix.shape)}.")
    n = matrix.shape[0]
    offsets = range(-(n - 1), n) if signed else range(n)
    m = matrix.double()
    if signed:   # m - n = o is the diagonal -o of m[q, k] (q = m, k = n)
        means = [torch.diagonal(m, offset=-o).mean() for o in offsets]
    else:
        means = [0.5 * (torch.diagonal(m, offset=o).mean() + torch.diagonal(m, offset=-o).mean()) for o in offsets]
    return torch.tensor(list(offsets)), torch.stack(means).float()


def rope_unit_table(n_pos: int, dim: int, base: float = STOCK_BASE) -> torch.Tensor:
    """The unit pair (1, 0) of every frequency rotated to each position [n_pos, dim]
    ("rotate half" layout: cos m·θ_i in the first half, sin m·θ_i in the second). Its dot
    products, Σ_i cos((m - n)·θ_i), are what RoPE alone contributes to a score."""
    ang = rope_angles(n_pos, dim, base)                              # [pos, dim/2]
    return torch.cat((ang.cos(), ang.sin()), dim=-1)


def rope_rotate_pairs(x: torch.Tensor, positions: torch.Tensor | list[int], base: float = STOCK_BASE) -> torch.Tensor:
    """A vector x [dim] rotated to each position, as 2-D pairs [pos, dim/2, 2]: pair i is
    (x_i, x_{i+dim/2}) turned by m·θ_i (the same rotation as `apply_rope`)."""
    if x.dim() != 1:
        raise ValueError(f"Expected one vector [dim], got shape {tuple(x.shape)}.")
    positions = torch.as_tensor(positions)
    dim = x.shape[0]
    cos, sin = rope_cos_sin(positions, dim, base)                    # [pos, dim]
    rot = apply_rope(x[None, None, None, :].expand(1, len(positions), 1, dim).float(), cos, sin)[0, :, 0]
    half = dim // 2
    return torch.stack((rot[:, :half], rot[:, half:]), dim=-1)       # [pos, dim/2, 2]


def rope_scores(q: torch.Tensor, k: torch.Tensor, query_positions: list[int], offsets: list[int],
                base: float = STOCK_BASE) -> torch.Tensor:
    """q rotated to position m, dotted with k rotated to n = m - offset: [len(query_positions),
    len(offsets)]. RoPE makes every row the same curve (Su et al. 2021, Eq. 16)."""
    if q.shape != k.shape or q.dim() != 1:
        raise ValueError(f"q and k must be vectors of the same size, got {tuple(q.shape)} and {tuple(k.shape)}.")
    dim = q.shape[0]
    m = torch.tensor(query_positions, dtype=torch.float64)[:, None]                # [Q, 1]
    n = m - torch.tensor(offsets, dtype=torch.float64)[None, :]                      # [Q, O]
    theta = rope_inv_freq(dim, base).double()                                         # [dim/2]

    def rotate(x: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:                  # -> [..., dim]
        ang = pos[..., None] * theta                                                   # [..., dim/2]
        cos, sin = torch.cat((ang.cos(), ang.cos()), -1), torch.cat((ang.sin(), ang.sin()), -1)
        return x.double() * cos + rotate_half(x.double().expand_as(cos)) * sin

    rq = rotate(q, m.expand_as(n))                                                    # [Q, O, dim]
    rk = rotate(k, n)
    return (rq * rk).sum(-1).float()


def relative_bucket_map(n_q: int, n_k: int | None = None, bidirectional: bool = True, num_buckets: int = 32,
                        max_distance: int = 128) -> torch.Tensor:
    """The T5 bucket of every (query, key) pair [q, k] (the index into the learned table)."""
    n_k = n_q if n_k is None else n_k
    rel = torch.arange(n_k)[None, :] - torch.arange(n_q)[:, None]
    return relative_bucket(rel, bidirectional, num_buckets, max_distance)

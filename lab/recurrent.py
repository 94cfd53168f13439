"""The recurrent family on one head's q, k, v (float64 numpy in, dataclasses out).

Each variant is computed twice — as a recurrence that carries a fixed-size state, and as
the explicit sum that recurrence unrolls to — so the page can show that both give the
same output and what "attention" matrix the sum implies:

- retention (Sun et al. 2023, RetNet): parallel, recurrent and chunkwise forms
  (`lab/variants.py`), no scaling and no group norm;
- gated retention: the same state with a data-dependent decay γ_t = σ(k_t·w + b)
  (w a seeded projection of the key), as in gated linear attention / YOCO's gRet;
- RWKV-4's WKV time-mixing (Peng et al. 2023): per-channel decay w and bonus u, the
  numerically stable recurrence with state (a, b, p);
- a selective state-space step (Gu & Dao 2023, Mamba): input-dependent Δ, B, C,
  diagonal negative A, Ā = exp(ΔA), B̄ = ΔB, and the scan.

The seeded projections are described where they are made (`gate_weights`, `ssm_inputs`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from . import variants

CHECK_BUDGET = 1 << 25      # n²·N·channels of the SSM's explicit sum the page checks (the test checks all)


def as64(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def check_qkv(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """q, k [n, d] and v [n, dv] as float64, or a ValueError saying what is wrong."""
    q, k, v = as64(q), as64(k), as64(v)
    if q.ndim != 2 or q.shape != k.shape or v.ndim != 2 or v.shape[0] != q.shape[0] or q.shape[0] < 1:
        raise ValueError(f"q and k must be [n, d] and v [n, dv] with the same n (got {q.shape}, {k.shape}, {v.shape}).")
    if not (np.isfinite(q).all() and np.isfinite(k).all() and np.isfinite(v).all()):
        raise ValueError("q, k and v must be finite numbers.")
    return q, k, v


def max_diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(as64(a) - as64(b)).max()) if np.size(a) else 0.0


# --------------------------------------------------------------------------- (gated) retention


def decayed_recurrence(q: np.ndarray, k: np.ndarray, v: np.ndarray, gammas: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """S_t = γ_t S_(t-1) + k_tᵀ v_t, o_t = q_t S_t. Returns (o [n, dv], ‖S_t‖_F [n], S_n [d, dv])."""
    state = np.zeros((q.shape[1], v.shape[1]))
    out, norms = np.empty((q.shape[0], v.shape[1])), np.empty(q.shape[0])
    for t in range(q.shape[0]):
        state = gammas[t] * state + np.outer(k[t], v[t])
        out[t], norms[t] = q[t] @ state, np.linalg.norm(state)
    return out, norms, state


def decay_from_gates(gammas: np.ndarray) -> np.ndarray:
    """D [n, n]: D_ij = γ_(j+1)·…·γ_i for j <= i (1 on the diagonal), 0 above it,
    from the cumulative sum of log γ (no product of many small numbers)."""
    c = np.cumsum(np.log(gammas))
    diff = c[:, None] - c[None, :]
    return np.where(np.tril(np.ones((len(c), len(c)), dtype=bool)), np.exp(np.minimum(diff, 0.0)), 0.0)


@dataclass(frozen=True)
class RetentionForms:
    """Retention's three forms on the same q, k, v, and what the recurrent one carries."""

    parallel: np.ndarray        # [n, dv] (q kᵀ ⊙ D) v
    recurrent: np.ndarray       # [n, dv] S_t = γ S_(t-1) + k_tᵀ v_t, o_t = q_t S_t
    chunkwise: np.ndarray       # [n, dv] parallel inside chunks, recurrent across them
    weights: np.ndarray         # [n, n] q kᵀ ⊙ D: the "attention" it implies (any sign, no normalisation)
    state_norms: np.ndarray     # [n] ‖S_t‖_F after each position
    final_state: np.ndarray     # [d, dv] S_n
    gamma: float
    chunk: int
    n_chunks: int
    err_recurrent: float        # max |recurrent − parallel|
    err_chunkwise: float        # max |chunkwise − parallel|


def retention_forms(q: np.ndarray, k: np.ndarray, v: np.ndarray, gamma: float, chunk: int) -> RetentionForms:
    """Retention (decay γ in (0, 1], chunk size >= 1) in its parallel, recurrent and chunkwise forms."""
    q, k, v = check_qkv(q, k, v)
    if not 0 < gamma <= 1:
        raise ValueError(f"The decay γ must be in (0, 1] (got {gamma}).")
    if int(chunk) < 1:
        raise ValueError(f"The chunk size must be at least 1 (got {chunk}).")
    tq, tk, tv = (torch.from_numpy(x) for x in (q, k, v))
    par, w = variants.retention(tq, tk, tv, gamma)
    rec = variants.retention_recurrent(tq, tk, tv, gamma).numpy()
    chk = variants.retention_chunkwise(tq, tk, tv, gamma, int(chunk)).numpy()
    _, norms, final = decayed_recurrence(q, k, v, np.full(q.shape[0], gamma))
    par = par.numpy()
    return RetentionForms(par, rec, chk, w.numpy(), norms, final, float(gamma), int(chunk),
                          -(-q.shape[0] // int(chunk)), max_diff(rec, par), max_diff(chk, par))


def gate_weights(d: int, seed: int) -> np.ndarray:
    """The gate's projection w [d] ~ N(0, 1/d), seeded: γ_t = σ(k_t·w + b) depends on the key."""
    return np.random.default_rng(seed).standard_normal(d) / np.sqrt(d)


@dataclass(frozen=True)
class GatedRetention:
    """Retention whose decay depends on the position's key: γ_t = σ(k_t·w + b)."""

    gammas: np.ndarray          # [n] the decay applied at each position
    recurrent: np.ndarray       # [n, dv]
    parallel: np.ndarray        # [n, dv] (q kᵀ ⊙ D_gated) v
    weights: np.ndarray         # [n, n] q kᵀ ⊙ D_gated
    state_norms: np.ndarray     # [n]
    final_state: np.ndarray     # [d, dv]
    err: float                  # max |recurrent − parallel|


def gated_retention(q: np.ndarray, k: np.ndarray, v: np.ndarray, bias: float, seed: int = 0) -> GatedRetention:
    """Gated retention with γ_t = σ(k_t·w + bias), w = `gate_weights(d, seed)`."""
    q, k, v = check_qkv(q, k, v)
    if not np.isfinite(bias):
        raise ValueError("The gate's bias must be a finite number.")
    gammas = 1.0 / (1.0 + np.exp(-(k @ gate_weights(q.shape[1], seed) + bias)))
    gammas = np.clip(gammas, 1e-300, 1.0)          # σ of a very negative number underflows to 0
    rec, norms, final = decayed_recurrence(q, k, v, gammas)
    w = (q @ k.T) * decay_from_gates(gammas)
    par = w @ v
    return GatedRetention(gammas, rec, par, w, norms, final, max_diff(rec, par))


# --------------------------------------------------------------------------- RWKV


def rwkv_decays(d: int) -> np.ndarray:
    """Per-channel decay rates w_c > 0, spread geometrically from 0.01 (remembers ~100
    steps) to 2 (forgets within a step or two), like RWKV's slow-to-fast channel init."""
    return np.geomspace(0.01, 2.0, d)


def wkv_recurrent(k: np.ndarray, v: np.ndarray, w: np.ndarray, u: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """RWKV-4's WKV, the stable recurrence. State per channel: a (weighted sum of values),
    b (sum of weights), both scaled by e^(−p), p the largest exponent so far.
    Returns (wkv [n, d], a, b, p after the last position, ‖(a, b, p)‖ after each position [n])."""
    n, d = k.shape
    a, b, p = np.zeros(d), np.zeros(d), np.full(d, -np.inf)
    out, norms = np.empty((n, d)), np.empty(n)
    for t in range(n):
        ww = u + k[t]                                  # the current token, with its bonus
        q = np.maximum(p, ww)
        e1, e2 = np.exp(p - q), np.exp(ww - q)
        out[t] = (e1 * a + e2 * v[t]) / (e1 * b + e2)
        ww = p - w                                     # the past decays by e^(−w) ...
        q = np.maximum(ww, k[t])                       # ... and the current token joins it
        e1, e2 = np.exp(ww - q), np.exp(k[t] - q)
        a, b, p = e1 * a + e2 * v[t], e1 * b + e2, q
        norms[t] = np.sqrt((a * a).sum() + (b * b).sum() + (p * p).sum())
    return out, a, b, p, norms


def wkv_logits(k: np.ndarray, w: np.ndarray, u: np.ndarray, t: int) -> np.ndarray:
    """The exponents of WKV's sum at position t [t+1, d]: −(t−1−i)·w + k_i for i < t, u + k_t for i = t."""
    i = np.arange(t + 1, dtype=np.float64)[:, None]
    logits = -(t - 1 - i) * w[None, :] + k[: t + 1]
    logits[t] = u + k[t]
    return logits


def wkv_unrolled(k: np.ndarray, v: np.ndarray, w: np.ndarray, u: np.ndarray) -> np.ndarray:
    """WKV as the explicit sum: wkv_t = Σ_i e^(logit_ti) v_i / Σ_i e^(logit_ti), per channel
    (a softmax over the past positions, computed with its maximum subtracted)."""
    out = np.empty(k.shape)
    for t in range(k.shape[0]):
        z = wkv_logits(k, w, u, t)
        e = np.exp(z - z.max(axis=0))
        out[t] = (e * v[: t + 1]).sum(0) / e.sum(0)
    return out


def wkv_matrix(k: np.ndarray, w: np.ndarray, u: np.ndarray, channel: int) -> np.ndarray:
    """The weights [n, n] WKV gives channel `channel`: row t = softmax over i <= t of the logits (0 above)."""
    n = k.shape[0]
    m = np.zeros((n, n))
    for t in range(n):
        z = wkv_logits(k[:, channel:channel + 1], w[channel:channel + 1], u[channel:channel + 1], t)[:, 0]
        e = np.exp(z - z.max())
        m[t, : t + 1] = e / e.sum()
    return m


@dataclass(frozen=True)
class RWKV:
    """WKV on keys k and values v (the head's), channel by channel, and its state."""

    w: np.ndarray               # [d] decay per channel
    u: np.ndarray               # [d] bonus of the current token
    recurrent: np.ndarray       # [n, d]
    unrolled: np.ndarray        # [n, d]
    matrix: np.ndarray          # [n, n] the weights of one channel
    channel: int
    state: np.ndarray           # [3, d] a, b, p after the last position
    state_norms: np.ndarray     # [n] ‖(a, b, p)‖ after each position
    err: float                  # max |recurrent − unrolled|


def rwkv(k: np.ndarray, v: np.ndarray, bonus: float, channel: int) -> RWKV:
    """WKV with the decays of `rwkv_decays` and the same bonus u on every channel."""
    k, _, v = check_qkv(k, k, v)
    if v.shape[1] != k.shape[1]:
        raise ValueError("RWKV mixes channel by channel: k and v need the same width "
                         f"(got {k.shape[1]}, {v.shape[1]}).")
    if not np.isfinite(bonus):
        raise ValueError("The bonus u must be a finite number.")
    if not 0 <= channel < k.shape[1]:
        raise ValueError(f"The channel must be in 0..{k.shape[1] - 1} (got {channel}).")
    w, u = rwkv_decays(k.shape[1]), np.full(k.shape[1], float(bonus))
    rec, a, b, p, norms = wkv_recurrent(k, v, w, u)
    unr = wkv_unrolled(k, v, w, u)
    return RWKV(w, u, rec, unr, wkv_matrix(k, w, u, channel), int(channel), np.stack([a, b, p]), norms,
                max_diff(rec, unr))


# --------------------------------------------------------------------------- selective SSM


def ssm_inputs(q: np.ndarray, k: np.ndarray, v: np.ndarray, n_state: int, seed: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Δ [n, D], A [D, N], B [n, N], C [n, N] for the input x = v (D = its width).
    Seeded projections (seed `seed`): B_t = k_t W_B and C_t = q_t W_C (W ~ N(0, 1/d)), so B
    plays the key and C the query; Δ_t = softplus(x_t W_Δ + b_Δ) with W_Δ ~ N(0, 0.1/D)
    and b_Δ chosen so that softplus(b_Δ) spreads from 0.01 to 0.5 over the channels;
    A_dn = −(n+1) (Mamba's S4D-real initialisation), input-independent."""
    rng = np.random.default_rng(seed)
    d, dd = q.shape[1], v.shape[1]
    w_b = rng.standard_normal((d, n_state)) / np.sqrt(d)
    w_c = rng.standard_normal((d, n_state)) / np.sqrt(d)
    w_dt = rng.standard_normal((dd, dd)) * np.sqrt(0.1 / dd)
    dt0 = np.geomspace(0.01, 0.5, dd)
    b_dt = np.log(np.expm1(dt0))
    delta = np.logaddexp(0.0, v @ w_dt + b_dt)                     # softplus, stable
    a = -np.tile(np.arange(1, n_state + 1, dtype=np.float64), (dd, 1))
    return delta, a, k @ w_b, q @ w_c


def ssm_scan(x: np.ndarray, delta: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """h_t = exp(Δ_t A) ⊙ h_(t−1) + (Δ_t B_t) x_t, y_t = h_t C_t, per channel.
    Returns (y [n, D], ‖h_t‖_F [n], h_n [D, N])."""
    h = np.zeros(a.shape)
    y, norms = np.empty(x.shape), np.empty(x.shape[0])
    for t in range(x.shape[0]):
        h = np.exp(delta[t][:, None] * a) * h + (delta[t][:, None] * b[t][None, :]) * x[t][:, None]
        y[t], norms[t] = h @ c[t], np.linalg.norm(h)
    return y, norms, h


def ssm_matrix(delta: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray, channel: int) -> np.ndarray:
    """The explicit sum's matrix [n, n] of one channel: M_ts = Σ_n C_tn exp(A_n Σ_(r=s+1..t) Δ_r) Δ_s B_sn
    for s <= t, 0 above; y[:, channel] = M x[:, channel]."""
    cum = np.cumsum(delta[:, channel])
    gap = cum[:, None] - cum[None, :]                              # Σ_(r=s+1..t) Δ_r
    low = np.tril(np.ones(gap.shape, dtype=bool))
    decay = np.exp(np.where(low, gap, 0.0)[..., None] * a[channel][None, None, :])   # [n, n, N]
    m = np.einsum("tn,tsn,sn->ts", c, decay, b) * delta[None, :, channel]
    return np.where(low, m, 0.0)


@dataclass(frozen=True)
class SSM:
    """A selective state-space layer on x = v, with B from k and C from q."""

    delta: np.ndarray           # [n, D] step sizes
    scan: np.ndarray            # [n, D] y from the recurrence
    matrix: np.ndarray          # [n, n] the implied matrix of one channel
    channel: int
    state_norms: np.ndarray     # [n] ‖h_t‖
    final_state: np.ndarray     # [D, N]
    checked: tuple[int, ...]    # the channels whose explicit sum was compared
    err: float                  # max |scan − explicit sum| over those channels


def ssm(q: np.ndarray, k: np.ndarray, v: np.ndarray, n_state: int, channel: int, seed: int = 0,
        check_all: bool = False) -> SSM:
    """The selective scan and its explicit sum. The sum costs n²·N per channel: the page
    compares up to CHECK_BUDGET of it (the chosen channel always), `check_all` every channel."""
    q, k, v = check_qkv(q, k, v)
    if not 1 <= n_state <= 256:
        raise ValueError(f"The state size N must be in 1..256 (got {n_state}).")
    if not 0 <= channel < v.shape[1]:
        raise ValueError(f"The channel must be in 0..{v.shape[1] - 1} (got {channel}).")
    delta, a, b, c = ssm_inputs(q, k, v, int(n_state), seed)
    y, norms, h = ssm_scan(v, delta, a, b, c)
    n, dd = v.shape
    room = dd if check_all else max(1, min(dd, CHECK_BUDGET // (n * n * n_state)))
    checked = sorted({int(channel), *np.linspace(0, dd - 1, room).round().astype(int).tolist()})
    err, mine = 0.0, None
    for ch in checked:
        m = ssm_matrix(delta, a, b, c, ch)
        err = max(err, max_diff(m @ v[:, ch], y[:, ch]))
        if ch == channel:
            mine = m
    return SSM(delta, y, mine, int(channel), norms, h, tuple(checked), err)


def state_numbers(kind: str, n: int, d: int, dv: int, n_state: int = 0) -> int:
    """How many numbers each form carries from one position to the next after n positions:
    softmax attention's KV cache 2·n·d grows; retention's S is d·dv, RWKV's (a, b, p) 3·d,
    the SSM's h D·N, whatever n is."""
    sizes = {"kv": (d + dv) * n, "retention": d * dv, "gated": d * dv, "rwkv": 3 * dv, "ssm": dv * n_state}
    if kind not in sizes:
        raise ValueError(f"Unknown form {kind!r}.")
    return int(sizes[kind])

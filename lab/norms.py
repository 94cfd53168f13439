"""LayerNorm against BatchNorm on a padded batch, and the tanh shape behind DyT.

A batch of texts is a [batch, position, feature] block. LayerNorm (Ba et al. 2016),
RMSNorm and DyT work on one token's vector at a time (the feature axis); BatchNorm
(Ioffe & Szegedy 2015) works on one feature at a time, over every token of the batch.
Texts of different lengths are padded, and a BatchNorm that averages over the batch
counts the padding in its statistics: the statistics of a real token's features then
depend on how much padding the other texts brought. LayerNorm's statistics of a real
token are computed from that token alone, so they do not change (`batch_norms`
measures both on the padded batch the masks page builds, lab/masks.py).

`norm_scatter`: a real LayerNorm's input against its output (its learned gain and bias
taken off), with y = g·tanh(α x) fitted. Within one token the map is a straight line of
slope 1/σ; across tokens with different σ the cloud bends like a tanh, the observation
behind DyT (Zhu et al. 2025, "Transformers without Normalization").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from models.trace import Trace, act_name, as_numpy
from models.transformer import Transformer

from .masks import pad_rows
from .residual import norm_inputs

EXTRA_PADDING = (0, 2, 4, 8, 16)


@dataclass
class BatchNorms:
    """The statistics each norm would use on one padded batch (the input of a layer's first norm)."""

    tokens: list[list[str]]      # per row, padding included
    lengths: list[int]           # real tokens per row
    layer: int
    x: np.ndarray                # [B, n, d] the input of the layer's first norm, padding included
    valid: np.ndarray            # [B, n] bool: a real token
    ln_mean: np.ndarray          # [B, n] per token, over the d features (LayerNorm's statistics)
    ln_std: np.ndarray           # [B, n] sqrt of the biased variance
    rms: np.ndarray              # [B, n] per token sqrt(mean x²) (RMSNorm's statistic)
    ln_change: float             # max |LayerNorm mean/std of a real token, padded batch − its text alone|
    bn_mean_real: np.ndarray     # [d] per feature, over the real tokens of the batch
    bn_std_real: np.ndarray
    bn_mean_all: np.ndarray      # [d] per feature, over every position of the batch (padding too)
    bn_std_all: np.ndarray
    bn_change: float             # max |bn_mean_all − bn_mean_real|
    extra: list[int]             # padding added after the longer text too
    sweep_bn: list[float]        # max |BatchNorm mean with that padding − over real tokens only|
    sweep_ln: list[float]        # max |LayerNorm mean/std of the real tokens with that padding − alone|

    @property
    def n(self) -> int:
        return self.x.shape[1]


def norm_input_names(model: Transformer, layer: int) -> list[str]:
    """What the first norm of `layer` reads: the stream (pre-LN, sandwich), stream +
    attention output (post-LN), or the attention's own output (output placement, OLMo 2:
    rebuilt from z). Block 0 without ln1 (ModernBERT): its stream all the same."""
    cfg = model.cfg
    if cfg.norm_position == "output":
        return [act_name("z", layer)]
    names = [act_name("resid_pre", layer)]
    return names + [act_name("attn_out", layer)] if cfg.norm_position == "post" else names


@torch.no_grad()
def norm_input(model: Transformer, ids: list[list[int]], valid: list[list[int]] | None, layer: int) -> np.ndarray:
    """[B, n, d] the input of the first norm in `layer` for a batch (float64)."""
    names = norm_input_names(model, layer)                          # the last one runs last: stop there
    _, tr = model.run_with_cache(ids, attention_mask=valid, names=names, stop_after=names[-1])
    if model.cfg.norm_position == "output":                        # ln1_out reads W_O z
        z = tr.get("z", layer)                                     # [B, n, head, dh]
        w_o = model.blocks[layer].attn.W_O
        x = w_o(z.reshape(*z.shape[:2], -1).to(w_o.weight))
        return as_numpy(x).astype(np.float64)
    x = tr.get("resid_pre", layer)
    if model.cfg.norm_position == "post":
        x = x + tr.get("attn_out", layer)
    return as_numpy(x).astype(np.float64)


def token_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per token over the feature axis: mean, std (biased, as LayerNorm), RMS."""
    return x.mean(-1), x.std(-1), np.sqrt((x**2).mean(-1))


def feature_stats(x: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per feature over the batch and positions selected by `where` [B, n]: mean, std."""
    rows = x[where]                                                  # [tokens, d]
    return rows.mean(0), rows.std(0)


def batch_norms(model: Transformer, rows_ids: Sequence[Sequence[int]], rows_tokens: Sequence[Sequence[str]],
                pad_id: int, pad_token: str, layer: int, extra: Sequence[int] = EXTRA_PADDING) -> BatchNorms:
    """Run the texts as one padded batch (and each alone, and with more padding) and
    compare what LayerNorm and BatchNorm would compute from the input of ln1 in `layer`."""
    cfg = model.cfg
    if cfg.arch == "encoder-decoder":
        raise ValueError("The padded batch is shown for single-stack models (an encoder or a decoder).")
    if not 0 <= layer < cfg.n_layers:
        raise ValueError(f"Layer {layer} does not exist: this model has layers 0..{cfg.n_layers - 1}.")
    ids, valid = pad_rows(rows_ids, pad_id)
    x = norm_input(model, ids, valid, layer)
    v = np.asarray(valid, dtype=bool)
    mean, std, rms = token_stats(x)
    alone_mean, alone_std = np.full_like(mean, np.nan), np.full_like(std, np.nan)
    for b, row in enumerate(rows_ids):
        m, s, _ = token_stats(norm_input(model, [list(row)], None, layer)[0])
        alone_mean[b, : len(row)], alone_std[b, : len(row)] = m, s
    ln_change = float(max(np.abs(mean - alone_mean)[v].max(), np.abs(std - alone_std)[v].max()))
    real_mean, real_std = feature_stats(x, v)
    all_mean, all_std = feature_stats(x, np.ones_like(v))
    extras, sweep_bn, sweep_ln = [], [], []
    for k in extra:
        if x.shape[1] + k > cfg.max_len:
            break
        ids_k, valid_k = pad_rows(rows_ids, pad_id, x.shape[1] + k)
        xk = norm_input(model, ids_k, valid_k, layer)
        vk = np.asarray(valid_k, dtype=bool)
        mk, sk, _ = token_stats(xk)
        sweep_ln.append(float(max(np.abs(mk[:, : v.shape[1]] - alone_mean)[v].max(),
                                  np.abs(sk[:, : v.shape[1]] - alone_std)[v].max())))
        sweep_bn.append(float(np.abs(feature_stats(xk, np.ones_like(vk))[0] - real_mean).max()))
        extras.append(int(k))
    tokens = [list(t) + [pad_token] * (x.shape[1] - len(t)) for t in rows_tokens]
    return BatchNorms(tokens, [len(r) for r in rows_ids], layer, x, v, mean, std, rms, ln_change, real_mean, real_std,
                      all_mean, all_std, float(np.abs(all_mean - real_mean).max()), extras, sweep_bn, sweep_ln)


# ---- the tanh shape of a real LayerNorm -------------------------------------------------------------------
@dataclass
class NormScatter:
    """One norm's input components against its output components (gain and bias removed)."""

    module: str                  # the norm's module path
    label: str                   # "L0 ln1", ...
    kind: str                    # layernorm | rmsnorm | dyt
    x: np.ndarray                # [N] input components (every token × feature, subsampled)
    y: np.ndarray                # [N] (output − β) / γ
    token: np.ndarray            # [N] the position each point comes from
    token_scale: np.ndarray      # [pos] what the norm divided each token by (σ or RMS; 1 for DyT)
    formula_error: float         # max |y − the formula on x| (LayerNorm: (x − μ)/σ; RMSNorm x/rms; DyT tanh(αx))
    alpha: float                 # fitted y ≈ gain · tanh(alpha · x)
    gain: float
    r2_tanh: float
    r2_line: float               # the best line through 0, y ≈ c · x, for comparison
    model_alpha: float           # DyT's own learned α (NaN for the other norms)


def fit_tanh(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least squares y ≈ g·tanh(α x) over α (a log grid, then a finer one around the best);
    g is solved exactly for each α. Returns (α, g, R²)."""
    ss = float(((y - y.mean()) ** 2).sum()) or 1.0

    def best(alphas: np.ndarray) -> tuple[float, float, float]:
        t = np.tanh(np.outer(alphas, x))                             # [A, N]
        g = (t @ y) / np.maximum((t * t).sum(1), 1e-300)
        sse = ((y[None] - g[:, None] * t) ** 2).sum(1)
        i = int(np.argmin(sse))
        return float(alphas[i]), float(g[i]), float(sse[i])

    a, _, _ = best(np.logspace(-4, 3, 281))
    a, g, sse = best(a * np.logspace(-0.05, 0.05, 101))
    return a, g, 1.0 - sse / ss


def norm_scatter(model: Transformer, trace: Trace, module: str | None = None, max_points: int = 20000,
                 seed: int = 0) -> NormScatter:
    """Input vs output of one norm of the recorded pass (`module`: its path, e.g. the
    first LayerNorm of layer 0; None = the first norm of the first block)."""
    sites = norm_inputs(model, trace)
    site = next((s for s in sites if s.module == module), None) if module else \
        next((s for s in sites if ".ln" in "." + s.module and "embed" not in s.module), sites[0])
    if site is None:
        raise ValueError(f"No norm called {module!r} in this model.")
    norm = model.get_submodule(site.module)
    kind = model.cfg.norm
    x = site.input.double().cpu()
    out = site.output.double().cpu()
    w = norm.gain.detach().double().cpu()          # w, or 1 + w (Gemma's RMSNorm)
    b = getattr(norm, "bias", None)
    b = torch.zeros_like(w) if b is None else b.detach().double().cpu()
    keep = w.abs() > 1e-6                                              # a gain of 0 hides its input
    y = (out - b) / torch.where(keep, w, torch.ones_like(w))
    eps = getattr(norm, "eps", 0.0)
    if kind == "layernorm":
        scale = (x.var(-1, unbiased=False, keepdim=True) + eps).sqrt()
        formula = (x - x.mean(-1, keepdim=True)) / scale
    elif kind == "rmsnorm":
        scale = (x.pow(2).mean(-1, keepdim=True) + eps).sqrt()
        formula = x / scale
    else:
        scale = torch.ones(x.shape[0], 1, dtype=x.dtype)
        formula = torch.tanh(norm.alpha.detach().double().cpu() * x)
    err = float((y - formula)[:, keep].abs().max())
    pos = torch.arange(x.shape[0])[:, None].expand_as(x)
    xs, ys, ps = (a[:, keep].reshape(-1).numpy() for a in (x, y, pos))
    if xs.size > max_points:
        pick = np.sort(np.random.default_rng(seed).choice(xs.size, max_points, replace=False))
        xs, ys, ps = xs[pick], ys[pick], ps[pick]
    alpha, gain, r2 = fit_tanh(xs, ys)
    c = float(xs @ ys / max(float(xs @ xs), 1e-300))
    r2_line = 1.0 - float(((ys - c * xs) ** 2).sum()) / (float(((ys - ys.mean()) ** 2).sum()) or 1.0)
    model_alpha = float(norm.alpha.detach()) if kind == "dyt" else float("nan")
    return NormScatter(site.module, site.label, kind, xs, ys, ps, scale[:, 0].numpy(), err, alpha, gain, r2, r2_line,
                       model_alpha)


def variance_check(stats, d_model: int, eps: float) -> tuple[float, float]:
    """Which variance a LayerNorm divides by, from `lab.residual.NormStats` (biased input
    variances and the model's own divisors): (max |divisor − sqrt(biased var + eps)|,
    max |divisor − sqrt(unbiased var + eps)|) over every norm and position."""
    if stats.kind != "layernorm":
        raise ValueError("Only LayerNorm divides by a standard deviation (RMSNorm: the root mean square; DyT: nothing).")
    var = np.asarray(stats.in_var, dtype=np.float64)
    scale = np.asarray(stats.scale, dtype=np.float64)
    biased = np.sqrt(var + eps)
    unbiased = np.sqrt(var * d_model / (d_model - 1) + eps)
    return float(np.abs(scale - biased).max()), float(np.abs(scale - unbiased).max())

"""Figures of a training run: loss / accuracy / learning-rate curves, and the probe's
attention over the steps (an animation with its own play button and step slider).

Plain lists and numpy arrays in, plotly figures out (no torch, no streamlit).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import SEQUENTIAL, plotly_colorscale
from .figure import merge_terms, play_controls, text_scale
from .labels import escape_labels, position_labels

TRAINING_TERMS = {"loss": "loss", "accuracy": "accuracy", "lr": "learning rate", "step": "step", "query": "query",
          "key": "key", "layer": "layer", "play": "Play", "pause": "Pause", "head_mean": "mean over heads"}


def _smooth(y: np.ndarray, window: int) -> np.ndarray:
    """Trailing mean over `window` points (the first points average what exists)."""
    if window <= 1 or len(y) < 2:
        return y
    c = np.cumsum(np.insert(y, 0, 0.0))
    out = np.empty_like(y)
    for i in range(len(y)):
        lo = max(0, i + 1 - window)
        out[i] = (c[i + 1] - c[lo]) / (i + 1 - lo)
    return out


def training_curves(
    steps: Sequence[int],
    loss: Sequence[float],
    eval_steps: Sequence[int] = (),
    accuracy: Sequence[float] = (),
    lr: Sequence[float] | None = None,
    *,
    total_steps: int | None = None,
    smooth: int = 10,
    marker_step: int | None = None,
    terms: Mapping[str, str] | None = None,
    height: int = 320,
) -> go.Figure:
    """Loss (log scale, raw and smoothed) on the left, accuracy (0-1) on the right, and
    the learning rate as a thin line on a third panel when given. `marker_step` draws a
    vertical line (the step being inspected)."""
    tm = merge_terms(terms, TRAINING_TERMS)
    steps, loss = np.asarray(steps, dtype=float), np.asarray(loss, dtype=float)
    if steps.shape != loss.shape:
        raise ValueError(f"training_curves: {len(steps)} steps but {len(loss)} loss values.")
    if len(eval_steps) != len(accuracy):
        raise ValueError(f"training_curves: {len(eval_steps)} evaluation steps but {len(accuracy)} accuracies.")
    cols = 3 if lr is not None else 2
    fig = make_subplots(rows=1, cols=cols, horizontal_spacing=0.08,
                        subplot_titles=[tm["loss"], tm["accuracy"]] + ([tm["lr"]] if cols == 3 else []))
    finite = np.isfinite(loss) & (loss > 0)
    fig.add_trace(go.Scatter(x=steps[finite], y=loss[finite], mode="lines", name=tm["loss"], opacity=0.35,
                             line=dict(color="#6b8fd6", width=1), hovertemplate="%{x}: %{y:.4f}<extra></extra>"),
                  1, 1)
    if finite.any():
        fig.add_trace(go.Scatter(x=steps[finite], y=_smooth(loss[finite], smooth), mode="lines",
                                 name=f"{tm['loss']} (~{smooth})", line=dict(color="#1f4fb4", width=2),
                                 hovertemplate="%{x}: %{y:.4f}<extra></extra>"), 1, 1)
    fig.add_trace(go.Scatter(x=list(eval_steps), y=list(accuracy), mode="lines+markers", name=tm["accuracy"],
                             line=dict(color="#1b8a5a", width=2), marker=dict(size=4),
                             hovertemplate="%{x}: %{y:.1%}<extra></extra>"), 1, 2)
    if cols == 3:
        fig.add_trace(go.Scatter(x=steps, y=list(lr), mode="lines", name=tm["lr"], line=dict(color="#a05a00"),
                                 hovertemplate="%{x}: %{y:.2e}<extra></extra>"), 1, 3)
    x_max = max(total_steps or 0, int(steps[-1]) if len(steps) else 1, 1)
    for c in range(1, cols + 1):
        fig.update_xaxes(range=[0, x_max], title_text=tm["step"], row=1, col=c)
        if marker_step is not None:
            fig.add_vline(x=marker_step, line=dict(color="#d62728", width=1, dash="dot"), row=1, col=c)
    fig.update_yaxes(type="log", dtick=1, tickformat=".3~g", row=1, col=1)   # one tick per decade
    fig.update_yaxes(range=[-0.02, 1.02], tickformat=".0%", row=1, col=2)
    fig.update_layout(height=height, showlegend=False, margin=dict(l=50, r=20, t=40, b=40),
                      uirevision="training")           # keep zoom while the curves grow
    return fig


def attention_over_steps(
    frames: Sequence[np.ndarray],
    steps: Sequence[int],
    q_tokens: Sequence[str],
    k_tokens: Sequence[str],
    *,
    titles: Sequence[str] | None = None,
    terms: Mapping[str, str] | None = None,
    cmap: str = SEQUENTIAL,
    start: int | None = None,
    height: int = 380,
) -> go.Figure:
    """One attention map per panel (e.g. each layer's mean over heads), as an animation
    over training steps: frames[i] is [panels, q, k] at steps[i]. Plotly's own play
    button and slider scrub through the steps in the browser (no server round trip)."""
    tm = merge_terms(terms, TRAINING_TERMS)
    if len(frames) != len(steps) or not len(frames):
        raise ValueError(f"attention_over_steps: {len(frames)} frames for {len(steps)} steps.")
    arr = [np.asarray(f, dtype=np.float32) for f in frames]
    if any(a.ndim != 3 or a.shape != arr[0].shape for a in arr):
        raise ValueError("attention_over_steps: every frame must be [panels, q, k] of the same shape.")
    panels, n_q, n_k = arr[0].shape
    if len(q_tokens) != n_q or len(k_tokens) != n_k:
        raise ValueError(f"attention_over_steps: {len(q_tokens)}x{len(k_tokens)} labels for {n_q}x{n_k} maps.")
    q_lab, k_lab = position_labels(q_tokens), position_labels(k_tokens)
    titles = list(titles) if titles is not None else [f"{tm['layer']} {i}" for i in range(panels)]
    fig = make_subplots(rows=1, cols=panels, subplot_titles=titles, horizontal_spacing=0.06)
    start = len(arr) - 1 if start is None else int(np.clip(start, 0, len(arr) - 1))
    scale = plotly_colorscale(cmap)  # resolved once: every frame in the same palette

    def heat(z: np.ndarray, p: int) -> go.Heatmap:
        return go.Heatmap(z=z, x=k_lab, y=q_lab, zmin=0.0, zmax=1.0, colorscale=scale, showscale=p == panels - 1,
                          hovertemplate=f"{tm['query']} %{{y}}<br>{tm['key']} %{{x}}<br>%{{z:.3f}}<extra></extra>")

    for p in range(panels):
        fig.add_trace(heat(arr[start][p], p), 1, p + 1)
        fig.update_yaxes(autorange="reversed", type="category", row=1, col=p + 1, tickfont=dict(size=round(10 * text_scale())),
                         showticklabels=p == 0)
        fig.update_xaxes(type="category", row=1, col=p + 1, tickfont=dict(size=round(10 * text_scale())), tickangle=-90)
    fig.frames = [go.Frame(data=[heat(a[p], p) for p in range(panels)], name=str(s),
                           traces=list(range(panels))) for a, s in zip(arr, steps)]
    fig.update_layout(height=height, margin=dict(l=60, r=20, t=40, b=110),
                      **play_controls([str(s) for s in steps], [str(s) for s in steps], start, tm, y=-0.35,
                                      prefix=f"{tm['step']} "))
    return fig


def detector_curves(
    steps: Sequence[int],
    scores: Mapping[str, Sequence[float]],
    loss_steps: Sequence[int],
    loss: Sequence[float],
    *,
    chance: Mapping[str, float] | None = None,
    marker_step: int | None = None,
    terms: Mapping[str, str] | None = None,
    smooth: int = 10,
    height: int = 460,
) -> go.Figure:
    """Head-detector scores over a run (top: one line per detector, e.g. the best head's
    induction score at each snapshot; scores [snapshots] each, between 0 and 1; dotted:
    its chance level) above the loss (bottom, log scale) on the same step axis, so a head
    appearing and the loss dropping can be read together. Names are escaped here."""
    tm = merge_terms(terms, TRAINING_TERMS)
    x = np.asarray(steps, dtype=float)
    for name, ys in scores.items():
        if len(ys) != len(x):
            raise ValueError(f"detector_curves: {len(ys)} scores of {name!r} for {len(x)} steps.")
    ls, lv = np.asarray(loss_steps, dtype=float), np.asarray(loss, dtype=float)
    if ls.shape != lv.shape:
        raise ValueError(f"detector_curves: {len(ls)} steps but {len(lv)} loss values.")
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08, row_heights=[0.6, 0.4])
    palette = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    for i, (name, ys) in enumerate(scores.items()):
        color, label = palette[i % len(palette)], escape_labels([name])[0]
        fig.add_trace(go.Scatter(x=x, y=np.asarray(ys, dtype=np.float32), mode="lines+markers", name=label,
                                 line=dict(color=color, width=2), marker=dict(size=4),
                                 hovertemplate=f"{label}<br>{tm['step']} %{{x}}: %{{y:.3f}}<extra></extra>"), 1, 1)
        if chance is not None and name in chance and np.isfinite(chance[name]):
            fig.add_hline(y=float(chance[name]), line=dict(color=color, width=1, dash="dot"), row=1, col=1)
    finite = np.isfinite(lv) & (lv > 0)
    if finite.any():
        fig.add_trace(go.Scatter(x=ls[finite], y=_smooth(lv[finite], smooth), mode="lines", name=tm["loss"],
                                 line=dict(color="#1f4fb4", width=2), showlegend=False,
                                 hovertemplate=f"{tm['loss']}<br>{tm['step']} %{{x}}: %{{y:.4f}}<extra></extra>"),
                      2, 1)
    if marker_step is not None:
        for r in (1, 2):
            fig.add_vline(x=marker_step, line=dict(color="#7f7f7f", width=1, dash="dot"), row=r, col=1)
    fig.update_yaxes(range=[-0.02, 1.02], row=1, col=1)
    fig.update_yaxes(type="log", tickformat=".3~g", title_text=tm["loss"], row=2, col=1)
    fig.update_xaxes(title_text=tm["step"], row=2, col=1)
    fig.update_layout(height=height, margin=dict(l=50, r=20, t=30, b=40), legend=dict(orientation="h", y=1.08))
    return fig

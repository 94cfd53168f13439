"""Figures of the generation page: candidate bars, the beam tree, the KV cache.

Pure: numpy arrays + token strings in, plotly figures out. Token labels are escaped.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .figure import add_title, merge_terms, text_scale
from .labels import escape_labels, position_label

CHOSEN = "#ff4b4b"
KEPT = "#636EFA"
CUT = "rgba(150,150,150,0.45)"
MODEL = "rgba(99,110,250,0.25)"
FINISHED = "#00a67e"

GENERATION_TERMS = {"prob": "probability", "model": "model (T = 1)", "tempered": "after temperature",
          "final": "sampled from (after top-k / top-p)", "cut": "cut", "chosen": "chosen", "step": "step",
          "score": "log P", "position": "position", "layer": "layer", "cached": "cached before",
          "new": "new this step", "empty": "not yet", "tokens": "positions", "bytes": "KV cache (KiB)",
          "block": "block", "slot": "slot", "finished": "finished", "pruned": "pruned", "kept": "kept",
          "best": "best sequence"}
BAR_TERMS = ("prob", "model", "tempered", "final", "cut", "chosen")      # the words candidate_bars reads
CACHE_TERMS = ("layer", "position", "cached", "new")                     # the words kv_cache_grid reads
BEAM_TERMS = ("step", "score", "kept", "pruned", "finished", "best")     # the words beam_tree reads


def candidate_bars(tokens: Sequence[str], model_probs: np.ndarray, probs: np.ndarray, kept: np.ndarray,
                   final_probs: np.ndarray, chosen: int | None, *, title: str = "",
                   terms: Mapping[str, str] | None = None) -> go.Figure:
    """The top candidates of one step, most probable first: a faint bar for the model's
    own probability (T = 1), a bar for the probability after temperature (grey when top-k
    / top-p cut the token), and a dot for the final probability the token was drawn with.
    All arrays are [n]; `chosen` is the index of the chosen token among them (or None
    when it is not among the candidates)."""
    n = len(tokens)
    arrays = [np.asarray(a) for a in (model_probs, probs, kept, final_probs)]
    if any(a.shape != (n,) for a in arrays):
        raise ValueError(f"candidate_bars: every array must have shape [{n}] (one value per token).")
    model_p, p, keep, final = [a.astype(np.float32) if a.dtype != bool else a for a in arrays]
    words = merge_terms(terms, GENERATION_TERMS)
    labels = [f"{i + 1}. {s}" for i, s in enumerate(escape_labels(tokens))]
    y = np.arange(n, dtype=np.int32)
    colors = [CHOSEN if i == chosen else (KEPT if keep[i] else CUT) for i in range(n)]
    fig = go.Figure()
    fig.add_bar(x=model_p, y=y, orientation="h", marker_color=MODEL, name=words["model"], width=0.9,
                hovertemplate="%{x:.4f}<extra>" + words["model"] + "</extra>")
    fig.add_bar(x=p, y=y, orientation="h", marker_color=colors, name=words["tempered"], width=0.55,
                text=[f"{v:.3f}" + ("" if keep[i] else f" ({words['cut']})") for i, v in enumerate(p)],
                # a readable size: plotly would shrink "outside" text to the thin bar's height
                textposition="outside", cliponaxis=False, constraintext="none",
                textfont=dict(size=round(11 * text_scale())),
                hovertemplate="%{x:.4f}<extra>" + words["tempered"] + "</extra>")
    fig.add_scatter(x=final, y=y, mode="markers", marker=dict(symbol="diamond", size=10, color="#222"),
                    name=words["final"], hovertemplate="%{x:.4f}<extra>" + words["final"] + "</extra>")
    top = float(max(model_p.max(initial=0), p.max(initial=0), final.max(initial=0), 1e-6))
    fig.update_layout(
        barmode="overlay", height=int(np.clip(90 + 28 * n, 220, 700)),
        xaxis=dict(range=[0, min(1.0, top * 1.3) if top < 0.77 else 1.05], title=dict(text=words["prob"])),
        yaxis=dict(range=[n - 0.5, -0.5], tickmode="array", tickvals=y, ticktext=labels, automargin=False),
        margin=dict(l=150, r=round(60 * text_scale()), t=40 if title else 10, b=40),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), bargap=0.1,
    )
    if chosen is not None:
        # right of a short bar; inside a long one (past its end it would run off the figure)
        inside = float(p[chosen]) > 0.6
        fig.add_annotation(x=float(p[chosen]), y=chosen, text=f"{words['chosen']} ▶" if inside else f"◀ {words['chosen']}",
                           showarrow=False, xanchor="right" if inside else "left", xshift=-6 if inside else 48,
                           font=dict(color=CHOSEN), bgcolor="rgba(255,255,255,0.85)" if inside else None)
    return add_title(fig, title, margin_t=70)


def beam_tree(steps: Sequence[int], parents: Sequence[int], tokens: Sequence[str], scores: Sequence[float],
              kept: Sequence[bool], finished: Sequence[bool], best: Sequence[int], *,
              prompt_label: str = "prompt", terms: Mapping[str, str] | None = None) -> go.Figure:
    """The beam-search tree: node i (step steps[i], parent parents[i], -1 = the prompt)
    at x = step, children ordered by score; kept nodes blue, pruned grey, finished green,
    the returned sequence (`best`, node ids) drawn thick and red."""
    n = len(steps)
    if not all(len(a) == n for a in (parents, tokens, scores, kept, finished)):
        raise ValueError("beam_tree: steps, parents, tokens, scores, kept and finished need one entry per node.")
    words = merge_terms(terms, GENERATION_TERMS)
    labels = escape_labels(tokens)
    # y: at each step, nodes ordered by their parent's y, then by score (best on top)
    y = np.zeros(n, dtype=np.float32)
    by_step: dict[int, list[int]] = {}
    for i, s in enumerate(steps):
        by_step.setdefault(int(s), []).append(i)
    for s in sorted(by_step):
        order = sorted(by_step[s], key=lambda i: (y[parents[i]] if parents[i] >= 0 else 0.0, -scores[i]))
        for rank, i in enumerate(order):
            y[i] = rank
    # centre each step's column
    for s, ids in by_step.items():
        y[ids] -= (len(ids) - 1) / 2
    best_set = set(best)
    fig = go.Figure()
    ex, ey, bx, by = [], [], [], []
    for i in range(n):
        px, py = (float(steps[i]) - 1, 0.0) if parents[i] < 0 else (float(steps[parents[i]]), float(y[parents[i]]))
        xs, ys = (bx, by) if i in best_set else (ex, ey)
        xs += [px, float(steps[i]), None]
        ys += [py, float(y[i]), None]
    fig.add_scatter(x=ex, y=ey, mode="lines", line=dict(color="rgba(120,120,120,0.5)", width=1), hoverinfo="skip",
                    showlegend=False)
    fig.add_scatter(x=bx, y=by, mode="lines", line=dict(color=CHOSEN, width=3), hoverinfo="skip",
                    name=words["best"])
    colors = [FINISHED if finished[i] else (KEPT if kept[i] else CUT) for i in range(n)]
    fig.add_scatter(x=np.asarray(steps, dtype=np.int32), y=y, mode="markers+text", text=labels,
                    textposition="top center", marker=dict(size=11, color=colors,
                                                            line=dict(color=[CHOSEN if i in best_set else "white"
                                                                             for i in range(n)], width=2)),
                    customdata=np.asarray(scores, dtype=np.float32), showlegend=False,
                    hovertemplate="%{text}<br>" + words["score"] + " %{customdata:.3f}<extra></extra>")
    fig.add_scatter(x=[-1], y=[0], mode="markers+text", text=[html.escape(prompt_label)], textposition="middle left",
                    marker=dict(size=13, color="#444", symbol="square"), hoverinfo="skip", showlegend=False)
    for name, color in ((words["kept"], KEPT), (words["pruned"], CUT), (words["finished"], FINISHED)):
        fig.add_scatter(x=[None], y=[None], mode="markers", marker=dict(size=10, color=color), name=name)
    span = max((len(v) for v in by_step.values()), default=1)
    fig.update_layout(height=int(np.clip(120 + 46 * span, 260, 900)),
                      xaxis=dict(title=dict(text=words["step"]), dtick=1, range=[-1.8, max(steps, default=0) + 0.6]),
                      yaxis=dict(visible=False, autorange="reversed"),
                      margin=dict(l=10, r=10, t=30, b=40), legend=dict(orientation="h", y=1.08, x=0))
    return fig


def kv_cache_grid(n_layers: int, n_positions: int, cached_before: int, tokens: Sequence[str], *,
                  terms: Mapping[str, str] | None = None) -> go.Figure:
    """Which K/V rows each layer holds after a step: [layer, position] cells, positions
    < cached_before came from earlier steps, the rest were computed in this step."""
    if not 0 <= cached_before <= n_positions or len(tokens) != n_positions:
        raise ValueError("kv_cache_grid: need 0 <= cached_before <= n_positions and one token per position.")
    words = merge_terms(terms, GENERATION_TERMS)
    z = np.zeros((n_layers, n_positions), dtype=np.float32)
    z[:, :cached_before] = 1.0
    z[:, cached_before:] = 2.0
    labels = escape_labels(tokens)
    hover = [[f"{words['layer']} {li} · {position_label(j, labels[j])}: "
              f"{words['cached'] if j < cached_before else words['new']}" for j in range(n_positions)]
             for li in range(n_layers)]
    fig = go.Figure(go.Heatmap(z=z, zmin=0, zmax=2, showscale=False, xgap=1, ygap=2,
                               colorscale=[[0, "#eeeeee"], [0.5, KEPT], [1.0, CHOSEN]],
                               hovertext=hover, hovertemplate="%{hovertext}<extra></extra>"))
    step = max(1, n_positions // 30)
    fig.update_layout(height=int(np.clip(60 + 34 * n_layers, 140, 500)),
                      xaxis=dict(title=dict(text=words["position"]), tickmode="array",
                                 tickvals=list(range(0, n_positions, step)),
                                 ticktext=[position_label(j, labels[j]) for j in range(0, n_positions, step)],
                                 tickangle=-60),
                      yaxis=dict(tickmode="array", tickvals=list(range(n_layers)),
                                 ticktext=[f"{words['layer']} {i}" for i in range(n_layers)], autorange="reversed"),
                      margin=dict(l=10, r=10, t=10, b=90))
    return fig


def kv_memory_chart(positions: np.ndarray, series: Mapping[str, np.ndarray], *, current: str | None = None,
                    at: int | None = None, terms: Mapping[str, str] | None = None) -> go.Figure:
    """KV cache size (bytes) against cached positions for several layouts (MHA, GQA,
    MQA...): `series` maps a name to bytes [len(positions)]; `current` is drawn thick,
    `at` marks the current step's position."""
    words = merge_terms(terms, GENERATION_TERMS)
    pos = np.asarray(positions)
    fig = go.Figure()
    for name, values in series.items():
        values = np.asarray(values, dtype=np.float64)
        if values.shape != pos.shape:
            raise ValueError(f"kv_memory_chart: series {name!r} has shape {values.shape}, positions {pos.shape}.")
        fig.add_scatter(x=pos, y=(values / 1024).astype(np.float32), mode="lines", name=html.escape(name),
                        line=dict(width=4 if name == current else 1.5))
    if at is not None:
        fig.add_vline(x=at, line=dict(color=CHOSEN, dash="dot"))
    fig.update_layout(height=300, xaxis=dict(title=dict(text=words["tokens"])),
                      yaxis=dict(title=dict(text=words["bytes"]), rangemode="tozero"),
                      margin=dict(l=10, r=10, t=10, b=40), legend=dict(orientation="h", y=1.12, x=0))
    return fig


def paged_view(tokens: Sequence[str], block_size: int, physical: Sequence[int], *,
               terms: Mapping[str, str] | None = None) -> go.Figure:
    """The cache as PagedAttention stores it: logical block b (row) holds positions
    b*block_size .. and lives in physical block physical[b]; the empty slots of the last
    block are the only waste."""
    n = len(tokens)
    if block_size < 1:
        raise ValueError("paged_view: block_size must be at least 1.")
    blocks = -(-n // block_size)
    if len(physical) != blocks:
        raise ValueError(f"paged_view: need one physical block id per logical block ({blocks}).")
    words = merge_terms(terms, GENERATION_TERMS)
    labels = escape_labels(tokens, max_chars=6)
    z = np.zeros((blocks, block_size), dtype=np.float32)
    text = [["" for _ in range(block_size)] for _ in range(blocks)]
    for j in range(n):
        z[j // block_size, j % block_size] = 1.0
        text[j // block_size][j % block_size] = position_label(j, labels[j])
    fig = go.Figure(go.Heatmap(z=z, zmin=0, zmax=1, showscale=False, xgap=3, ygap=3, text=text,
                               texttemplate="%{text}", colorscale=[[0, "#f3f3f3"], [1, "#c9d1ff"]],
                               hovertemplate="%{text}<extra></extra>"))
    fig.update_layout(height=int(np.clip(50 + 34 * blocks, 140, 900)),
                      xaxis=dict(title=dict(text=words["slot"]), dtick=1, side="top"),
                      yaxis=dict(tickmode="array", tickvals=list(range(blocks)), autorange="reversed",
                                 ticktext=[f"{words['block']} {b} → #{physical[b]}" for b in range(blocks)]),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig

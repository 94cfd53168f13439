"""The figure the lesson "Everything becomes tokens" draws for text: one sentence cut several
ways, one row of boxes per way of cutting, so that the lengths can be compared at a glance.

Pieces in, plotly out; every label escaped here (`escape_labels`).
"""
from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from .figure import BLUE, GREY, ORANGE, RED, add_title, text_scale
from .labels import escape_labels

MAX_PIECES = 80            # a row draws its first 80 pieces and says how many more there are
PER_LINE = 16              # boxes per line (a byte-pair label, ⟨e6 9c⟩, still fits its box)


def cut_rows(rows: Sequence[tuple[str, Sequence[str], Sequence[bool]]], *, title: str = "",
             more: str = "+{n}", per_line: int = PER_LINE) -> go.Figure:
    """`rows`: (name, pieces, marked) per way of cutting, drawn top to bottom, each as lines of
    at most `per_line` boxes; a marked piece (an unknown token, the row's answer) is orange,
    the others blue. Each row's name carries its number of pieces; a row longer than
    MAX_PIECES ends with `more` (its "{n}" = how many are not drawn)."""
    if not rows:
        raise ValueError("cut_rows: nothing to draw.")
    for name, pieces, marked in rows:
        if len(pieces) != len(marked):
            raise ValueError(f"cut_rows: {len(pieces)} pieces but {len(marked)} marks in row {name!r}.")
    scale = text_scale()
    fig = go.Figure()
    y, ticks, names = 0.0, [], []
    for name, pieces, marked in rows:
        shown = list(pieces[:MAX_PIECES])
        labels = escape_labels(shown, 8)
        xs = [i % per_line for i in range(len(shown))]
        ys = [y + i // per_line for i in range(len(shown))]
        for x, yy, m in zip(xs, ys, marked):
            colour = ORANGE if m else BLUE
            fig.add_shape(type="rect", x0=x - 0.46, x1=x + 0.46, y0=yy - 0.38, y1=yy + 0.38, line=dict(color=colour, width=1.5),
                          fillcolor=colour, opacity=0.22, layer="below")
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="text", text=labels, textfont=dict(size=round(12 * scale)),
            hovertext=[f"{i + 1}: {lab}" for i, lab in enumerate(labels)], hovertemplate="%{hovertext}<extra></extra>",
            name="", showlegend=False))
        lines = max(1, -(-len(shown) // per_line))
        if len(pieces) > MAX_PIECES:
            fig.add_annotation(x=per_line - 1, y=y + lines - 0.1, yanchor="top", xanchor="right", showarrow=False,
                               text=escape_labels([more.format(n=len(pieces) - MAX_PIECES)])[0],
                               font=dict(color=GREY, size=round(12 * scale)))
            lines += 1
        ticks.append(y)
        names.append(f"{escape_labels([name], 40)[0]} · {len(pieces)}")
        y += lines + 0.6
    fig.update_layout(
        xaxis=dict(visible=False, range=[-0.6, per_line - 0.4]),
        yaxis=dict(tickvals=ticks, ticktext=names, range=[y - 0.4, -0.7], automargin=True, showgrid=False,
                   zeroline=False),
        height=round((50 + 30 * (y + 0.3)) * scale), margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        showlegend=False, plot_bgcolor="rgba(0,0,0,0)")
    return add_title(fig, title)


def count_curve(xs: Sequence[int], ys: Sequence[int], levels: Sequence[tuple[str, float]], *, title: str = "",
                x_name: str = "merges", y_name: str = "tokens", name: str = "") -> go.Figure:
    """A count (`ys`) against a setting (`xs`), with dashed horizontal `levels` (name, value)
    to compare it with (e.g. the text's characters and bytes)."""
    if len(xs) != len(ys) or not len(xs):
        raise ValueError(f"count_curve: {len(xs)} settings and {len(ys)} counts.")
    fig = go.Figure(go.Scatter(x=list(xs), y=list(ys), mode="lines+markers", line=dict(color=BLUE, width=2.5),
                               name=escape_labels([name], 60)[0] if name else "",
                               hovertemplate="%{x:,}: %{y:,}<extra></extra>"))
    for i, (label, value) in enumerate(levels):
        colour = (GREY, ORANGE, RED)[i % 3]
        fig.add_hline(y=value, line=dict(color=colour, dash="dash", width=1.5),
                      annotation=dict(text=escape_labels([label], 60)[0], font=dict(color=colour)),
                      annotation_position="top right")
    fig.update_layout(xaxis=dict(title=dict(text=escape_labels([x_name], 60)[0])),
                      yaxis=dict(title=dict(text=escape_labels([y_name], 60)[0]), rangemode="tozero"),
                      height=round(360 * text_scale()), margin=dict(l=10, r=10, t=40 if title else 10, b=10),
                      showlegend=False)
    return add_title(fig, title)

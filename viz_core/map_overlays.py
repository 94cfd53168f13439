"""The pass's data on the model map (viz_core/model_map.py draws the structure): each
attention box's heads as squares with their key/value groups, per-layer sparklines
beside the sub-layers, and the "follow one token" animation with its norm path.
Every clickable point carries ``customdata=[part index, layer, head]``."""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from .colors import plotly_colorscale
from .figure import merge_terms, play_controls, template_text
from .map_layout import BOX_W, FONT, MAP_TERMS, MAX_SQUARES, NOTE_W, RING, UNIT_PX, VALUE_INK, Box, in_flow


def head_squares(boxes: list[Box], data: Any, layer: int, words: Mapping[str, str]) -> list[dict]:
    """Each attention box's heads as squares (coloured by their entropy at `layer`) with
    the K/V heads they share bracketed underneath; a square opens that head."""
    out = []
    for b in boxes:
        p = b.part
        n = p.info.get("heads", 0) if p.kind == "attn" else 0
        if not 0 < n <= MAX_SQUARES:
            continue
        step = min(0.42, (BOX_W - 0.6) / n)
        xs = b.cx - step * (n - 1) / 2 + step * np.arange(n)
        y = b.y0 + 1.12
        ent = None
        if data is not None and p.stack in data.stacks:
            e = data.stacks[p.stack].cross_entropy if p.id == "cross" else data.stacks[p.stack].entropy
            ent = None if e is None else np.asarray(e)[layer]
        hover = [template_text(f"{words['layer']} {layer}, H{h}" + ("" if ent is None else f"<br>{words['entropy']} "
                                                                     f"{ent[h]:.3f}")) for h in range(n)]
        color = ent if ent is not None else "#9aa9bf"
        out.append(dict(type="scatter", x=xs, y=np.full(n, y), mode="markers", name="heads",
                        customdata=[[b.index, layer, h] for h in range(n)], hovertext=hover,
                        hovertemplate="%{hovertext}<extra></extra>",
                        marker=dict(size=max(8, int(step * UNIT_PX) - 4), symbol="square", color=color,
                                    colorscale=plotly_colorscale("blues"), reversescale=True,
                                    line=dict(color="#17457d", width=1)),
                        unselected=dict(marker=dict(opacity=1)), showlegend=False))
        groups = p.info["groups"]
        if p.info["kv_heads"] < n:                     # GQA / MQA: bracket the heads sharing a K/V head
            for g in sorted(set(groups)):
                members = [h for h in range(n) if groups[h] == g]
                xa, xb = xs[members[0]] - step * 0.4, xs[members[-1]] + step * 0.4
                out.append(dict(type="scatter", x=[xa, xa, xb, xb], y=[y + 0.22, y + 0.32, y + 0.32, y + 0.22],
                                mode="lines", line=dict(color="#17457d", width=1.5), hoverinfo="skip",
                                showlegend=False))
                if len(set(groups)) <= 8:
                    out.append(dict(type="scatter", x=[(xa + xb) / 2], y=[y + 0.52], mode="text",
                                    text=[words["kv_group"].format(g=g)], textfont=dict(size=FONT - 4, color="#17457d"),
                                    hoverinfo="skip", showlegend=False))
    return out


def sparklines(boxes: list[Box], data: Any, layer: int, words: Mapping[str, str], n_layers: int) -> list[dict]:
    """Per layer: the attention entropy beside each attention box and the stream's norm
    beside the FFN; each point opens that layer. Sliding-window layers are diamonds and
    layers without RoPE open circles on the attention's curve (a legend under it)."""
    if data is None or n_layers < 2:
        return []
    out = []
    for b in boxes:
        p = b.part
        if p.kind not in ("attn", "ffn") or p.stack not in data.stacks:
            continue
        sd = data.stacks[p.stack]
        if p.kind == "attn":
            values, label = np.asarray(sd.attention_entropy(cross=p.id == "cross")), words["entropy_layer"]
            target = b.index
        else:
            stream = [x for x in boxes if x.part.stack == p.stack and x.part.section == "ffn" and x.part.in_block]
            values, label = np.asarray(sd.per_layer(stream[-1].part.id)), words["norm_layer"]
            target = stream[-1].index
        if not len(values):
            continue
        x0, x1 = b.cx + BOX_W / 2 + 2.1, b.cx + BOX_W / 2 + 4.9
        y_top, y_bot = b.y0 + 0.55, b.y1 - 0.15
        lo, hi = float(np.min(values)), float(np.max(values))
        ys = y_bot - (values - lo) / (hi - lo if hi > lo else 1.0) * (y_bot - y_top)
        xs = np.linspace(x0, x1, len(values))
        local = set(p.info.get("local_layers", ())) if p.kind == "attn" else set()
        nope = set(p.info.get("nope_layers", ())) if p.kind == "attn" else set()

        def kind_of(i: int) -> str:
            tags = [words[w] for w, on in (("layer_local", i in local), ("layer_nope", i in nope)) if on]
            return f" ({', '.join(tags)})" if tags else ""

        hover = [template_text(f"{words['layer']} {i}{kind_of(i)}: {label.split(' /')[0]} {v:.3g}")
                 for i, v in enumerate(values)]
        symbols = ["diamond-open" if i in local and i in nope else "diamond" if i in local else
                   "circle-open" if i in nope else "circle" for i in range(len(values))]
        out.append(dict(type="scatter", x=xs, y=ys, mode="lines+markers", name="spark",
                        customdata=[[target, i, -1] for i in range(len(values))], hovertext=hover,
                        hovertemplate="%{hovertext}<extra></extra>", line=dict(color=VALUE_INK, width=2),
                        marker=dict(size=[13 if i == layer else 8 for i in range(len(values))], color=VALUE_INK,
                                    symbol=symbols,
                                    line=dict(color=[VALUE_INK if m.endswith("open") else "#ffffff" for m in symbols],
                                              width=[2 if m.endswith("open") else 1 for m in symbols])),
                        unselected=dict(marker=dict(opacity=1)), showlegend=False))
        legend = " ".join(words[w] for w, on in (("mark_local", local), ("mark_nope", nope)) if on)
        if legend:
            out.append(dict(type="scatter", x=[(x0 + x1) / 2], y=[y_bot + 0.3], mode="text", text=[legend],
                            textfont=dict(size=FONT - 4, color=VALUE_INK), hoverinfo="skip", showlegend=False))
        out.append(dict(type="scatter", x=[(x0 + x1) / 2], y=[b.y0 + 0.18], mode="text", text=[label],
                        textfont=dict(size=FONT - 3, color=VALUE_INK), hoverinfo="skip", showlegend=False))
    return out


def follow_token(fig: go.Figure, boxes: list[Box], follow: Mapping[str, Any], words: Mapping[str, str]) -> go.Figure:
    """Add the "follow one token" animation to a map figure: a ring on the part where
    the token's vector is, its norm beside it, and one frame per stop with plotly's
    play / pause buttons and a step slider (client side: no server round trip).

    follow: ``stack`` (the column), ``stops`` [(part id, layer)], ``norms`` [stops],
    ``labels`` [stops] (slider labels), ``notes`` (optional extra text per stop, escaped
    here) and ``start`` (the stop shown first)."""
    stops, norms = list(follow["stops"]), np.asarray(follow["norms"], dtype=np.float64)
    labels = [html.escape(str(x)) for x in follow["labels"]]
    notes = [html.escape(str(x)) for x in follow.get("notes") or [""] * len(stops)]
    if not (len(stops) == len(norms) == len(labels) == len(notes)) or not stops:
        raise ValueError(f"follow_token: {len(stops)} stops, {len(norms)} norms, {len(labels)} labels.")
    where = {b.part.id: b for b in boxes if b.part.stack == follow["stack"]}
    missing = [pid for pid, _ in stops if pid not in where]
    if missing:
        raise ValueError(f"follow_token: no part {missing[0]!r} in the {follow['stack']} column.")
    start = int(np.clip(follow.get("start", 0), 0, len(stops) - 1))

    def at(k: int) -> list[go.Scatter]:
        """The outline around stop k's part and the token's norm beside it."""
        pid, layer = stops[k]
        b = where[pid]
        half = 0.36 if b.part.kind == "add" else (BOX_W if in_flow(b.part) else NOTE_W) / 2 + 0.12
        x0, x1, y0, y1 = b.cx - half, b.cx + half, b.y0 - 0.1, b.y1 + 0.1
        tag = f"{words['layer']} {layer} · " if layer >= 0 else ""
        extra = f"<br>{notes[k]}" if notes[k] else ""
        return [go.Scatter(x=[x0, x1, x1, x0, x0], y=[y0, y0, y1, y1, y0], mode="lines", name="follow",
                           line=dict(color=RING, width=5), hoverinfo="skip", showlegend=False),
                go.Scatter(x=[x1 + 0.2], y=[b.yc], mode="text", name="follow_norm", hoverinfo="skip",
                           text=[f"<b>{tag}‖x‖ = {norms[k]:.3g}</b>{extra}"], textposition="middle right",
                           textfont=dict(size=FONT + 1, color=RING), cliponaxis=False, showlegend=False)]

    fig.add_traces(at(start))
    idx = [len(fig.data) - 2, len(fig.data) - 1]
    fig.frames = [go.Frame(data=at(k), traces=idx, name=str(k)) for k in range(len(stops))]
    fig.update_layout(**play_controls([str(k) for k in range(len(stops))], labels, start, words, y=0.0,
                                      prefix=f"{words['step']}: ", font_size=FONT, slider_x=0.24))
    fig.update_layout(margin=dict(b=150), height=fig.layout.height + 140)
    return fig


def norm_path(labels: Sequence[str], norms: np.ndarray, current: int, *, terms: Mapping[str, str] | None = None,
              layers: Sequence[int] | None = None) -> go.Figure:
    """The followed token's ‖x‖ at every stop (a line over the stops), the current stop
    marked; block layers shaded alternately."""
    words = merge_terms(terms, MAP_TERMS)
    y = np.asarray(norms, dtype=np.float32)
    if y.ndim != 1 or len(labels) != len(y) or not len(y):
        raise ValueError(f"norm_path: {len(labels)} labels for norms of shape {y.shape}.")
    x = np.arange(len(y))
    fig = go.Figure(go.Scatter(x=x, y=y, mode="lines+markers", line=dict(color=VALUE_INK, width=2),
                               marker=dict(size=7), hovertext=[html.escape(str(s)) for s in labels],
                               hovertemplate="%{hovertext}: %{y:.4g}<extra></extra>", name=words["norm"]))
    c = int(np.clip(current, 0, len(y) - 1))
    fig.add_trace(go.Scatter(x=[c], y=[y[c]], mode="markers", marker=dict(size=16, color=RING, symbol="circle-open",
                                                                          line=dict(width=3)), hoverinfo="skip"))
    if layers is not None:
        lay = np.asarray(layers)
        for layer in sorted(set(int(v) for v in lay if v >= 0))[::2]:
            where = np.flatnonzero(lay == layer)
            fig.add_vrect(x0=where[0] - 0.5, x1=where[-1] + 0.5, fillcolor="rgba(0,0,0,0.05)", line_width=0)
    step = max(1, len(y) // 30)
    fig.update_layout(height=260, showlegend=False, margin=dict(l=50, r=10, t=10, b=90),
                      xaxis=dict(tickmode="array", tickvals=x[::step].tolist(),
                                 ticktext=[html.escape(str(s)) for s in labels][::step], tickangle=-60),
                      yaxis=dict(title=dict(text=words["norm"]), rangemode="tozero"))
    return fig

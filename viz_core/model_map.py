"""The model map: a whole Transformer drawn from its structure, top (tokens) to bottom
(output), with one block expanded and "× N", shapes on the arrows and the numbers of
one pass beside the parts.

Input (duck-typed, no import of `lab`): a map as made by `lab.model_map.model_map`
(``.stacks``, each with ``.stack``, ``.n_tokens`` and ``.parts``; a part has ``.id``,
``.kind``, ``.section``, ``.in_block``, ``.shape``, ``.on_stream``, ``.info``), and
optionally that pass's data (`lab.model_map.map_data`: ``.stacks[name]`` with
``.value(part, layer)``, ``.per_layer(part)``, ``.attention_entropy(cross)``,
``.entropy`` [L, H], ``.cross_entropy``).

One stack is one column: the sub-layers in execution order, the residual stream as the
skip line on the left that rejoins at each ⊕, so a pre-norm sits inside the branch and
a post-norm after the ⊕ (on the stream). An encoder-decoder has two columns and the
encoder's output arrow into the decoder's cross-attention. Sections (input, attention,
cross-attention, FFN, output) line up across columns and, through ``rows``, across two
maps drawn side by side (`section_rows`).

Clicks: every box, head square and sparkline point is a point with
``customdata=[part index, layer, head]`` (part index: the order of
``[p for s in map.stacks for p in s.parts]``, layer/head -1 where none), read back with
`viz_core.selected_customdata`.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from .colors import plotly_colorscale
from .figure import CLICK_TRACE, merge_terms, play_controls, template_text

UNIT_PX = 44                 # one unit of the drawing, in px (the axes keep x and y at the same scale)
BOX_W = 5.4                  # width of a part's box
HEIGHT = {"tokens": 0.8, "embed": 1.0, "pos": 1.0, "norm": 0.8, "attn": 2.2, "ffn": 1.5, "add": 0.55,
          "head": 1.0, "output": 0.8}
GAP = 0.8                    # vertical room for an arrow and its shape label
NOTE, NOTE_W = 1.0, 4.8     # room and width of a note beside the column (positions inside attention)
SKIP = 0.9                   # the skip line's distance left of a box
COLUMN_W = SKIP + BOX_W + 1.9 + 3.4 + 0.8      # skip, box, measured value, sparkline, margin
SECTIONS = ("input", "attn", "cross", "ffn", "output")
MAX_SQUARES = 24             # heads drawn as squares up to this many
FILL = {"tokens": "#ece6f7", "embed": "#ece6f7", "pos": "#ece6f7", "norm": "#fff1bf", "attn": "#dbe9fb",
        "ffn": "#d9f2e1", "head": "#ececec", "output": "#ececec"}
EDGE = {"tokens": "#4b2f8f", "embed": "#4b2f8f", "pos": "#4b2f8f", "norm": "#7a5b00", "attn": "#17457d",
        "ffn": "#1b5e33", "head": "#333333", "output": "#333333"}
INK, SHAPE_INK, VALUE_INK = "#111111", "#333333", "#0b4f8a"
DIFF = "#d9480f"             # parts where two compared models differ
RING = "#e03131"             # the followed token's position
FONT = 15

MAP_TERMS: dict[str, str] = {
    "tokens": "Tokens", "tokens_detail": "{n} token ids", "embed": "Token embedding", "embed_detail": "{vocab} × {d} table",
    "type": "+ segment embedding", "type_detail": "{types} segments",
    "pos_learned": "+ learned positions", "pos_sinusoidal": "+ sinusoidal positions",
    "pos_detail": "table of {max_len} positions", "pos_rope": "RoPE", "pos_rope_detail": "rotates q, k inside attention",
    "pos_alibi": "ALiBi", "pos_alibi_detail": "distance bias inside attention", "pos_relative": "T5 relative positions",
    "pos_relative_detail": "learned bias inside attention", "pos_none": "No positions",
    "pos_none_detail": "nothing tells the model the order",
    "layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "dyt": "DyT (tanh)",
    "norm_pre": "pre-norm: inside the branch", "norm_post": "post-norm: after the addition",
    "norm_embed": "after the embeddings", "norm_final": "final norm",
    "attn": "Self-attention", "attn_causal": "Masked self-attention", "cross": "Cross-attention",
    "heads": "{h} heads · {kv} K/V heads · d_head {dh}", "weights": "weights", "kv_group": "K/V {g}",
    "ffn": "Feed-forward", "ffn_gated": "gate ⊙ up", "hidden": "hidden",
    "head": "Unembedding", "head_tied": "tied to the embedding", "logits": "logits",
    "output": "Next token", "output_detail": "top prediction per position",
    "hidden_out": "Hidden states", "hidden_detail": "no language-model head",
    "blocks": "× {n} blocks", "layer_shown": "numbers: layer {l}", "layer": "layer",
    "entropy_layer": "entropy / layer", "norm_layer": "‖x‖ / layer", "from_encoder": "K, V from the encoder",
    "encoder": "Encoder", "decoder": "Decoder", "entropy": "entropy", "norm": "‖x‖",
    "click": "click to open", "step": "stop", "play": "Play", "pause": "Pause",
}
ACTIVATIONS = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)", "swiglu": "SwiGLU"}


@dataclass
class Box:
    """Where one part is drawn: its index (the click id), its column and rectangle."""

    index: int
    part: Any
    cx: float
    y0: float
    y1: float

    @property
    def yc(self) -> float:
        return (self.y0 + self.y1) / 2


def section_rows(*maps: Any) -> dict[str, float]:
    """Height of each section, the largest over every stack of every map given: draw
    maps with the same ``rows`` and their sections line up."""
    rows = {s: 0.0 for s in SECTIONS}
    for m in maps:
        for stack in m.stacks:
            for sec in SECTIONS:
                room = [GAP + HEIGHT[_kind(p)] if _in_flow(p) else NOTE for p in stack.parts if p.section == sec]
                rows[sec] = max(rows[sec], sum(room))
    rows["output"] += GAP * 0.5
    return rows


def _kind(part: Any) -> str:
    return "embed" if part.kind == "embed" else part.kind


def _in_flow(part: Any) -> bool:
    """Drawn in the column (not a note beside it: positions that live inside attention)."""
    return not (part.kind == "pos" and not part.info.get("added", True))


def layout(m: Any, rows: Mapping[str, float] | None = None) -> tuple[list[Box], dict[str, float], float]:
    """(boxes, section tops, total height) of a map; ``rows`` from `section_rows`."""
    rows = dict(rows or section_rows(m))
    tops, y = {}, 0.0
    for sec in SECTIONS:
        tops[sec] = y
        y += rows[sec]
    boxes, index = [], 0
    for col, stack in enumerate(m.stacks):
        cx = SKIP + BOX_W / 2 + 0.4 + col * COLUMN_W
        for sec in SECTIONS:
            yy = tops[sec]
            for p in (q for q in stack.parts if q.section == sec):
                if not _in_flow(p):                    # a note to the right, in a row of its own
                    boxes.append(Box(index, p, cx + BOX_W / 2 + 2.4, yy + 0.12, yy + 0.92))
                    yy += NOTE
                else:
                    yy += GAP
                    boxes.append(Box(index, p, cx, yy, yy + HEIGHT[_kind(p)]))
                    yy += HEIGHT[_kind(p)]
                index += 1
    return boxes, tops, y + 0.3


def _dims(shape: Sequence[int]) -> str:
    return "[" + " × ".join(str(int(s)) for s in shape) + "]"


def _texts(p: Any, m: Any, words: Mapping[str, str], n_layers: int) -> tuple[str, str]:
    """(title, detail) of a part, in the figure's words."""
    i, d = p.info, m.d_model
    if p.kind == "tokens":
        return words["tokens"], words["tokens_detail"].format(n=p.shape[0])
    if p.id == "embed":
        return words["embed"], words["embed_detail"].format(vocab=i["vocab"], d=d)
    if p.id == "type":
        return words["type"], words["type_detail"].format(types=i["types"])
    if p.kind == "pos":
        key = f"pos_{i['positional']}"
        return words[key], words["pos_detail"].format(max_len=i["max_len"]) if i.get("added") else words[key + "_detail"]
    if p.kind == "norm":
        where = {"ln_embed": "norm_embed", "ln_final": "norm_final"}.get(p.id, f"norm_{i['position']}")
        return words[i["norm"]], words[where]
    if p.kind == "attn":
        title = words["cross"] if p.id == "cross" else words["attn_causal" if i["mask"] == "causal" else "attn"]
        if p.id != "cross" and i["mask"] not in ("full", "causal"):
            title += f" ({html.escape(i['mask'])})"
        return title, words["heads"].format(h=i["heads"], kv=i["kv_heads"], dh=i["d_head"])
    if p.kind == "ffn":
        act = ACTIVATIONS.get(i["activation"], html.escape(i["activation"]))
        gate = f" · {words['ffn_gated']}" if i["gated"] else ""
        return f"{words['ffn']} · {act}", f"{d} → {i['d_ff']} → {d}{gate}"
    if p.id == "head":
        tied = f" · {words['head_tied']}" if i["tied"] else ""
        return words["head"], f"{d} → {i['vocab']} {words['logits']}{tied}"
    if p.id == "output":
        return words["output"], words["output_detail"]
    return words["hidden_out"], words["hidden_detail"]


def _measured(p: Any, data: Any, layer: int) -> str:
    """The number one pass measured at a part (mean over tokens), or ''."""
    if data is None or p.kind in ("tokens",) or (p.kind == "pos" and not p.info.get("added")):
        return ""
    try:
        sd = data.stacks[p.stack]
        if p.kind == "attn":
            e = sd.attention_entropy(cross=p.id == "cross")
            return f"H {e[layer]:.2f}" if len(e) else ""
        if p.id in ("output", "hidden"):
            return ""
        return f"‖x‖ {sd.value(p.id, layer if p.in_block else -1):.3g}"
    except (KeyError, ValueError, IndexError):
        return ""


def _hover(title: str, detail: str, shape: str, value: str, words: Mapping[str, str]) -> str:
    lines = [f"<b>{title}</b>", detail, shape, value, f"<i>{words['click']}</i>"]
    return template_text("<br>".join(x for x in lines if x))


def model_map(
    m: Any,
    data: Any = None,
    *,
    layer: int = 0,
    highlight: Sequence[str] = (),
    rows: Mapping[str, float] | None = None,
    follow: Mapping[str, Any] | None = None,
    title: str = "",
    terms: Mapping[str, str] | None = None,
) -> go.Figure:
    """The map of ``m`` (see the module docstring); ``data``: one pass's numbers (None:
    the structure alone); ``layer``: the block layer whose numbers the boxes show;
    ``highlight``: part ids drawn as "differs" (``"block"``: the number of blocks);
    ``rows``: shared section heights (`section_rows`) to line two maps up; ``follow``:
    a token to step through the map (see `follow_token`)."""
    if not 0 <= layer < max(m.n_layers, 1):
        raise ValueError(f"model_map: layer {layer} does not exist (the model has {m.n_layers}).")
    words = merge_terms(terms, MAP_TERMS)
    boxes, tops, height = layout(m, rows)
    width = len(m.stacks) * COLUMN_W + 0.2
    hl = set(highlight)
    shapes, notes, clicks = [], [], {"x": [], "y": [], "customdata": [], "hovertext": []}

    def text(x: float, y: float, s: str, size: int = FONT, color: str = INK, anchor: str = "center", **kw) -> None:
        notes.append(dict(x=x, y=y, text=s, showarrow=False, xanchor=anchor, yanchor="middle",
                          font=dict(size=size, color=color), **kw))

    def arrow(x0: float, y0: float, x1: float, y1: float, color: str = "#444444", dash: bool = False) -> None:
        notes.append(dict(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="",
                          showarrow=True, arrowhead=2, arrowsize=1.2, arrowwidth=1.8 if not dash else 1.4,
                          arrowcolor=color, standoff=0, startstandoff=0))

    def click(x: float, y: float, data_: list[int], hover: str) -> None:
        clicks["x"].append(x)
        clicks["y"].append(y)
        clicks["customdata"].append(data_)
        clicks["hovertext"].append(hover)

    # the N blocks: one frame per stack around its block sections
    for stack in m.stacks:
        cx = next(b.cx for b in boxes if b.part.stack == stack.stack)
        y0, y1 = tops["attn"] + GAP * 0.12, tops["output"] + GAP * 0.2
        diff = "block" in hl
        shapes.append(dict(type="rect", x0=cx - BOX_W / 2 - SKIP - 0.35, x1=cx + BOX_W / 2 + 5.1, y0=y0, y1=y1,
                           line=dict(color=DIFF if diff else "#555555", width=4 if diff else 1.5, dash="dash"),
                           fillcolor="rgba(0,0,0,0.025)", layer="below"))
        text(cx + BOX_W / 2 + 5.0, y0 + 0.35, f"<b>{words['blocks'].format(n=m.n_layers)}</b>", FONT + 3,
             DIFF if diff else INK, "right")
        if data is not None and m.n_layers > 1 and follow is None:
            text(cx + BOX_W / 2 + 5.0, y1 - 0.3, words["layer_shown"].format(l=layer), FONT - 3, VALUE_INK, "right")
        if len(m.stacks) > 1:
            text(cx, 0.35, f"<b>{words[stack.stack]}</b>", FONT + 3)

    by_stack: dict[str, list[Box]] = {}
    for b in boxes:
        by_stack.setdefault(b.part.stack, []).append(b)
    for stack_name, col in by_stack.items():
        flow = [b for b in col if _in_flow(b.part)]
        for prev, nxt in zip(flow, flow[1:]):          # arrows with the shape that flows along them
            arrow(prev.cx, prev.y1, nxt.cx, nxt.y0)
            text(prev.cx + 0.18, (prev.y1 + nxt.y0) / 2, _dims(prev.part.shape), FONT - 2, SHAPE_INK, "left")
        for sec in ("attn", "cross", "ffn"):           # the residual stream around each sub-layer
            sub = [b for b in flow if b.part.section == sec]
            add = next((b for b in sub if b.part.kind == "add"), None)
            if add is None:
                continue
            xs, yb = add.cx - BOX_W / 2 - SKIP * 0.6, sub[0].y0 - GAP * 0.35
            shapes.append(dict(type="path", path=f"M {add.cx},{yb} L {xs},{yb} L {xs},{add.yc}",
                               line=dict(color="#444444", width=1.8)))
            arrow(xs, add.yc, add.cx - 0.28, add.yc)
    for b in boxes:
        p, kind = b.part, _kind(b.part)
        diff = p.id in hl
        t, detail = _texts(p, m, words, m.n_layers)
        shape = _dims(p.shape)
        value = "" if follow is not None else _measured(p, data, layer)
        layer_id = layer if p.in_block else -1
        hover = _hover(t, detail, shape, value, words)
        if kind == "add":
            notes.append(dict(x=b.cx, y=b.yc, text="<b>+</b>", showarrow=False, font=dict(size=FONT + 3, color=INK)))
            shapes.append(dict(type="circle", x0=b.cx - 0.28, x1=b.cx + 0.28, y0=b.y0, y1=b.y1, fillcolor="#ffffff",
                               line=dict(color=INK, width=2)))
            click(b.cx, b.yc, [b.index, layer_id, -1], hover)
            if value:
                text(b.cx + 0.45, b.yc, value, FONT - 3, VALUE_INK, "left")
            continue
        w = BOX_W if _in_flow(p) else NOTE_W
        x0, x1 = b.cx - w / 2, b.cx + w / 2
        shapes.append(dict(type="rect", x0=x0, x1=x1, y0=b.y0, y1=b.y1, fillcolor=FILL[kind], layer="below",
                           line=dict(color=DIFF if diff else EDGE[kind], width=4 if diff else 2,
                                     dash=None if _in_flow(p) else "dot")))
        small = kind == "norm"
        low = b.y1 - b.y0 < 0.9                           # a one-row box: two tight lines
        text(b.cx, b.y0 + (0.27 if low else 0.32), f"<b>{t}</b>" if not small else t,
             FONT - (1 if small else 0), DIFF if diff else INK)
        if detail:
            text(b.cx, b.y0 + (0.58 if low else 0.72), detail, FONT - 3, SHAPE_INK)
        if value and _in_flow(p):
            text(x1 + 0.15, b.yc, value, FONT - 3, VALUE_INK, "left")
        if kind == "attn":
            text(b.cx, b.y1 - 0.25, f"{words['weights']} {_dims(p.info['pattern'])}", FONT - 3, SHAPE_INK)
        if kind == "ffn":
            text(b.cx, b.y1 - 0.3, f"{words['hidden']} {_dims(p.info['hidden'])}", FONT - 3, SHAPE_INK)
        for k in range(int(round(w / 0.6))):           # invisible click points across the box
            click(x0 + 0.3 + 0.6 * k, b.yc, [b.index, layer_id, -1], hover)
    traces = [dict(type="scatter", x=clicks["x"], y=clicks["y"], mode="markers", name=CLICK_TRACE,
                   customdata=clicks["customdata"], hovertext=clicks["hovertext"],
                   hovertemplate="%{hovertext}<extra></extra>",
                   marker=dict(size=30, symbol="square", color="rgba(0,0,0,0)"),
                   selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0)),
                   showlegend=False)]
    traces += _heads(boxes, data, layer, words)
    if follow is None:
        traces += _sparklines(boxes, data, layer, words, m.n_layers)
    _encoder_arrow(m, boxes, words, arrow, text, shapes)
    for b in boxes:                                   # positions inside attention: a link into it
        if not _in_flow(b.part) and b.part.info.get("positional") != "none":
            attn = next(x for x in boxes if x.part.stack == b.part.stack and x.part.id == "attn")
            xc, ya = attn.cx + BOX_W / 2 + 1.75, attn.y0 + 0.3
            shapes.append(dict(type="path", path=f"M {xc},{b.y1} L {xc},{ya}", line=dict(color=EDGE["pos"],
                                                                                         width=1.6, dash="dot")))
            arrow(xc, ya, attn.cx + BOX_W / 2, ya, EDGE["pos"], dash=True)
    fig = go.Figure([go.Scatter(**tr) if isinstance(tr, dict) else tr for tr in traces])
    fig.update_layout(
        shapes=shapes, annotations=notes, height=int(height * UNIT_PX) + 20, showlegend=False,
        margin=dict(l=4, r=4, t=40 if title else 8, b=4), hovermode="closest", dragmode=False,
        plot_bgcolor="#ffffff", paper_bgcolor="#ffffff", font=dict(color=INK, size=FONT),
        xaxis=dict(range=[0, width], visible=False, fixedrange=True, constrain="domain"),
        yaxis=dict(range=[height, 0], visible=False, fixedrange=True, scaleanchor="x", scaleratio=1),
        meta=dict(parts=len(boxes), height=height),
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title), font=dict(size=FONT + 3)))
    if follow is not None:
        follow_token(fig, boxes, follow, words)
    return fig


def _heads(boxes: list[Box], data: Any, layer: int, words: Mapping[str, str]) -> list[dict]:
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


def _sparklines(boxes: list[Box], data: Any, layer: int, words: Mapping[str, str], n_layers: int) -> list[dict]:
    """Per layer: the attention entropy beside each attention box and the stream's norm
    beside the FFN; each point opens that layer."""
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
        hover = [template_text(f"{words['layer']} {i}: {label.split(' /')[0]} {v:.3g}") for i, v in enumerate(values)]
        out.append(dict(type="scatter", x=xs, y=ys, mode="lines+markers", name="spark",
                        customdata=[[target, i, -1] for i in range(len(values))], hovertext=hover,
                        hovertemplate="%{hovertext}<extra></extra>", line=dict(color=VALUE_INK, width=2),
                        marker=dict(size=[13 if i == layer else 8 for i in range(len(values))], color=VALUE_INK,
                                    line=dict(color="#ffffff", width=1)),
                        unselected=dict(marker=dict(opacity=1)), showlegend=False))
        out.append(dict(type="scatter", x=[(x0 + x1) / 2], y=[b.y0 + 0.18], mode="text", text=[label],
                        textfont=dict(size=FONT - 3, color=VALUE_INK), hoverinfo="skip", showlegend=False))
    return out


def _encoder_arrow(m: Any, boxes: list[Box], words: Mapping[str, str], arrow, text, shapes: list) -> None:
    """Encoder-decoder: the encoder's output becomes the keys and values of every
    decoder cross-attention."""
    enc = [b for b in boxes if b.part.stack == "encoder" and _in_flow(b.part)]
    cross = next((b for b in boxes if b.part.id == "cross"), None)
    if not enc or cross is None:
        return
    last = enc[-1]
    y_out = last.y1 + GAP * 0.6
    x_chan = cross.cx - BOX_W / 2 - SKIP - 0.7
    shapes.append(dict(type="path", path=f"M {last.cx},{last.y1} L {last.cx},{y_out} L {x_chan},{y_out} "
                                          f"L {x_chan},{cross.yc}", line=dict(color="#17457d", width=3)))
    arrow(x_chan, cross.yc, cross.cx - BOX_W / 2, cross.yc, "#17457d")
    text((last.cx + x_chan) / 2, y_out + 0.3, f"{words['from_encoder']} {_dims(last.part.shape)}", FONT - 2,
         "#17457d")


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
        half = 0.36 if b.part.kind == "add" else (BOX_W if _in_flow(b.part) else NOTE_W) / 2 + 0.12
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
    fig.update_layout(margin=dict(b=120), height=fig.layout.height + 110)
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

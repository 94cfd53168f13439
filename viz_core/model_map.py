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
a post-norm after the ⊕ (on the stream); the sandwich (Gemma 2/3) and output (OLMo 2)
placements draw a norm on the sub-layer's output, between it and the ⊕. What differs between
layers (sliding-window layers, NoPE layers), the q/k norm, soft-caps and scales are lines of
notes under the attention box; multipliers sit on the embedding and at each ⊕. An
encoder-decoder has two columns and the encoder's output arrow into the decoder's
cross-attention. Sections (input, attention,
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
from typing import Any

import plotly.graph_objects as go

from .figure import CLICK_TRACE, merge_terms, template_text, text_scale
from .map_layout import (BOX_W, COLUMN_W, DIFF, EDGE, FILL, FONT, GAP, HEIGHT, INK, NOTE_LINE, NOTE_W, SHAPE_INK,
                         SKIP, UNIT_PX, MAP_TERMS, VALUE_INK, Box, attn_notes, dims, in_flow, layout, scale_fonts,
                         section_rows)
from .map_overlays import follow_token, head_squares, norm_path, sparklines

__all__ = ["MAP_TERMS", "UNIT_PX", "COLUMN_W", "model_map", "section_rows", "follow_token", "norm_path", "layout",
           "unit_for"]

ACTIVATIONS = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)", "silu": "SiLU", "swiglu": "SwiGLU",
               "geglu": "GeGLU", "geglu_exact": "GeGLU (erf)"}
MAX_LISTED = 4               # layers named one by one up to this many (else "k of n layers")


def number(x: float) -> str:
    """A setting's number as the map writes it: 4,096; 1,000,000; 0.0625; 50."""
    x = float(x)
    return f"{int(x):,}" if x.is_integer() and abs(x) < 1e15 else f"{x:.4g}"


def layer_list(layers: Sequence[int], sep: str = ", ") -> str:
    """'0, 2, 4' or '0–3, 7' (runs of consecutive layers joined; `sep` between numbers)."""
    runs: list[list[int]] = []
    for i in sorted(layers):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return sep.join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" if len(r) > 2 else f"{r[0]}{sep}{r[1]}"
                    for r in runs)


def _note_texts(p: Any, words: Mapping[str, str]) -> list[str]:
    """The lines under an attention box, one per `attn_notes` kind, in the figure's words."""
    i, out = p.info, []
    for note in attn_notes(p):
        if note in ("local", "nope"):
            layers = i["local_layers" if note == "local" else "nope_layers"]
            listed = len(layers) <= MAX_LISTED
            key = ("attn_local" if note == "local" else "attn_nope") + ("_list" if listed else "")
            out.append(words[key].format(w=number(i.get("local_window", 0)), k=len(layers), n=i.get("n_layers", "?"),
                                         layers=layer_list(layers, words["num_sep"])))
        elif note == "base":
            out.append(words["attn_local_base"].format(local=number(i["rope_local_base"]),
                                                       base=number(i["rope_base"])))
        elif note == "qk":
            out.append(words[f"qk_norm_{i['qk_norm']}"])
        else:
            bits = [words["softcap"].format(c=number(i["softcap"]))] if i.get("softcap") is not None else []
            bits += [f"q·k × {number(i['scale'])}"] if i.get("scale") is not None else []
            out.append(" · ".join(bits))
    return out


def _texts(p: Any, m: Any, words: Mapping[str, str]) -> tuple[str, str]:
    """(title, detail) of a part, in the figure's words."""
    i, d = p.info, m.d_model
    if p.kind == "tokens":
        return words["tokens"], words["tokens_detail"].format(n=p.shape[0])
    if p.id == "embed":
        times = (" · × √d" if i.get("sqrt_d") else "") + \
            (f" · × {number(i['multiplier'])}" if i.get("multiplier", 1.0) != 1.0 else "")     # Gemma; Granite
        return words["embed"], words["embed_detail"].format(vocab=i["vocab"], d=p.shape[-1]) + times
    if p.id == "embed_proj":                                              # ELECTRA
        return words["embed_proj"], words["embed_proj_detail"].format(e=i["d_embed"], d=i["d_model"])
    if p.id == "type":
        return words["type"], words["type_detail"].format(types=i["types"])
    if p.kind == "pos":
        key = f"pos_{i['positional']}"
        detail = words["pos_detail"].format(max_len=i["max_len"]) if i.get("added") else words[key + "_detail"]
        if i.get("added") and i.get("layout") == "halves":
            detail += f" · {words['pos_halves']}"
        if i.get("added") and i.get("offset"):
            detail += f" · {words['pos_offset'].format(k=i['offset'])}"
        return words[key], detail
    if p.kind == "norm":
        where = {"ln_embed": "norm_embed", "ln_final": "norm_final"}.get(p.id, f"norm_{i['position']}")
        where = "norm_out" if i.get("out") else where                     # sandwich, OLMo 2: on the output
        where = "norm_parallel" if i.get("parallel") else where          # GPT-NeoX: ln2 reads the block input
        where = "norm_shared" if i.get("shared") else where              # Phi-2: one norm for both branches
        title = words[i["norm"]] + (f" {words['norm_plus_one']}" if i.get("plus_one") else "")   # Gemma
        title += f" · {words['norm_no_bias']}" if not i.get("bias", True) else ""               # ModernBERT
        detail = words["norm_absent"] if i.get("absent") else words[where]   # ModernBERT: dotted in block 0
        return title, detail
    if p.kind == "attn":
        title = words["cross"] if p.id == "cross" else words["attn_causal" if i["mask"] == "causal" else "attn"]
        if p.id != "cross" and i["mask"] not in ("full", "causal"):
            title += f" ({html.escape(i['mask'])})"
        return title, words["heads"].format(h=i["heads"], kv=i["kv_heads"], dh=i["d_head"])
    if p.kind == "ffn":
        act = ACTIVATIONS.get(i["activation"], html.escape(i["activation"]))
        gate = f" · {words['ffn_gated']}" if i["gated"] else ""
        gate += f" · {words['ffn_parallel']}" if i.get("parallel") else ""   # GPT-NeoX: beside attention
        return f"{words['ffn']} · {act}", f"{d} → {i['d_ff']} → {d}{gate}"
    if p.id == "head":
        tied = f" · {words['head_tied']}" if i["tied"] else ""
        tied += (f" · {words['head_scaled']}" if i.get("scaled") else "") + \
            (f" · {words['head_bias']}" if i.get("bias") else "")
        tied += f" · ÷ {number(i['divisor'])}" if i.get("divisor", 1.0) != 1.0 else ""           # Granite
        tied += f" · {words['softcap'].format(c=number(i['softcap']))}" if i.get("softcap") is not None else ""
        return words["head"], f"{d} → {i['vocab']} {words['logits']}{tied}"
    if p.id == "output":
        return words["output"], words["output_detail"]
    return words["hidden_out"], words["hidden_detail"]


def _attn_extras(p: Any, words: Mapping[str, str]) -> str:
    """What else an attention box says, drawn beside its weights' shape: unscaled scores
    (T5), a sliding window (Mistral, |q − k| ≤ w) and biases on Q, K, V only (Qwen2)."""
    i, extras = p.info, []
    if not i.get("scaled", True):
        extras.append(words["unscaled"])
    if i.get("window") is not None:
        extras.append(words["attn_window"].format(w=i["window"]))
    if i.get("qkv_bias"):
        extras.append(words["qkv_bias"])
    return "".join(f" · {x}" for x in extras)


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
    unit_px: float = UNIT_PX,
) -> go.Figure:
    """The map of ``m`` (see the module docstring); ``data``: one pass's numbers (None:
    the structure alone); ``layer``: the block layer whose numbers the boxes show;
    ``highlight``: part ids drawn as "differs" (``"block"``: the number of blocks);
    ``rows``: shared section heights (`section_rows`) to line two maps up; ``follow``:
    a token to step through the map (see `follow_token`); ``unit_px``: the size of one
    drawing unit in px (fonts follow; smaller for two maps side by side)."""
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
        flow = [b for b in col if in_flow(b.part)]
        parallel = any(b.part.id == "ffn" and b.part.info.get("parallel") for b in flow)
        for prev, nxt in zip(flow, flow[1:]):          # arrows with the shape that flows along them
            if parallel and nxt.part.section == "ffn" and prev.part.section == "attn":   # only on to the next ⊕
                shapes.append(dict(type="path", path=f"M {prev.cx},{prev.y1} L {prev.cx},{nxt.y0 - GAP * 0.35}",
                                   line=dict(color="#444444", width=1.8)))
            else:
                arrow(prev.cx, prev.y1, nxt.cx, nxt.y0)
            text(prev.cx + 0.18, (prev.y1 + nxt.y0) / 2, dims(prev.part.shape), FONT - 2, SHAPE_INK, "left")
        if parallel:   # parallel residual (GPT-NeoX): ln2 and the MLP read the block's input, beside attention
            first = next(b for b in flow if b.part.section == "attn")
            ln2 = next((b for b in flow if b.part.id == "ln2"), None)
            if ln2 is not None:
                xp, yb = ln2.cx - BOX_W / 2 - SKIP * 0.85, first.y0 - GAP * 0.35
                shapes.append(dict(type="path", path=f"M {ln2.cx},{yb} L {xp},{yb} L {xp},{ln2.yc}",
                                   line=dict(color=EDGE["ffn"], width=1.8, dash="dash")))
                arrow(xp, ln2.yc, ln2.cx - BOX_W / 2, ln2.yc, EDGE["ffn"], dash=True)
            else:      # one norm for both branches (Phi-2): the FFN reads ln1's output
                ln1, ffn = first, next(b for b in flow if b.part.id == "ffn")
                xp = ln1.cx - BOX_W / 2 - SKIP * 0.85
                shapes.append(dict(type="path", path=f"M {ln1.cx - BOX_W / 2},{ln1.yc} L {xp},{ln1.yc} L {xp},{ffn.yc}",
                                   line=dict(color=EDGE["ffn"], width=1.8, dash="dash")))
                arrow(xp, ffn.yc, ffn.cx - BOX_W / 2, ffn.yc, EDGE["ffn"], dash=True)
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
        p, kind = b.part, b.part.kind
        diff = p.id in hl
        t, detail = _texts(p, m, words)
        shape = dims(p.shape)
        value = "" if follow is not None else _measured(p, data, layer)
        layer_id = layer if p.in_block else -1
        lines = _note_texts(p, words) if kind == "attn" else []
        hover = _hover(t, "<br>".join([detail + (_attn_extras(p, words) if kind == "attn" else "")] + lines), shape,
                       value, words)
        if kind == "add":
            notes.append(dict(x=b.cx, y=b.yc, text="<b>+</b>", showarrow=False, font=dict(size=FONT + 3, color=INK)))
            shapes.append(dict(type="circle", x0=b.cx - 0.28, x1=b.cx + 0.28, y0=b.y0, y1=b.y1, fillcolor="#ffffff",
                               line=dict(color=INK, width=2)))
            click(b.cx, b.yc, [b.index, layer_id, -1], hover)
            if value:
                text(b.cx + 0.45, b.yc, value, FONT - 3, VALUE_INK, "left")
            if p.info.get("multiplier", 1.0) != 1.0:     # Granite: the branch (the arrow from above) × m
                text(b.cx - 0.12, b.y0 - 0.22, f"× {number(p.info['multiplier'])}", FONT - 3, DIFF if diff else INK,
                     "right")
            continue
        w = BOX_W if in_flow(p) else NOTE_W
        x0, x1 = b.cx - w / 2, b.cx + w / 2
        gone = layer in p.info.get("absent", ()) and follow is None      # ModernBERT: no ln1 in block 0 (shown)
        shapes.append(dict(type="rect", x0=x0, x1=x1, y0=b.y0, y1=b.y1,
                           fillcolor="#f4f4f4" if gone else FILL[kind], layer="below",
                           line=dict(color=DIFF if diff else EDGE[kind], width=4 if diff else 2,
                                     **({} if in_flow(p) and not gone else {"dash": "dot"}))))
        small = kind == "norm"
        low = b.y1 - b.y0 < 1.0                           # a one-row box: two tight lines
        text(b.cx, b.y0 + (0.29 if low else 0.32), f"<b>{t}</b>" if not small else t,
             FONT - (1 if small else 0), DIFF if diff else INK)
        if detail:
            text(b.cx, b.y0 + (0.66 if low else 0.72), detail, FONT - 3, SHAPE_INK)
        if value and in_flow(p):
            text(x1 + 0.15, b.yc, value, FONT - 3, VALUE_INK, "left")
        if kind == "attn":
            y_w = b.y0 + HEIGHT["attn"] - 0.25
            text(b.cx, y_w, f"{words['weights']} {dims(p.info['pattern'])}{_attn_extras(p, words)}", FONT - 3,
                 SHAPE_INK)
            for k, line in enumerate(lines):              # sliding window, NoPE, q/k norm, soft-cap, scale
                text(b.cx, y_w + NOTE_LINE * (k + 1), line, FONT - 3, DIFF if diff else EDGE["attn"])
        if kind == "ffn":
            text(b.cx, b.y1 - 0.3, f"{words['hidden']} {dims(p.info['hidden'])}", FONT - 3, SHAPE_INK)
        for k in range(int(round(w / 0.6))):           # invisible click points across the box
            click(x0 + 0.3 + 0.6 * k, b.yc, [b.index, layer_id, -1], hover)
    traces = [dict(type="scatter", x=clicks["x"], y=clicks["y"], mode="markers", name=CLICK_TRACE,
                   customdata=clicks["customdata"], hovertext=clicks["hovertext"],
                   hovertemplate="%{hovertext}<extra></extra>",
                   marker=dict(size=30, symbol="square", color="rgba(0,0,0,0)"),
                   selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0)),
                   showlegend=False)]
    traces += head_squares(boxes, data, layer, words)
    if follow is None:
        traces += sparklines(boxes, data, layer, words, m.n_layers)
    _encoder_arrow(m, boxes, words, arrow, text, shapes)
    for b in boxes:                                   # positions inside attention: a link into it
        if not in_flow(b.part) and b.part.info.get("positional") != "none":
            attn = next(x for x in boxes if x.part.stack == b.part.stack and x.part.id == "attn")
            xc, ya = attn.cx + BOX_W / 2 + 1.75, attn.y0 + 0.3
            shapes.append(dict(type="path", path=f"M {xc},{b.y1} L {xc},{ya}", line=dict(color=EDGE["pos"],
                                                                                         width=1.6, dash="dot")))
            arrow(xc, ya, attn.cx + BOX_W / 2, ya, EDGE["pos"], dash=True)
    # Built without plotly's per-property validation (`_validate=False`): the overview draws
    # this map for every new text, and validating its ~60 annotations and 15 shapes took
    # 57 ms of the 16 ms it takes now (MiniLM), while 30 students share the server. The
    # unit tests validate every map they build (tests/unit/test_model_map.py).
    fig = go.Figure(data=[tr.to_plotly_json() if isinstance(tr, go.Scatter) else tr for tr in traces],
                    _validate=False)
    fig.update_layout(
        shapes=shapes, annotations=notes, height=int(height * unit_px) + 20, showlegend=False,
        margin=dict(l=4, r=4, t=40 if title else 8, b=4), hovermode="closest", dragmode=False,
        plot_bgcolor="#ffffff", paper_bgcolor="#ffffff", font=dict(color=INK, size=FONT),
        xaxis=dict(range=[0, width], visible=False, fixedrange=True, constrain="domain"),
        yaxis=dict(range=[height, 0], visible=False, fixedrange=True, scaleanchor="x", scaleratio=1),
        meta=dict(boxes=[[b.part.stack, b.part.id, round(b.y0, 3), round(b.y1, 3)] for b in boxes],
                  n_layers=m.n_layers),            # what was drawn where (tests and browser checks)
    )
    if title:
        fig.update_layout(title=dict(text=html.escape(title), font=dict(size=FONT + 3)))
    if follow is not None:
        follow_token(fig, boxes, follow, words)
    scale_fonts(fig, unit_px / UNIT_PX)
    return fig


def _encoder_arrow(m: Any, boxes: list[Box], words: Mapping[str, str], arrow, text, shapes: list) -> None:
    """Encoder-decoder: the encoder's output becomes the keys and values of every
    decoder cross-attention."""
    enc = [b for b in boxes if b.part.stack == "encoder" and in_flow(b.part)]
    cross = next((b for b in boxes if b.part.id == "cross"), None)
    if not enc or cross is None:
        return
    last = enc[-1]
    y_out = last.y1 + GAP * 0.6
    x_chan = cross.cx - BOX_W / 2 - SKIP - 0.7
    shapes.append(dict(type="path", path=f"M {last.cx},{last.y1} L {last.cx},{y_out} L {x_chan},{y_out} "
                                          f"L {x_chan},{cross.yc}", line=dict(color="#17457d", width=3)))
    arrow(x_chan, cross.yc, cross.cx - BOX_W / 2, cross.yc, "#17457d")
    text((last.cx + x_chan) / 2, y_out + 0.3, f"{words['from_encoder']} {dims(last.part.shape)}", FONT - 2,
         "#17457d")


def unit_for(room_px: float, *maps: Any) -> float:
    """The unit size (px) at which ``maps`` side by side fit ``room_px`` of width (at most
    UNIT_PX, times the text scale on a projector: a wide screen leaves room around the
    map instead of enlarging it)."""
    columns = sum(len(m.stacks) for m in maps)
    return min(UNIT_PX * text_scale(), room_px / (columns * COLUMN_W + 0.2 * len(maps)))

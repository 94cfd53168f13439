"""Where the model map's parts go (viz_core/model_map.py draws them; map_overlays.py
adds the pass's data): sizes in drawing units, colours, and the layout of one or more
stack columns whose sections line up (`section_rows`). Duck-typed input: see
viz_core/model_map.py."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

UNIT_PX = 44                 # one unit of the drawing, in px (the axes keep x and y at the same scale)
BOX_W = 5.4                  # width of a part's box
HEIGHT = {"tokens": 0.9, "embed": 1.0, "pos": 1.0, "norm": 0.9, "attn": 2.2, "ffn": 1.5, "add": 0.55,
          "head": 1.0, "output": 0.9}           # one-row boxes (< 1) fit two lines of CJK text
GAP = 0.8                    # vertical room for an arrow and its shape label
NOTE, NOTE_W = 1.25, 4.8    # room and width of a note beside the column (positions inside attention)
SKIP = 0.9                   # the skip line's distance left of a box
COLUMN_W = SKIP + BOX_W + 1.9 + 3.4 + 0.8      # skip, box, measured value, sparkline, margin
SECTIONS = ("input", "attn", "cross", "ffn", "output")
MAX_SQUARES = 24             # heads drawn as squares up to this many
NOTE_LINE = 0.36             # one more line of notes under an attention box (sliding window, NoPE, q/k norm, ...)
FILL = {"tokens": "#ece6f7", "embed": "#ece6f7", "pos": "#ece6f7", "norm": "#fff1bf", "attn": "#dbe9fb",
        "ffn": "#d9f2e1", "head": "#ececec", "output": "#ececec"}
EDGE = {"tokens": "#4b2f8f", "embed": "#4b2f8f", "pos": "#4b2f8f", "norm": "#7a5b00", "attn": "#17457d",
        "ffn": "#1b5e33", "head": "#333333", "output": "#333333"}
INK, SHAPE_INK, VALUE_INK = "#111111", "#333333", "#0b4f8a"
DIFF = "#d9480f"             # parts where two compared models differ
RING = "#e03131"             # the followed token's position
FONT = 15


MAP_TERMS: dict[str, str] = {
    "tokens": "Tokens", "tokens_detail": "{n} token ids", "embed": "Token embedding",
    "embed_detail": "{vocab} × {d} table",
    "type": "+ segment embedding", "type_detail": "{types} segments",
    "pos_learned": "+ learned positions", "pos_sinusoidal": "+ sinusoidal positions",
    "pos_detail": "table of {max_len} positions", "pos_rope": "RoPE",
    "pos_rope_detail": "rotates q, k inside attention",
    "pos_alibi": "ALiBi", "pos_alibi_detail": "distance bias inside attention", "pos_relative": "T5 relative positions",
    "pos_relative_detail": "learned bias inside attention", "pos_none": "No positions",
    "pos_none_detail": "nothing tells the model the order",
    "layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "dyt": "DyT (tanh)",
    "norm_pre": "pre-norm: inside the branch", "norm_post": "post-norm: after the addition",
    "norm_embed": "after the embeddings", "norm_final": "final norm",
    "attn": "Self-attention", "attn_causal": "Masked self-attention", "cross": "Cross-attention",
    "heads": "{h} heads · {kv} K/V heads · d_head {dh}", "weights": "weights", "kv_group": "K/V {g}",
    "ffn": "Feed-forward", "ffn_gated": "gate ⊙ up", "hidden": "hidden",
    "attn_window": "|q − k| ≤ {w}", "qkv_bias": "Q/K/V bias", "norm_plus_one": "× (1 + w)",
    "norm_parallel": "reads the block input (parallel)", "ffn_parallel": "parallel to attention",
    "head": "Unembedding", "head_tied": "tied to W_E", "logits": "logits",
    "output": "Next token", "output_detail": "top prediction per position",
    "hidden_out": "Hidden states", "hidden_detail": "no language-model head",
    "blocks": "× {n} blocks", "layer_shown": "numbers: layer {l}", "layer": "layer",
    "entropy_layer": "entropy / layer", "norm_layer": "‖x‖ / layer", "from_encoder": "K, V from the encoder",
    "encoder": "Encoder", "decoder": "Decoder", "entropy": "entropy", "norm": "‖x‖",
    "click": "click to open", "step": "stop", "play": "Play", "pause": "Pause",
    # seq2seq checkpoints (T5, Marian, BART)
    "pos_halves": "[sin|cos]", "pos_offset": "positions +{k}", "unscaled": "q·k unscaled",
    "head_scaled": "÷√d first", "head_bias": "+ bias",
    # the 2024-26 families (issue 32)
    "norm_sandwich": "sandwich: before the sub-layer", "norm_out": "on its output, before ⊕",
    "norm_absent": "none in block 0", "norm_shared": "read by attention and FFN", "norm_no_bias": "no bias",
    "embed_proj": "Projection", "embed_proj_detail": "{e} → {d}: embeddings → stream",
    "attn_local": "window {w}: {k} of {n} layers", "attn_local_list": "window {w}: layers {layers}",
    "attn_local_base": "θ {local} there, {base} elsewhere",
    "attn_nope": "no RoPE: {k} of {n} layers", "attn_nope_list": "no RoPE: layers {layers}",
    "qk_norm_head": "q/k norm per head", "qk_norm_full": "q/k norm over all heads", "softcap": "soft-cap {c}",
    "mark_local": "◆ window", "mark_nope": "○ no RoPE", "layer_local": "window", "layer_nope": "no RoPE",
    "num_sep": ", ",
}


def attn_notes(part: Any) -> list[str]:
    """The extra lines under an attention box, by kind (the same for every language, so two
    maps' rows line up): local (sliding-window layers), base (their RoPE base), nope (layers
    without RoPE), qk (q/k norm), scores (soft-cap, scale)."""
    i = part.info if part.kind == "attn" else {}
    notes = []
    if i.get("local_layers"):
        notes.append("local")
        if i.get("rope_local_base") is not None:
            notes.append("base")
    if i.get("nope_layers"):
        notes.append("nope")
    if i.get("qk_norm", "none") != "none":
        notes.append("qk")
    if i.get("softcap") is not None or i.get("scale") is not None:
        notes.append("scores")
    return notes


def height(part: Any) -> float:
    """The height of a part's box: its kind's, and a line per note under an attention box."""
    return HEIGHT[part.kind] + NOTE_LINE * len(attn_notes(part))


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
                room = [GAP + height(p) if in_flow(p) else NOTE for p in stack.parts if p.section == sec]
                rows[sec] = max(rows[sec], sum(room))
    rows["output"] += GAP * 0.5
    return rows


def in_flow(part: Any) -> bool:
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
                if not in_flow(p):                    # a note to the right, in a row of its own
                    boxes.append(Box(index, p, cx + BOX_W / 2 + 2.4, yy + 0.12, yy + 0.92))
                    yy += NOTE
                else:
                    yy += GAP
                    boxes.append(Box(index, p, cx, yy, yy + height(p)))
                    yy += height(p)
                index += 1
    return boxes, tops, y + 0.3


def dims(shape: Sequence[int]) -> str:
    return "[" + " × ".join(str(int(s)) for s in shape) + "]"


def scale_fonts(fig: Any, scale: float) -> None:
    """Every font and marker size of a map figure times ``scale`` (a map drawn at another
    unit size than UNIT_PX keeps its proportions)."""
    if abs(scale - 1.0) < 1e-6:
        return
    for note in fig.layout.annotations:
        if note.font.size:
            note.font.size = max(9, round(note.font.size * scale))
    for tr in fig.data:
        if getattr(tr, "textfont", None) is not None and tr.textfont.size:
            tr.textfont.size = max(9, round(tr.textfont.size * scale))
        marker = getattr(tr, "marker", None)
        if marker is not None and isinstance(marker.size, (int, float)):
            marker.size = max(6, round(marker.size * scale))

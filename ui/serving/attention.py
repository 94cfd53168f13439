"""What the attention page draws from its cached pass (ui/serving/cache.py `attention_data`),
built once per text, palette and language and cached:

- `model_view_figure`: all heads of one stack as one image (the warm-up builds it too,
  ui/warmup.py);
- `instant_payload`: every layer and head packed for the in-browser viewer (and its
  HTML export), and `instant_payload_json`, the same written as JSON once for every session.
"""
from __future__ import annotations

import json

import streamlit as st

import viz_core as vz
from viz_core import colors
from viz_core.attention_pack import pack_attention
from viz_core.figure import use_text_scale

from .cache import attention_data
from .run_key import RunKey
from .shared_results import shared_result


@st.cache_data(max_entries=16, show_spinner=False)
def model_view_figure(key: RunKey, stack: str, palette: str, scale: float,
                      tile: str):
    """All heads of one stack as one image (built once per text, palette and text scale:
    ~50 ms at 64 tokens, ~0.6 s at 512); the selected tile is outlined afterwards with
    viz_core.mark_tile. `tile`: a head's name in the hover, in the UI language (the warm-up
    builds the English one)."""
    with colors.use_palette(palette), use_text_scale(scale):
        return vz.model_view(attention_data(key).patterns[stack],
                             terms={"tile": tile})


@shared_result("instant_payload")
def instant_payload(key: RunKey, stack: str, palette: str,
                    labels: tuple[tuple[str, str], ...]) -> dict:
    """All layers and heads of one stack, packed once per text, palette and language
    (viz_core/attention_pack.py: uint8 per cell, one scale per head)."""
    data = attention_data(key)
    q_tok, k_tok = data.tokens_of(stack)
    with colors.use_palette(palette):
        return pack_attention(data.patterns[stack], [vz.visible_label(s) for s in q_tok],
                              [vz.visible_label(s) for s in k_tok], data.masks[stack], labels=dict(labels),
                              title=f"{key} · {len(q_tok)} tokens")


@shared_result("instant_payload_json")
def instant_payload_json(key: RunKey, stack: str, palette: str, labels: tuple[tuple[str, str], ...]) -> str:
    """`instant_payload` as JSON, written once per payload for every session: the viewer's
    data goes to the browser as JSON bytes (ui/widgets/attention_canvas.py), and given a dict
    Streamlit wrote it as JSON twice on every run, a tenth of an explorer's server CPU. Kept
    in the shared store, so its bytes count against the store's budget."""
    return json.dumps(instant_payload(key, stack, palette, labels))
